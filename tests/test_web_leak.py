"""Hidden information never reaches a seat through HTTP.

The twin technique of ``tests/test_env_leak.py`` through the web API: for random
positions (mid-game, Wars before the roll, Conflict contributions, drawn Battle cards,
Searches), two servers hold two games that differ only in what one viewer may not see
(other seats' hands, every deck's order, face-down commitments, another seat's drawn
cards); that viewer's every endpoint answers byte for byte the same on both. A spectator
(no seat) is checked the same way against every seat's secrets.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from test_env_leak import _frame, _hide
from web_support import client

from singapore_app.web.table import Table
from singapore_env.engine import Game
from singapore_env.engine.frames import WarPhase

GID = "00aa11bb22cc"
KEYS = [f"key-of-seat-{p}" for p in range(4)]


def _positions(per_kind: int = 3) -> list[Table]:
    """Tables at random positions of random games (``per_kind`` of each kind wanted),
    their logs as played."""
    wanted = [
        lambda g: g.s.round >= 3 and sum(map(len, g.s.hands)) >= 4,
        lambda g: (f := _frame(g, "war")) is not None and f.d.phase < WarPhase.SPOILS
        and any(c >= 0 for c in f.d.commits),
        lambda g: (f := _frame(g, "conflict")) is not None
        and any(f.d.cards[q] or f.d.money[q] for q in range(4)),
        lambda g: g.pending is not None and g.pending.kind in ("keep_battle", "search_pick"),
    ]
    found: list[Table] = []
    counts = [0] * len(wanted)
    rng = random.Random(0)
    for seed in range(300):
        table = Table(GID, Game(seed), ["person"] * 4, keys=list(KEYS))
        g = table.game
        while not g.is_over:
            kinds = [i for i, pred in enumerate(wanted) if counts[i] < per_kind and pred(g)]
            if kinds and rng.random() < 0.3:
                found.append(Table(GID, g.clone(), ["person"] * 4, keys=list(KEYS),
                                   log=[list(x) for x in table.log]))
                counts[kinds[0]] += 1
            legal = g.legal_decisions()
            table.step(legal[rng.randrange(len(legal))])
        if min(counts) >= per_kind:
            break
    assert min(counts) >= 1, f"positions of each kind wanted, found {counts}"
    return found


def _requests(viewer: int | None, acting: int) -> list[tuple[str, str, dict, dict | None]]:
    """Every request ``viewer`` can make: (method, path, headers, body)."""
    base = f"/api/games/{GID}"
    out = [("GET", base, {}, None), ("GET", base + "/save", {}, None),
           ("GET", base + "/replay", {}, None), ("GET", base + "/replay/0", {}, None),
           ("GET", "/api/games", {}, None)]
    seats = range(4) if viewer is None else [viewer]
    for seat in seats:
        key = {} if viewer is None else {"x-seat-key": KEYS[seat]}
        wrong = {"x-seat-key": "guess"}
        out += [("GET", f"{base}/seats/{seat}", key, None),
                ("GET", f"{base}/seats/{seat}/legal", key, None),
                ("GET", f"{base}/seats/{seat}", wrong, None),
                ("POST", f"{base}/seats/{seat}/answer", key, {"index": 10**6}),
                ("POST", f"{base}/seats/{seat}/answer", key, {"decision": [3, 10**6]}),
                ("POST", f"{base}/seats/{seat}/answer", key, {"decision": [0, 0],
                                                             "expect": 10**8})]
    return out


@pytest.fixture(scope="module")
def servers():
    with client() as a, client() as b:
        yield a, b


def _seat(c, table: Table) -> None:
    c.app.state.web.tables.tables = {GID: table}


def test_twins_look_the_same_to_the_seat_that_cannot_tell_them_apart(servers):
    a, b = servers
    tables = _positions()
    rng = np.random.default_rng(1)
    compared = 0
    for table in tables:
        for viewer in (0, 1, 2, 3, None):
            twin_game = _hide(table.game, -1 if viewer is None else viewer, rng)
            assert twin_game.s.to_dict() != table.game.s.to_dict()
            twin = Table(GID, twin_game, ["person"] * 4, keys=list(KEYS),
                         log=[list(x) for x in table.log], created=table.created)
            _seat(a, Table(GID, table.game.clone(), ["person"] * 4, keys=list(KEYS),
                           log=[list(x) for x in table.log], created=table.created))
            _seat(b, twin)
            for method, path, headers, body in _requests(viewer, table.game.acting_seat):
                ra = a.request(method, path, headers=headers, json=body)
                rb = b.request(method, path, headers=headers, json=body)
                assert ra.status_code == rb.status_code < 500, (path, ra.text)
                assert ra.content == rb.content, (viewer, method, path, body)
                compared += 1
    assert compared > 300


def test_the_own_hand_does_reach_its_seat(servers):
    """Negative control: changing the viewer's own hand changes its view."""
    a, b = servers
    table = next(t for t in _positions(1) if t.game.s.hands[t.game.acting_seat])
    seat = table.game.acting_seat
    other = _hide(table.game, (seat + 1) % 4, np.random.default_rng(2))
    assert other.s.hands[seat] != table.game.s.hands[seat]
    _seat(a, table)
    _seat(b, Table(GID, other, ["person"] * 4, keys=list(KEYS), log=table.log,
                   created=table.created))
    path, key = f"/api/games/{GID}/seats/{seat}", {"x-seat-key": KEYS[seat]}
    assert a.get(path, headers=key).content != b.get(path, headers=key).content
