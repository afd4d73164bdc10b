"""The slots of :class:`singapore_env.vector.VectorEnv` on the native engine
(``VectorEnv(n, engine="native")``): the games stepped in C++ (``native/batch.hpp``)
without the GIL, split among ``threads`` threads (the vector env's ``workers``), their
observations and masks written by the native encoder straight into the vector env's
arrays.

The rows are those of the Python slots for the same seeds and actions: game ``k`` of
slot ``i`` plays seed ``game_seed(seed, i, k)`` (computed in C++, the same
``SeedSequence``), a finished game writes its final VP and ``win`` rewards and the slot
starts its next game, whatever the number of threads. One difference: an illegal action
raises ValueError before any slot of the batch has moved.
"""

from __future__ import annotations

from ..engine.config import RulesConfig
from ..engine.content import resolve_content
from . import NativeGame, _config, _content, require
from .encoding import native_encoder_for
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
        encoder = native_encoder_for(content, cfg)
        self.lo, self.hi, self.a = lo, hi, arrays
        self._writer = encoder._writer
        self._rows = native.BatchArrays(*(arrays[k][lo:hi] for k in (
            "obs", "mask", "seat", "done", "final_vp", "game_seeds")))
        self._batch = native.Batch(_content(content), _config(cfg), self._writer, hi - lo,
                                   int(seed), lo, threads)

    def reset(self) -> None:
        """Start every slot's first game."""
        self._batch.reset(self._writer, self._rows)
        self.a["rewards"][self.lo:self.hi] = 0.0

    def step(self) -> None:
        """Apply ``arrays["actions"]`` of these slots."""
        self._batch.step(self._writer, self.a["actions"][self.lo:self.hi], self._rows)
        rewards, done, final_vp = self.a["rewards"], self.a["done"], self.a["final_vp"]
        rewards[self.lo:self.hi] = 0.0
        for row in range(self.lo, self.hi):
            if done[row]:
                rewards[row] = final_rewards(final_vp[row].tolist(), "win")
