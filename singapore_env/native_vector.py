"""Many native games in lockstep: :class:`NativeVectorEnv`, the slots of a vector env
stepped in C++ (``native/batch.hpp``) without the GIL, observations and masks written
by the native encoder straight into preallocated arrays.

    venv = NativeVectorEnv(64, seed=1)
    obs, mask, seat = venv.reset()            # (64, D) float32, (64, A) int8, (64,) int64
    obs, mask, seat, rewards, done = venv.step(actions)

``obs[i]``/``mask[i]`` are what ``env(engine="native")`` (and the Python env) shows the
acting seat ``seat[i]`` of slot ``i``. A finished game raises ``done[i]``, writes the
four seats' ``win`` rewards (:mod:`singapore_env.rewards`) to ``rewards[i]`` and its
final VP to ``final_vp[i]``, and the slot has started its next game: game ``k`` of slot
``i`` plays seed :func:`game_seed` ``(seed, i, k)`` (``game_seeds[i]``). The arrays are
overwritten by every call (copy what you keep). An action that is not legal in its slot
raises ValueError before any slot moves.
"""

from __future__ import annotations

import numpy as np

from .engine.config import RulesConfig
from .engine.content import resolve_content
from .native import NativeGame, _config, _content, require
from .native_encoding import native_encoder_for
from .rewards import rewards as final_rewards

__all__ = ["NativeVectorEnv", "game_seed"]


def game_seed(seed: int, slot: int, k: int) -> int:
    """The engine seed of game ``k`` of slot ``slot`` of a vector env seeded ``seed``:
    ``SeedSequence([seed, slot, k]).generate_state(1)[0] >> 1``."""
    return int(np.random.SeedSequence([int(seed), int(slot), int(k)]).generate_state(1)[0]
               >> 1)


class NativeVectorEnv:
    """``num_games`` native games in lockstep (see the module docstring).

    Attributes: ``obs`` (N, D) float32, ``mask`` (N, A) int8, ``seat`` (N,) int64,
    ``rewards`` (N, 4) float32, ``done`` (N,) bool, ``final_vp`` (N, 4) int64,
    ``game_seeds`` (N,) int64; ``obs_size`` D, ``num_actions`` A."""

    def __init__(self, num_games: int, ruleset: str = "standard", seed: int = 0):
        native = require()
        if num_games < 1:
            raise ValueError(f"num_games must be at least 1, got {num_games}")
        cfg = RulesConfig.named(ruleset)
        content = resolve_content(None, cfg.slavery)
        NativeGame(0, cfg, content)  # the native engine's checks of the ruleset
        self.num_games, self.ruleset, self.seed = num_games, ruleset, int(seed)
        encoder = native_encoder_for(content, cfg)
        self.obs_size, self.num_actions = encoder.size, encoder.n_actions
        n = num_games
        self.obs = np.zeros((n, self.obs_size), np.float32)
        self.mask = np.zeros((n, self.num_actions), np.int8)
        self.seat = np.zeros(n, np.int64)
        self.rewards = np.zeros((n, 4), np.float32)
        self.done = np.zeros(n, np.bool_)
        self.final_vp = np.zeros((n, 4), np.int64)
        self.game_seeds = np.zeros(n, np.int64)
        self._writer = encoder._writer
        self._arrays = native.BatchArrays(self.obs, self.mask, self.seat, self.done,
                                          self.final_vp, self.game_seeds)
        self._batch = native.Batch(_content(content), _config(cfg), self._writer, n, self.seed)

    def reset(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Start every slot's first game: (obs, mask, seat)."""
        self._batch.reset(self._writer, self._arrays)
        self.rewards[:] = 0.0
        return self.obs, self.mask, self.seat

    def step(self, actions) -> tuple[np.ndarray, ...]:
        """Apply one action index per slot: (obs, mask, seat, rewards, done)."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_games,) or actions.dtype.kind not in "iu":
            raise ValueError(f"actions: expected {self.num_games} action indices, got an "
                             f"array of shape {actions.shape} and dtype {actions.dtype}")
        self._batch.step(self._writer, actions.astype(np.int64, copy=False), self._arrays)
        self.rewards[:] = 0.0
        for i in np.flatnonzero(self.done):
            self.rewards[i] = final_rewards(self.final_vp[i].tolist(), "win")
        return self.obs, self.mask, self.seat, self.rewards, self.done

    def close(self) -> None:
        """Nothing to release (the games live in this process)."""
