"""An optional imitation warm start of the self-play networks (``imitation_games`` > 0).

A teacher (any agent spec, such as ``heuristic`` or ``mcts:iters=24``) plays every
seat of ``imitation_games`` games; each decision becomes a row of its faction: the deciding
seat's observation (compact: its non-zero entries), its legal actions, the teacher's
action and the faction's final share of the win. Each faction's network then learns
the teacher's actions (cross-entropy over the legal actions) and the outcomes (its
value head, MSE) for ``imitation_epochs`` passes. The networks still read only the
observation: the teacher's heuristic never reaches them as an input.

The games use seeds of their own (``arena`` seeds from ``IMITATION_SEED + seed``), not
the evaluation's.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
import torch

from singapore_env.engine.content import SEAT_FACTION

from training.network.actor_critic import ActorCritic
from training.network.rows import legal_rows, sparse_rows, to_csr
from training.loop.rollout import LEGAL_WIDTH, NONZERO_WIDTH

IMITATION_SEED = 70_000


def _play(args) -> list[dict]:
    """One game of the teacher on every seat: its rows per faction."""
    from agents.base import _encoder_for
    from agents.registry import make_agent
    from singapore_env.engine import Game
    from singapore_env.engine.config import RulesConfig

    teacher, seeds, ruleset = args
    engine_seed, *agent_seeds = seeds
    agents = [make_agent(teacher, seed=s) for s in agent_seeds]
    game = Game(engine_seed, RulesConfig.named(ruleset))
    encoder = _encoder_for(game)
    obs = np.zeros((1, encoder.size), np.float32)
    mask = np.zeros((1, len(encoder.table)), np.int8)
    rows: list[list] = [[], []]
    while not game.is_over:
        seat = game.acting_seat
        decision = agents[seat].choose(game, seat)
        encoder.encode(game, seat, obs[0])
        encoder.legal_mask(game, seat, mask[0])
        index, value = sparse_rows(obs, NONZERO_WIDTH)
        legal = legal_rows(mask, LEGAL_WIDTH, len(encoder.table))
        action = encoder.table.index(decision)
        rows[SEAT_FACTION[seat]].append((index[0], value[0], legal[0],
                                         int(np.flatnonzero(legal[0] == action)[0])))
        game.step(decision)
    win = [0.0, 0.0]
    for seat in game.winners:
        win[SEAT_FACTION[seat]] += 1.0 / len(game.winners)
    return [{"rows": r, "outcome": win[f], "n_actions": len(encoder.table)}
            for f, r in enumerate(rows)]


def _stack(rows: list[np.ndarray], fill) -> np.ndarray:
    """One array of compact rows of unequal widths, the narrower padded with ``fill``."""
    out = np.full((len(rows), max(len(r) for r in rows)), fill, rows[0].dtype)
    for i, row in enumerate(rows):
        out[i, :len(row)] = row
    return out


def collect(teacher: str, n_games: int, seed: int, ruleset: str, workers: int = 1,
            log: Callable[[str], None] = print) -> list[dict]:
    """Per faction: ``index``, ``value``, ``legal``, ``choice`` and ``outcome`` arrays."""
    import multiprocessing as mp

    from arena.simulate import game_seeds

    jobs = [(teacher, s, ruleset) for s in game_seeds(IMITATION_SEED + seed, n_games)]
    if workers > 1:
        with mp.get_context("fork").Pool(workers) as pool:
            games = pool.map(_play, jobs, chunksize=1)
    else:
        games = [_play(job) for job in jobs]
    out = []
    for f in (0, 1):
        rows = [(r, g[f]["outcome"]) for g in games for r in g[f]["rows"]]
        out.append({"index": _stack([r[0] for r, _ in rows], 0),
                    "value": _stack([r[1] for r, _ in rows], 0),
                    "legal": _stack([r[2] for r, _ in rows], games[0][f]["n_actions"]),
                    "choice": np.array([r[3] for r, _ in rows], np.int64),
                    "outcome": np.array([o for _, o in rows], np.float32)})
    log(f"imitation: {n_games} games of {teacher}, {len(out[0]['choice']):,} British and "
        f"{len(out[1]['choice']):,} Malay decisions")
    return out


def fit(net: ActorCritic, data: dict, epochs: int, lr: float, batch: int,
        rng: np.random.Generator) -> float:
    """Train ``net`` on one faction's rows; the last epoch's teacher agreement."""
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    n = len(data["choice"])
    agree = 0.0
    for _ in range(epochs):
        order, hits = rng.permutation(n), 0
        for start in range(0, n, batch):
            mb = order[start:start + batch]
            legal = data["legal"][mb]
            width = int((legal != net.n_actions).sum(axis=1).max())
            logits, values = net(to_csr(data["index"][mb], data["value"][mb], net.obs_size),
                                 legal[:, :width])
            choice = torch.from_numpy(data["choice"][mb])
            loss = (torch.nn.functional.cross_entropy(logits, choice)
                    + 0.5 * ((values - torch.from_numpy(data["outcome"][mb])) ** 2).mean())
            opt.zero_grad()
            loss.backward()
            opt.step()
            hits += int((logits.argmax(1) == choice).sum())
        agree = hits / n
    return agree
