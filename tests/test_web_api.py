"""The web app's JSON API through Starlette's TestClient: a whole game played as one
seat, agents playing alone, saves downloaded, replayed and resumed, games surviving a
restart, and the ``serve`` command."""

from __future__ import annotations

import json
import random

from click.testing import CliRunner

from web_support import SHORT, client, play_seat, start, wait

from singapore_app.cli import main
from singapore_env.engine import Game


def test_a_person_plays_a_whole_game_against_agents(tmp_path):
    with client(tmp_path) as c:
        game = start(c, ["random", "person", "random", "heuristic"], seed=4, settings=SHORT)
        key = game["seats"][1]["key"]
        view = play_seat(c, game["id"], 1, key, random.Random(1))
        assert view["over"] and view["board"]["winners"]
        assert any(line.startswith("Resident: ") for line in view["log"])
        assert any(line.startswith("* R") for line in view["log"])
        save = c.get(f"/api/games/{game['id']}/save")
        assert save.status_code == 200
        loaded = Game.from_json(save.text)
        assert loaded.is_over and len(loaded.history) == view["decisions"]
        summary = c.get(f"/api/games/{game['id']}/replay").json()
        assert summary["steps"] == view["decisions"] and len(summary["vp"]) == view["decisions"] + 1
        last = c.get(f"/api/games/{game['id']}/replay/{summary['steps']}").json()
        assert last["board"]["final_vp"] == loaded.final_scores
        assert [sum(row) for row in summary["vp"][-1]] == loaded.final_scores


def test_four_agents_play_to_the_end_and_the_list_shows_it(tmp_path):
    with client(tmp_path) as c:
        game = start(c, ["random"] * 4, seed=2)
        view = wait(c, f"/api/games/{game['id']}", lambda v: v["over"])
        assert view["open_book"] and view["status"].startswith("game over: the ")
        listed = c.get("/api/games").json()["games"]
        assert [g["id"] for g in listed] == [game["id"]] and listed[0]["over"]
        assert "key" not in json.dumps(listed)


def test_a_game_in_progress_survives_a_restart(tmp_path):
    with client(tmp_path) as c:
        game = start(c, ["person", "random", "random", "random"], seed=9)
        key = game["seats"][0]["key"]
        before = play_seat(c, game["id"], 0, key, random.Random(2), most=5)
    with client(tmp_path) as c:
        again = c.get(f"/api/games/{game['id']}/seats/0", headers={"x-seat-key": key}).json()
        assert again["decisions"] == before["decisions"] and again["log"] == before["log"]
        assert again["board"] == before["board"]
        assert play_seat(c, game["id"], 0, key, random.Random(3), most=3)["decisions"] > \
            before["decisions"]


def test_a_simulate_save_opens_as_a_replay_and_steps(tmp_path):
    save = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["simulate", "--games", "1", "--no-progress",
                                       "--save", str(save)])
    assert result.exit_code == 0, result.output
    with client() as c:
        r = c.post("/api/replays", json={"save": save.read_text()})
        assert r.status_code == 201, r.text
        game = r.json()["id"]
        summary = c.get(f"/api/games/{game}/replay").json()
        assert summary["steps"] == len(Game.from_json(save.read_text()).history)
        assert summary["marks"][0] == {"step": 0, "round": 1, "seat": summary["marks"][0]["seat"]}
        third_round = next(m["step"] for m in summary["marks"] if m["round"] == 3)
        view = c.get(f"/api/games/{game}/replay/{third_round}").json()
        assert view["board"]["round"] == 3 and all(h is not None for h in view["hands"])
        first = c.get(f"/api/games/{game}/replay/0").json()
        assert first["decision"] and first["board"]["round"] == 1
        assert c.get(f"/api/games/{game}").json()["log"]  # the log, replayed from the seed


def _saved_game(seed: int, decisions: int) -> Game:
    g, rng = Game(seed), random.Random(0)
    for _ in range(decisions):
        legal = g.legal_decisions()
        g.step(legal[rng.randrange(len(legal))])
    return g


def test_a_saved_game_is_played_on_by_agents_as_it_was_dealt():
    g = _saved_game(6, 30)
    with client() as c:
        r = c.post("/api/games/resume", json={"save": json.loads(g.to_json()),
                                              "seats": ["random"] * 4, "delay": 10})
        assert r.status_code == 201, r.text
        table = c.app.state.web.tables.tables[r.json()["id"]]
        assert table.base is None and table.game.to_json() == g.to_json()


