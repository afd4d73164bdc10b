"""The games folder when the disk fails: a table's write that fails (no file
descriptor, a full disk, an I/O error) is logged once per table and tried again until it
succeeds; an answer whose journal line cannot be written is a 503, never a hang, and no
answer is taken while the journal fails; a game that ends while its file is written is
written again with its end; a journal file stays until every game it holds is written.
After each fault, a restart finds every acknowledged answer."""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import threading
import time

import pytest

from web_support import SHORT, client, start, wait

from singapore_app.web import journal, store
from singapore_app.web.store import Tables
from singapore_env.engine import Game

SEATS = ["lieutenant_governor", "resident", "temenggong", "sultan"]


class Fault:
    """A stand-in for a write that raises OSError(``code``) while ``on``."""

    def __init__(self, real, code: int):
        self.real, self.code, self.on, self.calls = real, code, True, 0

    def __call__(self, *args):
        if self.on:
            self.calls += 1
            raise OSError(self.code, f"injected: {errno.errorcode[self.code]}")
        return self.real(*args)


def _answer(c, game: dict, expect_status: int = 200):
    """The acting person's first legal answer; (status, the answer, the response)."""
    gid = game["id"]
    seat = SEATS.index(c.get(f"/api/games/{gid}").json()["acting"])
    key = {"x-seat-key": game["seats"][seat]["key"]}
    legal = c.get(f"/api/games/{gid}/seats/{seat}/legal", headers=key).json()
    answered = []
    asker = threading.Thread(target=lambda: answered.append(c.post(
        f"/api/games/{gid}/seats/{seat}/answer", headers=key,
        json={"index": 0, "expect": legal["decisions"]})), daemon=True)
    asker.start()
    asker.join(timeout=10)
    assert answered, "an answer hung"
    r = answered[0]
    assert r.status_code == expect_status, r.text
    return legal["question"]["answers"][0]["decision"], r


def _history(folder, gid: str) -> list:
    tables = Tables(folder)
    tables.load_all()
    table = tables.tables.get(gid) or tables._read(gid, folder / f"{gid}.json")
    return [[int(d.kind), int(d.arg)] for d in table.game.history]


@pytest.mark.parametrize("code", [errno.EMFILE, errno.ENOSPC, errno.EIO])
def test_failed_table_writes_are_logged_once_and_tried_again(tmp_path, monkeypatch, caplog,
                                                             code):
    fault = Fault(store.write_durably, code)
    with client(tmp_path) as c:
        people = start(c, ["person"] * 4, seed=5)
        agents = start(c, ["random"] * 4, seed=6, settings=SHORT)
        monkeypatch.setattr(store, "write_durably", fault)
        with caplog.at_level(logging.ERROR):
            answered = [_answer(c, people)[0] for _ in range(6)]  # (the journal takes them)
            wait(c, f"/api/games/{agents['id']}", lambda v: v["over"], timeout=60)
            refused = c.post("/api/games", json={"seats": ["person"] * 4})
            assert refused.status_code == 503 and "could not write" in refused.json()["error"]
            time.sleep(1.2)  # (two more flushes fail)
        assert fault.calls >= 4
        failures = [r for r in caplog.records if "cannot write game" in r.getMessage()]
        named = [r.getMessage().split()[3] for r in failures]
        assert len(named) == len(set(named)) == 3  # once per table (the refused one too)
        assert {people["id"], agents["id"]} <= set(named)
        assert not any(r.exc_info for r in caplog.records)
        assert len(c.get("/api/games").json()["games"]) == 2  # (the refused game is gone)
        fault.on = False
        tables = c.app.state.web.tables
        deadline = time.monotonic() + 10
        while tables.dirty or agents["id"] in tables.tables:  # written, the end with it
            assert time.monotonic() < deadline, "the writes were not tried again"
            time.sleep(0.05)
        answered.append(_answer(c, people)[0])
    assert _history(tmp_path, people["id"]) == answered
    done = json.loads((tmp_path / f"{agents['id']}.json").read_text())
    assert Game.from_dict(done["save"]).is_over


