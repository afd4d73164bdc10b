"""Slow and many clients (with short configured limits): a connection that has not sent
its whole request (headers or body) within the request timeout is closed, however it
trickles; a kept-alive connection gets a new deadline for each request; past the
connection cap a new connection is answered 503 and closed; and with a low open-file
limit and a flood of held connections the server keeps answering and saving, stops on
SIGTERM, and loses nothing acknowledged."""

from __future__ import annotations

import http.client
import json
import logging
import resource
import signal
import socket
import subprocess
import sys
import time

import pytest

from web_support import start  # noqa: F401  (skips without the web extra)

from singapore_app.web.server import BackgroundServer, default_connections, free_port
from singapore_app.web.store import Tables

SEATS = ["lieutenant_governor", "resident", "temenggong", "sultan"]


def _closed_within(sock: socket.socket, seconds: float) -> float:
    """Seconds until the server closed ``sock`` (fails past ``seconds``)."""
    begun = time.monotonic()
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
    except TimeoutError:
        pytest.fail(f"the connection was still open after {seconds} s")
    except ConnectionResetError:
        pass
    return time.monotonic() - begun


@pytest.fixture(scope="module")
def server():
    with BackgroundServer(None, workers=1, request_timeout=1.0, max_connections=6) as url:
        yield int(url.rsplit(":", 1)[1])


def _connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=5)


@pytest.mark.parametrize("sent,trickle", [
    (b"", b""), (b"GE", b"T"), (b"GET /api/games HTTP/1.1\r\nhost: x\r\n", b"x"),
    (b"POST /api/games HTTP/1.1\r\nhost: x\r\ncontent-length: 1000\r\n\r\n{\"s", b" ")])
def test_a_request_not_sent_in_time_is_cut_off(server, sent, trickle, caplog):
    with caplog.at_level(logging.ERROR), _connect(server) as sock:
        begun = time.monotonic()
        sock.sendall(sent)
        for _ in range(4):  # trickling a byte now and then does not keep it open
            time.sleep(0.2)
            try:
                sock.sendall(trickle)
            except OSError:
                break
        _closed_within(sock, 5.0)
        assert 0.9 < time.monotonic() - begun < 5.0
    assert not caplog.records  # (no traceback for a client cut off)


def test_each_request_on_a_kept_connection_has_its_own_deadline(server):
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=5)
    for _ in range(4):  # 4 requests over 2.4 s on one connection, each quick
        conn.request("GET", "/api/games")
        assert conn.getresponse().read() and conn.sock is not None
        time.sleep(0.6)
    conn.close()


def test_past_the_cap_a_connection_is_answered_503_and_closed():
    with BackgroundServer(None, workers=1, request_timeout=30.0, max_connections=6) as url:
        _past_the_cap(int(url.rsplit(":", 1)[1]))


def _past_the_cap(server: int) -> None:
    # (one connection from each of six loopback addresses: a client's share is a
    # quarter of the cap, tests/test_web_share.py)
    held = [socket.create_connection(("127.0.0.1", server), 5, (f"127.0.0.{2 + i}", 0))
            for i in range(6)]
    try:
        time.sleep(0.5)
        with socket.create_connection(("127.0.0.1", server), 5, ("127.0.0.9", 0)) as extra:
            extra.settimeout(3)
            answer = extra.recv(4096)
            assert answer.startswith(b"HTTP/1.1 503") and b"all the connections it takes:" \
                in answer
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.2)
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=5)
    conn.request("GET", "/api/games")
    assert conn.getresponse().status == 200


def test_the_cap_leaves_file_descriptors_for_the_files(monkeypatch):
    for soft, cap in ((100, 50), (256, 128), (4096, 512), (resource.RLIM_INFINITY, 512)):
        monkeypatch.setattr(resource, "getrlimit", lambda which, soft=soft: (soft, soft))
        assert default_connections() == cap


def _call(conn: http.client.HTTPConnection, method: str, path: str, body=None, key=None):
    headers = {"content-type": "application/json"} | ({"x-seat-key": key} if key else {})
    conn.request(method, path, None if body is None else json.dumps(body), headers)
    r = conn.getresponse()
    data = json.loads(r.read())
    assert r.status < 300, data
    return data


def _limit_files():
    resource.setrlimit(resource.RLIMIT_NOFILE, (160, 160))


def test_a_flood_with_few_file_descriptors_loses_nothing(tmp_path):
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "singapore_app", "serve", "--port", str(port), "--games-dir",
         str(tmp_path), "--workers", "1", "--request-timeout", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=_limit_files)
    flood: list[socket.socket] = []
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                _call(conn, "GET", "/api/games")
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, "no server"
                time.sleep(0.1)
        game = _call(conn, "POST", "/api/games", {"seats": ["person"] * 4, "seed": 3})
        agents = _call(conn, "POST", "/api/games", {"seats": ["random"] * 4, "seed": 4,
                                                    "settings": {"event_i_cards": 1,
                                                                 "event_ii_cards": 1}})
        for _ in range(200):  # more than the file limit: held, sending nothing
            sock = socket.socket()
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", port))
            flood.append(sock)
        answered = []
        for _ in range(8):  # on the connection opened before the flood
            view = _call(conn, "GET", f"/api/games/{game['id']}")
            seat = SEATS.index(view["acting"])
            key = game["seats"][seat]["key"]
            legal = _call(conn, "GET", f"/api/games/{game['id']}/seats/{seat}/legal", key=key)
            _call(conn, "POST", f"/api/games/{game['id']}/seats/{seat}/answer",
                  {"index": 0, "expect": legal["decisions"]}, key)
            answered.append(legal["question"]["answers"][0]["decision"])
        time.sleep(2.5)  # the flood is cut off by the request timeout
        conn.close()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        while not _call(conn, "GET", f"/api/games/{agents['id']}")["over"]:
            time.sleep(0.2)
        time.sleep(0.7)  # (written)
        conn.close()
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)
    finally:
        for sock in flood:
            sock.close()
        if server.poll() is None:
            server.kill()
            server.wait()
    log = server.stderr.read().decode()
    assert log.count("Traceback") == 0, log[-2000:]
    tables = Tables(tmp_path)
    tables.load_all()
    history = tables.get(game["id"]).game.history
    assert [[int(d.kind), int(d.arg)] for d in history] == answered
    assert tables._read(agents["id"], tmp_path / f"{agents['id']}.json").game.is_over
