"""The games folder survives crashes and edits: an acknowledged answer survives a
SIGKILL of the server, a write torn by a crash leaves the old table whole, and a file
that cannot be opened or replayed (torn, foreign, its seed edited) is skipped at start,
named in the log, while the server starts; an edited save uploaded is a 400."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from web_support import client, start, wait

from singapore_app.web import store
from singapore_app.web.server import free_port
from singapore_app.web.store import Tables
from singapore_env.engine import Game


def _call(url: str, method: str = "GET", body=None, key: str | None = None) -> dict:
    headers = {"content-type": "application/json"} | ({"x-seat-key": key} if key else {})
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(urllib.request.Request(url, data, headers, method=method),
                                timeout=30) as r:
        return json.load(r)


def _serve(folder) -> tuple[subprocess.Popen, str]:
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "singapore_app", "serve", "--port",
                               str(port), "--games-dir", str(folder), "--workers", "1"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url, deadline = f"http://127.0.0.1:{port}", time.monotonic() + 60
    while True:
        try:
            _call(url + "/api/games")
            return server, url
        except OSError:
            assert time.monotonic() < deadline and server.poll() is None, "no server"
            time.sleep(0.1)


def test_an_acknowledged_answer_survives_a_sigkill(tmp_path):
    server, url = _serve(tmp_path)
    try:
        game = _call(url + "/api/games", "POST",
                     {"seats": ["person", "person", "person", "person"], "seed": 4})
        gid, answered = game["id"], []
        for _ in range(3):
            view = _call(f"{url}/api/games/{gid}")
            seat = ["lieutenant_governor", "resident", "temenggong", "sultan"].index(
                view["acting"])
            key = game["seats"][seat]["key"]
            legal = _call(f"{url}/api/games/{gid}/seats/{seat}/legal", key=key)
            choice = legal["question"]["answers"][-1]
            after = _call(f"{url}/api/games/{gid}/seats/{seat}/answer", "POST",
                          {"index": choice["index"], "expect": legal["decisions"]}, key)
            answered.append(choice["decision"])
        server.send_signal(signal.SIGKILL)  # right after the last 200
        server.wait(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
    tables = Tables(tmp_path)
    assert tables.load_all() == [gid]
    g = tables.get(gid).game
    assert len(g.history) == after["decisions"] == 3
    assert [[int(d.kind), int(d.arg)] for d in g.history] == answered


def _two_games(folder) -> list[str]:
    with client(folder) as c:
        ids = [start(c, ["person", "random", "random", "random"])["id"] for _ in range(2)]
        for gid in ids:
            wait(c, f"/api/games/{gid}", lambda v: v["acting"] == "lieutenant_governor")
    return ids


def test_a_write_torn_by_a_crash_leaves_the_old_table(tmp_path, monkeypatch):
    gid = _two_games(tmp_path)[0]
    path = tmp_path / f"{gid}.json"
    before = path.read_text()

    def crash(src, dst):
        raise OSError("the machine stopped here")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        store.write_durably(path, before.replace('"delay": 0.0', '"delay": 1.0'))
    assert path.read_text() == before and not list(tmp_path.glob(".*.tmp"))


@pytest.mark.parametrize("damage", ["torn", "seed edited", "card edited", "foreign"])
def test_a_damaged_file_is_skipped_at_start_and_named(tmp_path, caplog, damage):
    bad, good = _two_games(tmp_path)
    path = tmp_path / f"{bad}.json"
    text = path.read_text()
    record = json.loads(text)
    if damage == "torn":
        path.write_text(text[:len(text) // 2])
    elif damage == "seed edited":
        record["save"]["seed"] += 1
        path.write_text(json.dumps(record))
    elif damage == "card edited":
        record["save"]["state"]["market"][:2] = record["save"]["state"]["market"][1::-1]
        path.write_text(json.dumps(record))
    else:
        path.write_text(json.dumps(record["save"]))  # a bare save, no seats or secrets
    with caplog.at_level(logging.WARNING), client(tmp_path) as c:
        assert c.get(f"/api/games/{good}").status_code == 200
        assert c.get(f"/api/games/{bad}").status_code == 404
    assert any(str(path) in rec.getMessage() for rec in caplog.records)


def test_an_edited_save_uploaded_is_refused(tmp_path):
    g = Game(5)
    for _ in range(12):
        g.step(g.legal_decisions()[0])
    data = json.loads(g.to_json())
    data["seed"] += 1
    with client() as c:
        for path, body in (("/api/replays", {"save": data}),
                           ("/api/games/resume", {"save": data, "seats": ["random"] * 4})):
            r = c.post(path, json=body)
            assert r.status_code == 400 and "not a usable save" in r.json()["error"], r.text
        assert c.post("/api/replays", json={"save": json.loads(g.to_json())}).status_code == 201


def test_the_server_starts_whatever_the_folder_holds(tmp_path):
    (tmp_path / "0123456789ab.json").write_bytes(b"\xff\xfe garbage")
    (tmp_path / "0123456789ac.json").mkdir()
    (tmp_path / "notes.json").write_text("{}")
    server, url = _serve(tmp_path)
    try:
        assert _call(url + "/api/games")["games"] == []
        with pytest.raises(urllib.error.HTTPError) as refused:
            _call(url + "/api/games/0123456789ab")
        assert refused.value.code == 404
    finally:
        server.terminate()
        server.wait(timeout=30)


def _answer(c, game: dict, times: int) -> list:
    gid, answered = game["id"], []
    for _ in range(times):
        view = c.get(f"/api/games/{gid}").json()
        seat = ["lieutenant_governor", "resident", "temenggong", "sultan"].index(view["acting"])
        key = {"x-seat-key": game["seats"][seat]["key"]}
        legal = c.get(f"/api/games/{gid}/seats/{seat}/legal", headers=key).json()
        r = c.post(f"/api/games/{gid}/seats/{seat}/answer", headers=key,
                   json={"index": 0, "expect": legal["decisions"]})
        assert r.status_code == 200
        answered.append(legal["question"]["answers"][0]["decision"])
    return answered


def test_the_journal_takes_answers_again_and_ignores_a_torn_line(tmp_path):
    with client(tmp_path) as c:
        game = start(c, ["person"] * 4, seed=8)
        at_start = (tmp_path / f"{game['id']}.json").read_text()
        answered = _answer(c, game, 4)
        journal = "".join(p.read_text() for p in tmp_path.glob("journal-*.jsonl"))
    assert len(journal.splitlines()) == 4
    # as if the server had died before writing the table's file again: its file from
    # the start, the journal on disk, and a line torn by the crash
    (tmp_path / f"{game['id']}.json").write_text(at_start)
    (tmp_path / "journal-7.jsonl").write_text(journal + '["' + game["id"] + '", 4, 1')
    with client(tmp_path) as c:
        g = Game.from_json(json.dumps(json.loads(
            (tmp_path / f"{game['id']}.json").read_text())["save"]))
        assert [[int(d.kind), int(d.arg)] for d in g.history] == answered
        assert c.get(f"/api/games/{game['id']}").json()["decisions"] == 4
        assert not (tmp_path / "journal-7.jsonl").exists()  # taken again, then removed


def test_old_journal_files_go_once_every_table_is_written(tmp_path, monkeypatch):
    from singapore_app.web import journal

    monkeypatch.setattr(journal, "ROTATE_AFTER", 3)
    with client(tmp_path) as c:
        game = start(c, ["person"] * 4, seed=9)
        _answer(c, game, 10)
        wait(c, f"/api/games/{game['id']}", lambda v: len(list(
            tmp_path.glob("journal-*.jsonl"))) <= 2, timeout=10)
    with client(tmp_path) as c:
        assert c.get(f"/api/games/{game['id']}").json()["decisions"] == 10
