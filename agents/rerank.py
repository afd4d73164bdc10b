"""A distilled search without search: a network picks among the heuristic's candidates.

``RerankAgent`` (``rerank:net=PATH`` in :func:`agents.registry.make_agent`) asks the
same questions as :class:`~agents.mcts.MctsAgent` and keeps the same root candidates
(the heuristic's choice, the *prior*, plus up to ``topk - 1`` other legal decisions the
heuristic scores within ``gap`` of it: :func:`~agents.mcts.heuristic_candidates`), but
instead of playing rollouts it takes the candidate the network of the seat's faction
scores highest (one forward pass; the prior on a tie). ``margin`` (logits, default 0)
raises the prior's score: another candidate must beat it by that much, from the
network alone (0) to the heuristic alone (a large margin). Every other question goes to the
heuristic, as in the search. So it plays like the heuristic except where the network
prefers another of its close candidates.

``net`` is a pointer-policy ``.npz`` (both factions), a folder holding ``british.npz``
and ``malay.npz``, or a shipped network's name (:func:`agents.learned.net_path`):
``zero``, also when not given (the self-play networks of ``learned:zero``, whose policy
heads score the candidates; ``docs/agents.md`` has its strength).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from singapore_env.engine.content import SEAT_FACTION

from .base import Agent
from .heuristic import DEFAULT_PARAMS, HeuristicAgent
from .learned import PolicyView, load_value_nets, reads_prior
from .mcts import SEARCHED, heuristic_candidates, prior_answer
from .net_files import NetFileError

if TYPE_CHECKING:  # pragma: no cover
    from singapore_env.engine import Game
    from singapore_env.engine.decisions import Decision


#: The questions the network may overrule, as the C++ player takes them.
_SEARCHED = sorted(SEARCHED)


class RerankAgent(Agent):
    """The heuristic, except that a network chooses among its close candidates."""

    name = "rerank"
    #: Parameters (``rerank:key=value``) and their defaults.
    PARAMS = {"net": "zero", "topk": 3, "gap": 1.0, "margin": 0.0}

    def __init__(self, seed: int | None = None, net: str = "zero", topk: int = 3,
                 gap: float = 1.0, margin: float = 0.0):
        if not net:
            raise ValueError("rerank: give the network, rerank:net=PATH (or net=zero)")
        if topk < 1 or gap < 0 or margin < 0:
            raise ValueError(f"rerank: topk must be >= 1, gap and margin >= 0, got "
                             f"{topk}, {gap}, {margin}")
        try:
            nets = load_value_nets(net, need_value=False)
        except NetFileError:
            raise  # (it names the file and the array)
        except (OSError, ValueError) as exc:
            raise ValueError(f"rerank: net={net}: {exc}") from None
        self.net, self.topk, self.gap, self.margin = net, topk, gap, margin
        self._views = {f: PolicyView(n) for f, n in nets.items()}
        self._known_priors = all(n.meta.get("candidate_prior") in (None, "heuristic")
                                 for n in nets.values())
        self._prior_columns = (reads_prior(nets[0]), reads_prior(nets[1]))
        self.prior = HeuristicAgent(seed)
        #: Decisions where the network chose another candidate than the prior.
        self.overruled = 0

    @property
    def plays_native(self) -> bool:
        """At a :class:`~singapore_env.native.NativeGame` the heuristic's native twin
        answers, scores the candidates and writes the prior's columns, and the network
        runs in C++: the same decisions (the network's up to its near-ties, 1e-4)."""
        return self.prior.plays_native

    def networks(self) -> list:
        """Both factions' networks."""
        return [view.policy for view in self._views.values()]

    def reset(self, seed: int | None = None) -> None:
        """New game; with ``seed`` the prior's tie breaks repeat."""
        if seed is not None:
            self.prior.reset(seed)

    def choose(self, game: "Game", seat: int) -> "Decision":
        """The candidate the network scores highest, the prior's score raised by
        ``margin`` (the prior unless another one scores strictly higher). At a native
        game, one C++ call (``native/rerank.hpp``) decides when the networks read the
        heuristic's prior columns or none, and the prior plays with its default params
        (the prior columns' scorer); otherwise the steps below, each on the native
        twins."""
        native = sys.modules.get("singapore_env.native")  # not imported: no native game exists
        if native is not None and isinstance(game, native.NativeGame) and self._compiled():
            return self._choose_in_cpp(native, game, seat)
        prior, open_question = prior_answer(self.prior, game, seat)
        if not open_question:
            return prior
        candidates = heuristic_candidates(self.prior, game, seat, prior, self.topk, self.gap)
        if len(candidates) == 1:
            return prior
        scores = self._views[SEAT_FACTION[seat]].decision_logits(game, seat, candidates)
        scores[0] += self.margin
        best = max(range(len(candidates)), key=lambda i: (scores[i], -i))
        self.overruled += best > 0
        return candidates[best]

    def _compiled(self) -> bool:
        """Whether the C++ rerank player decides as the steps of :meth:`choose` do: each
        network reads no prior or the heuristic's, scored with the params the prior
        plays with."""
        return self._known_priors and (not any(self._prior_columns)
                                       or self.prior.params == DEFAULT_PARAMS)

    def _choose_in_cpp(self, native, game, seat: int) -> "Decision":
        from .native_nets import rerank_choose

        # the prior's twin params and generator stream: its decisions and draws
        decision, overruled = rerank_choose(
            game, seat, self.prior.native_params(native), self.prior.native_stream(native),
            (self._views[0].policy, self._views[1].policy), self._prior_columns,
            _SEARCHED, self.topk, self.gap, self.margin)
        self.overruled += overruled
        return decision
