"""Expert iteration: search makes the targets, a policy-value network per faction learns
them, a gate keeps the network only if it plays no worse, and the value head makes the
next iteration's search stronger.

Each iteration ``k``:

1. **Generate** ``games_per_iteration`` games (:mod:`training.expert_data`) in which the
   searching seats are :class:`~agents.mcts.MctsAgent` (``search`` spec); once a
   faction's best network has a trained value head (and ``value_in_search``), its
   searching agent scores cut rollouts with it (``mcts:...:net=FILE``). Every decision
   of the recorded seats becomes a row: observation, mask, policy target, outcome.
2. **Train** each faction's network, starting from its current best (or, with
   ``train_from = "start"``, from its starting network), on the rows of the
   last ``buffer_iterations`` iterations (the replay buffer): policy cross-entropy to
   the targets over the legal actions (with ``distilled = "rerank"``: the searched
   decisions over their candidates, or with ``advantage_scale`` a regression of their
   advantages) plus the value MSE to the outcomes (win share and VP margin), Adam, ``epochs`` passes.
   Before training, the faction's best network's value head is scored on the new
   games it has not seen (value MSE), next to the projected-VP evaluation on the same
   rows; with ``value_gate`` the next iteration's search uses the value head only if
   it did at least as well.
3. **Gate**: the distilled policy alone (``learned:FILE``, most likely action) plays
   ``eval_games`` held-out seeds, seat-swapped, against heuristic players; it becomes
   the faction's best if its win rate is at least the lower end of the 95 % Wilson
   interval of the best rate a kept network (or the starting one) reached on the same
   seeds (not worse within the interval; measured from the best rate so far, so that a
   series of slightly worse networks cannot drift down). The heuristic's mirror on the
   same seeds is measured once.
4. **Record**: ``checkpoints/{faction}_iter{k}.npz`` (every candidate, numpy actor with
   value head), one row of ``progress.csv``, ``learning_curve.png``, and the best
   networks as ``british.npz`` / ``malay.npz`` (playable as ``learned:FILE``, usable
   by ``mcts:...:horizon=1:net=OUT``).

A run whose ``factions`` names one faction does all this for that faction only (every
game lets it search); the other keeps its starting network.

Outputs also hold ``config.json``, ``baseline.json`` (the starting networks' and the
mirror's rates on the gate seeds), ``checkpoints/{faction}_init.npz`` (the starting
networks) and ``data/iter{k}_{faction}.npz`` (the replay buffer). A run started again
on the same folder resumes after the last row of ``progress.csv`` (an iteration is
finished when its row is written; a killed iteration is redone from its saved games
if they were complete); a folder holding a run of another configuration is refused.
Every random choice derives from ``seed`` and the iteration number, so the rows and
networks do not depend on ``workers`` or on interruptions.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Callable

import numpy as np

from agents.learned import NumpyPolicy
from agents.outcome import projected_margin
from agents.threads import limit_threads
from arena.runner import Table, play_tables
from arena.summary import summarize
from singapore_env.engine.content import FACTIONS, SEAT_FACTION

from .config import TrainConfigError
from .config import TrainConfig
from .expert_data import SearchSamples, generate
from .expert_plot import plot_progress
from .progress import append_progress, read_progress

FACTION_FIELDS = ("samples", "searched", "value_in_search", "value_mse_fresh",
                  "value_mse_projected", "buffer", "policy_loss", "value_loss", "win",
                  "win_low", "win_high", "mirror", "mirror_low", "mirror_high", "accepted",
                  "best_iteration")
PROGRESS_FIELDS = ["iteration", "games", "seconds"] + [
    f"{name}_{key}" for name in FACTIONS for key in FACTION_FIELDS]
#: Keys that may change when a run is resumed (they do not change its results).
RESUMABLE_KEYS = {"iterations", "workers", "ray"}


def stream_seed(seed: int, *stream: int) -> int:
    """A 63-bit seed of the stream ``(seed, *stream)`` (numpy SeedSequence)."""
    return int(np.random.SeedSequence([seed, *stream]).generate_state(1, np.uint64)[0] >> 1)


def generation_seed(seed: int, iteration: int) -> int:
    """Base seed of the games of ``iteration``."""
    return stream_seed(seed, 1, iteration)


def gate_seed(seed: int) -> int:
    """Base seed of the gate's games (held out: another stream than the generation)."""
    return stream_seed(seed, 2)


