"""Targeted fuzzer of the pending frames of saved games, through both engines.

Real saves of every native ruleset (random games, a few saves for each frame kind
found pending) are mutated where the rules follow references: every int of every
pending frame (its seat, each number of its data, each entry of its lists) set to a
boundary value (-1, 0, the seats, the length of the list it indexes, its last index,
2**31, 10**30...), frames moved to another seat, a question copied to another seat,
and a frame's cards swapped with (or replaced by) cards from another place. Each case
must end alike in both engines (the rule of ``tests/test_native_save_fuzz.py``): the
same ``SaveFormatError`` in the same words, or the same state and the same game
played on with random decisions.

With ``--raw`` the Python validator is bypassed: each mutated state goes straight to
the native module's loader, which must refuse it (a Python error) or play it on, never
crash: the native engine's own checks of what it follows (``native/rules_loaded.inc``),
best run on the sanitizer build (``docs/native.md``).

Each case runs in a worker process; a worker that dies (a crash of the interpreter)
or hangs is counted and replaced, so the run goes on:

    .venv/bin/python scripts/frame_fuzz.py --cases 20000 --workers 2
    .venv/bin/python scripts/frame_fuzz.py --cases 300 --seed 7 --show 5
    .venv/bin/python scripts/frame_fuzz.py --cases 20000 --workers 2 --raw

Prints the counts (cases, refusals, equal games, crashes, differences; with ``--raw``
the states played on and the errors raised in play) and the first
``--show`` crashes and differences, each with its case number (``--only N`` reruns one
case in this process). Exits 1 if any case crashed or differed.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter

from singapore_env import native
from singapore_env.engine import Game, SaveFormatError
from singapore_env.engine.config import RulesConfig

#: Values every int of a frame is set to (besides the lengths of the state's lists).
BOUNDARY = (-1, 0, 1, 2, 3, 4, 5, 7, 20, 99, 100, 101, 200, 2**15, 2**31 - 1, 2**31,
            -2**31 - 1, 2**63, 10**6, 10**6 + 1, 10**30)
#: Lists of the state whose lengths (and last indexes) a frame's int may be set to.
TRACKS = ("pw_track", "market", "districts", "leader_space", "outlawed", "used_cards")
#: Where the cards of a state lie, for swaps with a frame's cards.
PLACES = ("market", "market_deck", "market_discard", "population_deck", "population_discard",
          "folk_deck", "put_away")
#: Frame kinds that are a seat's question, copied to other seats.
QUESTIONS = ("hinder", "fe_hinder", "reroll", "veto", "connect", "place_card", "fund_close",
             "war_commit", "war_join", "contribute", "fe_commit", "attach_pop", "keep_battle")
STEPS = 60  # random decisions played on after an accepted load
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def corpus(games: int, per_kind: int = 4) -> list[str]:
    """Saves of random games of every native ruleset: for each frame kind, the first
    ``per_kind`` decision points (per ruleset) with a frame of that kind pending."""
    out = []
    for ruleset in native.NATIVE_RULESETS:
        seen: Counter = Counter()
        for seed in range(games):
            g = Game(seed, RulesConfig.named(ruleset), keep_text_log=False)
            pick = random.Random(seed)
            while not g.is_over:
                kinds = {f.kind for f in g.s.stack}
                if any(seen[k] < per_kind for k in kinds):
                    seen.update(kinds)
                    out.append(g.to_json())
                g.step(pick.choice(g.legal_decisions()))
    return out


def _ints(x, path=()):
    """The paths of every int in ``x`` (nested lists and dicts), with the int."""
    if type(x) is int:
        yield path, x
    elif isinstance(x, list):
        for i, y in enumerate(x):
            yield from _ints(y, path + (i,))
    elif isinstance(x, dict):
        for k, y in x.items():
            yield from _ints(y, path + (k,))


def _set(x, path, value):
    for key in path[:-1]:
        x = x[key]
    x[path[-1]] = value


def _get(x, path):
    for key in path:
        x = x[key]
    return x


def _card_places(state: dict):
    """(path, card) of every card of the state outside the frames."""
    for name in PLACES:
        for i, card in enumerate(state[name]):
            if card >= 0:
                yield (name, i), card
    for name in ("hands", "revealed", "folk_hands", "battle_deck", "battle_discard"):
        for p, pile in enumerate(state[name]):
            for i, card in enumerate(pile):
                yield (name, p, i), card
    for p, row in enumerate(state["tableau"]):
        for i, slot in enumerate(row):
            yield ("tableau", p, i, 0), slot[0]
            for k, card in enumerate(slot[3]):
                yield ("tableau", p, i, 3, k), card


def mutate(text: str, rng: random.Random) -> tuple[str, str]:
    """One targeted mutation of save ``text``: (the mutated save, what was done)."""
    data = json.loads(text)
    state, stack = data["state"], data["state"]["stack"]
    if not stack:
        return text, "no frames"
    i = rng.randrange(len(stack)) if rng.random() < 0.5 else len(stack) - 1 - rng.randrange(
        min(3, len(stack)))
    frame = stack[i]
    how = rng.choice(("int", "int", "int", "seat", "copy", "card", "swap"))
    if how == "seat":
        seat = rng.choice([s for s in (-1, 0, 1, 2, 3, 4) if s != frame["seat"]])
        frame["seat"] = seat
        return json.dumps(data), f"stack[{i}] {frame['kind']} moved to seat {seat}"
    if how == "copy":
        mine = [k for k, f in enumerate(stack) if f["kind"] in QUESTIONS]
        if mine:
            i = rng.choice(mine)
        copy = json.loads(json.dumps(stack[i]))
        copy["seat"] = rng.choice([s for s in range(4) if s != copy["seat"]])
        at = rng.choice((len(stack), i + 1, i))
        stack.insert(at, copy)
        return json.dumps(data), f"stack[{i}] {copy['kind']} copied to seat {copy['seat']} at {at}"
    ints = list(_ints(frame["d"], ("d",)))
    if how in ("card", "swap"):
        cards = [(p, v) for p, v in ints if p[1] in ("card", "cards", "options", "commits",
                                                      "boosts") and v >= 0]
        places = list(_card_places(state))
        if cards and places:
            path, old = rng.choice(cards)
            where, new = rng.choice(places)
            _set(frame, path, new)
            if how == "swap":
                _set(state, where, old)
            return json.dumps(data), (f"stack[{i}] {frame['kind']}.{'.'.join(map(str, path[1:]))} "
                                      f"{how} {old} with {'.'.join(map(str, where))} ({new})")
    ints.append((("seat",), frame["seat"]))
    path, old = rng.choice(ints)
    lengths = [len(state[name]) for name in TRACKS]
    value = rng.choice(BOUNDARY + tuple(lengths) + tuple(n - 1 for n in lengths))
    _set(frame, path, value)
    where = ".".join(map(str, path))
    return json.dumps(data), f"stack[{i}] {frame['kind']}.{where} {old} -> {value}"


def case(saves: list[str], number: int, seed: int) -> tuple[str, str]:
    """Case ``number`` of run ``seed``: (the mutated save, what was done)."""
    rng = random.Random(seed * 1_000_003 + number)
    return mutate(rng.choice(saves), rng)


def original(saves: list[str], number: int, seed: int) -> str:
    """The save case ``number`` of run ``seed`` mutates."""
    return random.Random(seed * 1_000_003 + number).choice(saves)


def raw_outcome(text: str, before: str, seed: int, steps: int = STEPS) -> str:
    """How the native module's own loader ends with the state of save ``text`` (the
    mutation of save ``before``, which gives the content, config, generator and log),
    the Python validator bypassed: "refused" (a Python error at the load), "played"
    (``steps`` random decisions played, or the game's end) or "raised" (a Python error
    in play)."""
    g, state = Game.from_json(before), json.loads(text)["state"]  # (``before`` loads)
    module = native.require()
    try:
        game = module.load(native._content(g.c), native._config(g.cfg), state,
                           native._halves_of(g.rng.bit_generator.state),
                           [tuple(d) for d in g.history])
    except Exception:  # noqa: BLE001 - any Python error is a refusal
        return "refused"
    table, pick = native._decision_table(g.cfg), random.Random(seed)
    try:
        for _ in range(steps):
            legal = module.legal_in(game, table)
            if module.is_over(game) or not legal:
                break
            decision = pick.choice(legal)
            module.step(game, int(decision[0]), int(decision[1]))
    except Exception:  # noqa: BLE001
        return "raised"
    return "played"


def outcome(text: str, seed: int, steps: int = STEPS) -> str:
    """How save ``text`` ends in the two engines: "refused" (the same SaveFormatError),
    "equal" (the same state, and the same game for ``steps`` random decisions), or
    "difference: ..." saying what differs."""
    try:
        python = Game.from_json(text)
    except SaveFormatError as theirs:
        try:
            native.NativeGame.from_json(text)
        except SaveFormatError as mine:
            return "refused" if str(mine) == str(theirs) else \
                f"difference: refused as {theirs!s:.200} / {mine!s:.200}"
        return f"difference: only the Python engine refuses: {theirs!s:.200}"
    except Exception as exc:  # noqa: BLE001 - any other error is a finding
        return f"difference: the Python loader raised {exc!r:.200}"
    try:
        ours = native.NativeGame.from_json(text)
    except SaveFormatError as exc:
        if str(exc).startswith("the native engine cannot hold this save: "):
            return "refused"
        return f"difference: only the native engine refuses: {exc!s:.200}"
    except Exception as exc:  # noqa: BLE001
        return f"difference: the native loader raised {exc!r:.200}"
    saved, mine = python.to_dict(), ours.to_dict()
    saved["state"]["log_text"] = []
    for key in ("seed", "history", "rng", "state"):
        if json.dumps(saved[key], sort_keys=True) != json.dumps(mine[key], sort_keys=True):
            return f"difference: loaded {key}"
    pick = random.Random(seed)
    for step in range(steps):
        try:
            legal, theirs = python.legal_decisions(), ours.legal_decisions()
        except Exception as exc:  # noqa: BLE001
            return f"difference: step {step}: legal decisions raised {exc!r:.200}"
        if legal != theirs:
            return f"difference: step {step}: legal decisions"
        if python.is_over:
            return "equal" if ours.is_over and ours.final_scores == python.final_scores \
                else f"difference: step {step}: final scores"
        decision = pick.choice(legal)
        for name, game in (("Python", python), ("native", ours)):
            try:
                game.step(decision)
            except Exception as exc:  # noqa: BLE001
                return f"difference: step {step}: the {name} engine raised {exc!r:.200}"
    return "equal"


def worker(corpus_path: str, seed: int, steps: int, raw: bool = False) -> None:
    """Answer case numbers read from stdin, one line each: "number outcome"."""
    with open(corpus_path) as f:
        saves = json.load(f)
    for line in sys.stdin:
        number = int(line)
        text, _ = case(saves, number, seed)
        result = raw_outcome(text, original(saves, number, seed), number, steps) if raw \
            else outcome(text, number, steps)
        print(number, result.replace("\n", " "), flush=True)


class Runner:
    """Runs cases in worker processes, restarting a worker that dies or hangs."""

    def __init__(self, corpus_path: str, seed: int, steps: int, timeout: float, env=None,
                 raw: bool = False):
        self.args = [sys.executable, os.path.abspath(__file__), "--worker", corpus_path,
                     "--seed", str(seed), "--steps", str(steps)] + ["--raw"] * raw
        env = dict(os.environ if env is None else env)  # the workers import this checkout
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (ROOT, env.get("PYTHONPATH"))))
        self.timeout, self.env = timeout, env
        self.results: dict[int, str] = {}
        self.lock = threading.Lock()

    def _start(self):
        return subprocess.Popen(self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=self.env)

    def _serve(self, numbers: queue.Queue) -> None:
        proc = self._start()
        try:
            while True:
                try:
                    number = numbers.get_nowait()
                except queue.Empty:
                    return
                proc.stdin.write(f"{number}\n")
                proc.stdin.flush()
                timer = threading.Timer(self.timeout, proc.kill)
                timer.start()
                line = proc.stdout.readline()
                timer.cancel()
                if line:
                    result = line.split(" ", 1)[1].rstrip("\n")
                else:  # the worker died: a crash (or a hang past the timeout)
                    proc.kill()
                    proc.wait()
                    report = proc.stderr.read()
                    where = [line.strip() for line in report.splitlines() if "native/" in line]
                    tail = " | ".join(where[:2] + report[-300:].strip().splitlines())
                    result = f"crash: exit {proc.returncode}: {tail}"
                    proc = self._start()
                with self.lock:
                    self.results[number] = result
        finally:
            proc.stdin.close()
            proc.kill()
            proc.wait()

    def run(self, numbers, workers: int) -> dict[int, str]:
        todo: queue.Queue = queue.Queue()
        for n in numbers:
            todo.put(n)
        threads = [threading.Thread(target=self._serve, args=(todo,)) for _ in range(workers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return self.results


#: The count of each outcome but crashes and differences.
_COUNTED = {"refused": "refusals", "equal": "equal games", "played": "played",
            "raised": "raised in play"}


def counts(results: dict[int, str]) -> Counter:
    """cases, refusals, equal games, crashes, differences (and with ``--raw`` the states
    played and the errors raised in play) of a run's results."""
    out = Counter(cases=len(results))
    for result in results.values():
        out[_COUNTED.get(
            result, "crashes" if result.startswith("crash") else "differences")] += 1
    return out


