"""Agents by name: ``make_agent("random", seed=1)``, with parameters after the name.

An agent *spec* is a registered name optionally followed by ``:key=value`` parameters
(colons, not commas: commas separate players on the command line)::

    make_agent("mcts:iters=400:topk=3", seed=1)
    make_agent("heuristic:seed=3:war_margin=0.5")

``seed`` is accepted by every agent (it overrides the ``seed`` argument); the others are
the ones the agent was registered with. An unknown parameter or a value of the wrong
type raises ValueError naming the allowed parameters. A trained policy is named by its
file: ``learned:PATH`` (a ``.npz`` actor), most likely legal action; or
``learned-sample:PATH`` to sample from the policy (the whole rest of the spec is the path).
``learned:zero`` and ``learned:zero-policy`` are the shipped players
(:mod:`agents.reference`). ``lookahead:DIR`` plays the pair of pointer networks with
value heads in the folder DIR (``british.npz`` and ``malay.npz``, as the self-play
trainer writes them; or a shipped network's name, ``lookahead:zero``) with the lookahead
of :mod:`agents.lookahead`, each network's value head scoring its faction's answers, as
``learned:zero`` does.

Inside the code a spec is an :class:`AgentSpec` (name, parameters, target), built with
``AgentSpec("mcts", {"iters": 400})`` or ``AgentSpec.parse(text)`` and written back with
``str(spec)``; ``make_agent`` takes either form.

:func:`as_agent` turns whatever a caller may give (a spec, an Agent, a plain function
``(observation, mask) -> action index``) into an Agent; ``play_game`` and ``FactionEnv``
both use it.

Agents from outside the project (:mod:`agents.plugins`) take parameters the same way::

    make_agent("path/to/bot.py:MyBot:depth=3")     # a class in a file
    make_agent("my_package.bots:MyBot")             # a class in an importable module
    make_agent("mybot:depth=3")                     # plugin of group singapore_1819.agents

Add an agent with ``register("name", factory, params={"key": default})`` where
``factory(seed=None, **params)`` returns an :class:`~agents.base.Agent`; each value
given as text is converted to the type of its default.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

from .base import Agent
from .heuristic import DEFAULT_PARAMS, HeuristicAgent
from .mcts import MctsAgent
from .net_files import NetFileError
from .rerank import RerankAgent
from .plugins import (check_agent, entry_point_factory, entry_point_names, factory_params,
                      is_file_target, target_factory)
from .random_agent import RandomAgent

AgentFactory = Callable[..., Agent]
LEARNED_KINDS = ("learned", "learned-sample", "lookahead")

_REGISTRY: dict[str, tuple[AgentFactory, dict]] = {}


def register(name: str, factory: AgentFactory, *, params: dict | None = None,
             replace: bool = False) -> None:
    """Make ``factory(seed=None, **params) -> Agent`` available as ``name``; ``params``
    maps each parameter the agent accepts to its default value."""
    if not name or not isinstance(name, str) or ":" in name or "," in name:
        raise ValueError(f"agent name must be a non-empty string without ':' or ',', "
                         f"got {name!r}")
    if name in _REGISTRY and not replace:
        raise ValueError(f"agent {name!r} is already registered")
    _REGISTRY[name] = (factory, dict(params or {}))


def known_agents() -> list[str]:
    """The registered agent names, sorted."""
    return sorted(_REGISTRY)


@dataclass(frozen=True)
class AgentSpec:
    """An agent by name and parameters, the typed form of ``"mcts:iters=400:topk=3"``:
    ``AgentSpec("mcts", {"iters": 400, "topk": 3})``. ``target`` is the class of a file or
    module agent (``bot.py:MyBot``) or the policy file of ``learned:PATH``. Code builds
    and passes specs; text is parsed (:meth:`parse`) and written (``str``) at the edges
    only (command line, configs, records)."""

    name: str
    params: dict = field(default_factory=dict)
    target: str | None = None

    @classmethod
    def parse(cls, text: "str | AgentSpec") -> "AgentSpec":
        """``"bot.py:MyBot:depth=3"`` -> ``AgentSpec("bot.py", {"depth": "3"}, "MyBot")``
        (parameter values stay text until the agent is built); ValueError for a
        malformed spec."""
        if isinstance(text, AgentSpec):
            return text
        if not isinstance(text, str):
            raise ValueError(f"an agent spec must be a string, got {text!r}")
        kind, sep, path = text.strip().partition(":")
        kind = kind.strip()
        if kind in LEARNED_KINDS:
            if not sep or not path.strip():
                raise ValueError(f"agent {text!r}: name the policy file, {kind}:PATH")
            return cls(kind, {}, path.strip())
        name, *parts = text.strip().split(":")
        name = name.strip()
        target = None
        if parts and "=" not in parts[0] and (is_file_target(name) or name not in _REGISTRY):
            target = parts.pop(0).strip()
            if not name or not target:
                raise ValueError(f"agent {text!r}: write a class in a file or module as "
                                 f"path/to/bot.py:MyBot or package.module:MyBot")
        elif is_file_target(name):
            raise ValueError(f"agent {text!r}: name the agent class in the file after a "
                             f"colon, e.g. {name}:MyBot")
        params: dict[str, str] = {}
        for part in parts:
            key, sep, value = part.partition("=")
            key, value = key.strip(), value.strip()
            if not sep or not key or not value:
                raise ValueError(f"agent {text!r}: parameters are written key=value after "
                                 f"the name (e.g. mcts:iters=400:topk=3), got {part!r}")
            if key in params:
                raise ValueError(f"agent {text!r}: parameter {key!r} is given twice")
            params[key] = value
        return cls(name, params, target)

    def __str__(self) -> str:
        head = self.name if self.target is None else f"{self.name}:{self.target}"
        return ":".join([head, *(f"{k}={_text(v)}" for k, v in self.params.items())])

    @property
    def is_learned(self) -> bool:
        """Does the spec name policy files (``learned:PATH``, ``learned-sample:PATH``,
        ``lookahead:DIR``)?"""
        return self.name in LEARNED_KINDS

    def with_params(self, **params) -> "AgentSpec":
        """The same agent with ``params`` added (or replacing those of the same key)."""
        return AgentSpec(self.name, {**self.params, **params}, self.target)


def _text(value) -> str:
    """A parameter value as written in a spec (booleans as 1 and 0)."""
    return str(int(value)) if isinstance(value, bool) else str(value)


def is_learned(spec: "str | AgentSpec") -> bool:
    """Does ``spec`` name policy files (``learned:PATH``, ``learned-sample:PATH``,
    ``lookahead:DIR``)?"""
    try:
        return AgentSpec.parse(spec).is_learned
    except ValueError:
        return False


_TYPE_NAMES = {bool: "a boolean (1, 0, true, false, yes, no)", int: "an integer",
               float: "a finite number", str: "a string"}


def _convert(spec: str, key: str, text: str, default):
    """``text`` as the type of ``default`` (bool, int, float or str); with no usable
    default (None or another type), an int, a float, a boolean or else the text."""
    kind = type(default)
    if kind not in _TYPE_NAMES:
        return _literal(text)
    try:
        if kind is bool:
            if text.lower() not in ("1", "0", "true", "false", "yes", "no"):
                raise ValueError
            return text.lower() in ("1", "true", "yes")
        value = kind(text)
        if kind is float and not math.isfinite(value):
            raise ValueError
        return value
    except ValueError:
        raise ValueError(f"agent {spec!r}: parameter {key} expects {_TYPE_NAMES[kind]}, "
                         f"got {text!r}") from None


def _literal(text: str):
    """``"3"`` -> 3, ``"0.5"`` -> 0.5, ``"true"`` -> True, anything else the text."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def make_agent(spec: "str | AgentSpec", seed: int | None = None) -> Agent:
    """Build an agent from its spec (an :class:`AgentSpec`, or its text: name and
    ``:key=value`` parameters); an unknown name or parameter raises ValueError listing
    the known ones."""
    parsed = AgentSpec.parse(spec)
    spec = str(parsed)
    if parsed.is_learned:
        return _make_learned(parsed, seed)
    name, target, given = parsed.name, parsed.target, parsed.params
    if target is not None:
        return _make_external(spec, target_factory(name, target), given, seed)
    if name not in _REGISTRY:
        plugin = entry_point_factory(name)
        if plugin is not None:
            return _make_external(spec, plugin, given, seed)
        plugins = entry_point_names()
        raise ValueError(
            f"unknown agent {name!r}; known agents: {', '.join(known_agents() + plugins)}, "
            "learned:PATH, learned-sample:PATH, learned:zero, learned:zero-policy, "
            "lookahead:DIR, path/to/bot.py:Class, package.module:Class")
    factory, allowed = _REGISTRY[name]
    seed, params = _resolve_params(spec, given, allowed, seed, closed=True)
    try:
        agent = factory(seed=seed, **params)
    except NetFileError as exc:  # (a network of mcts:net=, rerank:net=)
        raise ValueError(f"cannot load agent {spec!r}: {exc}") from None
    if params:
        agent.name = spec
    return agent


