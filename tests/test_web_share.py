"""A fair share for each client (loopback only; other clients come from other loopback
addresses, 127.0.0.2 and on): one client filling the bodies' budget with uploads of just
under 2 MiB held open gets a 503 past its share while another client's answers get 200
(and its own small answers too); one client holding connections is refused past its
share while others connect; ``--max-connections`` over what the file limit carries is
clamped with a warning, and agent games move with 300 connections held; a broken agents'
pool is replaced; the event loop's repeated complaints are logged once a second; a stop
with slow clients is quiet."""

from __future__ import annotations

import asyncio
import errno
import http.client
import json
import logging
import resource
import signal
import socket
import subprocess
import sys
import time

from web_support import SHORT, client, start, wait  # (skips without the web extra)

from singapore_app.web import driver as driver_module
from singapore_app.web.inputs import FREE_BYTES, MAX_BODY
from singapore_app.web.limits import Connections, OncePerSecond, Shares, connection_cap
from singapore_app.web.server import BackgroundServer, free_port

UPLOAD = MAX_BODY - 16  # just under 2 MiB


def _from(port: int, address: str = "127.0.0.1") -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), 5, (address, 0))


def _conn(port: int, address: str) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                      source_address=(address, 0))


def _call(conn, method: str, path: str, body=None, key=None) -> tuple[int, dict]:
    headers = {"content-type": "application/json"} | ({"x-seat-key": key} if key else {})
    conn.request(method, path, None if body is None else json.dumps(body), headers)
    r = conn.getresponse()
    return r.status, json.loads(r.read())


def _answer(conn, game: dict) -> int:
    """One answer of the game's acting seat (all seats people): its status."""
    gid = game["id"]
    view = _call(conn, "GET", f"/api/games/{gid}")[1]
    seat = ["lieutenant_governor", "resident", "temenggong", "sultan"].index(view["acting"])
    key = game["seats"][seat]["key"]
    legal = _call(conn, "GET", f"/api/games/{gid}/seats/{seat}/legal", key=key)[1]
    return _call(conn, "POST", f"/api/games/{gid}/seats/{seat}/answer",
                 {"index": 0, "expect": legal["decisions"]}, key)[0]


