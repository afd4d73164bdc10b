"""Many games in lockstep, for batched learners: :class:`VectorEnv`.

    from singapore_env.vector import VectorEnv
    venv = VectorEnv(64, seed=1, workers=2)
    obs, mask, seat = venv.reset()            # (64, D) float32, (64, A) int8, (64,) int
    while training:
        actions = policy(obs, mask, seat)     # one legal action index per game
        obs, mask, seat, rewards, done = venv.step(actions)
    venv.close()

Every slot holds one game and always shows the question of that game's acting seat:
``obs[i]`` and ``mask[i]`` are exactly what :func:`singapore_env.env` gives that seat
(``observation`` / ``action_mask``), ``seat[i]`` is the seat (0..3, ``AGENTS`` order).
``step`` applies ``actions[i]`` in every slot. When a slot's game ends, ``done[i]`` is
true, ``rewards[i]`` holds the four seats' final rewards (the ``win`` reward mode of
:mod:`singapore_env.rewards`: +1 shared by the winners; zero otherwise) and
``final_vp[i]`` the final scores, and the slot has already started its next game:
``obs[i]`` is that game's first question. The arrays are preallocated and overwritten
by every call (copy what you keep).

Threads: one VectorEnv may be shared by threads; ``reset`` and ``step`` hold its lock, so
a second caller waits for the first to return (then the arrays hold the second call's
rows). The native engine copies the actions before it releases the GIL, so writing
``actions`` during a ``step`` cannot change that step (docs/native.md, "Threads").

Seeding: game ``k`` (0, 1, ...) of slot ``i`` plays engine game ``Game(game_seed(seed, i,
k))``, whatever the number of workers, so a slot's games are those of
``env(seed=game_seed(seed, i, k))`` with the same actions; ``game_seeds[i]`` is the seed of
the slot's current game.

``workers`` > 1 splits the slots among that many processes that write into shared
memory (``multiprocessing.shared_memory``), or on the native engine among that many
threads of its C++ step (in this process); 0 or 1 steps them in this process, on one
thread. Results are the same either way. ``engine`` names the rules implementation behind the slots:
``"python"`` (the engine of :mod:`singapore_env.engine`) or ``"native"`` (its compiled
twin, :mod:`singapore_env.native.vector`: the same rows, stepped in C++; an illegal action
moves no slot there); an unknown name is a ValueError.
"""

from __future__ import annotations

import multiprocessing as mp
import threading
from multiprocessing import shared_memory

import numpy as np

from .encoding import ObservationEncoder
from .engine import Game, IllegalDecision
from .engine.game import check_seed
from .engine.config import RulesConfig
from .engine.content import resolve_content
from .rewards import rewards as final_rewards

__all__ = ["VectorEnv", "game_seed", "ENGINES"]

#: The rules implementations a VectorEnv can run.
ENGINES = ("python", "native")


def game_seed(seed: int, slot: int, k: int) -> int:
    """The engine seed of game ``k`` of slot ``slot`` of a VectorEnv seeded ``seed``."""
    return int(np.random.SeedSequence([int(seed), int(slot), int(k)]).generate_state(1)[0]
               >> 1)


def _fields(n: int, d: int, a: int) -> dict[str, tuple[tuple, type]]:
    """Name -> (shape, dtype) of the arrays a VectorEnv shares with its workers."""
    return {"obs": ((n, d), np.float32), "mask": ((n, a), np.int8),
            "seat": ((n,), np.int64), "rewards": ((n, 4), np.float32),
            "done": ((n,), np.bool_), "final_vp": ((n, 4), np.int64),
            "game_seeds": ((n,), np.int64), "actions": ((n,), np.int64)}