def _resolve_params(spec: str, given: dict, allowed: dict, seed, closed: bool):
    """``(seed, converted params)``; with ``closed`` an unknown parameter is an error.
    A value given as text is converted to the type of its default."""
    unknown = sorted(set(given) - set(allowed) - {"seed"})
    if unknown and closed:
        raise ValueError(f"agent {spec!r}: unknown parameter(s) {', '.join(unknown)}; "
                         f"allowed: {', '.join(sorted({'seed', *allowed}))}")
    given = dict(given)
    if "seed" in given:
        seed = _convert(spec, "seed", _text(given.pop("seed")), 0)
    return seed, {k: _convert(spec, k, _text(v), allowed.get(k)) for k, v in given.items()}


def _make_external(spec: str, factory, given: dict, seed) -> Agent:
    """An agent from a file, a module or a plugin: ``factory(seed=..., **params)``."""
    allowed, open_params, takes_seed = factory_params(factory)
    seed, params = _resolve_params(spec, given, allowed, seed, closed=not open_params)
    try:
        agent = factory(**params, **({"seed": seed} if takes_seed else {}))
    except Exception as exc:  # noqa: BLE001 -- the user's constructor may raise anything
        raise ValueError(f"agent {spec!r} cannot be built: {type(exc).__name__}: {exc}") \
            from None
    agent = as_agent(check_agent(agent, f"agent {spec!r}"))  # act-only bots are wrapped
    agent.name = spec
    return agent