def _upload(port: int) -> socket.socket:
    """An upload of just under 2 MiB, its last byte never sent."""
    sock = _from(port)
    head = (b"POST /api/replays HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            b"content-length: %d\r\n\r\n" % UPLOAD)
    try:
        sock.sendall(head + b" " * (UPLOAD - 1))
    except OSError:
        pass  # (refused and closed while sending)
    return sock


def _answered(sock: socket.socket, wait: float = 0.2) -> bytes:
    sock.settimeout(wait)
    try:
        return sock.recv(4096)
    except (TimeoutError, ConnectionResetError):
        return b""


def test_one_clients_uploads_leave_the_others_answers_200():
    with BackgroundServer(None, workers=1, request_timeout=30.0) as url:
        port = int(url.rsplit(":", 1)[1])
        other = _conn(port, "127.0.0.2")
        status, game = _call(other, "POST", "/api/games", {"seats": ["person"] * 4,
                                                           "seed": 1})
        assert status == 201
        held = [_upload(port) for _ in range(32)]  # the whole budget, from 127.0.0.1
        try:
            time.sleep(0.5)
            answers = [_answered(sock) for sock in held]
            refused = [a for a in answers if a.startswith(b"HTTP/1.1 503")]
            # a quarter of the budget (16 MiB) for this client: 8 uploads held, the rest 503
            assert len(refused) == 32 - 8 and not [a for a in answers if a and a not in refused]
            assert all(b"from one client" in a for a in refused)
            for _ in range(5):  # another client's answers
                assert _answer(other, game) == 200
            mine = _conn(port, "127.0.0.1")  # and this client's own small ones
            assert _answer(mine, game) == 200
            status, said = _call(_conn(port, "127.0.0.3"), "POST", "/api/replays",
                                 {"save": "x" * (FREE_BYTES * 4)})  # a big body of another
            assert status == 400 and "save" in said["error"]
        finally:
            for sock in held:
                sock.close()


def test_one_client_holding_connections_leaves_room_for_the_others():
    with BackgroundServer(None, workers=1, request_timeout=30.0, max_connections=8) as url:
        port = int(url.rsplit(":", 1)[1])
        held = [_from(port) for _ in range(2)]  # 127.0.0.1's share: a quarter of 8
        try:
            time.sleep(0.3)
            held.append(_from(port))  # one more: its oldest silent one goes, with a 503
            answer = _answered(held[0], 3)
            assert answer.startswith(b"HTTP/1.1 503") and b"more than its share" in answer
            assert not _answered(held[1]) and not _answered(held[2])  # (held, silent)
            held += [_from(port, f"127.0.0.{3 + i // 2}") for i in range(6)]  # 8 in all
            time.sleep(0.3)
            assert not any(_answered(sock, 0.05) for sock in held[1:])
            # a newcomer at the cap: in, in place of a silent connection of an address
            # holding two more than it
            status, _ = _call(_conn(port, "127.0.0.9"), "GET", "/api/games")
            assert status == 200
            assert sum(_answered(sock, 0.05).startswith(b"HTTP/1.1 503")
                       for sock in held[1:]) == 1
        finally:
            for sock in held:
                sock.close()


def test_shares_keep_each_client_to_its_part():
    shares = Shares(8)
    assert shares.share == 2
    assert shares.take("a") and shares.take("a") and not shares.take("a")
    assert shares.full_for("a") == "client"
    assert all(shares.take(c) for c in "bbccdd") and not shares.take("e")
    assert shares.full_for("e") == "all"
    shares.give("a", 2)
    assert shares.take("e") and "a" not in shares.held and shares.in_all == 7


def test_a_connection_past_a_share_takes_the_place_of_a_waiting_one():
    held, busy, served = Connections(4, share=2), {"a2"}, {"a0"}
    rank = lambda c: None if c in busy else int(c in served)  # noqa: E731
    assert held.admit("a", "a0", rank) == (True, None, "")
    assert held.admit("a", "a1", rank) == (True, None, "")
    # its own connection that never sent a request goes first, then an idle one
    assert held.admit("a", "a2", rank) == (True, "a1", "client")
    assert held.admit("a", "a3", rank) == (True, "a0", "client")
    busy.add("a3")
    assert held.admit("a", "a4", rank) == (False, None, "client")  # none waits: refused
    assert held.admit("b", "b1", rank) == (True, None, "")
    assert held.admit("c", "c1", rank) == (True, None, "")
    # at the cap, "a" holds 2 and a newcomer 0: "a" gives way (if one of its waits)
    assert held.admit("d", "d1", rank) == (False, None, "all") and held.count == 4
    busy.discard("a2")
    assert held.admit("d", "d1", rank) == (True, "a2", "all")
    # everyone holds about as many: a newcomer is refused, or replaces its own
    assert held.admit("e", "e1", rank) == (False, None, "all")
    assert held.admit("d", "d2", rank) == (True, "d1", "all")
    held.drop("b", "b1")
    assert held.admit("e", "e1", rank) == (True, None, "") and "b" not in held.by_client


def test_max_connections_past_the_file_limit_is_clamped_with_a_warning(monkeypatch):
    said = []
    monkeypatch.setattr(resource, "getrlimit", lambda which: (256, 256))
    assert connection_cap(1000, 512, said.append) == 128
    assert "1000" in said[0] and "(256)" in said[0] and "at most 128" in said[0]
    assert connection_cap(100, 512, said.append) == 100 and len(said) == 1
    assert connection_cap(None, 512, said.append) == 128 and len(said) == 1


def _limit_files():
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))


def _serve(port: int, folder, *options) -> subprocess.Popen:
    server = subprocess.Popen(
        [sys.executable, "-m", "singapore_app", "serve", "--port", str(port), "--games-dir",
         str(folder), "--workers", "2", *options],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_limit_files)
    deadline = time.monotonic() + 60
    while True:
        try:
            _call(_conn(port, "127.0.0.1"), "GET", "/api/games")
            return server
        except OSError:
            assert time.monotonic() < deadline and server.poll() is None, "no server"
            time.sleep(0.1)


def _stopped(server: subprocess.Popen) -> tuple[str, str]:
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    return server.stdout.read().decode(), server.stderr.read().decode()


def _flood(port: int, addresses: list[str], n: int) -> list[socket.socket]:
    """``n`` connections from ``addresses`` in turn, held, sending nothing."""
    out = []
    for i in range(n):
        sock = socket.socket()
        sock.bind((addresses[i % len(addresses)], 0))
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", port))
        out.append(sock)
    return out


