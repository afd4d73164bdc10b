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

The score of a finished (or cut) rollout is low-variance: with ``goal="faction"``
(default) the share of the win that goes to the seat's faction (the winner is the
seat with the highest VP) plus ``vp_weight`` times the faction margin (own faction's
best VP minus the other faction's best, over 20 VP, clipped to ±1); with
``goal="seat"`` the seat's own win and margin. Every other question (Influence
placement, Storehouse drops, connections, ...) is answered by the heuristic directly.

With ``net=PATH`` (a policy-value network of expert iteration, :mod:`training.expert`:
a ``.npz`` file with a value head, a folder holding ``british.npz`` and ``malay.npz``,
one per faction, or ``default``: the shipped pair of the reference expert-iteration
run, ``agents/policies/expert/``) a rollout cut after ``horizon`` rounds (``horizon``
≥ 1 is then required) is scored by the network's value head instead of the projected VP:
the searching seat's faction's predicted win share plus ``vp_weight`` times its
predicted margin, read from that seat's observation of the sampled world (so the net
sees what the seat would see there, never the real hidden state). A rollout that ends
the game is scored by the final VP as before. With ``value=0`` the network's value head
is not used (the projected VP scores the cut, any horizon). With ``rollout=0`` (needs
the value head) nothing is played after the candidate: the value head scores the
position right after it, in each sampled world (the cut "at once"). With
``ptopk=K`` (needs ``net``) the network's *policy* proposes candidates too: its ``K``
most likely legal answers (from the seat's observation, as
:class:`~agents.learned.LearnedAgent` reads it) join the heuristic's candidates when
they are not among them already, and must beat the prior in the search like any other
candidate.

