"""Which distillation of an expert-iteration run's search targets plays best?

    .venv/bin/python benchmarks/distill_targets.py --run runs/expert-reference \\
        --variants "T=0,w=1;T=0,w=0;form=rerank;form=rerank,T=0.05" --games 100 --seed 3001

Each variant trains one network per faction on every row a run generated
(``data/iter*_{faction}.npz``; with ``--also RUN``, another run's rows too), from the
run's starting network (``checkpoints/{faction}_init.npz``), with :func:`training.expert.train_network`:
``form`` the form it plays in (``learned``: the most likely legal action everywhere;
``rerank``: :class:`agents.rerank.RerankAgent`, the network picking among the search's
candidates, trained on the searched decisions over their candidates), ``T`` the target
temperature (0: the candidate the search chose; T > 0: a softmax of the candidates'
advantages over T), ``w`` the weight of the decisions the search did
not search (0: the policy learns from searched decisions only), ``e`` the epochs and
``lr`` the learning rate (``--epochs``, ``--lr`` by default), ``k`` (rerank form) the
advantage scale (0: cross-entropy to the search's choice; k > 0: the candidates' logits
regress their measured advantages times k, :func:`training.expert.advantage_loss`),
``m`` the rerank form's
``margin`` (variants differing only in ``m`` share one trained network), ``j=1`` one
*joint* network for both factions (trained on both factions' rows from the British
starting network; the observation's ``me`` block, the seat one-hot, tells it which
faction it plays) instead of one per faction. The networks go to
``--out/{variant}/{faction}.npz`` (``joint.npz``) and each plays its faction in its form (one
forward pass per decision, no search) against heuristic players on ``--games`` seeds,
seat-swapped, under the run's rules, next to the starting network and the mirror
(four heuristics) on the same seeds: win rates with 95 % Wilson intervals.

``--holdout`` plays no game: each variant trains on every iteration's rows but the
run's last, and reports the rerank form's choice on the last iteration's searched
decisions, scored by the search's own measurement: the mean paired advantage over the
heuristic's choice of the candidate the network picks (0 for always keeping the
heuristic's). The network never saw those rows or their worlds, so this is an unbiased
estimate of what it gains per searched decision; next to it the search's own choice
(biased upwards: it is the best of noisy means) and the best candidate.

Choose a variant on seeds of its own (``--seed``), then measure the chosen networks
on other, fresh seeds with ``singapore-1819 evaluate``: a variant picked as the best of
several on the same seeds is biased upwards there.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.learned import NumpyPolicy  # noqa: E402
from agents.threads import limit_threads  # noqa: E402
from singapore_env.engine.config import RulesConfig  # noqa: E402
from singapore_env.engine.content import FACTIONS  # noqa: E402
from training.expert import rate_vs_heuristic, stream_seed, train_network  # noqa: E402
from training.expert_data import SearchSamples  # noqa: E402

KEYS = {"form": str, "T": float, "w": float, "e": int, "lr": float, "k": float, "m": float,
        "j": int}
#: The keys of the training (the rest says how the network plays).
TRAINING_KEYS = ("form", "T", "w", "e", "lr", "k", "j")
FORMS = ("learned", "rerank")


def parse_variant(text: str, epochs: int, lr: float) -> dict:
    """``"T=0.05,w=0"`` -> ``{"form": "learned", "T": 0.05, "w": 0.0, "e": epochs,
    "lr": lr}``."""
    variant = {"form": "learned", "T": 0.0, "w": 1.0, "e": epochs, "lr": lr, "k": 0.0,
               "m": 0.0, "j": 0}
    for item in filter(None, text.split(",")):
        key, _, value = item.partition("=")
        if key not in KEYS:
            raise SystemExit(f"unknown variant key {key!r} in {text!r}; known: {', '.join(KEYS)}")
        variant[key] = KEYS[key](value)
    if variant["form"] not in FORMS:
        raise SystemExit(f"form must be one of {', '.join(FORMS)}, got {variant['form']!r}")
    if variant["k"] and variant["form"] != "rerank":
        raise SystemExit(f"k needs form=rerank (it fits the search's candidates): {text!r}")
    return variant


def label(variant: dict, keys=tuple(KEYS)) -> str:
    return ",".join(f"{k}={variant[k]:g}" if k != "form" else variant[k] for k in keys
                    if not (k == "m" and variant["form"] != "rerank")
                    and not (k in ("j", "k") and not variant[k]))


def player(variant: dict, path: Path) -> str:
    """The agent spec of a network file in the variant's form."""
    if variant["form"] == "learned":
        return f"learned:{path}"
    return f"rerank:net={path}:margin={variant['m']:g}"


