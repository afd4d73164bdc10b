"""1819 Singapore: the rules engine (:mod:`singapore_env.engine`) and the PettingZoo
environment built on it.

``import singapore_env`` loads nothing heavy; ``singapore_env.env(**config)`` and
``singapore_env.raw_env(**config)`` (the PettingZoo AEC environment, :mod:`singapore_env.env`)
import PettingZoo/Gymnasium on first use. (``singapore_env.env`` is the module
:mod:`singapore_env.env`; calling it calls its ``env()`` factory, so both spellings work.)
The single-agent Gymnasium view of one faction, which seats agents at the other places,
is :class:`arena.faction_env.FactionEnv` (a layer above the agents).
"""

__all__ = ["env", "raw_env"]

_LAZY = {"env": "env", "raw_env": "env"}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'singapore_env' has no attribute {name!r}")
    import importlib
    mod = importlib.import_module(f"{__name__}.{module}")
    value = mod if name == "env" else getattr(mod, name)
    globals()[name] = value
    return value
