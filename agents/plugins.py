"""Agents from outside the project: a Python file, an importable class, an installed plugin.

Three spellings reach an agent that is not registered in :mod:`agents.registry`::

    path/to/bot.py:MyBot          # a class (or factory function) in a file
    my_package.bots:MyBot         # a class in an importable module
    mybot                         # an installed plugin: entry point ``mybot`` of
                                  # the group ``singapore_1819.agents``

A plugin package declares its agents in its ``pyproject.toml``::

    [project.entry-points."singapore_1819.agents"]
    mybot = "my_package.bots:MyBot"

The target is called as ``target(seed=..., **params)`` (``seed`` only if it accepts
one) and must return an :class:`~agents.base.Agent` -- or any object that plays at
engine level (``choose(game, seat)``) or at env level, PettingZoo style
(``act(observation, mask) -> action index``); ``reset(seed)`` is optional. Such an
object is wrapped by :func:`agents.registry.as_agent`, so it plays everywhere an
Agent does (CLI, tournaments, ladder, balance lab). Its parameters are the keyword
parameters of its signature; a value written on the command line is converted to the
type of the parameter's default (a parameter without default takes an int, a float,
``true``/``false`` or else the text).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import sys
from importlib import metadata
from pathlib import Path
from typing import Callable

ENTRY_POINT_GROUP = "singapore_1819.agents"
#: This project's own distribution: its plugins (``openspiel-ismcts``) need an extra.
OWN_DISTRIBUTION = "singapore-1819"


def is_file_target(name: str) -> bool:
    """Does the spec's first part name a Python file (``bot.py``)?"""
    return name.endswith(".py")


def entry_point_names() -> list[str]:
    """Names of the installed agent plugins (entry point group ``singapore_1819.agents``)."""
    return sorted({ep.name for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)})


def entry_point_factory(name: str) -> Callable | None:
    """The factory an installed plugin declares under ``name`` (None if there is none)."""
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == name:
            try:
                return ep.load()
            except Exception as exc:  # noqa: BLE001 -- any import error is the plugin's
                if (isinstance(exc, ModuleNotFoundError)
                        and getattr(ep.dist, "name", None) == OWN_DISTRIBUTION):
                    raise  # an optional package of this project: the CLI names its extra
                raise ValueError(f"agent plugin {name!r} ({ep.value}) cannot be loaded: "
                                 f"{type(exc).__name__}: {exc}") from None
    return None


_FILE_MODULES: dict[Path, object] = {}


def _load_file(path_text: str):
    path = Path(path_text).expanduser().resolve()
    if path in _FILE_MODULES:
        return _FILE_MODULES[path]
    if not path.is_file():
        raise ValueError(f"agent file {path_text!r} does not exist")
    # A stable module name per file, so pickled objects and worker processes agree.
    module_name = "singapore_1819_bot_" + hashlib.sha1(str(path).encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 -- report any error of the user's file
        sys.modules.pop(module_name, None)
        raise ValueError(f"cannot import agent file {path_text!r}: "
                         f"{type(exc).__name__}: {exc}") from None
    _FILE_MODULES[path] = module
    return module


def _import_module(name: str):
    try:
        return importlib.import_module(name)
    except Exception as exc:  # noqa: BLE001 -- report any import error of the module
        raise ValueError(f"cannot import agent module {name!r}: "
                         f"{type(exc).__name__}: {exc}") from None


def target_factory(where: str, attribute: str) -> Callable:
    """The class or function ``attribute`` of a file (``bot.py``) or module."""
    module = _load_file(where) if is_file_target(where) else _import_module(where)
    factory = getattr(module, attribute, None)
    if not callable(factory):
        public = sorted(n for n, v in vars(module).items()
                        if inspect.isclass(v) and not n.startswith("_")
                        and getattr(v, "__module__", None) == module.__name__)
        raise ValueError(f"{where} has no agent class or function {attribute!r}; "
                         f"it defines: {', '.join(public) or 'no classes'}")
    return factory


def factory_params(factory: Callable) -> tuple[dict, bool, bool]:
    """``(parameters with their defaults, takes **kwargs, takes seed)`` of a factory.
    A parameter without a default maps to None."""
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        return {}, True, False
    params, var_kw = {}, False
    for p in signature.parameters.values():
        if p.kind is p.VAR_KEYWORD:
            var_kw = True
        elif p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            params[p.name] = None if p.default is p.empty else p.default
    takes_seed = "seed" in params or var_kw
    params.pop("seed", None)
    return params, var_kw, takes_seed


def check_agent(agent, where: str):
    """``agent`` if it can play, at engine level (``choose``) or at env level (``act``);
    ValueError otherwise."""
    if not any(callable(getattr(agent, m, None)) for m in ("choose", "act")):
        raise ValueError(f"{where} did not build an agent: {type(agent).__name__} has no "
                         f"choose(game, seat) or act(observation, mask) method "
                         f"(subclass agents.Agent)")
    return agent
