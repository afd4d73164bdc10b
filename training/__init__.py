"""Training for 1819 Singapore: the project's one trainer (:mod:`training.loop`, batched
self-play), its networks (:mod:`training.network`), its configuration
(:mod:`training.config`, ``training/configs/*.toml``), the SB3 and RLlib bridges
(:mod:`training.bridges`) and a run's ``progress.csv`` (:mod:`training.progress`)."""
