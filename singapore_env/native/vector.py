"""The slots of :class:`singapore_env.vector.VectorEnv` on the native engine
(``VectorEnv(n, engine="native")``): the games stepped in C++ (``native/batch.hpp``)
without the GIL, split among ``threads`` threads (the vector env's ``workers``), their
observations and masks written by the native encoder straight into the vector env's
arrays.

The rows are those of the Python slots for the same seeds and actions: game ``k`` of
slot ``i`` plays seed ``game_seed(seed, i, k)`` (computed in C++, the same
``SeedSequence``), a finished game writes its final VP and ``win`` rewards and the slot
starts its next game, whatever the number of threads. One difference: an illegal action
raises ValueError (the Python slots' words: the slot, the action, the legal ones, the
engine's refusal) before any slot of the batch has moved.

The actions are copied before the GIL is released, and the C++ batch is stepped by one
caller at a time (docs/native.md, "Threads").
"""

from __future__ import annotations

from ..engine.config import RulesConfig
from ..engine.content import resolve_content
from ..engine.game import IllegalDecision
from .game import NativeGame, _wrap
from .loading import require
from .random_stream import seed_words
from .records import _config, _content
from .encoding import layout_record, native_encoder_for
from ..rewards import rewards as final_rewards

__all__ = ["NativeSlots"]


class NativeSlots:
    """The native games of slots ``lo..hi-1`` and the rows of the arrays they write
    (the vector env's ``arrays``: obs, mask, seat, rewards, done, final_vp, game_seeds,
    actions), stepped by ``threads`` threads."""

    def __init__(self, ruleset: str, seed: int, lo: int, hi: int, arrays: dict,
                 threads: int = 1):
        native = require()
        cfg = RulesConfig.named(ruleset)
        content = resolve_content(None, cfg.slavery)
        NativeGame(0, cfg, content)  # the native engine's checks of the ruleset
        self._encoder = encoder = native_encoder_for(content, cfg)
        self.cfg, self.content = cfg, content
        self.lo, self.hi, self.a = lo, hi, arrays
        self._writer = encoder._writer
        self._candidate_writers: dict = {}
        self._rows = native.BatchArrays(*(arrays[k][lo:hi] for k in (
            "obs", "mask", "seat", "done", "final_vp", "game_seeds")))
        self._batch = native.Batch(_content(content), _config(cfg), self._writer, hi - lo,
                                   seed_words(seed), lo, threads)

    def reset(self) -> None:
        """Start every slot's first game."""
        self._batch.reset(self._writer, self._rows)
        self.a["rewards"][self.lo:self.hi] = 0.0

    def step(self) -> None:
        """Apply ``arrays["actions"]`` of these slots; an illegal one is a ValueError
        and no slot moves."""
        actions = self.a["actions"][self.lo:self.hi].copy()
        illegal = self._batch.step(self._writer, actions, self._rows)
        if illegal >= 0:
            raise self._refusal(illegal, int(actions[illegal]))
        rewards, done, final_vp = self.a["rewards"], self.a["done"], self.a["final_vp"]
        rewards[self.lo:self.hi] = 0.0
        for row in range(self.lo, self.hi):
            if done[row]:
                rewards[row] = final_rewards(final_vp[row].tolist(), "win")

    def game(self, row: int) -> NativeGame:
        """A copy of slot ``row``'s game."""
        return _wrap(self._batch.game(row - self.lo), self.cfg, self.content,
                     int(self.a["game_seeds"][row]))

    def candidates(self, rows, card, features, projected) -> None:
        """Write the candidate keys of the acting seat of slots ``rows`` into row ``j``
        of ``card`` (·, A), ``features`` (·, A, k) and ``projected`` (·, 4)."""
        native = require()
        k = features.shape[2]
        writer = self._candidate_writers.get(k)
        if writer is None:
            record = layout_record(self._encoder.python)
            writer = self._candidate_writers[k] = native.CandidateWriter(
                record["action_offset"], record["action_size"], self._encoder.n_actions, k,
                self.cfg.max_tableau)
        projected_vp = native.CandidateWriter.projected_vp
        for j, row in enumerate(rows):
            game, seat = self._batch.game(int(row) - self.lo), int(self.a["seat"][row])
            writer.write(game, seat, card[j], features[j])
            projected_vp(game, seat, projected[j])

    def _refusal(self, i: int, action: int) -> ValueError:
        """The ValueError of slot ``lo + i``'s illegal ``action``, in the Python slots'
        words (the legal indices in engine order, the engine's refusal)."""
        row = self.lo + i
        game = _wrap(self._batch.game(i), self.cfg, self.content, int(self.a["game_seeds"][row]))
        decisions, legal = self._encoder.table.decisions, self._encoder.legal_indices(game)
        try:
            if not 0 <= action < len(decisions):
                raise IllegalDecision(f"not an action index (0..{len(decisions) - 1})")
            game.step(decisions[action])
            why = "the engines disagree"  # (the native batch refused what a game takes)
        except IllegalDecision as exc:
            why = str(exc)
        return ValueError(f"slot {row}: action {action} is not legal now "
                          f"(legal: {legal}): {why}")