class _Slots:
    """The games of slots ``lo..hi-1`` and the rows of the shared arrays they write."""

    def __init__(self, ruleset: str, seed: int, lo: int, hi: int, arrays: dict):
        self.cfg = RulesConfig.named(ruleset)
        self.content = resolve_content(None, self.cfg.slavery)
        self.encoder = ObservationEncoder(self.content, self.cfg)
        self.decisions = self.encoder.table.decisions
        self.seed, self.lo, self.hi = seed, lo, hi
        self.a = arrays
        self.games: list[Game] = []
        self.played = [0] * (hi - lo)
        self._candidates = None

    def _start(self, i: int) -> Game:
        s = game_seed(self.seed, self.lo + i, self.played[i])
        self.played[i] += 1
        self.a["game_seeds"][self.lo + i] = s
        return Game(s, self.cfg, self.content)

    def _show(self, row: int, game: Game) -> None:
        seat = game.acting_seat
        self.a["seat"][row] = seat
        self.encoder.encode(game, seat, self.a["obs"][row])
        self.encoder.legal_mask(game, seat, self.a["mask"][row])

    def reset(self) -> None:
        self.played = [0] * (self.hi - self.lo)
        self.games = [self._start(i) for i in range(self.hi - self.lo)]
        a = self.a
        a["rewards"][self.lo:self.hi] = 0.0
        a["done"][self.lo:self.hi] = False
        a["final_vp"][self.lo:self.hi] = 0
        for i, game in enumerate(self.games):
            self._show(self.lo + i, game)

    def game(self, row: int) -> Game:
        return self.games[row - self.lo]

    def candidates(self, rows, card, features, projected) -> None:
        if self._candidates is None:
            from .candidates import CandidateEncoder
            self._candidates = CandidateEncoder.for_observations(self.encoder)
        k = features.shape[2]
        for j, row in enumerate(rows):
            c = self._candidates.encode(self.games[row - self.lo], int(self.a["seat"][row]))
            card[j], features[j], projected[j] = (c["candidate_card"],
                                                  c["candidate_features"][:, :k],
                                                  c["projected_vp"])

    def step(self) -> None:
        a, decisions = self.a, self.decisions
        actions = a["actions"]
        rewards, done, final_vp = a["rewards"], a["done"], a["final_vp"]
        for i, game in enumerate(self.games):
            row = self.lo + i
            action = int(actions[row])
            try:
                if not 0 <= action < len(decisions):
                    raise IllegalDecision(f"not an action index (0..{len(decisions) - 1})")
                game.step(decisions[action])
            except IllegalDecision as exc:
                raise ValueError(f"slot {row}: action {action} is not legal now "
                                 f"(legal: {self.encoder.legal_indices(game)}): {exc}") from None
            if game.is_over:
                final = game.final_scores
                rewards[row] = final_rewards(final, "win")
                final_vp[row] = final
                done[row] = True
                game = self.games[i] = self._start(i)
            elif done[row]:
                rewards[row] = 0.0
                final_vp[row] = 0
                done[row] = False
            self._show(row, game)


def _worker(conn, ruleset: str, seed: int, lo: int, hi: int, names: dict,
            n: int, d: int, a: int) -> None:
    """A worker process: steps its slots on command, in the shared arrays."""
    blocks, arrays = [], {}
    for key, (shape, dtype) in _fields(n, d, a).items():
        shm = shared_memory.SharedMemory(name=names[key])
        blocks.append(shm)
        arrays[key] = np.ndarray(shape, dtype, buffer=shm.buf)
    slots = _Slots(ruleset, seed, lo, hi, arrays)
    try:
        while True:
            command = conn.recv()
            if command == "close":
                break
            try:
                getattr(slots, command)()
                conn.send(None)
            except Exception as exc:  # reported to the parent, which raises it
                conn.send(f"{type(exc).__name__}: {exc}")
    finally:
        del arrays, slots
        for shm in blocks:
            shm.close()
        conn.close()