# ---------------------------------------------------------------- training
def train_network(net, data: SearchSamples, epochs: int, lr: float, batch_size: int,
                  seed: int, candidates_only: bool = False,
                  advantage_scale: float = 0.0) -> tuple[float, float]:
    """Fit ``net`` (:class:`~training.policy_value.PolicyValueNet`) to ``data``: the
    policy's cross-entropy to the chosen actions (:attr:`SearchSamples.targets`) over
    the legal actions plus the value MSE, fresh Adam; the last epoch's mean (policy,
    value) losses. ``candidates_only``: the policy learns the searched decisions only,
    each over its search's candidates (the rerank form); there ``advantage_scale > 0``
    replaces the cross-entropy by :func:`advantage_loss`."""
    import torch

    from .policy_value import as_tensors

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    targets = data.targets
    weights = np.where(data.searched, 1.0, 0.0 if candidates_only else 1.0)
    weights = weights.astype(np.float32)
    masks = np.isfinite(data.advantages) if candidates_only else data.masks
    regress = candidates_only and advantage_scale > 0
    advantages = np.nan_to_num(data.advantages, nan=0.0) if regress else None
    losses = (float("nan"), float("nan"))
    for _ in range(epochs):
        order = rng.permutation(len(data))
        sums = np.zeros(2)
        for i in range(0, len(order), batch_size):
            idx = np.sort(order[i:i + batch_size])
            logits, value = net(as_tensors(data.obs, idx))
            legal = torch.as_tensor(masks[idx])
            w = torch.as_tensor(weights[idx])
            if regress:
                row_loss = advantage_loss(logits, legal, advantages[idx], advantage_scale)
            else:
                logp = torch.log_softmax(logits.masked_fill(~legal, -1e9), dim=1)
                row_loss = -(torch.as_tensor(targets[idx]) * logp).sum(1)
            policy_loss = (w * row_loss).sum() / w.sum().clamp_min(1e-8)
            value_loss = torch.nn.functional.mse_loss(value, torch.as_tensor(data.outcomes[idx]))
            optimizer.zero_grad()
            (policy_loss + value_loss).backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            optimizer.step()
            sums += [float(policy_loss.detach()) * len(idx), float(value_loss.detach()) * len(idx)]
        losses = tuple(float(x) for x in sums / max(1, len(order)))
    return losses


def advantage_loss(logits, candidates, advantages: np.ndarray, scale: float):
    """Per row, the mean squared error between the candidates' logits and their mean
    paired advantages times ``scale``, both centred over the row's ``candidates``
    (a bool tensor; rows without any give 0).

    The rerank form takes the candidate of the highest logit, so only the logits'
    differences matter: they learn how much better the search measured each candidate
    than the others. Unlike a cross-entropy to the candidate the search chose (a
    noisy winner among near-equal candidates, and one of several when candidates tie
    exactly), the magnitudes average out over many decisions."""
    import torch

    c = candidates.float()
    n = c.sum(1, keepdim=True).clamp_min(1.0)
    a = torch.as_tensor(advantages, dtype=torch.float32) * scale
    err = (logits - (logits * c).sum(1, keepdim=True) / n) \
        - (a - (a * c).sum(1, keepdim=True) / n)
    return (err ** 2 * c).sum(1) / n[:, 0]


