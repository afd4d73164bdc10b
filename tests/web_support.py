"""Helpers of the web app's tests: an app on a games folder driven by Starlette's
TestClient, and a person's seat answering through the API."""

from __future__ import annotations

import random
import time

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="the web extra is not installed")

import warnings  # noqa: E402

with warnings.catch_warnings():  # (Starlette 1.x suggests httpx2; httpx works the same)
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from singapore_app.web.app import create_app  # noqa: E402

#: A short game (3 rounds) for tests that play to the end.
SHORT = {"event_i_cards": 1, "event_ii_cards": 1}


def client(games_dir=None, workers: int = 1) -> TestClient:
    """A TestClient of a new app (use it in ``with`` so that the app starts)."""
    return TestClient(create_app(games_dir, workers=workers))


def start(c: TestClient, seats, **body) -> dict:
    """Start a game; its links (id, seats with their keys)."""
    r = c.post("/api/games", json={"seats": seats, **body})
    assert r.status_code == 201, r.text
    return r.json()


def wait(c: TestClient, path: str, until, key=None, timeout: float = 60.0) -> dict:
    """GET ``path`` until ``until(view)``; the view."""
    deadline = time.monotonic() + timeout
    while True:
        view = c.get(path, headers={"x-seat-key": key} if key else {}).json()
        if until(view):
            return view
        assert time.monotonic() < deadline, f"timed out waiting on {path}: {view.get('status')}"
        time.sleep(0.02)


def play_seat(c: TestClient, game: str, seat: int, key: str, rng: random.Random,
              most: int | None = None) -> dict:
    """Answer ``seat``'s questions at random until the game is over (or ``most``
    answers are given); the last view."""
    path, given = f"/api/games/{game}/seats/{seat}", 0
    while True:
        view = wait(c, path, lambda v: v["over"] or v["question"], key)
        if view["over"] or (most is not None and given >= most):
            return view
        answers = view["question"]["answers"]
        r = c.post(path + "/answer", headers={"x-seat-key": key},
                   json={"index": rng.randrange(len(answers)), "expect": view["decisions"]})
        assert r.status_code == 200, r.text
        given += 1
