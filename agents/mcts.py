"""A search agent: determinized Monte Carlo search guided by the heuristic.

``MctsAgent`` (``mcts`` in :func:`agents.registry.make_agent`; parameters as
``mcts:iters=400``, ``mcts:seconds=0.5``, ``mcts:iters=300:topk=4``) plays at engine
level. For a turn question (Leader space, Leader Action, Actions) and a War or
Conflict question it:

1. asks :class:`~agents.heuristic.HeuristicAgent` for its choice (the *prior*) and its
   scores, and keeps the prior plus the ``topk - 1`` best-scored other legal
   decisions that score within ``gap`` VP equivalents of it as candidates (the
   heuristic prunes the search; a question where nothing comes close is answered at
   once; ``gap=inf`` searches every question);
2. repeats: sample a *world* with :func:`agents.determinize.determinize` (everything
   the seat cannot see -- other hands, deck orders, future dice, undecided War and
   Conflict commitments -- resampled from its own view), then play every candidate in
   that same world with the same rollout seed (common random numbers), the rest of the
   game played by four heuristic players, and score the end (``horizon=0``) or the
   position ``horizon`` rounds later by the projected final VP
   (:func:`singapore_env.engine.query.projected_final_vp`: VP track + Legacies + End
   Game bonuses as if the game ended there);
3. overrules the prior only on significant evidence: a candidate replaces it when its
   mean paired advantage (its score minus the prior's in the same world) is above
   ``margin`` and above ``z`` standard errors.

The score of a finished (or cut) rollout is low-variance: the share of the win that
goes to the seat's faction (the winner is the seat with the highest VP) plus
``vp_weight`` times the faction margin (own faction's best VP minus the other
faction's best, over 20 VP, clipped to ±1). Every other question (Influence
placement, Storehouse drops, connections, ...) is answered by the heuristic directly.

With ``net=PATH`` (a pointer network with a value head: a ``.npz`` file, a folder
holding ``british.npz`` and ``malay.npz``, one per faction, or a shipped network's name,
:func:`agents.learned.net_path`: ``zero``, the self-play networks of ``learned:zero``) a rollout cut after ``horizon`` rounds (default 1
with a network, 0 without) is scored by the network's value head instead of the
projected VP: the searching seat's faction's predicted win share plus ``vp_weight``
times its predicted margin, read from that seat's observation of the sampled world (so
the net sees what the seat would see there, never the real hidden state). A rollout
that ends the game is scored by the final VP as before.

Budget: ``iters`` simulations (rollouts) per searched decision, or, with ``iters=0``,
``seconds`` of wall time per searched decision (at least one world). With a seed an
``iters`` budget gives the same game on any machine; a ``seconds`` budget depends on
the machine's speed and load, so it is not reproducible. The agent never simulates on
the real game: only on determinized copies, so it cannot read hidden state
(``tests/test_agents_mcts.py`` checks its choice does not change when another seat's
hand or a deck order does). :attr:`MctsAgent.stats` counts searched decisions,
simulations and seconds (``benchmarks/bench_mcts.py`` reports them).

On a :class:`~singapore_env.native.NativeGame` (the arena's default engine, and the
native copy a Python game is thought on: :attr:`MctsAgent.looks_ahead`) the prior and
its candidates come from the heuristic's native twin and the whole loop of worlds and
rollouts runs in C++ (``native/mcts.hpp``, the GIL released): the same worlds, rollout
seeds, heuristic players and scores from the same draws of the agent's generators, so
the same decisions and :attr:`MctsAgent.stats` as on the Python engine (with ``net=``
the value head is the native forward pass, equal to float32 rounding), at 20 to 60
times less CPU (``tests/test_native_mcts.py``, ``scripts/mcts_soak.py``,
``benchmarks/bench_arena_engine.py``).

This is a root-only determinized search (no tree below the candidates: the seat's own
later decisions in the rollout are the heuristic's), built against the known trap of
flat Monte Carlo: prior pruning, common random numbers, a bounded score and a
significance test before leaving the prior.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from singapore_env.engine.content import SEAT_FACTION
from singapore_env.engine.query import projected_final_vp

from .base import Agent
from .determinize import determinize
from .heuristic import HeuristicAgent
from .learned import load_value_nets, position_value
from .net_files import NetFileError
from .outcome import MARGIN_SCALE, outcome  # noqa: F401 (MARGIN_SCALE re-exported)
from .threads import limit_threads

if TYPE_CHECKING:  # pragma: no cover
    from singapore_env.engine.decisions import Decision
    from singapore_env.engine import Game

#: Questions worth a search; every other question is answered by the heuristic.
SEARCHED = frozenset({"place_leader", "leader_action", "actions", "war_join", "war_accept",
                      "war_commit", "contribute", "spoils"})
#: Search budgets per decision beyond which a game would not end in practice.
MAX_ITERS = 1_000_000
MAX_SECONDS = 3600.0
_SEED_SPACE = 2**62


@dataclass
class SearchStats:
    """What the searches of one agent cost (cumulated over decisions)."""

    searched: int = 0        # decisions that were searched
    simulations: int = 0     # rollouts played
    overruled: int = 0       # searched decisions where the prior was replaced
    seconds: float = 0.0     # wall time spent searching

    def per_second(self) -> float:
        """Simulations per second of search."""
        return self.simulations / self.seconds if self.seconds > 0 else 0.0


class MctsAgent(Agent):
    """Determinized Monte Carlo search over the heuristic's top candidates."""

    name = "mcts"
    #: It plays positions forward: on a Python game it thinks on a native copy where the
    #: module is built (:func:`agents.native_copy.on_native_copy`), the same decisions.
    looks_ahead = True
    #: Parameters (``mcts:key=value``) and their defaults; ``horizon`` -1 means 1 round
    #: with a network, to the end of the game without.
    PARAMS = {"iters": 0, "seconds": 0.5, "topk": 3, "gap": 1.0, "z": 1.5, "margin": 0.03,
              "vp_weight": 0.5, "horizon": -1, "net": ""}

    def __init__(self, seed: int | None = None, iters: int = 0, seconds: float = 0.5,
                 topk: int = 3, gap: float = 1.0, z: float = 1.5, margin: float = 0.03,
                 vp_weight: float = 0.5, horizon: int = -1, net: str = ""):
        _check(0 <= iters <= MAX_ITERS, f"iters must be in 0..{MAX_ITERS}, got {iters}")
        _check(iters > 0 or 0 < seconds <= MAX_SECONDS,
               f"seconds must be in (0, {MAX_SECONDS}] when iters=0, got {seconds}")
        _check(topk >= 1, f"topk must be >= 1, got {topk}")
        _check(gap >= 0 and z >= 0 and margin >= 0 and vp_weight >= 0,
               "gap, z, margin and vp_weight must be >= 0")
        if horizon == -1:
            horizon = 1 if net else 0
        _check(horizon >= 0, f"horizon must be >= 0 rounds, got {horizon}")
        _check(not net or horizon >= 1, "net needs horizon >= 1 (the value head scores "
               "the position a rollout reaches after horizon rounds)")
        if net:
            limit_threads()
        try:
            #: Faction -> policy-value network (None: no network).
            self.nets = load_value_nets(net) if net else None
        except NetFileError:
            raise  # (it names the file and the array)
        except (OSError, ValueError) as exc:
            raise ValueError(f"mcts: net={net}: {exc}") from None
        self.net = net
        self.iters, self.seconds, self.topk, self.gap = iters, seconds, topk, gap
        self.z, self.margin, self.vp_weight = z, margin, vp_weight
        self.horizon = horizon
        self.prior = HeuristicAgent(seed)
        self.players = [HeuristicAgent() for _ in range(4)]
        self.rng = np.random.default_rng(seed)
        self.stats = SearchStats()
        #: Seconds of wall time any search stops at, whatever its budget (None: no cap;
        #: the web app sets its think limit here). A search stops between two worlds,
        #: so it may run over by one world's rollouts.
        self.time_cap: float | None = None
        #: The last search: its candidates and their mean advantage over the prior.
        self.last_search: dict = {}
        self._deciding = threading.Lock()

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        del state["_deciding"]  # (a lock is not copied: a copy decides on its own)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._deciding = threading.Lock()

    @property
    def plays_native(self) -> bool:
        """The search has a native twin (``native/mcts.hpp``, with the heuristic's and the
        determinization's): at a :class:`~singapore_env.native.NativeGame` it searches in
        C++, with the same decisions and the same draws from its generators (the value
        networks of ``net=`` up to their float32 near-ties, as ``learned:*``)."""
        from singapore_env import native
        return native.available()

    def networks(self) -> list:
        """The value networks of ``net=`` (none without)."""
        return list(self.nets.values()) if self.nets else []

    def reset(self, seed: int | None = None) -> None:
        """New game; with ``seed`` the searches (and the prior's tie breaks) repeat."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
            self.prior.reset(seed)

    # ------------------------------------------------------------ decisions
    def choose(self, game: "Game", seat: int) -> "Decision":
        """The prior's choice, unless a search of the candidates overrules it. One
        decision at a time: the searches draw their worlds from the agent's one
        generator, so a second thread asking while one decides gets a RuntimeError (one
        agent per thread plays concurrent games, each with its own stream)."""
        if not self._deciding.acquire(blocking=False):
            raise RuntimeError(f"{self.name} is deciding in another thread: an mcts agent "
                               f"decides one game at a time (build one agent per thread)")
        try:
            return self._choose(game, seat)
        finally:
            self._deciding.release()

    def _choose(self, game: "Game", seat: int) -> "Decision":
        prior, open_question = prior_answer(self.prior, game, seat)
        if not open_question:
            return prior
        candidates = heuristic_candidates(self.prior, game, seat, prior, self.topk,
                                          self.gap)
        if len(candidates) == 1:
            return prior
        return self._search(game, seat, candidates)

    # ------------------------------------------------------------ search
    def _search(self, game: "Game", seat: int, candidates: list["Decision"]) -> "Decision":
        """Every candidate in every sampled world; the prior unless another one's mean
        paired advantage is significant."""
        start = time.perf_counter()
        n = len(candidates)
        native = sys.modules.get("singapore_env.native")  # not imported: no native game exists
        if native is not None and isinstance(game, native.NativeGame):
            values = self._native_values(native, game, seat, candidates)
        else:
            values = self._values(game, seat, candidates, start)
        diffs: list[list[float]] = [[]] + [[row[i] - row[0] for row in values]
                                           for i in range(1, n)]
        worlds = len(values)
        best = self._significant_best(diffs)
        self.last_search = {"candidates": list(candidates), "worlds": worlds,
                            "advantage": [float(np.mean(d)) if d else 0.0 for d in diffs]}
        self.stats.searched += 1
        self.stats.simulations += worlds * n
        self.stats.overruled += best > 0
        self.stats.seconds += time.perf_counter() - start
        return candidates[best]

    def _values(self, game: "Game", seat: int, candidates: list["Decision"],
                start: float) -> list[list[float]]:
        """The value of every candidate in each sampled world (a row a world), until the
        budget is spent (at least one world)."""
        values: list[list[float]] = []
        while not values or not self._spent(len(values) * len(candidates), start):
            world = determinize(game, seat, self.rng)
            seed = int(self.rng.integers(_SEED_SPACE))
            values.append([self._rollout(world, d, seat, seed) for d in candidates])
        return values

    def _native_values(self, native, game, seat: int,
                       candidates: list["Decision"]) -> list[list[float]]:
        """:meth:`_values` of a native game, the whole loop in C++ (``native/mcts.hpp``):
        the same worlds, rollouts and scores from the same draws of :attr:`rng`."""
        encoder = nets = None
        if self.nets is not None:
            from singapore_env.native.encoding import native_encoder_for

            from .native_nets import native_net
            encoder = native_encoder_for(game.c, game.cfg)._writer
            nets = tuple(native_net(self.nets[f]) for f in (0, 1))
        return native.mcts_values(game, seat, candidates, self.rng,
                                  self.players[0].native_params(native),
                                  iters=self.iters, seconds=self.seconds,
                                  time_cap=self.time_cap, horizon=self.horizon,
                                  vp_weight=self.vp_weight, encoder=encoder, nets=nets)

    def _spent(self, simulations: int, start: float) -> bool:
        if self.time_cap is not None and time.perf_counter() - start >= self.time_cap:
            return True
        if self.iters:
            return simulations >= self.iters
        return time.perf_counter() - start >= self.seconds

    def _significant_best(self, diffs: list[list[float]]) -> int:
        """Index of the candidate with the best significant mean advantage (0: prior)."""
        best, best_mean = 0, 0.0
        for i, d in enumerate(diffs[1:], start=1):
            if len(d) < 2:
                continue
            mean = float(np.mean(d))
            se = float(np.std(d, ddof=1)) / math.sqrt(len(d))
            if mean > max(self.margin, self.z * se, best_mean):
                best, best_mean = i, mean
        return best

    def _rollout(self, world: "Game", first: "Decision", seat: int, seed: int) -> float:
        """Play ``first`` in a copy of ``world``, then heuristic players to the end or
        ``horizon`` rounds on; the score of the result for ``seat``."""
        g = world.clone()
        g.step(first)
        for p, player in enumerate(self.players):
            player.reset(seed + p)
        stop = g.s.round + self.horizon if self.horizon else None
        while not g.is_over and (stop is None or g.s.round < stop):
            acting = g.acting_seat
            g.step(self.players[acting].choose(g, acting))
        if g.is_over:
            return self.value(g.final_scores, seat)
        if self.nets is not None:
            return self.net_value(g, seat)
        return self.value([projected_final_vp(g, p) for p in range(4)], seat)

    def net_value(self, game: "Game", seat: int) -> float:
        """The value head's score of ``game`` from ``seat``'s observation of it."""
        return position_value(self.nets[SEAT_FACTION[seat]], game, seat, self.vp_weight)

    def value(self, scores: list[int], seat: int) -> float:
        """Score of final (or projected) VP for ``seat``: win share plus margin term."""
        win, margin = outcome(scores, seat)
        return win + self.vp_weight * margin


def prior_answer(prior_agent: HeuristicAgent, game: "Game",
                 seat: int) -> tuple["Decision", bool]:
    """The answer of ``prior_agent`` (the only legal one when there is one) and whether
    the question is worth more thought: a searched kind with several legal answers."""
    legal = game.legal_decisions()
    if len(legal) == 1:
        return legal[0], False
    return prior_agent.choose(game, seat), game.pending.kind in SEARCHED


def heuristic_candidates(prior_agent: HeuristicAgent, game: "Game", seat: int,
                         prior: "Decision", topk: int, gap: float) -> list["Decision"]:
    """The prior first, then the best-scored other legal decisions that ``prior_agent``
    scores within ``gap`` of it (every other decision, in legal order, for the questions
    the heuristic does not score), ``topk`` in all."""
    scored = prior_agent.option_scores(game, seat)
    if scored:
        floor = max(v for v, d in scored if d == prior) - gap
    else:
        scored, floor = [(0.0, d) for d in game.legal_decisions()], 0.0
    order = sorted(range(len(scored)), key=lambda i: (-scored[i][0], i))
    others = [scored[i][1] for i in order if scored[i][1] != prior and scored[i][0] >= floor]
    return [prior] + others[:topk - 1]


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise ValueError(f"mcts: {message}")