def fmt(rate: dict) -> str:
    low, high = rate["ci95"]
    return f"{rate['rate']:6.1%} [{low:.1%}, {high:.1%}]"


def row_files(run: Path, name: str) -> list[Path]:
    """The saved rows of faction ``name`` in ``run``, one file per iteration, in order."""
    return sorted((run / "data").glob(f"iter*_{name}.npz"))


def distill(run: Path, variant: dict, out: Path, faction: int, also=(),
            holdout: bool = False) -> Path:
    """Train the variant's network of ``faction`` (with ``j``, the joint network) on
    every row of ``run`` (with ``holdout``, but its last iteration's) and of the runs
    ``also`` (unless a variant with the same training keys did); its file."""
    from training.policy_value import PolicyValueNet

    name = "joint" if variant["j"] else FACTIONS[faction]
    path = out / label(variant, TRAINING_KEYS) / f"{name}.npz"
    if path.exists():
        return path
    names = FACTIONS if variant["j"] else [name]
    files = [p for n in names for p in row_files(run, n)[:-1 if holdout else None]]
    files += [p for r in also for n in names for p in row_files(r, n)]
    data = SearchSamples.concat([SearchSamples.load(p) for p in files])
    first = FACTIONS[0] if variant["j"] else name
    start = NumpyPolicy.load(run / "checkpoints" / f"{first}_init.npz")
    net = PolicyValueNet.from_actor(start, int(start.meta.get("value_hidden", 64)))
    t0 = time.perf_counter()
    losses = train_network(net, data, variant["e"], variant["lr"], 256, 1.0,
                           stream_seed(0, 9, faction), variant["T"], variant["w"],
                           candidates_only=variant["form"] == "rerank",
                           advantage_scale=variant["k"])
    path.parent.mkdir(parents=True, exist_ok=True)
    net.to_actor({"faction": name, "value_trained": True, "variant": label(variant)}).save(path)
    print(f"  {name}: {len(data)} rows ({int(data.searched.sum())} searched), "
          f"policy loss {losses[0]:.4f}, value loss {losses[1]:.4f}, "
          f"{time.perf_counter() - t0:.0f} s", flush=True)
    return path


def held_out_gain(path: Path, rows: SearchSamples, margin: float) -> tuple[float, float]:
    """The rerank form's choice on the searched decisions ``rows`` with the network in
    ``path``: (mean advantage of the picked candidate, share of picks other than the
    heuristic's). The heuristic's choice is any candidate of advantage exactly 0 (those
    tied with it in every sampled world are the same to the search); ``margin`` raises
    them, and a tie keeps them, as :class:`agents.rerank.RerankAgent` does."""
    import torch

    from training.policy_value import PolicyValueNet, as_tensors

    net = PolicyValueNet.from_actor(NumpyPolicy.load(path))
    with torch.no_grad():
        logits = np.concatenate([net(as_tensors(rows.obs, slice(i, i + 1024)))[0].numpy()
                                 for i in range(0, len(rows), 1024)]).astype(np.float64)
    advantages = rows.advantages.astype(np.float64)
    prior = advantages == 0
    scores = np.where(np.isfinite(advantages), logits + (margin + 1e-9) * prior, -np.inf)
    picked = advantages[np.arange(len(rows)), scores.argmax(1)]
    return float(picked.mean()), float((picked != 0).mean())


