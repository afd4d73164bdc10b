"""Self-play training and evaluation for 1819 Singapore."""