def _torn_append(real):
    """A journal write that leaves half its text and fails with ENOSPC while ``on``."""
    def append(self, text):
        if append.on:
            with open(self.path, "a") as fh:
                fh.write(text[:len(text) // 2])
            raise OSError(errno.ENOSPC, "injected: no space left on device")
        return real(self, text)
    append.on = True
    return append


def test_an_answer_the_journal_cannot_write_is_a_503_and_nothing_is_lost(tmp_path,
                                                                       monkeypatch):
    with client(tmp_path) as c:
        game = start(c, ["person"] * 4, seed=7)
        acknowledged = [_answer(c, game)[0] for _ in range(3)]
        append = _torn_append(journal.Journal._append)
        monkeypatch.setattr(journal.Journal, "_append", append)
        taken, r = _answer(c, game, 503)  # applied, not on disk: tried again
        assert "could not write it to its disk" in r.json()["error"]
        before = c.get(f"/api/games/{game['id']}").json()["decisions"]
        _, r = _answer(c, game, 503)  # refused while the journal fails: nothing changes
        assert "no answer is taken" in r.json()["error"]
        agents = start(c, ["random"] * 4, seed=8)  # its agents wait for the disk
        time.sleep(0.6)
        assert c.get(f"/api/games/{agents['id']}").json()["decisions"] == 0
        assert c.get(f"/api/games/{game['id']}").json()["decisions"] == before
        append.on = False
        deadline = time.monotonic() + 10
        while c.app.state.web.tables.saving_fails:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        acknowledged += [taken] + [_answer(c, game)[0] for _ in range(2)]
        monkeypatch.setattr(store, "write_durably", Fault(store.write_durably, errno.EIO))
    # the tables' files were never written after the first answers: the journal holds
    # them (a torn half line and the same lines again) and gives them back
    assert _history(tmp_path, game["id"]) == acknowledged


def test_a_game_that_ends_during_its_write_is_written_with_its_end(tmp_path, monkeypatch):
    game = Game(11)
    for _ in range(30):
        game.step(game.legal_decisions()[0])
    real, calls = store.write_durably, []

    def slow_write(path, text):  # the game plays to its end while its file is written
        calls.append(text)
        while not game.is_over:
            game.step(game.legal_decisions()[-1])
        real(path, text)

    monkeypatch.setattr(store, "write_durably", slow_write)

    async def run():
        tables = Tables(tmp_path)
        table = tables.new(game, ["random"] * 4)
        await tables.persist(table)
        assert table.id not in tables.tables  # finished: it left memory once written
        await tables.close()
        return table.id

    gid = asyncio.run(run())
    assert len(calls) == 2
    saved = json.loads((tmp_path / f"{gid}.json").read_text())["save"]
    assert Game.from_dict(saved).is_over and saved == json.loads(game.to_json())


def test_a_journal_file_stays_until_its_games_are_written(tmp_path, monkeypatch):
    monkeypatch.setattr(journal, "ROTATE_AFTER", 3)
    with client(tmp_path) as c:
        game = start(c, ["person"] * 4, seed=9)
        monkeypatch.setattr(store, "write_durably", Fault(store.write_durably, errno.ENOSPC))
        answered = [_answer(c, game)[0] for _ in range(10)]
        time.sleep(0.6)
        assert len(list(tmp_path.glob("journal-*.jsonl"))) == 4  # none retired
    assert len(list(tmp_path.glob("journal-*.jsonl"))) == 4
    monkeypatch.undo()
    assert _history(tmp_path, game["id"]) == answered
    with client(tmp_path) as c:  # taken again, written: the files go
        assert c.get(f"/api/games/{game['id']}").json()["decisions"] == 10
        assert [p.name for p in tmp_path.glob("journal-*.jsonl")] == ["journal-6.jsonl"]
        assert (tmp_path / "journal-6.jsonl").read_text() == ""  # (the new one)


def test_a_crash_between_writes_loses_nothing_acknowledged(tmp_path):
    """As if the server died between a journal write and the table's: the table file
    from before, the journal's lines after it, the last line torn."""
    with client(tmp_path) as c:
        game = start(c, ["person"] * 4, seed=12)
        first = [_answer(c, game)[0] for _ in range(2)]
        time.sleep(0.7)  # (the table's file holds them)
        middle = (tmp_path / f"{game['id']}.json").read_text()
        rest = [_answer(c, game)[0] for _ in range(3)]
        lines = "".join(p.read_text() for p in sorted(tmp_path.glob("journal-*.jsonl")))
    (tmp_path / f"{game['id']}.json").write_text(middle)
    (tmp_path / "journal-50.jsonl").write_text(lines + lines[:17])
    assert _history(tmp_path, game["id"]) == first + rest