def _make_learned(spec: AgentSpec, seed: int | None) -> Agent:
    from .learned import LearnedAgent, check_retired
    from .reference import SHIPPED, lookahead_over, reference_agent

    kind, path = spec.name, spec.target
    try:
        if kind == "lookahead":
            agent = lookahead_over(path, seed)
        elif path in SHIPPED:
            agent = reference_agent(deterministic=kind == "learned", seed=seed, pair=path)
        else:
            check_retired(f"learned:{path}")
            agent = LearnedAgent.load(path, deterministic=kind == "learned", seed=seed)
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot load agent {str(spec)!r}: {exc}") from None
    agent.name = f"{kind}:{path}"
    return agent


def _heuristic(seed: int | None = None, **params) -> HeuristicAgent:
    return HeuristicAgent(seed, params=params)


register("random", RandomAgent)
register("heuristic", _heuristic, params=DEFAULT_PARAMS)
register("mcts", MctsAgent, params=MctsAgent.PARAMS)
register("rerank", RerankAgent, params=RerankAgent.PARAMS)


class FunctionAgent(Agent):
    """An Agent around a plain function ``(observation, mask) -> action index``, or
    around an object with ``act``/``choose`` (and maybe ``reset``) that is not an Agent."""

    def __init__(self, inner):
        self.inner = inner
        self.name = str(getattr(inner, "name", None) or getattr(inner, "__name__", None)
                        or type(inner).__name__)

    @property
    def plays_native(self) -> bool:
        """True unless the inner object plays at engine level (has ``choose``)."""
        return not callable(getattr(self.inner, "choose", None))

    def reset(self, seed: int | None = None) -> None:
        reset = getattr(self.inner, "reset", None)
        if callable(reset):
            reset(seed=seed)

    def act(self, observation, mask) -> int:
        act = getattr(self.inner, "act", None)
        if callable(act):
            return act(observation, mask)
        if callable(self.inner):
            return self.inner(observation, mask)
        raise NotImplementedError(f"{self.name} plays at engine level only (choose)")

    def choose(self, game, seat: int):
        choose = getattr(self.inner, "choose", None)
        return choose(game, seat) if callable(choose) else super().choose(game, seat)


def as_agent(agent, seed: int | None = None) -> Agent:
    """An Agent from a spec (``"heuristic"``, ``"mcts:iters=8"``, ``"learned:PATH"``), an
    Agent, an object with ``act``/``choose``, or a function ``(observation, mask) ->
    action index``; anything else raises ValueError saying what is accepted."""
    if isinstance(agent, (str, AgentSpec)):
        return make_agent(agent, seed)
    if isinstance(agent, Agent):
        return agent
    if any(callable(getattr(agent, m, None)) for m in ("act", "choose")) or callable(agent):
        return FunctionAgent(agent)
    raise ValueError(f"an agent is a name such as 'heuristic' or 'mcts:iters=8' (known: "
                     f"{', '.join(known_agents())}, learned:PATH), an Agent, or a function "
                     f"(observation, mask) -> action index; got {agent!r}")
