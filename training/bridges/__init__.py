"""The ecosystem's trainers as adapters of the same config vocabulary: Stable-Baselines3's
MaskablePPO through ``FactionEnv`` (:mod:`~training.bridges.sb3`) and RLlib's PPO
(:mod:`~training.bridges.rllib`, on :mod:`~training.bridges.rllib_env`); both write numpy
actors that ``learned:PATH`` plays (:mod:`~training.bridges.export`)."""
