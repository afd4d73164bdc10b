"""DAgger of the action-aware pointer policy under a stronger teacher:
``singapore-1819 train --config training/configs/pure_dagger.toml --out DIR``.

Starting from a pointer actor per faction (``init``: ``learned:pure``'s network, which
reads the observation and per-action candidate features, never a heuristic), each of
``iterations`` rounds, for each faction:

1. **Label**: ``games`` games, the faction's two seats playing the current student's
   choice, or the teacher's with probability ``beta`` (a decision at a time), the other
   faction two heuristic players; every decision of the faction is labelled with the
   teacher's choice (``rerank:net=default``: the heuristic's candidates reordered by a
   network), on the native engine where it is built and the teacher has a native twin
   (the same rows as on the Python engine; 38-58x the labels a CPU second with
   ``mcts:iters=24`` as the teacher, ``benchmarks/bench_search_labels.py``).
   Rows are compact (:mod:`training.pointer_rows`): ~1 kB a decision.
2. **Fit**: a new student, from ``init``, fitted by cross-entropy to the labels of all
   rounds so far (``epochs`` passes, Adam), a held-out twentieth of them giving its
   agreement with the teacher. With a lookahead teacher and ``target_temperature``
   above 0, a question it compared answers on is learned as the softmax of their
   scores over that temperature (the search's improved policy, as AlphaZero learns its
   visit counts) instead of its choice alone.

The teacher only labels: the student's input is the observation and the candidate
features alone, so the result plays as ``learned:DIR/british.npz`` with no heuristic.

Files in ``--out``: ``config.json``; ``round{k}/{faction}.rows.npz`` (the labelled
decisions) and ``round{k}/{faction}.npz`` (the student after the round);
``british.npz`` / ``malay.npz`` (the last round's); ``progress.csv`` (per round and
faction: rows, agreement before and after the fit, seconds). Started again on the same
folder, a run goes on from the first file that is missing. The two factions' jobs run
in ``workers`` processes; each job's games and fit are seeded by the seed, the round and
the faction, so the result does not depend on ``workers``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import numpy as np

from agents.lookahead import improved_policy
from singapore_env.engine.content import FACTIONS, SEAT_FACTION

from .config import TrainConfig
from .config_checks import load_student, lookahead_worlds
from .progress import append_progress
from .rounds import claim_out_dir, publish_last_round, round_seed, run_jobs

PROGRESS_FIELDS = ["round", "faction", "rows", "agreement_before", "agreement", "seconds"]


def make_teacher(teacher: str, students: Path, seed: int):
    """The labelling agent: ``teacher``'s agent spec, or for ``"lookahead"`` (or
    ``"lookahead:worlds=N"``, :func:`~training.config_checks.lookahead_worlds`)
    ``learned:pure``'s lookahead over the students in ``students`` (the current round's:
    expert iteration, the search improving the policy it searches with)."""
    worlds = lookahead_worlds(teacher)
    if worlds is not None:
        from agents.reference import lookahead_over

        return lookahead_over(students, seed, worlds)
    from agents.registry import make_agent

    return make_agent(teacher, seed=seed)


def label(cfg: TrainConfig, student_path: Path, faction: int, seed: int,
          engine: str | None = None):
    """One round's labelled decisions of ``faction`` (:class:`DecisionRows`), played on
    ``engine`` (default: native where the module is built and the teacher has a native
    twin; the same rows on either engine)."""
    from agents.base import _encoder_for
    from agents.heuristic import HeuristicAgent
    from arena.simulate import default_engine, game_seeds, new_game
    from singapore_env.engine.config import RulesConfig

    from .pointer_rows import RowWriter

    config = RulesConfig.named(cfg.ruleset)
    student = load_student(student_path)
    teacher = make_teacher(cfg.teacher, student_path.parent, seed)
    opponent = HeuristicAgent(seed=seed)
    engine = engine or default_engine([teacher, opponent], [config])[0]
    rng = np.random.default_rng(seed)
    writer = None
    for seeds in game_seeds(seed, cfg.games):
        game = new_game(engine, seeds[0], config, None)
        if writer is None:
            writer = RowWriter(_encoder_for(game))
        while not game.is_over:
            seat = game.acting_seat
            if SEAT_FACTION[seat] != faction:
                game.step(opponent.choose(game, seat))
                continue
            obs, legal = writer.observe(game, seat)
            taught = writer.encoder.table.index(teacher.choose(game, seat))
            target = int(np.flatnonzero(legal == taught)[0])
            writer.add(obs, legal, target, _improved_policy(cfg, teacher, game, legal, writer))
            if rng.random() >= cfg.beta:
                target = int(np.argmax(student.logits(obs)[legal]))
            game.step(writer.encoder.table.decision(int(legal[target])))
    return writer.rows()


def _improved_policy(cfg: TrainConfig, teacher, game, legal: np.ndarray, writer):
    """With ``target_temperature`` above 0, the share of each of ``legal`` to learn on a
    question the lookahead teacher compared answers on: the softmax of their scores over
    the temperature (zero elsewhere); None otherwise (the teacher's choice alone)."""
    scores = getattr(teacher, "last_scores", None)
    if cfg.target_temperature <= 0 or not scores:
        return None
    answers = game.legal_decisions()
    at = [int(np.flatnonzero(legal == writer.encoder.table.index(answers[i]))[0])
          for i in scores]
    share = np.zeros(len(legal), np.float16)
    share[at] = improved_policy(list(scores.values()), cfg.target_temperature)
    return share


def fit(cfg: TrainConfig, init: Path, rows, seed: int) -> tuple:
    """A student from the actor at ``init`` fitted to ``rows``: ``(actor, agreement
    before, agreement after)``, agreement with the labels on a held-out twentieth."""
    import torch

    from agents.threads import limit_threads

    from .ppo_network import PointerActorCritic

    limit_threads()
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    student = load_student(init)
    net = PointerActorCritic.from_actor(student)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.learning_rate)
    order = rng.permutation(len(rows))
    n_held = max(1, len(rows) // 20)
    held, train = order[:n_held], order[n_held:]
    before = _agreement(net, rows, held)
    for _ in range(cfg.epochs):
        shuffled = rng.permutation(train)
        for s in range(0, len(shuffled), cfg.minibatch_size):
            ids = shuffled[s:s + cfg.minibatch_size]
            *batch, target = rows.batch(ids, net)
            logits = net(*batch)[0]
            if rows.target is None:
                loss = torch.nn.functional.cross_entropy(logits, torch.from_numpy(target))
            else:
                shares = torch.from_numpy(rows.target_batch(ids))
                loss = -(shares * torch.log_softmax(logits, 1)).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    return net.to_numpy(dict(student.meta)), before, _agreement(net, rows, held)


def _agreement(net, rows, ids) -> float:
    import torch

    hits = 0
    with torch.no_grad():
        for s in range(0, len(ids), 2048):
            *batch, target = rows.batch(ids[s:s + 2048], net)
            hits += int((net(*batch)[0].argmax(1).numpy() == target).sum())
    return hits / max(len(ids), 1)


def run_job(cfg: TrainConfig, out: Path, round_: int, faction: int) -> dict:
    """Round ``round_`` of ``faction``: label (unless its rows are saved), then fit on
    every round's rows so far; its progress row."""
    from .pointer_rows import DecisionRows

    started = time.perf_counter()
    name = FACTIONS[faction]
    here = out / f"round{round_}"
    here.mkdir(parents=True, exist_ok=True)
    rows_path = here / f"{name}.rows.npz"
    if not rows_path.exists():
        student = (Path(cfg.init) if round_ == 1 else out / f"round{round_ - 1}") / f"{name}.npz"
        rows = label(cfg, student, faction, round_seed(cfg.seed, round_, faction))
        rows.save(here / f"{name}.rows.tmp.npz")
        (here / f"{name}.rows.tmp.npz").replace(rows_path)
    rows = DecisionRows.join([DecisionRows.load(out / f"round{k}" / f"{name}.rows.npz")
                              for k in range(1, round_ + 1)])
    actor, before, after = fit(cfg, Path(cfg.init) / f"{name}.npz", rows,
                               round_seed(cfg.seed, round_, faction))
    actor.meta.update(trainer="dagger", round=round_, teacher=cfg.teacher, **cfg.layout_meta())
    actor.save(here / f"{name}.tmp.npz")
    (here / f"{name}.tmp.npz").replace(here / f"{name}.npz")
    return {"round": round_, "faction": name, "rows": len(rows),
            "agreement_before": round(before, 4), "agreement": round(after, 4),
            "seconds": round(time.perf_counter() - started, 1)}


def _run_job(args):
    from agents.threads import limit_threads

    limit_threads()
    return run_job(*args)


def train(cfg: TrainConfig, out: str | Path, log: Callable[[str], None] = print) -> None:
    """Run (or finish) every round in ``out``; the last round's students are copied to
    ``out/british.npz`` and ``out/malay.npz``."""
    out = claim_out_dir(out, cfg.to_dict())
    trained = False
    for round_ in range(1, cfg.iterations + 1):
        jobs = [(cfg, out, round_, f) for f in range(len(FACTIONS))
                if not (out / f"round{round_}" / f"{FACTIONS[f]}.npz").exists()]
        if not jobs:
            continue
        trained = True
        log(f"round {round_}: {cfg.games} games a faction, labelled by {cfg.teacher}")
        for row in run_jobs(_run_job, jobs, cfg.workers):
            append_progress(out / "progress.csv", PROGRESS_FIELDS, row)
            log(f"round {row['round']} {row['faction']}: {row['rows']:,} decisions, "
                f"agreement with the teacher {row['agreement_before']:.1%} -> "
                f"{row['agreement']:.1%}")
    publish_last_round(out, cfg.iterations, trained)


def run_cli(cfg: TrainConfig, out: str | Path, log: Callable[[str], None] = print) -> None:
    """``singapore-1819 train`` with a DAgger config."""
    train(cfg, out, log)
    log(f"students: {out}/british.npz, {out}/malay.npz (learned:{out}/british.npz); "
        f"agreement per round: {out}/progress.csv")