def test_past_the_file_limit_the_cap_is_clamped_and_agents_move_with_300_held(tmp_path):
    """``serve --max-connections 1000`` under a 256-file limit: a warning, 128 held at
    most; with 300 connections held from this client's address and 300 from ten others,
    agent games still move, and this client's new connections are answered."""
    port = free_port()
    server = _serve(port, tmp_path, "--max-connections", "1000", "--request-timeout", "30")
    flood: list[socket.socket] = []
    try:
        status, game = _call(_conn(port, "127.0.0.1"), "POST", "/api/games", {
            "seats": ["random", "heuristic", "random", "random"], "seed": 4, "delay": 0.05,
            "settings": SHORT})
        assert status == 201
        flood += _flood(port, ["127.0.0.1"], 300)
        flood += _flood(port, [f"127.0.0.{2 + i}" for i in range(10)], 300)
        time.sleep(0.5)
        seen, deadline = [], time.monotonic() + 60
        while True:  # each look on a new connection, from the flood's first address
            status, view = _call(_conn(port, "127.0.0.1"), "GET", f"/api/games/{game['id']}")
            assert status == 200, view
            seen.append(view["decisions"])
            if view["over"] or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        assert view["over"] and not view["error"], (seen[-5:], view["error"])
        assert len(set(seen)) > 3  # (moving while the flood was held)
    finally:
        for sock in flood:
            sock.close()
        out, log = _stopped(server)
    assert "--max-connections 1000 is more than the open-file limit (256)" in out, out
    assert "at most 128 connections" in out
    assert "Traceback" not in log, log[-3000:]


def test_a_stop_with_slow_clients_is_quiet_and_quick(tmp_path):
    port = free_port()
    server = _serve(port, tmp_path, "--request-timeout", "60")
    held = []
    try:
        for i in range(40):  # uploads half sent, and silent connections
            sock = _from(port, f"127.0.0.{2 + i % 8}")
            if i % 2:
                sock.sendall(b"POST /api/replays HTTP/1.1\r\nhost: x\r\ncontent-length: 9000"
                             b"\r\ncontent-type: application/json\r\n\r\n{\"save\": ")
            held.append(sock)
        time.sleep(0.5)
        begun = time.monotonic()
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)
        took = time.monotonic() - begun
    finally:
        for sock in held:
            sock.close()
        _, log = _stopped(server)
    assert server.returncode in (0, -signal.SIGTERM) and took < 5, (server.returncode, took, log[-2000:])
    assert "Traceback" not in log and "CancelledError" not in log, log[-3000:]


def test_a_broken_agents_pool_is_replaced_and_games_move(monkeypatch, caplog):
    failures = {"left": 3}

    def failing_start():  # a worker that cannot start (out of file descriptors)
        if failures["left"]:
            failures["left"] -= 1
            raise OSError(errno.EMFILE, "Too many open files")

    monkeypatch.setattr(driver_module, "limit_threads", failing_start)
    monkeypatch.setattr(driver_module, "RETRY_SECONDS", 0.05)
    with caplog.at_level(logging.ERROR), client() as c:
        game = start(c, ["random"] * 4, seed=3, settings=SHORT)
        view = wait(c, f"/api/games/{game['id']}", lambda v: v["over"] or v["error"])
        assert view["over"] and not view["error"], view["error"]

        class Unstartable:  # a pool whose next thread cannot start
            def submit(self, *args, **kwargs):
                raise RuntimeError("can't start new thread")

            def shutdown(self, **kwargs):
                pass

        c.app.state.web.driver.pool = Unstartable()
        again = start(c, ["random"] * 4, seed=4, settings=SHORT)
        view = wait(c, f"/api/games/{again['id']}", lambda v: v["over"] or v["error"])
        assert view["over"] and not view["error"], view["error"]
    failed = [r for r in caplog.records if "agents' threads failed" in r.getMessage()]
    assert 1 <= len(failed) <= 3 and failures["left"] == 0


def test_repeated_loop_complaints_are_logged_once_a_second(caplog):
    now = [0.0]
    handler = OncePerSecond(clock=lambda: now[0])
    loop = asyncio.new_event_loop()
    try:
        loop.set_exception_handler(handler)
        with caplog.at_level(logging.ERROR):
            for i in range(3000):  # 3 s of an accept out of file descriptors
                now[0] = i / 1000
                loop.call_exception_handler({
                    "message": "socket.accept() out of system resource",
                    "exception": OSError(errno.EMFILE, "Too many open files")})
    finally:
        loop.close()
    logged = [r.getMessage() for r in caplog.records]
    assert len(logged) == 3 and all("Too many open files" in m for m in logged)
    assert "999 more like it" in logged[1] and not any(r.exc_info for r in caplog.records)


def test_complaints_naming_connections_are_not_remembered_without_end():
    now = [0.0]
    handler = OncePerSecond(clock=lambda: now[0])
    for i in range(5000):  # a message a connection, as asyncio's callbacks name theirs
        now[0] = i / 100
        handler(None, {"message": f"Exception in callback <connection {i}>"})
    assert len(handler.last) <= OncePerSecond.MOST_KEPT
