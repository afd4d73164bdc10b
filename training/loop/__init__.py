"""The project's one trainer: batched self-play PPO on the vector env.

:mod:`~training.loop.trainer` runs it (``singapore-1819 train``, backend
``"selfplay"``): the British and the Malay network learn at once, on
:mod:`~training.loop.rollout`'s games against each other, their past selves
(:mod:`~training.loop.league`) and league agents, collected in this process, on worker
processes or on Ray actors (:mod:`~training.loop.ray_collect`); with ``search_worlds``
the lookahead over the learners labels the main Action question
(:mod:`~training.loop.search`); with ``imitation_games`` a teacher's labels warm-start
the networks (:mod:`~training.loop.warm_start`); :mod:`~training.loop.evaluate` writes
the curve.
"""