def initial_network(cfg: TrainConfig, faction: int, actors: dict | None):
    """The starting network of ``faction``: the initial actor's weights (a new value
    head if it has none) or a new network, seeded from the run's seed."""
    import torch

    from .policy_value import PolicyValueNet, network_dims

    torch.manual_seed(stream_seed(cfg.seed, 3, faction))
    if actors is not None:
        return PolicyValueNet.from_actor(actors[faction], cfg.value_hidden)
    return PolicyValueNet(**network_dims(cfg.rules()), net_arch=tuple(cfg.hidden),
                          embed_dim=cfg.embed_dim, value_hidden=cfg.value_hidden)


def value_mse(net, data: SearchSamples, batch_size: int = 512) -> float:
    """Mean squared error of ``net``'s value head against the outcomes of ``data``."""
    import torch

    from .policy_value import as_tensors

    if not len(data):
        return float("nan")
    total = 0.0
    with torch.no_grad():
        for i in range(0, len(data), batch_size):
            rows = slice(i, i + batch_size)
            _, value = net(as_tensors(data.obs, rows))
            total += float(((value.numpy() - data.outcomes[rows]) ** 2).sum())
    return total / (2 * len(data))


def projected_outcomes(projected_vp: np.ndarray) -> np.ndarray:
    """``(win share, margin)`` rows that the projected final VP would give (the search's
    evaluation of a cut rollout without a network), from ``projected_vp`` rows."""
    pv = np.asarray(projected_vp, np.float32)
    at_top = pv == pv.max(axis=1, keepdims=True)
    win = at_top[:, [0, 2]].sum(1) / at_top.sum(1)      # the mate sits two places on
    return np.stack([win, np.clip(projected_margin(pv), -1, 1)], axis=1).astype(np.float32)


def projected_mse(data: SearchSamples) -> float:
    """Mean squared error of :func:`projected_outcomes` against the outcomes of ``data``."""
    if not len(data):
        return float("nan")
    return float(((projected_outcomes(data.obs["projected_vp"]) - data.outcomes) ** 2).mean())


def _value_ok(cfg: TrainConfig, best: int, row: dict, name: str) -> bool:
    """Whether the next iteration's search may use the faction's value head: a trained
    one (best >= 0) and, with ``value_gate``, the last measured best network predicted
    the last iteration's fresh games at least as well as the projected VP."""
    if best < 0:
        return False
    if not cfg.value_gate:
        return True
    return float(row[f"{name}_value_mse_fresh"]) <= float(row[f"{name}_value_mse_projected"])


# ---------------------------------------------------------------- evaluation
def rate_vs_heuristic(spec: str, faction: int, games: int, seed: int, rules, *,
                      workers: int = 1, ray_address: str | None = None) -> dict:
    """The win rate (rate, ci95) of ``faction`` with ``spec`` on its seats and heuristic
    players on the others under ``rules``, ``games`` seeds from ``seed``, seat-swapped."""
    seats = tuple(spec if SEAT_FACTION[p] == faction else "heuristic" for p in range(4))
    records = play_tables([Table(seats, rules)], games, seed, swap=True, workers=workers,
                          ray_address=ray_address)
    return summarize(records)["win_rate_by_faction"][FACTIONS[faction]]


def gate_rates(players: dict[int, str], cfg: TrainConfig) -> dict[int, dict]:
    """Faction -> its win rate (rate, ci95) with ``players[faction]`` on its seats and
    heuristic players on the others, on the gate's seeds, seat-swapped."""
    return {f: rate_vs_heuristic(spec, f, cfg.eval_games, gate_seed(cfg.seed), cfg.rules(),
                                 workers=cfg.workers, ray_address=cfg.ray or None)
            for f, spec in players.items()}