With ``select=puct`` (needs ``net``) the simulations are not spread evenly over the
candidates in common worlds: each simulation samples a world and plays the candidate
with the highest ``Q + cpuct * P * sqrt(N + 1) / (1 + n)`` (AlphaZero's PUCT rule):
``P`` is the network policy's probability of the candidate renormalised over the
candidates, ``Q`` its mean rollout score so far (an unvisited candidate gets the mean
of all scores so far), ``n`` its simulations, ``N`` all of them. The most simulated
candidate is played (the prior on a tie). The default, ``select=paired``, is the
paired-evidence rule above.

With ``kinds`` (question kinds joined by ``+``, such as ``kinds=actions+contribute``;
default: all of them) only those questions are searched; the heuristic answers the
others. It measures which of a faction's decisions the search's strength comes from.

Budget: ``iters`` simulations (rollouts) per searched decision, or, with ``iters=0``,
``seconds`` of wall time per searched decision (at least one world). With a seed an
``iters`` budget gives the same game on any machine; a ``seconds`` budget depends on
the machine's speed and load, so it is not reproducible. The agent never simulates on
the real game: only on determinized copies, so it cannot read hidden state
(``tests/test_agents_mcts.py`` checks its choice does not change when another seat's
hand or a deck order does). :attr:`MctsAgent.stats` counts searched decisions,
simulations and seconds (``benchmarks/bench_mcts.py`` reports them).

This is a root-only determinized search (no tree below the candidates: the seat's own
later decisions in the rollout are the heuristic's), the design the issue's measured
trap calls for: prior pruning, common random numbers, a bounded score and a
significance test before leaving the prior.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from singapore_env.candidates import projected_vp
from singapore_env.engine.content import SEAT_FACTION
from singapore_env.engine.query import projected_final_vp

from .base import Agent, _encoder_for
from .determinize import determinize
from .heuristic import HeuristicAgent
from .learned import PolicyView, load_value_nets
from .outcome import MARGIN_SCALE, outcome  # noqa: F401 (MARGIN_SCALE re-exported)

if TYPE_CHECKING:  # pragma: no cover
    from singapore_env.engine.decisions import Decision
    from singapore_env.engine import Game

#: Questions worth a search; every other question is answered by the heuristic.
SEARCHED = frozenset({"place_leader", "leader_action", "actions", "war_join", "war_accept",
                      "war_commit", "contribute", "spoils"})
GOALS = ("faction", "seat")
#: How simulations are spread over the root candidates.
SELECTIONS = ("paired", "puct")
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
    #: Parameters (``mcts:key=value``) and their defaults.
    PARAMS = {"iters": 0, "seconds": 0.5, "topk": 3, "gap": 1.0, "z": 1.5, "margin": 0.03,
              "vp_weight": 0.5, "horizon": 0, "goal": "faction", "net": "", "value": True,
              "ptopk": 0, "select": "paired", "cpuct": 1.0, "rollout": True, "kinds": ""}

    def __init__(self, seed: int | None = None, iters: int = 0, seconds: float = 0.5,
                 topk: int = 3, gap: float = 1.0, z: float = 1.5, margin: float = 0.03,
                 vp_weight: float = 0.5, horizon: int = 0, goal: str = "faction",
                 net: str = "", value: bool = True, ptopk: int = 0,
                 select: str = "paired", cpuct: float = 1.0, rollout: bool = True,
                 kinds: str = ""):
        self.kinds = frozenset(kinds.split("+")) if kinds else SEARCHED
        _check(self.kinds <= SEARCHED, f"kinds takes question kinds joined by '+', among "
               f"{', '.join(sorted(SEARCHED))}; got {kinds!r}")
        _check(0 <= iters <= MAX_ITERS, f"iters must be in 0..{MAX_ITERS}, got {iters}")
        _check(iters > 0 or 0 < seconds <= MAX_SECONDS,
               f"seconds must be in (0, {MAX_SECONDS}] when iters=0, got {seconds}")
        _check(topk >= 1, f"topk must be >= 1, got {topk}")
        _check(gap >= 0 and z >= 0 and margin >= 0 and vp_weight >= 0,
               "gap, z, margin and vp_weight must be >= 0")
        _check(horizon >= 0, f"horizon must be >= 0 rounds, got {horizon}")
        _check(goal in GOALS, f"goal must be one of {', '.join(GOALS)}, got {goal!r}")
        _check(ptopk >= 0, f"ptopk must be >= 0, got {ptopk}")
        _check(select in SELECTIONS, f"select must be one of {', '.join(SELECTIONS)}, "
               f"got {select!r}")
        _check(0 <= cpuct < math.inf, f"cpuct must be a finite number >= 0, got {cpuct}")
        _check(net or (value and not ptopk and select == "paired"),
               "value=0, ptopk and select=puct need a network: net=PATH")
        use_value = bool(net) and value
        _check(rollout or use_value, "rollout=0 needs a value head to score the position "
               "after the candidate: net=PATH")
        _check(not use_value or horizon >= 1 or not rollout, "net needs horizon >= 1 (the "
               "value head scores the position a rollout reaches after horizon rounds; "
               "rollout=0 scores the position right after the candidate; value=0 leaves "
               "it unused)")
        _check(not use_value or goal == "faction", "net predicts the faction's outcome: "
               "use goal=faction")
        try:
            #: Faction -> policy-value network (None: no network).
            self.nets = load_value_nets(net, need_value=use_value) if net else None
        except (OSError, ValueError) as exc:
            raise ValueError(f"mcts: net={net}: {exc}") from None
        self.net, self.use_value, self.ptopk = net, use_value, ptopk
        self._views = {f: PolicyView(n) for f, n in (self.nets or {}).items()}
        self.iters, self.seconds, self.topk, self.gap = iters, seconds, topk, gap
        self.z, self.margin, self.vp_weight = z, margin, vp_weight
        self.horizon, self.goal = horizon, goal
        self.select, self.cpuct, self.rollout = select, cpuct, rollout
        self.prior = HeuristicAgent(seed)
        self.players = [HeuristicAgent() for _ in range(4)]
        self.rng = np.random.default_rng(seed)
        self.stats = SearchStats()
        #: The last search: its candidates and their mean advantage over the prior.
        self.last_search: dict = {}

    def reset(self, seed: int | None = None) -> None:
        """New game; with ``seed`` the searches (and the prior's tie breaks) repeat."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
            self.prior.reset(seed)

    # ------------------------------------------------------------ decisions
    def choose(self, game: "Game", seat: int) -> "Decision":
        """The prior's choice, unless a search of the candidates overrules it (on the
        question kinds of ``kinds`` only)."""
        prior, open_question = prior_answer(self.prior, game, seat)
        if not open_question or game.pending.kind not in self.kinds:
            return prior
        candidates = self.candidates(game, seat, prior)
        if len(candidates) == 1:
            return prior
        return self._search(game, seat, candidates)

    def candidates(self, game: "Game", seat: int, prior: "Decision") -> list["Decision"]:
        """:func:`heuristic_candidates`; then, with ``ptopk``, the network policy's most
        likely answers not among them yet (``ptopk`` more at most)."""
        candidates = heuristic_candidates(self.prior, game, seat, prior, self.topk, self.gap)
        if self.ptopk and self.nets is not None:
            proposed = [d for d in self.policy_order(game, seat) if d not in candidates]
            candidates += proposed[:self.ptopk]
        return candidates

    def policy_logits(self, game: "Game", seat: int, decisions: list["Decision"]) -> np.ndarray:
        """The logits of ``decisions`` by the network of ``seat``'s faction (reading the
        seat's observation with the candidate keys)."""
        return self._views[SEAT_FACTION[seat]].decision_logits(game, seat, decisions)

    def policy_order(self, game: "Game", seat: int) -> list["Decision"]:
        """The legal decisions, most likely first, by the network of ``seat``'s faction."""
        legal = game.legal_decisions()
        logits = self.policy_logits(game, seat, legal)
        return [legal[i] for i in sorted(range(len(legal)), key=lambda i: -logits[i])]

    def candidate_priors(self, game: "Game", seat: int,
                         candidates: list["Decision"]) -> np.ndarray:
        """The network policy's probabilities of ``candidates``, renormalised over them."""
        logits = self.policy_logits(game, seat, candidates)
        weights = np.exp(logits - logits.max())
        return weights / weights.sum()

    # ------------------------------------------------------------ search
    def _search(self, game: "Game", seat: int, candidates: list["Decision"]) -> "Decision":
        start = time.perf_counter()
        if self.select == "puct":
            best, worlds, advantage = self._puct(game, seat, candidates, start)
            simulations = worlds
        else:
            best, worlds, advantage = self._paired(game, seat, candidates, start)
            simulations = worlds * len(candidates)
        self.last_search = {"candidates": list(candidates), "worlds": worlds,
                            "advantage": advantage}
        self.stats.searched += 1
        self.stats.simulations += simulations
        self.stats.overruled += best > 0
        self.stats.seconds += time.perf_counter() - start
        return candidates[best]

    def _paired(self, game: "Game", seat: int, candidates: list["Decision"],
                start: float) -> tuple[int, int, list[float]]:
        """Every candidate in every sampled world: (the chosen index, the worlds, each
        candidate's mean paired advantage over the prior)."""
        n = len(candidates)
        diffs: list[list[float]] = [[] for _ in candidates]
        worlds = 0
        while worlds == 0 or not self._spent(worlds * n, start):
            world = determinize(game, seat, self.rng)
            seed = int(self.rng.integers(_SEED_SPACE))
            values = [self._rollout(world, d, seat, seed) for d in candidates]
            for i in range(1, n):
                diffs[i].append(values[i] - values[0])
            worlds += 1
        advantage = [float(np.mean(d)) if d else 0.0 for d in diffs]
        return self._significant_best(diffs), worlds, advantage

    def _puct(self, game: "Game", seat: int, candidates: list["Decision"],
              start: float) -> tuple[int, int, list[float]]:
        """One candidate per sampled world, picked by PUCT: (the most simulated index,
        the worlds, each candidate's mean score minus the prior's, 0 if either has none)."""
        priors = self.candidate_priors(game, seat, candidates)
        visits, totals = np.zeros(len(candidates)), np.zeros(len(candidates))
        worlds = 0
        while worlds == 0 or not self._spent(worlds, start):
            world = determinize(game, seat, self.rng)
            seed = int(self.rng.integers(_SEED_SPACE))
            i = self._puct_pick(priors, visits, totals)
            totals[i] += self._rollout(world, candidates[i], seat, seed)
            visits[i] += 1
            worlds += 1
        means = totals / np.maximum(visits, 1)
        advantage = [float(means[i] - means[0]) if visits[i] and visits[0] else 0.0
                     for i in range(len(candidates))]
        return int(np.argmax(visits)), worlds, advantage

    def _puct_pick(self, priors: np.ndarray, visits: np.ndarray, totals: np.ndarray) -> int:
        """The candidate with the highest PUCT score (the first on a tie)."""
        n = visits.sum()
        first_play = totals.sum() / n if n else 0.0
        q = np.where(visits > 0, totals / np.maximum(visits, 1), first_play)
        return int(np.argmax(q + self.cpuct * priors * math.sqrt(n + 1) / (1 + visits)))

    def _spent(self, simulations: int, start: float) -> bool:
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
        """Play ``first`` in a copy of ``world``, then (with ``rollout``) heuristic
        players to the end or ``horizon`` rounds on; the score of the result for
        ``seat``."""
        g = world.clone()
        g.step(first)
        if self.rollout:
            for p, player in enumerate(self.players):
                player.reset(seed + p)
            stop = g.s.round + self.horizon if self.horizon else None
            while not g.is_over and (stop is None or g.s.round < stop):
                acting = g.acting_seat
                g.step(self.players[acting].choose(g, acting))
        if g.is_over:
            return self.value(g.final_scores, seat)
        if self.use_value:
            return self.net_value(g, seat)
        return self.value([projected_final_vp(g, p) for p in range(4)], seat)

    def net_value(self, game: "Game", seat: int) -> float:
        """The value head's score of ``game`` from ``seat``'s observation of it."""
        encoder = _encoder_for(game)
        obs = {"observation": encoder.encode(game, seat),
               "projected_vp": projected_vp(game, seat)}
        return self.nets[SEAT_FACTION[seat]].value(obs, self.vp_weight)

    def value(self, scores: list[int], seat: int) -> float:
        """Score of final (or projected) VP for ``seat``: win share plus margin term."""
        win, margin = outcome(scores, seat, self.goal)
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
