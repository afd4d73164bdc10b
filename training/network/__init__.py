"""The trainer's torch networks (:mod:`~training.network.actor_critic`: the flat
network and the pointer network, whose heads are :mod:`~training.network.heads`), each
with one numpy export that :mod:`agents` plays, and the compact rows they read
(:mod:`~training.network.rows`)."""