def mirror_rates(cfg: TrainConfig) -> dict[int, dict]:
    """Faction -> the heuristic mirror's win rate on the gate's seeds (seat-swapped)."""
    records = play_tables([Table(("heuristic",) * 4, cfg.rules())], cfg.eval_games,
                          gate_seed(cfg.seed), swap=True, workers=cfg.workers,
                          ray_address=cfg.ray or None)
    rates = summarize(records)["win_rate_by_faction"]
    return {f: rates[name] for f, name in enumerate(FACTIONS)}


def _rate(row: dict) -> dict:
    return {"rate": round(float(row["rate"]), 4), "low": round(float(row["ci95"][0]), 4),
            "high": round(float(row["ci95"][1]), 4)}


# ---------------------------------------------------------------- files
def check_out_dir(cfg: TrainConfig, out: Path) -> None:
    """Write ``config.json``, or refuse a folder holding a run of another config."""
    path = out / "config.json"
    mine = cfg.to_dict()
    if path.exists():
        try:
            theirs = json.loads(path.read_text())
        except ValueError:
            theirs = None
        if not isinstance(theirs, dict) or theirs.get("algorithm") != "expert":
            raise TrainConfigError(f"{out} holds another kind of run ({path}); use another --out")
        theirs = {**TrainConfig(algorithm="expert").to_dict(), **theirs}  # a key added since: its default
        changed = sorted(k for k in set(mine) | set(theirs) if k not in RESUMABLE_KEYS
                         and mine.get(k) != theirs.get(k))
        if changed:
            raise TrainConfigError(f"{out} holds a run of another configuration (differs in "
                                   f"{', '.join(changed)}); use another --out or the same config")
    cfg.save(path)


def _load_rows(path: Path) -> SearchSamples:
    """An iteration's saved rows; TrainConfigError for a file that cannot be read."""
    try:
        return SearchSamples.load(path)
    except (OSError, ValueError, KeyError) as exc:
        raise TrainConfigError(f"cannot read the saved games {path}: {exc}") from None


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True))
    tmp.replace(path)


def _save_actor(actor, path: Path) -> None:
    """Save through a temporary file, so a killed run never leaves half a file."""
    tmp = path.with_name(path.stem + ".tmp.npz")
    actor.save(tmp)
    tmp.replace(path)


