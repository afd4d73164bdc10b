"""The ecosystem's trainers as adapters of the same config vocabulary: Stable-Baselines3's
MaskablePPO through ``FactionEnv`` (:mod:`~training.bridges.sb3`) and RLlib's PPO
(:mod:`~training.bridges.rllib`, on :mod:`~training.bridges.rllib_env`); both bound a run
by ``total_decisions`` or ``--seconds`` and continue on their output folder
(:mod:`~training.bridges.run`), and write numpy actors that ``learned:PATH`` plays
(:mod:`~training.bridges.export`)."""
