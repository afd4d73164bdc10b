"""Bad requests to the web API: each gets a 4xx with a message that says what is wrong,
and the game is unchanged (never a 500)."""

from __future__ import annotations

import json

import pytest

from web_support import client, start, wait

from singapore_env.engine import Game

GID, OTHER = "{game}", "{other}"  # replaced by the game's id / a well-formed unknown id
KEY, WRONG = "{key}", "not-the-key"
EXPECT = -7  # replaced by the game's decision count
_big = "x" * (2 * 1024 * 1024 + 10)

#: (method, path, headers, body, status, words in the message)
CASES = [
    ("GET", "/api/games/zz", {}, None, 400, "malformed game id 'zz'"),
    ("GET", "/api/games/../etc", {}, None, 404, "Not Found"),
    ("GET", f"/api/games/{OTHER}", {}, None, 404, "no game"),
    ("GET", f"/api/games/{GID}/seats/7", {}, None, 400, "unknown seat '7'"),
    ("GET", f"/api/games/{GID}/seats/0", {}, None, 403, "wrong or missing secret"),
    ("GET", f"/api/games/{GID}/seats/0", {"x-seat-key": WRONG}, None, 403, "wrong or missing"),
    ("GET", f"/api/games/{GID}/seats/1", {"x-seat-key": KEY}, None, 403, "played by an agent"),
    ("GET", f"/api/games/{GID}/seats/0/legal", {}, None, 403, "wrong or missing secret"),
    ("POST", f"/api/games/{GID}/seats/0/answer", {"x-seat-key": WRONG}, {"index": 0}, 403,
     "wrong or missing"),
    ("POST", f"/api/games/{GID}/seats/0/answer", {"x-seat-key": KEY}, "{not json", 400,
     "the body is not JSON"),
    ("POST", f"/api/games/{GID}/seats/0/answer", {"x-seat-key": KEY},
     '{"index": ' + "[" * 100000, 400, "the body is not JSON"),
    ("POST", f"/api/games/{GID}/seats/0/answer", {"x-seat-key": KEY}, {"index": 1.5, "expect": EXPECT}, 400,
     "index must be an integer"),
    ("POST", f"/api/games/{GID}/seats/0/answer", {"x-seat-key": KEY}, [1, 2], 400,
     "must be a JSON object"),
    ("POST", f"/api/games/{GID}/seats/0/answer", {"x-seat-key": KEY}, {"index": 999, "expect": EXPECT}, 400,
     "index must be an integer in 0.."),
    ("POST", f"/api/games/{GID}/seats/0/answer", {"x-seat-key": KEY}, {"index": True, "expect": EXPECT}, 400,
     "index must be an integer"),
    ("POST", f"/api/games/{GID}/seats/0/answer", {"x-seat-key": KEY},
     {"decision": [99, 0], "expect": EXPECT}, 409, "unknown decision kind 99"),
    ("POST", f"/api/games/{GID}/seats/0/answer", {"x-seat-key": KEY},
     {"decision": [0, 10**30], "expect": EXPECT}, 409, "illegal answer"),
    ("POST", f"/api/games/{GID}/seats/0/answer", {"x-seat-key": KEY},
     {"decision": "buy", "expect": EXPECT}, 400, "give the answer as"),
    ("POST", f"/api/games/{GID}/seats/0/answer", {"x-seat-key": KEY},
     {"index": 0, "expect": 12345}, 409, "the game has moved on"),
    ("POST", f"/api/games/{GID}/seats/0/answer", {"x-seat-key": KEY},
     {"index": 0, "extra": 1}, 400, "unknown field(s) 'extra'"),
    ("POST", f"/api/games/{GID}/seats/0/answer", {"x-seat-key": KEY},
     {"index": 0, "decision": [0, 0], "expect": EXPECT}, 400, "not both"),
    ("POST", f"/api/games/{GID}/seats/0/answer", {"x-seat-key": KEY}, {"index": 0}, 400,
     "expect is missing"),
    ("POST", f"/api/games/{GID}/seats/0/answer", {"x-seat-key": KEY},
     {"decision": [2, 7], "expect": EXPECT}, 409, "illegal answer"),
    ("POST", f"/api/games/{GID}/seats/0/answer", {"x-seat-key": KEY},
     {"decision": [19, 40], "expect": EXPECT}, 409, "illegal answer"),
    ("POST", f"/api/games/{GID}/seats/0/answer", {"x-seat-key": KEY},
     {"decision": [27, 13], "expect": EXPECT}, 409, "illegal answer"),
    ("POST", f"/api/games/{GID}/seats/0/answer", {"x-seat-key": KEY}, _big, 413,
     "larger than"),
    ("POST", "/api/games", {}, {"seats": ["person"]}, 400, "seats must be a list of 4"),
    ("POST", "/api/games", {}, {"seats": ["person", "nobody", "random", "random"]}, 400,
     "the Resident's seat: this server plays its own agents only"),
    ("POST", "/api/games", {}, {"seats": ["person", "mcts:iters=1000000", "random", "random"]},
     400, "over this server's think limit"),
    ("POST", "/api/games", {}, {"seats": ["person", "mcts:seconds=60", "random", "random"]},
     400, "over this server's think limit"),
    ("POST", "/api/games", {}, {"seats": ["person", "heuristic:war_margin=abc", "random",
                                          "random"]}, 400, "war_margin expects"),
    ("POST", "/api/games", {}, {"seats": ["person", "mcts:iters=x", "random", "random"]}, 400,
     "iters expects an integer"),
    ("POST", "/api/games", {}, {"seats": ["person", "/tmp/bot.py:Bot", "random", "random"]},
     400, "--allow-code"),
    ("POST", "/api/games", {}, {"seats": ["person", "learned:/etc/passwd", "random", "random"]},
     400, "--allow-code"),
    ("POST", "/api/games", {}, {"ruleset": "chess"}, 400, "unknown ruleset 'chess'"),
    ("POST", "/api/games", {}, {"seed": -1}, 400, "seed must be an integer in 0.."),
    ("POST", "/api/games", {}, {"seed": "1"}, 400, "seed must be an integer"),
    ("POST", "/api/games", {}, {"delay": 1e9}, 400, "delay must be a number of seconds"),
    ("POST", "/api/games", {}, {"settings": {"warp": 1}}, 400, "unknown rules setting"),
    ("POST", "/api/games", {}, {"settings": {"market_slots": -3}}, 400, "settings:"),
    ("POST", "/api/games", {}, {"color": "red"}, 400, "unknown field(s) 'color'"),
    ("POST", "/api/replays", {}, {"save": "{}"}, 400, "not a usable save"),
    ("POST", "/api/replays", {}, {"save": 3}, 400, "save must be a saved game"),
    ("POST", "/api/replays", {}, {"save": "{\"format\": \"chess-pgn\"}"}, 400, "not a usable save"),
    ("POST", "/api/games/resume", {}, {"save": "[" * 100000}, 400, "not a usable save"),
    ("GET", f"/api/games/{GID}/save", {}, None, 403, "opens once the game is over"),
    ("GET", f"/api/games/{GID}/replay", {}, None, 403, "opens once the game is over"),
    ("GET", f"/api/games/{GID}/replay/3", {}, None, 403, "opens once the game is over"),
    ("DELETE", f"/api/games/{GID}", {}, None, 403, "wrong or missing creator's secret"),
    ("POST", f"/api/games/{GID}/stop", {"x-owner-key": KEY}, None, 403, "creator's secret"),
    ("POST", f"/api/games/{GID}/pace", {}, {"delay": 1}, 403, "creator's secret"),
    ("PUT", f"/api/games/{GID}", {}, None, 405, "Method Not Allowed"),
    ("GET", "/api/nothing", {}, None, 404, "Not Found"),
]


