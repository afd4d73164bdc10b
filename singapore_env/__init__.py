"""1819 Singapore game engine and PettingZoo environment."""