class VectorEnv:
    """``num_games`` games in lockstep (see the module docstring).

    Attributes after :meth:`reset`: ``obs`` (N, D) float32, ``mask`` (N, A) int8,
    ``seat`` (N,) int64, ``rewards`` (N, 4) float32, ``done`` (N,) bool, ``final_vp``
    (N, 4) int64, ``game_seeds`` (N,) int64; ``obs_size`` D, ``num_actions`` A."""

    def __init__(self, num_games: int, ruleset: str = "standard", seed: int | None = None,
                 engine: str = "python", workers: int = 0):
        if engine not in ENGINES:
            raise ValueError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
        if num_games < 1:
            raise ValueError(f"num_games must be at least 1, got {num_games}")
        if workers < 0:
            raise ValueError(f"workers must be 0 or more, got {workers}")
        if engine == "native":
            from .native import require
            require()  # here, not in a worker: NativeUnavailable says why
        cfg = RulesConfig.named(ruleset)
        encoder = ObservationEncoder(resolve_content(None, cfg.slavery), cfg)
        self.num_games, self.ruleset, self.engine = num_games, ruleset, engine
        self._lock = threading.Lock()  # one reset or step at a time
        self.seed = (int(np.random.SeedSequence().entropy % 2**31) if seed is None
                     else check_seed(seed))  # (as Game takes it, on either engine)
        self.obs_size, self.num_actions = encoder.size, len(encoder.table)
        #: The decision of each action index (:class:`~singapore_env.engine.decisions.ActionTable`).
        self.action_table = encoder.table
        self.workers = min(workers, num_games) if workers > 1 else 0
        # worker processes (the native engine's workers are threads of its step)
        self._processes = self.workers if engine == "python" else 0
        fields = _fields(num_games, self.obs_size, self.num_actions)
        self._shm: list[shared_memory.SharedMemory] = []
        self._conns, self._procs = [], []
        arrays = {}
        for key, (shape, dtype) in fields.items():
            size = max(1, int(np.prod(shape)) * np.dtype(dtype).itemsize)
            if self._processes:
                shm = shared_memory.SharedMemory(create=True, size=size)
                self._shm.append(shm)
                arrays[key] = np.ndarray(shape, dtype, buffer=shm.buf)
            else:
                arrays[key] = np.zeros(shape, dtype)
        for key, value in arrays.items():
            setattr(self, key, value)
        self._arrays = arrays
        if self._processes:
            self._start_workers({k: s.name for k, s in zip(fields, self._shm)})
        elif engine == "native":
            from .native.vector import NativeSlots
            self._slots = NativeSlots(ruleset, self.seed, 0, num_games, arrays,
                                      threads=max(1, self.workers))
        else:
            self._slots = _Slots(ruleset, self.seed, 0, num_games, arrays)

    def _start_workers(self, names: dict) -> None:
        ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        bounds = np.linspace(0, self.num_games, self.workers + 1).astype(int)
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_worker, daemon=True,
                               args=(child, self.ruleset, self.seed, int(lo),
                                     int(hi), names,
                                     self.num_games, self.obs_size, self.num_actions))
            proc.start()
            child.close()
            self._conns.append(parent)
            self._procs.append(proc)

    def _run(self, command: str) -> None:
        if not self._processes:
            getattr(self._slots, command)()
            return
        if not self._conns:
            raise RuntimeError("this VectorEnv is closed")
        for conn in self._conns:
            conn.send(command)
        errors = [e for e in (conn.recv() for conn in self._conns) if e is not None]
        if errors:
            raise ValueError("; ".join(errors))

    def reset(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Start every slot's first game: ``(obs, mask, seat)``."""
        with self._lock:
            self._run("reset")
        return self.obs, self.mask, self.seat

    def step(self, actions) -> tuple[np.ndarray, ...]:
        """Apply one action per slot: ``(obs, mask, seat, rewards, done)``. An illegal
        action raises ValueError naming the slot (the other slots may have stepped)."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_games,):
            raise ValueError(f"expected {self.num_games} actions, got shape {actions.shape}")
        with self._lock:
            self.actions[:] = actions
            self._run("step")
        return self.obs, self.mask, self.seat, self.rewards, self.done

    def candidates(self, slots, n_features: int | None = None
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The candidate keys (:mod:`singapore_env.candidates`, no prior) of the acting
        seat of each of ``slots``: ``candidate_card`` (S, A), the first ``n_features``
        columns of ``candidate_features`` (S, A, n_features; by default the rules
        facts, :data:`~singapore_env.candidates.RULES_FEATURES`) and ``projected_vp``
        (S, 4). Written in C++ on the native engine; not with worker processes."""
        from .candidates import FEATURES, RULES_FEATURES

        n_features = len(RULES_FEATURES) if n_features is None else n_features
        if not len(RULES_FEATURES) <= n_features <= len(FEATURES):
            raise ValueError(f"n_features must be {len(RULES_FEATURES)} to {len(FEATURES)}, "
                             f"got {n_features}")
        if self._processes:
            raise ValueError("candidates: the slots live in worker processes (workers > 1 "
                             "on the python engine); use workers=0 or engine='native'")
        n = len(slots)
        card = np.empty((n, self.num_actions), np.float32)
        features = np.empty((n, self.num_actions, n_features), np.float32)
        projected = np.empty((n, 4), np.float32)
        with self._lock:
            self._slots.candidates(slots, card, features, projected)
        return card, features, projected

    def game(self, slot: int):
        """The game of ``slot`` now, to read (on the native engine a
        :class:`~singapore_env.native.NativeGame` copy; on the python engine, without
        worker processes, the slot's own game: do not step it)."""
        if self._processes:
            raise ValueError("game: the slots live in worker processes")
        if not 0 <= slot < self.num_games:
            raise IndexError(f"no slot {slot} (0..{self.num_games - 1})")
        with self._lock:
            return self._slots.game(slot)

    def close(self) -> None:
        """Stop the workers and free the shared memory (idempotent)."""
        for conn in self._conns:
            try:
                conn.send("close")
            except (BrokenPipeError, OSError):
                pass
        for proc in self._procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
        self._conns, self._procs = [], []
        for key in list(self._arrays):
            setattr(self, key, None)
        self._arrays = {}
        for shm in self._shm:
            shm.close()
            shm.unlink()
        self._shm = []

    def __enter__(self) -> "VectorEnv":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_shm", None) or getattr(self, "_procs", None):
            self.close()
