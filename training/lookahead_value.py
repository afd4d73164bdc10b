"""The value networks of a lookahead pair (``learned:pure``):
``singapore-1819 train --config training/configs/pure_value.toml --out DIR``.

:class:`agents.lookahead.LookaheadPolicies` plays a student pair and, on the main Action
question, the answer whose resulting position its faction's value network scores
highest. This trainer fits those value networks on the positions that the lookahead
player's own answers lead to, against heuristic opponents: a step of policy iteration
with a learned evaluation. Each of ``iterations`` rounds, for each faction:

1. **Play**: ``games`` games, the faction's two seats played by the lookahead player
   (the ``student`` pair with the current value networks: ``init``'s value heads in the
   first round, the previous round's after; with ``lookahead_rollout`` false it reads the value
   right after each answer instead of rolling on), the other faction's by two heuristic
   players. On each main Action question with more than one answer, with probability
   ``explore`` a random one of the student's proposals is played instead of the
   lookahead's choice. The position after the answer is recorded from the seat's view
   (its observation and the projected VP) with the game's outcome for its faction (win
   share, VP margin: :func:`agents.outcome.outcome`).
2. **Fit**: from ``init``'s trunk and value head, ``epochs`` passes (Adam) over every
   round's positions so far, cross-entropy of the win share plus squared error of the
   margin. The positions of the last seventh of the games (at least one game) are held
   out; the epoch with the lowest held-out cross-entropy is kept (``init``'s head if
   none is lower).

Games are played in jobs of ``job_games``: job ``j`` of round ``r`` and faction ``f``
plays the game seeds from ``seed + 200,000 (r - 1) + 100,000 f + job_games j`` on, its
exploration draws seeded by that first seed, so the rows do not depend on ``workers``.

Files in ``--out``: ``config.json``; ``round{k}/{faction}.rows.npz`` (the positions) and
``round{k}/{faction}.npz`` (the value network: the trunk and the value head of a pointer
actor, :data:`agents.pointer_actor.VALUE_KEYS`); ``british.npz`` / ``malay.npz`` (the
last round's); ``progress.csv`` (per round and faction: positions, the held-out
cross-entropy of ``init``'s head and of the fit, seconds). Started again on the same
folder, a run goes on from the first file that is missing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from agents.pointer_actor import VALUE_KEYS, PointerActor
from singapore_env.engine.content import FACTIONS, SEAT_FACTION

from .config import TrainConfig
from .config_checks import LOOKAHEAD_FACTION_SEEDS as FACTION_SEEDS
from .progress import append_progress
from .rounds import claim_out_dir, publish_last_round, round_seed, run_jobs
from .sparse_rows import SparseRows

ALGORITHM = "lookahead_value"
PROGRESS_FIELDS = ["round", "faction", "positions", "held_out_bce_init", "held_out_bce",
                   "seconds"]
#: Game seeds of one round, apart from the next round's (a faction's: FACTION_SEEDS).
ROUND_SEEDS = 2 * FACTION_SEEDS
#: Share of the games (the last ones) whose positions are held out of a fit.
HELD_OUT = 7


@dataclass
class Positions:
    """Recorded positions: sparse observations, projected VP, outcomes, game seeds."""

    observations: SparseRows
    projected_vp: np.ndarray  # (n, 4) float32
    outcomes: np.ndarray  # (n, 2) float32: win share, VP margin
    games: np.ndarray  # (n,) int64: the game seed of each position

    def __len__(self) -> int:
        return len(self.outcomes)

    def save(self, path: Path) -> None:
        """Write the positions to ``path`` (a compressed ``.npz``)."""
        o = self.observations
        np.savez_compressed(path, indptr=o.indptr, indices=o.indices, values=o.values,
                            width=o.row_shape[0], projected_vp=self.projected_vp,
                            outcomes=self.outcomes, games=self.games)

    @classmethod
    def load(cls, path: Path) -> "Positions":
        """The positions saved at ``path``."""
        with np.load(path) as d:
            rows = SparseRows(d["indptr"], d["indices"], d["values"], (int(d["width"]),))
            return cls(rows, d["projected_vp"], d["outcomes"], d["games"])

    @classmethod
    def join(cls, parts: list["Positions"]) -> "Positions":
        """The positions of ``parts`` one after the other."""
        return cls(SparseRows.concatenate([p.observations for p in parts]),
                   *(np.concatenate([getattr(p, k) for p in parts])
                     for k in ("projected_vp", "outcomes", "games")))


def job_seed(cfg: TrainConfig, round_: int, faction: int, job: int) -> int:
    """The first game seed of a job (also its exploration draws' seed)."""
    return (cfg.seed + ROUND_SEEDS * (round_ - 1) + FACTION_SEEDS * faction
            + cfg.job_games * job)


def play(student: str, values: str, faction: int, first_seed: int, games: int,
         explore: float, rollout: bool) -> Positions:
    """The positions of ``games`` games from ``first_seed`` on (module docstring)."""
    from agents.heuristic import HeuristicAgent
    from agents.learned import LearnedAgent, load_value_nets
    from agents.lookahead import LookaheadPolicies
    from agents.outcome import outcome
    from agents.reference import FactionPolicies
    from singapore_env.candidates import projected_vp
    from singapore_env.encoding import encoder_for
    from singapore_env.engine import Game

    pair = FactionPolicies({f: LearnedAgent.load(Path(student) / f"{name}.npz")
                            for f, name in enumerate(FACTIONS)})
    player = LookaheadPolicies(pair, load_value_nets(Path(values)), rollout=rollout)
    rng = np.random.default_rng(first_seed)
    indices, values_, pvp, outcomes, seeds = [], [], [], [], []
    for seed in range(first_seed, first_seed + games):
        game = Game(seed, keep_text_log=False)
        encoder = encoder_for(game.c, game.cfg)
        opponents = {p: HeuristicAgent(seed + p) for p in range(4)}
        player.reset(seed)
        recorded = []
        while not game.is_over:
            seat = game.acting_seat
            if SEAT_FACTION[seat] != faction:
                game.step(opponents[seat].choose(game, seat))
                continue
            legal = game.legal_decisions()
            candidates = player.candidates(game, seat, legal)
            if candidates and rng.random() < explore:
                game.step(legal[int(rng.choice(candidates))])
            else:
                game.step(player.choose(game, seat))
            if candidates:
                x = encoder.encode(game, seat)
                nonzero = np.flatnonzero(x)
                indices.append(nonzero.astype(np.int32))
                values_.append(x[nonzero])
                pvp.append(projected_vp(game, seat))
                recorded.append(seat)
        outcomes += [outcome(game.final_scores, seat) for seat in recorded]
        seeds += [seed] * len(recorded)
    indptr = np.concatenate([[0], np.cumsum([len(i) for i in indices])]).astype(np.int64)
    rows = SparseRows(indptr, np.concatenate(indices or [np.zeros(0, np.int32)]),
                      np.concatenate(values_ or [np.zeros(0, np.float32)]),
                      (encoder.size,))
    return Positions(rows, np.array(pvp, np.float32).reshape(-1, 4),
                     np.array(outcomes, np.float32).reshape(-1, 2), np.array(seeds, np.int64))


def fit(cfg: TrainConfig, init: Path, positions: Positions, seed: int) -> tuple:
    """A value network from the pointer actor at ``init`` fitted to ``positions``:
    ``(actor, held-out cross-entropy of init's head, of the fit's)``; the actor holds the
    trunk and the value head (``meta["value_only"]``)."""
    import torch

    from agents.learned import NumpyPolicy
    from agents.threads import limit_threads

    from .policy_value import PolicyValueNet

    limit_threads()
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    start = NumpyPolicy.load(init)
    net = PolicyValueNet.from_actor(start)
    games = np.unique(positions.games)
    held_games = games[len(games) - max(1, len(games) // HELD_OUT):]
    is_held = np.isin(positions.games, held_games)
    held, train = np.flatnonzero(is_held), np.flatnonzero(~is_held)
    params = [*net.trunk.parameters(), *net.value_head.parameters()]
    opt = torch.optim.Adam(params, lr=cfg.learning_rate)
    before = best = _cross_entropy(net, positions, held)
    kept = _value_actor(net, start.activation)
    for _ in range(cfg.epochs):
        order = rng.permutation(train)
        for s in range(0, len(order), cfg.minibatch_size):
            win, margin = _losses(net, positions, order[s:s + cfg.minibatch_size])
            opt.zero_grad()
            (win + margin).backward()
            opt.step()
        held_out = _cross_entropy(net, positions, held)
        if held_out < best:
            best, kept = held_out, _value_actor(net, start.activation)
    return kept, before, best


def _value_actor(net, activation: str) -> PointerActor:
    """The trunk and value head of ``net`` as a numpy pointer actor."""
    arrays = net.to_actor().arrays
    keep = [k for k in arrays if k[0] in "wb" and k[1:].isdigit()] + list(VALUE_KEYS)
    return PointerActor({k: arrays[k] for k in keep}, activation, {"value_only": True})


def _losses(net, positions: Positions, ids: np.ndarray):
    """Cross-entropy of the win share and squared error of the margin on ``ids``."""
    import torch

    x = torch.from_numpy(np.asarray(positions.observations[ids]))
    pv = torch.from_numpy(positions.projected_vp[ids])
    y = torch.from_numpy(positions.outcomes[ids])
    out = net.value_head.logits(net.trunk(torch.cat([x, pv], 1)), pv)
    win = torch.nn.functional.binary_cross_entropy_with_logits(out[:, 0], y[:, 0])
    return win, ((torch.tanh(out[:, 1]) - y[:, 1]) ** 2).mean()


def _cross_entropy(net, positions: Positions, ids: np.ndarray) -> float:
    """The mean win-share cross-entropy on ``ids``."""
    import torch

    total = 0.0
    with torch.no_grad():
        for s in range(0, len(ids), 2048):
            total += _losses(net, positions, ids[s:s + 2048])[0].item() * len(ids[s:s + 2048])
    return total / max(len(ids), 1)


def _play_job(args) -> Positions:
    from agents.threads import limit_threads

    limit_threads()
    return play(*args)


def _fit_job(args) -> dict:
    from agents.threads import limit_threads

    limit_threads()
    cfg, out, round_, faction = args
    started = time.perf_counter()
    name = FACTIONS[faction]
    positions = Positions.join([Positions.load(out / f"round{k}" / f"{name}.rows.npz")
                                for k in range(1, round_ + 1)])
    actor, before, after = fit(cfg, Path(cfg.init) / f"{name}.npz", positions,
                               round_seed(cfg.seed, round_, faction))
    actor.meta.update(faction=name, trainer=ALGORITHM, round=round_, **cfg.layout_meta())
    here = out / f"round{round_}"
    actor.save(here / f"{name}.tmp.npz")
    (here / f"{name}.tmp.npz").replace(here / f"{name}.npz")
    return {"round": round_, "faction": name, "positions": len(positions),
            "held_out_bce_init": round(before, 4), "held_out_bce": round(after, 4),
            "seconds": round(time.perf_counter() - started, 1)}


def train(cfg: TrainConfig, out: str | Path, log: Callable[[str], None] = print) -> None:
    """Run (or finish) every round in ``out``; the last round's value networks are copied
    to ``out/british.npz`` and ``out/malay.npz``."""
    out = claim_out_dir(out, cfg.to_dict())
    trained = False
    for round_ in range(1, cfg.iterations + 1):
        here = out / f"round{round_}"
        here.mkdir(exist_ok=True)
        values = cfg.init if round_ == 1 else out / f"round{round_ - 1}"
        todo = [f for f in range(len(FACTIONS)) if not (here / f"{FACTIONS[f]}.rows.npz").exists()]
        if todo:
            log(f"round {round_}: {cfg.games} games a faction, value networks from {values}")
        jobs = [(cfg.student, str(values), f, job_seed(cfg, round_, f, j),
                 min(cfg.job_games, cfg.games - j * cfg.job_games), cfg.explore, cfg.lookahead_rollout)
                for f in todo for j in range(-(-cfg.games // cfg.job_games))]
        played = run_jobs(_play_job, jobs, cfg.workers)
        for f in todo:
            Positions.join([p for job, p in zip(jobs, played) if job[2] == f]).save(
                here / f"{FACTIONS[f]}.rows.tmp.npz")
            (here / f"{FACTIONS[f]}.rows.tmp.npz").replace(here / f"{FACTIONS[f]}.rows.npz")
        fits = [(cfg, out, round_, f) for f in range(len(FACTIONS))
                if not (here / f"{FACTIONS[f]}.npz").exists()]
        trained = trained or bool(fits)
        for row in run_jobs(_fit_job, fits, cfg.workers):
            append_progress(out / "progress.csv", PROGRESS_FIELDS, row)
            log(f"round {row['round']} {row['faction']}: {row['positions']:,} positions, "
                f"held-out cross-entropy {row['held_out_bce_init']:.4f} -> "
                f"{row['held_out_bce']:.4f}")
    publish_last_round(out, cfg.iterations, trained)


def run_cli(cfg: TrainConfig, out: str | Path, log: Callable[[str], None] = print) -> None:
    """``singapore-1819 train`` with a lookahead value config."""
    train(cfg, out, log)
    log(f"value networks: {out}/british.npz, {out}/malay.npz (agents/lookahead.py plays "
        f"them with the student pair {cfg.student})")