def test_a_save_played_on_with_people_is_dealt_again(tmp_path):
    """Whoever holds a save (a game of agents' is public) knows every hidden card and
    the dice to come: with a person at the table, all of it is dealt again; the public
    board stays; the table survives a restart, plays to its end and replays."""
    g = _saved_game(7, 60)
    with client(tmp_path) as c:
        r = c.post("/api/games/resume", json={"save": json.loads(g.to_json()),
                                              "seats": ["person", "random", "random",
                                                        "random"]})
        assert r.status_code == 201, r.text
        links = r.json()
        # (the agents may already be playing: the deal is read from the table's base)
        new = Game.from_json(json.dumps(c.app.state.web.tables.tables[links["id"]].base))
        old, now = g.s, new.s
        # (every hidden Battle card, in hands and decks, dealt again: 9 and 11 in the decks)
        assert now.battle_deck != old.battle_deck
        assert sorted(sum(now.hands, []) + sum(now.battle_deck, [])) == \
            sorted(sum(old.hands, []) + sum(old.battle_deck, []))
        assert (now.event_deck, now.market_deck) != (old.event_deck, old.market_deck)
        assert sorted(now.market_deck) == sorted(old.market_deck)
        assert [now.vp, now.wealth, now.districts, now.market] == \
            [old.vp, old.wealth, old.districts, old.market]
        assert [[x.card for x in row] for row in now.tableau] == \
            [[x.card for x in row] for row in old.tableau]
        assert new.history == g.history and new.rng.bit_generator.state != \
            g.rng.bit_generator.state
        at_resume = json.dumps(c.app.state.web.tables.tables[links["id"]].base)
    with client(tmp_path) as c:  # a restart replays it from the new deal
        view = c.get(f"/api/games/{links['id']}").json()
        assert view["decisions"] >= 60 and view["log"]
        assert c.app.state.web.tables.tables[links["id"]].base == json.loads(at_resume)
        end = play_seat(c, links["id"], 0, links["seats"][0]["key"], random.Random(2))
        assert end["over"]
        summary = c.get(f"/api/games/{links['id']}/replay").json()
        assert summary["steps"] == end["decisions"] - 60
        last = c.get(f"/api/games/{links['id']}/replay/{summary['steps']}").json()
        assert last["board"]["final_vp"] == end["board"]["final_vp"]


def test_serve_without_the_web_extra_is_a_clear_usage_error(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "uvicorn", None)
    result = CliRunner().invoke(main, ["serve", "--port", "8819"])
    assert result.exit_code == 2
    assert "needs the optional package 'uvicorn'" in result.output
    assert "[web]" in result.output and "Traceback" not in result.output


def test_serve_takes_its_limits_and_refuses_bad_ones(monkeypatch):
    from singapore_app.web import server

    given = {}
    monkeypatch.setattr(server, "serve", lambda *args, **kw: given.update(kw))
    result = CliRunner().invoke(main, ["serve", "--request-timeout", "7.5",
                                       "--max-connections", "40"])
    assert result.exit_code == 0, result.output
    assert given["request_timeout"] == 7.5 and given["max_connections"] == 40
    for bad in (["--request-timeout", "0"], ["--max-connections", "0"]):
        refused = CliRunner().invoke(main, ["serve", *bad])
        assert refused.exit_code == 2 and bad[0] in refused.output
    assert "whole request" in CliRunner().invoke(main, ["serve", "--help"]).output


def test_a_thinking_agent_does_not_hold_up_another_game():
    """A game's agent thinks on one worker at a time: with two workers, a game of slow
    search agents leaves the other worker to another game's agents, and requests are
    answered meanwhile."""
    import time

    with client(workers=2) as c:
        slow = start(c, ["mcts:iters=60"] * 4, seed=1)
        game = start(c, ["person", "random", "random", "random"], seed=2)
        key = game["seats"][0]["key"]
        path = f"/api/games/{game['id']}/seats/0"
        for _ in range(5):
            view = wait(c, path, lambda v: v["question"], key, timeout=30)
            begun = time.monotonic()
            r = c.post(path + "/answer", headers={"x-seat-key": key},
                       json={"index": 0, "expect": view["decisions"]})
            assert r.status_code == 200 and time.monotonic() - begun < 2.0
        assert not c.get(f"/api/games/{slow['id']}").json()["over"]


def test_answers_carry_the_text_of_the_card_they_name():
    from singapore_app.web import views
    from singapore_env.engine.decisions import Kind

    g, rng = Game(3), random.Random(0)
    while not any(d.kind == Kind.BUY_MARKET for d in g.legal_decisions()):
        g.step(rng.choice(g.legal_decisions()))
    buys = [a for a in views.answers(g) if a["decision"][0] == Kind.BUY_MARKET]
    assert buys and all(a["card"]["name"] in a["text"] and a["card"]["text"] for a in buys)


def test_agents_go_on_after_a_restart(tmp_path):
    with client(tmp_path) as c:
        game = start(c, ["random"] * 4, seed=5, delay=0.05)
        before = wait(c, f"/api/games/{game['id']}", lambda v: v["decisions"] >= 5)
    with client(tmp_path) as c:
        again = c.get(f"/api/games/{game['id']}").json()
        assert again["decisions"] >= before["decisions"]
        assert again["log"][:len(before["log"])] == before["log"]
        c.app.state.web.tables.get(game["id"]).delay = 0
        assert wait(c, f"/api/games/{game['id']}", lambda v: v["over"])["over"]


def test_the_board_and_the_log_are_in_players_words():
    """No engine notation on the board or in the log: round rules in words, seats by
    their names (not their ids), for every viewer, at every decision of a game."""
    import re

    from singapore_app.web import api
    from singapore_app.web.table import Table
    from singapore_env.engine.content import SEAT_NAMES

    ids = re.compile(r"\b(" + "|".join(SEAT_NAMES) + r")\b|_")
    g = Game(0)
    table, rng, rules = Table("0" * 12, g, ["person"] * 4), random.Random(0), set()
    while not g.is_over:
        for viewer in (None, g.acting_seat):
            view = api.view(table, viewer)
            board = view["board"]
            words = [view["status"], *view["log"], *board["modifiers"],
                     *board["in_progress"]] + [p["role"] for p in board["players"]]
            if view["question"]:
                words += [view["question"]["text"]] + [a["text"] for a in
                                                        view["question"]["answers"]]
            assert not [w for w in words if ids.search(w)], [w for w in words if ids.search(w)]
            rules |= set(board["modifiers"])
        table.step(rng.choice(g.legal_decisions()))
    assert "Market cards cost $1 more" in rules
    assert "Lieutenant-Governor: " in "\n".join(table.log_for(None))
