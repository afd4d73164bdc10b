"""1819 Singapore game engine and PettingZoo environment.

``import singapore_env`` loads nothing heavy; ``singapore_env.env(**config)`` and
``singapore_env.raw_env(**config)`` (the PettingZoo AEC environment, :mod:`singapore_env.env`)
and ``singapore_env.FactionEnv`` (the single-agent Gymnasium wrapper,
:mod:`singapore_env.wrappers`) import PettingZoo/Gymnasium on first use.
(``singapore_env.env`` is the module :mod:`singapore_env.env`; calling it calls its
``env()`` factory, so both spellings work.)
"""

__all__ = ["env", "raw_env", "FactionEnv"]

_LAZY = {"env": "env", "raw_env": "env", "FactionEnv": "wrappers"}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'singapore_env' has no attribute {name!r}")
    import importlib
    mod = importlib.import_module(f"{__name__}.{module}")
    value = mod if name == "env" else getattr(mod, name)
    globals()[name] = value
    return value