@pytest.fixture(scope="module")
def table():
    with client() as c:
        game = start(c, ["person", "random", "random", "random"], seed=3)
        key = game["seats"][0]["key"]
        wait(c, f"/api/games/{game['id']}/seats/0", lambda v: v["question"], key)
        yield c, game["id"], key


def _fill(text: str, gid: str, key: str) -> str:
    return text.replace(GID, gid).replace(OTHER, "0123456789ab").replace(KEY, key)


@pytest.mark.parametrize("method,path,headers,body,status,words", CASES,
                         ids=[f"{c[0]} {c[1]} {c[5]}"[:60] for c in CASES])
def test_a_bad_request_is_refused_clearly_and_changes_nothing(table, method, path, headers,
                                                              body, status, words):
    c, gid, key = table
    before = c.app.state.web.tables.tables[gid].game.to_json()
    headers = {k: _fill(v, gid, key) for k, v in headers.items()}
    content = body if isinstance(body, str) else None if body is None else json.dumps(body)
    if content is not None:
        decisions = len(c.app.state.web.tables.tables[gid].game.history)
        content = content.replace(f'"expect": {EXPECT}', f'"expect": {decisions}')
    r = c.request(method, _fill(path, gid, key), headers=headers, content=content)
    assert r.status_code == status, r.text
    assert words in r.json()["error"], r.json()
    assert c.app.state.web.tables.tables[gid].game.to_json() == before


def test_no_illegal_decision_reaches_anything_but_the_rules():
    """Every kind with boundary args, at every decision of two games: the table refuses
    each illegal one with the engine's IllegalDecision and is unchanged (its log's words
    were built from the decision before the rules checked it: an IndexError, a 500)."""
    import random

    from singapore_app.web.table import Table
    from singapore_env.engine.decisions import Decision, Kind
    from singapore_env.engine.game import IllegalDecision

    tried = 0
    for seed in (0, 1):
        g = Game(seed)
        table, rng = Table("0" * 12, g, ["person"] * 4), random.Random(seed)
        while not g.is_over and len(g.history) < 80:
            legal, before, lines = g.legal_decisions(), g.to_json(), len(table.log)
            for kind in range(len(Kind) + 1):
                for arg in (-1, 1, 2, 7, 13, 40, 10**6):
                    if Decision(kind, arg) in legal:
                        continue
                    with pytest.raises(IllegalDecision):
                        table.step(Decision(kind, arg))
                    tried += 1
            assert g.to_json() == before and len(table.log) == lines
            table.step(rng.choice(legal))
    assert tried > 30_000


def test_a_foreign_save_is_refused_by_the_engine_s_validation(table):
    c, _, _ = table
    g = Game(1)
    data = json.loads(g.to_json())
    data["state"]["wealth"][0] = -5
    r = c.post("/api/replays", json={"save": data})
    assert r.status_code == 400 and "wealth" in r.json()["error"]


def test_the_replay_step_must_be_in_the_game(table):
    c, _, _ = table
    done = start(c, ["random"] * 4, seed=1)
    wait(c, f"/api/games/{done['id']}", lambda v: v["over"])
    for step, status in (("99999", 400), ("-1", 400), ("x", 400), ("0", 200)):
        assert c.get(f"/api/games/{done['id']}/replay/{step}").status_code == status
