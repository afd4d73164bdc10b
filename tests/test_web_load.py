"""A bounded load on loopback: concurrent games on one uvicorn server, every seat
answered at random over HTTP; no error response and no cross-talk between games
(the full 50 games x 60 s run is ``benchmarks/bench_web.py``, docs/benchmarks.md)."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("uvicorn", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="the web extra is not installed")

from singapore_app.web.load import run_load  # noqa: E402
from singapore_app.web.server import BackgroundServer  # noqa: E402


def test_concurrent_games_answer_without_errors_or_crosstalk(tmp_path):
    with BackgroundServer(tmp_path, workers=1) as url:
        result = asyncio.run(run_load(url, games=12, seconds=6,
                                      settings={"event_i_cards": 1, "event_ii_cards": 1}))
    print(result)
    assert result["errors"] == 0 and result["crosstalk"] == 0, result["first_errors"]
    assert result["answers"] > 100
    assert len(list(tmp_path.glob("*.json"))) >= 12  # every game written to the folder
