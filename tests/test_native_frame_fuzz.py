"""The targeted frame fuzzer (``scripts/frame_fuzz.py``) in CI: a few hundred mutated
pending frames (ints at their boundaries, frames moved and copied to other seats,
cards swapped between places), each case in a worker process, end alike in both
engines: the same SaveFormatError, or the same game. No worker crashes. The soak runs
the same with ``--cases`` in the tens of thousands."""

import importlib.util
from pathlib import Path

import pytest

from singapore_env import native

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="the native engine is not built here")

_SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "frame_fuzz.py"


def _fuzzer():
    spec = importlib.util.spec_from_file_location("frame_fuzz", _SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_mutated_frames_end_alike_in_both_engines_and_crash_nothing():
    fuzz = _fuzzer()
    tally, results = fuzz.fuzz(cases=300, seed=1, workers=1, games=12, steps=30)
    found = {n: r for n, r in results.items() if r not in ("refused", "equal")}
    assert not found, found
    assert tally["cases"] == 300 and tally["crashes"] == tally["differences"] == 0
    assert tally["refusals"] > 50 and tally["equal games"] > 50  # both outcomes are tried


def test_a_crashing_worker_is_counted_and_replaced(tmp_path):
    """The runner survives a worker that dies: the case counts as a crash and the next
    cases run in a new worker."""
    fuzz = _fuzzer()
    corpus = tmp_path / "corpus.json"
    corpus.write_text("[]")  # no saves: every case makes the worker fail at once
    results = fuzz.Runner(str(corpus), 0, 1, 30.0).run(range(3), 1)
    assert sorted(results) == [0, 1, 2]
    assert all(r.startswith("crash: exit 1") for r in results.values())
    assert fuzz.counts(results)["crashes"] == 3
