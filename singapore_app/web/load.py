"""A load on the web API: many concurrent games on one server, every seat a person
answering at random through HTTP, with response times and checks that no response
errs or belongs to another game (``benchmarks/bench_web.py``, ``tests/test_web_load.py``).
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
from urllib.parse import urlsplit

from singapore_env.engine.content import SEAT_NAMES


class Load:
    """Counts and response times of one load run."""

    def __init__(self):
        self.times: list[float] = []
        self.errors: list[str] = []
        self.crosstalk: list[str] = []
        self.answers = 0
        self.games_finished = 0

    def summary(self, seconds: float, games: int) -> dict:
        """The run in numbers (times in milliseconds)."""
        ms = sorted(t * 1000 for t in self.times)
        pct = (lambda q: ms[min(len(ms) - 1, int(q * len(ms)))]) if ms else (lambda q: 0.0)
        return {"games": games, "seconds": round(seconds, 1), "requests": len(ms),
                "answers": self.answers, "games_finished": self.games_finished,
                "errors": len(self.errors), "crosstalk": len(self.crosstalk),
                "median_ms": round(statistics.median(ms), 1) if ms else 0.0,
                "p95_ms": round(pct(0.95), 1), "max_ms": round(ms[-1], 1) if ms else 0.0,
                "requests_per_s": round(len(ms) / seconds, 1) if seconds else 0.0,
                "first_errors": self.errors[:5] + self.crosstalk[:5]}


class Connection:
    """One keep-alive HTTP/1.1 connection (a load generator's client must cost less
    than the server it measures: a general client library costs several times more CPU
    per request than this)."""

    def __init__(self, url: str):
        parts = urlsplit(url)
        self.host, self.port = parts.hostname, parts.port or 80
        self.reader = self.writer = None

    async def request(self, method: str, path: str, headers: dict | None = None,
                      json_body=None) -> tuple[int, bytes]:
        """(status, body) of one request."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        body = b"" if json_body is None else json.dumps(json_body).encode()
        head = [f"{method} {path} HTTP/1.1", f"host: {self.host}:{self.port}",
                f"content-length: {len(body)}", "content-type: application/json"]
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        status_line = await self.reader.readline()
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        return int(status_line.split()[1]), await self.reader.readexactly(length)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def _request(client: Connection, load: Load, method: str, path: str,
                   headers: dict | None = None, body=None):
    start = time.perf_counter()
    status, answer = await client.request(method, path, headers, body)
    load.times.append(time.perf_counter() - start)
    if status >= 400:
        load.errors.append(f"{method} {path}: {status} {answer[:200]!r}")
        return None
    return json.loads(answer)


async def _one_table(client, load: Load, rng: random.Random, until: float,
                     settings: dict) -> None:
    """Start games and answer every seat at random until ``until``."""
    while time.monotonic() < until:
        links = await _request(client, load, "POST", "/api/games",
                               body={"seats": ["person"] * 4, "seed": rng.randrange(10**6),
                                     "settings": settings})
        if links is None:
            return
        game, keys = links["id"], [s["key"] for s in links["seats"]]
        view = await _request(client, load, "GET", f"/api/games/{game}")
        answered = 0
        while view is not None and not view["over"] and time.monotonic() < until:
            seat = SEAT_NAMES.index(view["acting"])
            base, head = f"/api/games/{game}/seats/{seat}", {"x-seat-key": keys[seat]}
            legal = await _request(client, load, "GET", base + "/legal", headers=head)
            if legal is None:
                return
            if legal["decisions"] != answered or not legal["to_answer"]:
                load.crosstalk.append(f"{game}: {legal['decisions']} decisions, "
                                      f"{answered} answered here")
            n = len(legal["question"]["answers"])
            view = await _request(client, load, "POST", base + "/answer", headers=head,
                                  body={"index": rng.randrange(n), "expect": answered})
            answered += 1
            if view is not None and (view["id"] != game or view["decisions"] != answered):
                load.crosstalk.append(f"{game}: got {view['id']} at {view['decisions']}")
            load.answers += 1
        if view is not None and view["over"]:
            load.games_finished += 1


async def run_load(url: str, games: int = 50, seconds: float = 60.0, seed: int = 0,
                   settings: dict | None = None) -> dict:
    """``games`` concurrent tables on the server at ``url`` for ``seconds``."""
    load, rng = Load(), random.Random(seed)
    clients = [Connection(url) for _ in range(games)]
    start = time.monotonic()
    until = start + seconds
    try:
        await asyncio.gather(*(_one_table(c, load, random.Random(rng.random()), until,
                                          settings or {}) for c in clients))
    finally:
        for c in clients:
            await c.close()
    return load.summary(time.monotonic() - start, games)
