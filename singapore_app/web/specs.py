"""Agent specs from strangers: a closed set unless the server allows code.

A seat's agent spec from the page or the API is read here as a name and ``key=value``
parameters (:func:`parse`) before anything is built. Without ``--allow-code`` only the
shipped agents play, with the shipped networks: ``random``, ``heuristic``, ``mcts``,
``rerank`` (``net=zero``), ``mcts:net=zero``, ``learned:zero``, ``learned:zero-policy``
(and ``learned-sample:`` of those), with parameters that are numbers or words (no path
can be written in one); any other spec is refused with one message whatever it names,
before any file is opened. A retired shipped name (``learned:pure``, ``net=default``)
is let through to be refused, when built, with what replaced it. A search budget over the server's think limit is refused too.
Building the agent (which loads its networks) happens on a thread, never on the event
loop.
"""

from __future__ import annotations

import asyncio
import re

from agents.learned import RETIRED, SHIPPED_NETS
from agents.reference import SHIPPED
from agents.registry import AgentSpec
from singapore_env.words import seat_words

from .inputs import ApiError
from .table import PERSON

#: The shipped players a spec may name (``learned:zero``); the shipped networks
#: (``net=zero``) are :data:`agents.learned.SHIPPED_NETS`.
SHIPPED_PLAYERS = tuple(SHIPPED)
#: One spec of each shipped agent, as the start page lists them (tests check the page).
SHIPPED_SPECS = ("random", "heuristic", "mcts:iters=24", "mcts:net=zero", "rerank:net=zero",
                 "learned:zero", "learned:zero-policy", "learned-sample:zero")
#: Seconds an agent may think per decision unless the server says otherwise.
THINK_LIMIT = 5.0
#: Search simulations a second of thinking is counted as (a conservative rate: a
#: simulation plays each candidate to the end of the game with the heuristic).
SIMULATIONS_PER_SECOND = 20
#: Seconds an agent may take to be built (with --allow-code, a spec may name anything).
BUILD_SECONDS = 30.0
#: The most candidates a search may compare (each is played in every simulation).
MOST_CANDIDATES = 6
_NUMBER = re.compile(r"-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?")
_WORD = re.compile(r"[A-Za-z_+]{1,40}")
REFUSED = ("this server plays its own agents only: random, heuristic, mcts (parameters as "
           "mcts:iters=24), mcts:net=zero, rerank:net=zero, learned:zero, "
           "learned:zero-policy; an agent from a file, a module or another network "
           "needs a server started with --allow-code")


def parse(text: str) -> AgentSpec | None:
    """The typed spec of ``text`` (:meth:`agents.registry.AgentSpec.parse`, which reads
    the text only); None for a malformed spec."""
    try:
        return AgentSpec.parse(text)
    except ValueError:
        return None


def _shipped_params() -> dict[str, dict]:
    from agents.heuristic import DEFAULT_PARAMS
    from agents.mcts import MctsAgent
    from agents.rerank import RerankAgent

    return {"random": {}, "heuristic": DEFAULT_PARAMS, "mcts": MctsAgent.PARAMS,
            "rerank": RerankAgent.PARAMS}


def is_shipped(spec: AgentSpec | None) -> bool:
    """Whether ``spec`` names a shipped agent with shipped networks and parameters that
    are numbers or words (never a path)."""
    if spec is None:
        return False
    if spec.is_learned:  # (lookahead: is none of the shipped players)
        return (spec.name != "lookahead" and not spec.params
                and _names_shipped("learned:", str(spec.target), SHIPPED_PLAYERS))
    allowed = _shipped_params().get(spec.name)
    if allowed is None or spec.target is not None:
        return False
    for key, value in spec.params.items():
        if key != "seed" and key not in allowed:
            return False
        if key == "net":
            if not _names_shipped("net=", value, SHIPPED_NETS):
                return False
        elif not (_NUMBER.fullmatch(value) or _WORD.fullmatch(value)):
            return False
    return True


def _names_shipped(prefix: str, name: str, shipped) -> bool:
    """Whether ``name`` is one of ``shipped`` or ``prefix + name`` a retired shipped name
    (:data:`agents.learned.RETIRED`: building it says what replaced it)."""
    return name in shipped or f"{prefix}{name}" in RETIRED


def check_budget(spec: AgentSpec | None, think_limit: float) -> None:
    """ApiError 400 when a search would think longer per decision than the server
    allows (``seconds`` over the limit, ``iters`` over the simulations it stands for,
    or more candidates than :data:`MOST_CANDIDATES`)."""
    if spec is None or spec.name != "mcts":
        return
    most_iters = int(think_limit * SIMULATIONS_PER_SECOND)
    limits = {"seconds": think_limit, "iters": most_iters, "topk": MOST_CANDIDATES}
    for key, most in limits.items():
        value = spec.params.get(key)
        if value is not None and _NUMBER.fullmatch(value) and float(value) > most:
            raise ApiError(400, f"mcts: {key}={value[:20]} is over this server's think "
                                f"limit ({think_limit:g} s a decision: at most "
                                f"seconds={think_limit:g}, iters={most_iters}, "
                                f"topk={MOST_CANDIDATES})")


def build(text: str, seed: int = 0):
    """The agent of ``text`` (ValueError or OSError if it cannot be built)."""
    from agents.registry import make_agent
    return make_agent(text, seed)


async def check_seats(seats: list[str], allow_code: bool, think_limit: float,
                      game=None) -> None:
    """Every agent seat of ``seats`` allowed, buildable and, with ``game``, reading
    networks that read that game's observation (ApiError 400 if not:
    :func:`agents.net_layout.check_agent`); the agents are built on a thread."""
    from agents.net_layout import check_agent

    loop = asyncio.get_running_loop()
    for seat, text in enumerate(seats):
        if text == PERSON:
            continue
        where = f"the {seat_words(seat)}'s seat"
        spec = parse(text)
        if not allow_code and not is_shipped(spec):
            raise ApiError(400, f"{where}: {REFUSED}")
        check_budget(spec, think_limit)
        try:
            agent = await asyncio.wait_for(loop.run_in_executor(None, build, text),
                                           BUILD_SECONDS)
            if game is not None:
                await loop.run_in_executor(None, check_agent, agent, game.c, game.cfg)
        except asyncio.TimeoutError:
            raise ApiError(400, f"{where}: the agent took over {BUILD_SECONDS:g} s to "
                                f"build") from None
        except Exception as exc:  # noqa: BLE001 -- a spec that cannot be built is the client's
            raise ApiError(400, f"{where}: {exc}"[:700]) from None