def holdout_report(args, variants: list[dict], factions: list[int], out: Path) -> None:
    """``--holdout``: train each variant without the run's last iteration and score its
    picks on that iteration's searched decisions (:func:`held_out_gain`)."""
    for f in factions:
        name = FACTIONS[f]
        rows = SearchSamples.load(row_files(args.run, name)[-1])
        rows = rows.subset(rows.searched)
        advantages = rows.advantages.astype(np.float64)
        chosen = advantages[np.arange(len(rows)), rows.targets.argmax(1)]
        print(f"{name}: {len(rows)} held-out searched decisions; mean advantage of the "
              f"search's choice {chosen.mean():+.4f} (biased upwards), of the best "
              f"candidate {np.nanmax(advantages, 1).mean():+.4f}", flush=True)
        for variant in variants:
            path = distill(args.run, variant, out / "holdout", f, args.also, holdout=True)
            gain, moved = held_out_gain(path, rows, variant["m"])
            print(f"  {label(variant):44s} {gain:+.4f} per decision, "
                  f"{moved:.1%} not the heuristic's", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", type=Path, required=True, help="an expert-iteration run folder")
    parser.add_argument("--also", type=Path, action="append", default=[],
                        help="another run (same rules) whose rows join the training data")
    parser.add_argument("--variants", default="T=0,w=1", help="';'-separated variants")
    parser.add_argument("--games", type=int, default=100, help="seeds per faction (x2 swapped)")
    parser.add_argument("--seed", type=int, default=3001)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--out", type=Path, default=None, help="default: RUN/distilled")
    parser.add_argument("--factions", default="british,malay")
    parser.add_argument("--holdout", action="store_true",
                        help="play no game: score rerank picks on the last iteration's rows")
    args = parser.parse_args()
    limit_threads(1)
    out = args.out or args.run / "distilled"
    factions = [FACTIONS.index(f) for f in args.factions.split(",")]
    variants = [parse_variant(v, args.epochs, args.lr) for v in args.variants.split(";")]
    if args.holdout:
        if any(v["form"] != "rerank" for v in variants):
            raise SystemExit("--holdout scores the rerank form: give form=rerank variants")
        holdout_report(args, variants, factions, out)
        return
    run_config = json.loads((args.run / "config.json").read_text())
    rules = RulesConfig.named(run_config["ruleset"], slavery=run_config["slavery"])
    rows = {}
    for f in factions:
        name = FACTIONS[f]
        rows[(name, "mirror")] = rate_vs_heuristic("heuristic", f, args.games, args.seed, rules,
                                                   workers=args.workers)
        start = args.run / "checkpoints" / f"{name}_init.npz"
        for form in sorted({v["form"] for v in variants}):
            rows[(name, f"start, {form}")] = rate_vs_heuristic(
                player({"form": form, "m": 0.0}, start), f, args.games, args.seed, rules,
                workers=args.workers)
    for variant in variants:
        print(f"variant {label(variant)}", flush=True)
        for f in factions:
            path = distill(args.run, variant, out, f, args.also)
            rows[(FACTIONS[f], label(variant))] = rate_vs_heuristic(
                player(variant, path), f, args.games, args.seed, rules, workers=args.workers)
    print(f"\nwin rate against heuristic players, {2 * args.games} games per row "
          f"(seed {args.seed}, seat-swapped), 95 % Wilson intervals")
    for f in factions:
        name = FACTIONS[f]
        print(f"{name}:")
        for key in [k for n, k in rows if n == name]:
            print(f"  {key:44s} {fmt(rows[(name, key)])}")


if __name__ == "__main__":
    main()