# ---------------------------------------------------------------- the loop
def train(cfg: TrainConfig, out_dir: str | Path, log: Callable[[str], None] = print,
          progress: bool = False) -> Path:
    """Run (or resume) expert iteration; return the output folder. ``progress`` shows
    a bar over each iteration's games (games/s, ETA) on a terminal."""
    limit_threads(1)
    out = Path(out_dir)
    ckpt, data_dir = out / "checkpoints", out / "data"
    ckpt.mkdir(parents=True, exist_ok=True)
    data_dir.mkdir(exist_ok=True)
    check_out_dir(cfg, out)
    progress_csv = out / "progress.csv"
    rows = read_progress(progress_csv)
    if rows:
        log(f"resuming after iteration {len(rows) - 1} ({progress_csv})")

    init_paths = {f: ckpt / f"{name}_init.npz" for f, name in enumerate(FACTIONS)}
    if not all(p.exists() for p in init_paths.values()):
        actors = cfg.initial_actors()
        for f, name in enumerate(FACTIONS):
            net = initial_network(cfg, f, actors)
            trained = bool(actors and actors[f].has_value
                           and actors[f].meta.get("value_trained", False))
            _save_actor(net.to_actor({"faction": name, "iteration": -1, **cfg.layout_meta(),
                                      "value_trained": trained}), init_paths[f])
    baseline_path = out / "baseline.json"
    if baseline_path.exists():
        baseline = {int(k): v for k, v in json.loads(baseline_path.read_text()).items()}
    else:
        log(f"gate baseline: the starting networks and the mirror on {cfg.eval_games} seeds")
        start = gate_rates({f: str(cfg.player_spec(init_paths[f])) for f in cfg.faction_ids},
                           cfg)
        mirror = mirror_rates(cfg)
        baseline = {f: {"start": _rate(start[f]), "mirror": _rate(mirror[f])} for f in start}
        _write_json(baseline_path, baseline)

    # best: the iteration of each faction's best network (-1: the starting one); bar:
    # the highest gate rate among the networks kept so far (its interval's low end is
    # what a new network must reach, so that kept networks cannot drift down).
    best = {f: -1 for f in range(2)}
    bar = {f: baseline[f]["start"] for f in cfg.faction_ids}
    try:
        value_ok = {f: bool(NumpyPolicy.load(init_paths[f]).meta.get("value_trained", False))
                    for f in range(2)}
    except ValueError as exc:
        raise TrainConfigError(f"{out}: a starting network cannot be read: {exc}") from None
    for row in rows:
        for f in cfg.faction_ids:
            name = FACTIONS[f]
            if row[f"{name}_accepted"] == "1":
                best[f] = int(row["iteration"])
                rate = {k: float(row[f"{name}_{k2}"]) for k, k2 in (
                    ("rate", "win"), ("low", "win_low"), ("high", "win_high"))}
                bar[f] = max(bar[f], rate, key=lambda r: r["rate"])
            value_ok[f] = _value_ok(cfg, best[f], row, name)

    def best_path(f: int) -> Path:
        return init_paths[f] if best[f] < 0 else ckpt / f"{FACTIONS[f]}_iter{best[f]}.npz"

    for f in range(2):
        if not best_path(f).exists():
            raise TrainConfigError(f"{out}: missing checkpoint {best_path(f)} (named by "
                                   f"progress.csv); the run cannot resume without it")

    def publish() -> None:
        for f, name in enumerate(FACTIONS):
            shutil.copyfile(best_path(f), out / f"{name}.npz")
        plot_progress(progress_csv, out / "learning_curve.png", baseline)

    started = time.time() - (float(rows[-1]["seconds"]) if rows else 0.0)
    for k in range(len(rows), cfg.iterations):
        searches = {f: cfg.search_spec(best_path(f), value_ok[f]) for f in cfg.faction_ids}
        specs = {f: str(spec) for f, spec in searches.items()}
        files = {f: data_dir / f"iter{k:03d}_{FACTIONS[f]}.npz" for f in cfg.faction_ids}
        if all(p.exists() for p in files.values()):
            log(f"iteration {k}: games already generated ({data_dir})")
        else:
            behaviour = ({f: str(cfg.player_spec(best_path(f))) for f in cfg.faction_ids}
                         if cfg.play == "distilled" else None)
            log(f"iteration {k}: {cfg.games_per_iteration} games, search {specs}"
                + (f" labelling the play of {behaviour}" if behaviour else ""))
            _generate_rows(cfg, k, specs, files, progress, behaviour)
        row: dict = {"iteration": k, "games": cfg.games_per_iteration}
        candidates = {f: ckpt / f"{FACTIONS[f]}_iter{k}.npz" for f in files}
        for f in files:
            start = best_path(f) if cfg.train_from == "best" else init_paths[f]
            row.update(_train_candidate(cfg, k, f, best_path(f), start, data_dir, candidates[f],
                                        int("net" in searches[f].params), log))
        rates = gate_rates({f: str(cfg.player_spec(p)) for f, p in candidates.items()}, cfg)
        for f, rate in rates.items():
            name, rate = FACTIONS[f], _rate(rate)
            accepted = rate["rate"] >= bar[f]["low"]
            if accepted:
                best[f] = k
                bar[f] = max(bar[f], rate, key=lambda r: r["rate"])
            mirror = baseline[f]["mirror"]
            row.update({f"{name}_win": rate["rate"], f"{name}_win_low": rate["low"],
                        f"{name}_win_high": rate["high"], f"{name}_mirror": mirror["rate"],
                        f"{name}_mirror_low": mirror["low"], f"{name}_mirror_high": mirror["high"],
                        f"{name}_accepted": int(accepted), f"{name}_best_iteration": best[f]})
            log(f"  gate {name}: {rate['rate']:.1%} [{rate['low']:.1%}, {rate['high']:.1%}] vs "
                f"heuristic (mirror {mirror['rate']:.1%}); "
                f"{'kept' if accepted else 'rejected'}, best: iteration {best[f]}")
        row["seconds"] = round(time.time() - started, 1)
        for f in cfg.faction_ids:
            value_ok[f] = _value_ok(cfg, best[f], row, FACTIONS[f])
        append_progress(progress_csv, PROGRESS_FIELDS, row)
        publish()
    if progress_csv.exists():
        publish()
    return out


