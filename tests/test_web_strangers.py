"""The web app in front of strangers: nothing a spectator or another seat reads rebuilds
a hidden card, seat specs are a closed set that opens nothing on the server's disk, a
think limit, a limit on games in progress, JSON errors for any failure, finished games
leaving memory, and the creator's pace, stop and delete."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import threading
import time

from web_support import SHORT, client, start, wait

from singapore_app.web import specs, views
from singapore_env.engine import Game
from singapore_env.engine.config import RulesConfig


def _reads(c, game: dict, viewer_seat: int | None) -> list[str]:
    """Every response body a spectator (None) or the seat ``viewer_seat`` can get of
    ``game`` (its views, the list, refused saves and replays, refused answers)."""
    gid, out = game["id"], []
    paths = [f"/api/games/{gid}", "/api/games", f"/api/games/{gid}/save",
             f"/api/games/{gid}/replay", f"/api/games/{gid}/replay/0",
             f"/api/games/{gid}/seats/0", f"/api/games/{gid}/seats/0/legal"]
    key = {} if viewer_seat is None else {"x-seat-key": game["seats"][viewer_seat]["key"]}
    if viewer_seat is not None:
        paths += [f"/api/games/{gid}/seats/{viewer_seat}",
                  f"/api/games/{gid}/seats/{viewer_seat}/legal"]
    for path in paths:
        out.append(c.get(path, headers=key).text)
    for body in ({"index": 10**6}, {"decision": [3, 10**6]}, {"index": 0, "expect": 10**8}):
        out.append(c.post(f"/api/games/{gid}/seats/{viewer_seat or 1}/answer", headers=key,
                          json=body).text)
    return out


def test_a_spectator_cannot_rebuild_a_hidden_hand():
    """Fresh seeds by default; no seed in anything a spectator or another seat reads
    while people play; trying every number they read as the seed rebuilds no hand (and
    the true seed would: the attack is real)."""
    with client() as c:
        games = [start(c, ["person", "person", "heuristic", "heuristic"]) for _ in range(2)]
        tables = [c.app.state.web.tables.tables[g["id"]] for g in games]
        seeds = [t.game.seed for t in tables]
        assert seeds[0] != seeds[1] and min(seeds) > 2**32  # fresh, from 64 random bits
        assert Game(seeds[0]).s.hands != Game(seeds[1]).s.hands  # different deals
        for game, table in zip(games, tables):
            reads = _reads(c, game, None) + _reads(c, game, 1)
            assert all(str(table.game.seed) not in text for text in reads)
            assert not any('"seed"' in text for text in reads)
            numbers = {int(n) for text in reads for n in re.findall(r"\d+", text)}
            hidden = Game(table.game.seed, table.game.cfg).s  # the deal to rebuild
            rebuilt = [n for n in numbers if n < 2**128
                       and Game(n, table.game.cfg).s.market_deck == hidden.market_deck]
            assert rebuilt == []
        done = start(c, ["random"] * 4, seed=77, settings=SHORT)  # a game of agents:
        assert wait(c, f"/api/games/{done['id']}", lambda v: v["over"])["seed"] == 77


def _fifo(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return str(path)


def _unread(fifo: str) -> bool:
    """Whether nothing has the FIFO open for reading now (a writer cannot open it)."""
    try:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        return False
    except OSError:
        return True


def test_a_seat_spec_naming_a_file_opens_nothing_and_says_one_thing(tmp_path):
    fifo = _fifo(tmp_path)
    real = tmp_path / "real.npz"
    real.write_bytes(b"")
    specs_given = [f"mcts:net={fifo}", f"rerank:net={fifo}", f"learned:{fifo}",
                   f"learned-sample:{fifo}", f"{fifo}:Bot", f"rerank:net={real}",
                   "rerank:net=/no/such/file", "mcts:net=../agents/policies",
                   "os.path:join", "learned:/dev/zero", "heuristic:net=default",
                   f"lookahead:{tmp_path}", "lookahead:zero"]
    answers = {}
    with client() as c:
        def ask():
            for spec in specs_given:
                answers[spec] = c.post("/api/games",
                                       json={"seats": ["person", spec, "random", "random"]})
        asker = threading.Thread(target=ask, daemon=True)
        asker.start()
        asker.join(timeout=30)
        assert not asker.is_alive(), "a seat spec blocked the server"
        assert _unread(fifo)
        messages = {r.json()["error"] for r in answers.values()}
        assert {r.status_code for r in answers.values()} == {400}
        assert len(messages) == 1 and "--allow-code" in messages.pop()
        assert c.get("/api/games").status_code == 200  # the server still answers


def test_shipped_agents_and_networks_play(tmp_path):
    with client() as c:
        game = start(c, ["learned:zero-policy", "rerank:net=zero",
                         "mcts:net=zero:iters=2:horizon=1", "learned-sample:zero"])
        view = wait(c, f"/api/games/{game['id']}", lambda v: v["decisions"] >= 8)
        assert not view["error"]
        game = start(c, ["learned:zero", "random", "rerank", "random"])
        view = wait(c, f"/api/games/{game['id']}", lambda v: v["decisions"] >= 8)
        assert not view["error"]


def test_a_retired_shipped_agent_is_refused_naming_its_replacement():
    with client() as c:
        for spec, instead in (("learned:pure", "learned:zero"),
                              ("learned:pure-policy", "learned:zero-policy"),
                              ("rerank:net=default", "net=zero")):
            r = c.post("/api/games", json={"seats": ["person", spec, "random", "random"]})
            assert r.status_code == 400, r.text
            assert "was retired" in r.json()["error"] and instead in r.json()["error"], r.text


def test_a_search_over_the_think_limit_is_refused():
    from web_support import TestClient, create_app

    with TestClient(create_app(think_limit=1.0)) as c:
        ok = c.post("/api/games", json={"seats": ["person", "mcts:iters=20", "random",
                                                  "mcts:seconds=1"]})
        assert ok.status_code == 201, ok.text
        for spec in ("mcts:iters=21", "mcts:seconds=1.5", "mcts:iters=10:topk=7"):
            r = c.post("/api/games", json={"seats": ["person", spec, "random", "random"]})
            assert r.status_code == 400 and "think limit" in r.json()["error"], r.text
    with client() as c:  # the default: a million simulations a decision is refused
        r = c.post("/api/games", json={"seats": ["mcts:iters=1000000"] + ["random"] * 3})
        assert r.status_code == 400 and "think limit" in r.json()["error"]


def test_agents_are_built_off_the_event_loop(monkeypatch):
    where = []
    real = specs.build

    def build(text, seed=0):
        try:
            asyncio.get_running_loop()
            where.append("event loop")
        except RuntimeError:
            where.append("thread")
        return real(text, seed)

    monkeypatch.setattr(specs, "build", build)
    with client() as c:
        start(c, ["person", "heuristic", "learned:zero-policy", "random"])
    assert where == ["thread"] * 3


def test_an_unexpected_failure_is_a_json_500_logged_once(monkeypatch, caplog):
    with client() as c:
        game = start(c, ["person", "random", "random", "random"])

        def broken(*args):
            raise RuntimeError("a bug")

        monkeypatch.setattr(views, "board", broken)
        with caplog.at_level(logging.ERROR):
            r = c.get(f"/api/games/{game['id']}")
        assert r.status_code == 500 and "internal error" in r.json()["error"]
        assert sum("a bug" in (rec.exc_text or str(rec.exc_info)) for rec in caplog.records) == 1


def test_games_in_progress_are_limited_and_stopping_one_frees_its_place():
    from web_support import TestClient, create_app

    with TestClient(create_app(max_games=2)) as c:
        first = start(c, ["person"] * 4)
        start(c, ["person"] * 4)
        r = c.post("/api/games", json={"seats": ["person"] * 4})
        assert r.status_code == 429 and "limit" in r.json()["error"]
        stop = c.post(f"/api/games/{first['id']}/stop",
                      headers={"x-owner-key": first["owner_key"]})
        assert stop.status_code == 200 and stop.json()["stopped"]
        assert c.post("/api/games", json={"seats": ["person"] * 4}).status_code == 201


def test_finished_games_leave_memory_and_open_from_disk(tmp_path):
    with client(tmp_path) as c:
        ids = [start(c, ["random"] * 4, settings=SHORT)["id"] for _ in range(3)]
        tables = c.app.state.web.tables
        deadline = time.monotonic() + 60
        while any(i in tables.tables for i in ids):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        tables._finished.clear()  # (as if many other games were opened since)
        view = c.get(f"/api/games/{ids[0]}").json()
        assert view["over"] and view["log"]
        assert {g["id"] for g in c.get("/api/games").json()["games"]} == set(ids)


def test_the_creator_paces_stops_and_deletes_a_game(tmp_path):
    with client(tmp_path) as c:
        game = start(c, ["person", "random", "random", "random"], delay=2)
        gid, owner = game["id"], {"x-owner-key": game["owner_key"]}
        key = {"x-seat-key": game["seats"][0]["key"]}
        r = c.post(f"/api/games/{gid}/pace", headers=owner, json={"delay": 0})
        assert r.status_code == 200 and c.get(f"/api/games/{gid}").json()["delay"] == 0
        view = wait(c, f"/api/games/{gid}/seats/0", lambda v: v["question"],
                    game["seats"][0]["key"])
        assert c.post(f"/api/games/{gid}/stop", headers=owner).status_code == 200
        stopped = c.get(f"/api/games/{gid}/seats/0", headers=key).json()
        assert stopped["stopped"] and stopped["question"] is None
        assert "stopped" in stopped["status"]
        r = c.post(f"/api/games/{gid}/seats/0/answer", headers=key,
                   json={"index": 0, "expect": view["decisions"]})
        assert r.status_code == 409 and "stopped" in r.json()["error"]
        assert c.get(f"/api/games/{gid}/save").status_code == 403  # hands stay hidden
        assert c.delete(f"/api/games/{gid}", headers=key).status_code == 403
        assert c.delete(f"/api/games/{gid}", headers=owner).status_code == 200
        assert c.get(f"/api/games/{gid}").status_code == 404
        assert not (tmp_path / f"{gid}.json").exists()


def test_each_seat_shows_who_plays_it_and_which_agent_thinks():
    with client() as c:
        game = start(c, ["mcts:seconds=0.3", "random", "mcts:seconds=0.3", "random"])
        seen = wait(c, f"/api/games/{game['id']}", lambda v: v["thinking"] in (
            "lieutenant_governor", "temenggong"), timeout=30)
        assert seen["acting"] == seen["thinking"]
        assert seen["players"] == ["mcts:seconds=0.3", "random", "mcts:seconds=0.3", "random"]


def test_the_game_over_view_has_the_final_scores():
    with client() as c:
        game = start(c, ["random"] * 4, seed=3, settings=SHORT)
        view = wait(c, f"/api/games/{game['id']}", lambda v: v["over"])
        final = view["board"]["final"]
        g = Game.from_json(c.get(f"/api/games/{game['id']}/save").text)
        assert [row["total"] for row in final] == g.final_scores
        assert all(row["track"] + row["legacies"] + row["end_game"] == row["total"]
                   for row in final)
        assert [row["seat"] for row in final if row["won"]] == view["board"]["winners"]
        assert json.dumps(final)  # (plain data)
        assert RulesConfig.named("standard")  # (unchanged rules)


def test_with_allow_code_a_file_that_blocks_or_fails_is_answered(tmp_path, monkeypatch):
    from web_support import TestClient, create_app

    fifo, empty = _fifo(tmp_path), tmp_path / "empty.npz"
    empty.write_bytes(b"")
    monkeypatch.setattr(specs, "BUILD_SECONDS", 1.0)
    with TestClient(create_app(allow_code=True)) as c:
        for spec, words in ((f"learned:{empty}", "the Resident's seat: "),
                            (f"learned:{fifo}", "took over 1 s to build")):
            r = c.post("/api/games", json={"seats": ["person", spec, "random", "random"]})
            assert r.status_code == 400 and words in r.json()["error"], r.text
        assert c.get("/api/games").status_code == 200
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))  # (frees the blocked thread)


def test_views_of_finished_games_and_replays_are_built_off_the_event_loop(monkeypatch):
    from singapore_app.web import replay

    where = []
    real_board, real_timeline = views.board, replay.Timeline.__init__

    def _where():
        try:
            asyncio.get_running_loop()
            return "event loop"
        except RuntimeError:
            return "thread"

    def board(*args):
        where.append(("board", _where()))
        return real_board(*args)

    def timeline(self, game, base=None):
        where.append(("timeline", _where()))
        real_timeline(self, game, base)

    with client() as c:
        done = start(c, ["random"] * 4, seed=5, settings=SHORT)
        wait(c, f"/api/games/{done['id']}", lambda v: v["over"])
        playing = start(c, ["person", "random", "random", "random"])
        monkeypatch.setattr(views, "board", board)
        monkeypatch.setattr(replay.Timeline, "__init__", timeline)
        for path in ("", "/replay", "/replay/3"):
            assert c.get(f"/api/games/{done['id']}{path}").status_code == 200
        assert set(where) == {("board", "thread"), ("timeline", "thread")}, where
        where.clear()
        assert c.get(f"/api/games/{playing['id']}").status_code == 200
        assert where == [("board", "event loop")]  # (a game that changes: on the loop)


def test_a_search_stops_at_the_think_limit_whatever_its_budget():
    """The think limit is a deadline the search obeys (a budget of simulations counts
    them at a guessed rate: mcts:iters=100:topk=6 took 6 to 20 s a decision)."""
    import random

    from agents.mcts import MctsAgent
    from web_support import TestClient, create_app

    g, rng = Game(1), random.Random(0)
    for _ in range(20):
        g.step(rng.choice(g.legal_decisions()))
    agent = MctsAgent(seed=1, iters=100, topk=6)
    agent.time_cap = 0.2
    begun = time.perf_counter()
    agent.choose(g.clone(), g.acting_seat)
    # (uncapped: 17 worlds of 6 rollouts, 6 to 20 s; capped: the worlds begun in 0.2 s)
    assert agent.stats.searched == 1 and agent.stats.simulations < 100
    assert time.perf_counter() - begun < 10.0
    with TestClient(create_app(think_limit=0.3)) as c:
        game = start(c, ["mcts:iters=6", "random", "random", "random"])
        table = c.app.state.web.tables.tables[game["id"]]
        wait(c, f"/api/games/{game['id']}", lambda v: v["decisions"] > 0 and getattr(
            table.agents[0], "time_cap", None) == 0.3, timeout=30)  # (fails if never set)