def fuzz(cases: int, seed: int = 0, workers: int = 1, games: int = 30, steps: int = STEPS,
         timeout: float = 60.0, env=None, raw: bool = False) -> tuple[Counter, dict[int, str]]:
    """Run ``cases`` cases in ``workers`` processes: (the counts, the results by case);
    ``raw``: through the native loader alone (:func:`raw_outcome`)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "corpus.json")
        with open(path, "w") as f:
            json.dump(corpus(games), f)
        results = Runner(path, seed, steps, timeout, env, raw).run(range(cases), workers)
    return counts(results), results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10000, help="mutated saves to try")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (picks the cases)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--games", type=int, default=30,
                        help="random games per ruleset the saves are taken from")
    parser.add_argument("--steps", type=int, default=STEPS,
                        help="random decisions played on after an accepted load")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a case may take")
    parser.add_argument("--show", type=int, default=10, help="crashes and differences shown")
    parser.add_argument("--raw", action="store_true",
                        help="bypass the Python validator: the native loader alone")
    parser.add_argument("--only", type=int, help="run this case here and print it")
    parser.add_argument("--worker", metavar="CORPUS", help=argparse.SUPPRESS)
    args = parser.parse_args()
    native.require()
    if args.worker:
        worker(args.worker, args.seed, args.steps, args.raw)
        return 0
    if args.only is not None:
        saves = corpus(args.games)
        text, what = case(saves, args.only, args.seed)
        print(what)
        print(raw_outcome(text, original(saves, args.only, args.seed), args.only, args.steps)
              if args.raw else outcome(text, args.only, args.steps))
        return 0
    began = time.monotonic()
    tally, results = fuzz(args.cases, args.seed, args.workers, args.games, args.steps,
                          args.timeout, raw=args.raw)
    saves = None
    shown = 0
    for number, result in sorted(results.items()):
        if result in _COUNTED or shown >= args.show:
            continue
        saves = saves or corpus(args.games)
        print(f"case {number}: {case(saves, number, args.seed)[1]}: {result}")
        shown += 1
    shown_counts = ("cases", "refusals", "equal games", "crashes", "differences") + \
        (("played", "raised in play") if args.raw else ())
    print(", ".join(f"{tally[k]} {k}" for k in shown_counts)
          + f" ({time.monotonic() - began:.0f} s)")
    return 1 if tally["crashes"] or tally["differences"] else 0


if __name__ == "__main__":
    sys.exit(main())