def _generate_rows(cfg: TrainConfig, k: int, specs: dict[int, str], files: dict[int, Path],
                   progress: bool, behaviour: dict[int, str] | None = None) -> None:
    """Play iteration ``k``'s games and save each searching faction's rows to its file
    (written whole or not at all); ``behaviour``: the players of ``play = "distilled"``.
    A function of its own so that the rows leave memory before the next games fork
    their worker processes."""
    data = generate(specs, cfg.games_per_iteration, generation_seed(cfg.seed, k),
                    config=cfg.rules(),
                    workers=cfg.workers, ray_address=cfg.ray or None, progress=progress,
                    behaviour=behaviour)
    for f, path in files.items():
        tmp = path.with_name(path.stem + ".tmp.npz")
        data.of_faction(f).save(tmp)
        tmp.replace(path)


def _train_candidate(cfg: TrainConfig, k: int, f: int, best: Path, start: Path,
                     data_dir: Path, out: Path, value_in_search: int,
                     log: Callable[[str], None]) -> dict:
    """Train faction ``f``'s candidate of iteration ``k`` from the network ``start`` on
    the replay buffer, save it to ``out``; its ``progress.csv`` fields, the value MSE
    on the new rows measured with the faction's ``best`` network. (The buffer lives
    only here: the gate's and the next iteration's worker processes are forked without
    it.)"""
    from .policy_value import PolicyValueNet

    name = FACTIONS[f]
    new = _load_rows(data_dir / f"iter{k:03d}_{name}.npz")
    net = PolicyValueNet.from_actor(NumpyPolicy.load(best), cfg.value_hidden)
    fresh, projected = value_mse(net, new), projected_mse(new)
    if start != best:
        net = PolicyValueNet.from_actor(NumpyPolicy.load(start), cfg.value_hidden)
    n_new, n_searched = len(new), int(new.searched.sum())
    buffer = SearchSamples.concat([_load_rows(data_dir / f"iter{j:03d}_{name}.npz")
                                   for j in range(max(0, k - cfg.buffer_iterations + 1), k)]
                                  + [new])
    del new  # the buffer holds a copy: one iteration less in memory while training
    losses = train_network(net, buffer, cfg.epochs, cfg.learning_rate, cfg.minibatch_size,
                           stream_seed(cfg.seed, 4, k, f), cfg.distilled == "rerank",
                           cfg.advantage_scale)
    _save_actor(net.to_actor({"faction": name, "iteration": k, "value_trained": True,
                             **cfg.layout_meta()}), out)
    log(f"  {name}: {n_new} new rows ({n_searched} searched), value MSE "
        f"on them {fresh:.4f} (projected VP {projected:.4f}); buffer {len(buffer)}, "
        f"policy loss {losses[0]:.4f}, value loss {losses[1]:.4f}")
    return {f"{name}_samples": n_new, f"{name}_searched": n_searched,
            f"{name}_value_in_search": value_in_search,
            f"{name}_value_mse_fresh": round(fresh, 5),
            f"{name}_value_mse_projected": round(projected, 5),
            f"{name}_buffer": len(buffer),
            f"{name}_policy_loss": round(losses[0], 5),
            f"{name}_value_loss": round(losses[1], 5)}
