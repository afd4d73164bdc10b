"""A fair share for each client (docs/web.md): what the server holds for strangers at
once (connections, the bytes of request bodies being read) is capped in all and for
each client address, so one client past its share is refused (503) while the others
are served; the connection cap is one the process's open-file limit can carry; and the
event loop's repeated complaints (an ``accept`` out of file descriptors, a thousand
times a second) are logged at most once a second.

    shares = Shares(total=512, share=128)
    if shares.take("192.0.2.7"):       # False: this client, or the server, is full
        ...
        shares.give("192.0.2.7")
"""

from __future__ import annotations

import logging
import time

log = logging.getLogger(__name__)

#: The part of a limit one client address may hold: a quarter (so one client past its
#: share leaves three quarters to the others).
CLIENT_PART = 4


class Shares:
    """Amounts held per client address, at most ``total`` in all and ``share`` for one
    client (default: a :data:`CLIENT_PART` of ``total``, at least 1)."""

    def __init__(self, total: int, share: int | None = None):
        self.total = total
        self.share = share if share is not None else max(1, total // CLIENT_PART)
        self.held: dict[str, int] = {}
        self.in_all = 0

    def take(self, client: str, n: int = 1) -> bool:
        """Hold ``n`` more for ``client`` if both its share and the total allow it."""
        mine = self.held.get(client, 0)
        if mine + n > self.share or self.in_all + n > self.total:
            return False
        self.held[client] = mine + n
        self.in_all += n
        return True

    def full_for(self, client: str, n: int = 1) -> str:
        """Why ``take(client, n)`` was refused: ``"client"`` (its share) or ``"all"``."""
        return "client" if self.held.get(client, 0) + n > self.share else "all"

    def give(self, client: str, n: int = 1) -> None:
        """Give back ``n`` that ``client`` held."""
        if n <= 0:
            return
        left = self.held.get(client, 0) - n
        if left > 0:
            self.held[client] = left
        else:
            self.held.pop(client, None)
        self.in_all -= n


class Connections:
    """The connections held, by client address: at most ``total`` in all and ``share``
    for one client (default: a :data:`CLIENT_PART` of ``total``). A newcomer past the
    limits takes the place of a connection that waits for a request (one that never
    sent one first, then one idle between requests; the oldest), of its own address
    when that address holds its share, else of the address holding the most while that
    holds two more than the newcomer's, else of its own address; with no such
    connection the newcomer is refused. So a client past its share loses its own
    waiting connections (each answered 503), a client's new connection replaces its
    own waiting ones, and another client is turned away only when every client holds
    about as many as it, none of them waiting."""

    def __init__(self, total: int, share: int | None = None):
        self.total = total
        self.share = share if share is not None else max(1, total // CLIENT_PART)
        self.by_client: dict[str, list] = {}
        self.count = 0

    def admit(self, client: str, conn, rank) -> tuple[bool, object | None, str]:
        """Hold ``conn`` of ``client`` if the limits allow, making room by dropping a
        connection ``c`` with the lowest ``rank(c)`` (None: busy, never dropped):
        ``(held, the connection dropped or None, "client" | "all": which limit was met,
        "" for none)``."""
        mine = self.by_client.get(client, [])
        victim, why = None, ""
        if len(mine) >= self.share or self.count >= self.total:
            why = "client" if len(mine) >= self.share else "all"
            owner = client if why == "client" else max(self.by_client,
                                                       key=lambda c: len(self.by_client[c]))
            if len(self.by_client[owner]) < len(mine) + 2:
                owner = client  # (none holds two more: only its own can give way)
            ranked = [(r, i) for i, c in enumerate(self.by_client.get(owner, []))
                      if (r := rank(c)) is not None]
            if not ranked:
                return False, None, why
            victim = self.by_client[owner][min(ranked)[1]]
            self.drop(owner, victim)
        self.by_client.setdefault(client, []).append(conn)
        self.count += 1
        return True, victim, why

    def drop(self, client: str, conn) -> None:
        """Forget ``conn`` of ``client`` (closed, or dropped to make room)."""
        held = self.by_client.get(client, [])
        if conn in held:
            held.remove(conn)
            self.count -= 1
            if not held:
                del self.by_client[client]


def client_of(peer) -> str:
    """The client address of a peer name (``(host, port)`` or a Unix path)."""
    if isinstance(peer, (tuple, list)) and peer:
        return str(peer[0])
    return str(peer or "-")


def file_limit() -> int | None:
    """The process's soft open-file limit (None: unlimited or unknown)."""
    try:
        import resource
    except ImportError:  # pragma: no cover -- (not on Windows)
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def carried(files: int | None) -> int | None:
    """The connections a file limit of ``files`` carries: half of it (the games' files,
    the journal and the agents' networks need descriptors too); None: no limit."""
    return None if files is None else max(1, files // 2)


def connection_cap(asked: int | None, default: int, warn=log.warning) -> int:
    """The connections to hold at once: ``asked`` (None: ``default``), clamped to what
    the open-file limit carries, with a warning when an asked number is clamped."""
    files = file_limit()
    most = carried(files)
    if asked is None:
        return default if most is None else min(default, most)
    if most is not None and asked > most:
        warn(f"warning: --max-connections {asked} is more than the open-file limit "
             f"({files}) can carry: holding at most {most} connections (raise the limit, "
             f"e.g. ulimit -n {2 * asked}, to hold more)")
        return most
    return asked


class OncePerSecond:
    """A loop exception handler that logs each kind of complaint (its message) at most
    once every ``every`` seconds, with the number left unlogged since; asyncio would log
    every one (an ``accept`` out of file descriptors repeats thousands of times a
    second, each with its traceback)."""

    def __init__(self, every: float = 1.0, clock=time.monotonic):
        self.every, self.clock = every, clock
        self.last: dict[str, float] = {}
        self.unlogged: dict[str, int] = {}

    #: Messages remembered at most (a message may name a connection: past this the
    #: ones quiet for ``every`` seconds are forgotten, so strangers cannot grow it).
    MOST_KEPT = 256

    def __call__(self, loop, context: dict) -> None:
        message = str(context.get("message", "error in the event loop"))
        now = self.clock()
        if len(self.last) >= self.MOST_KEPT:
            self.last = {m: t for m, t in self.last.items() if now - t < self.every}
            self.unlogged = {m: k for m, k in self.unlogged.items() if m in self.last}
        if now - self.last.get(message, -self.every) < self.every:
            self.unlogged[message] = self.unlogged.get(message, 0) + 1
            return
        self.last[message] = now
        skipped = self.unlogged.pop(message, 0)
        exc = context.get("exception")
        note = f" ({skipped} more like it in the last {self.every:g} s)" if skipped else ""
        if isinstance(exc, OSError):  # (the system's refusal: its words are enough)
            log.error("%s: %s%s", message, exc, note)
        else:
            log.error("%s%s", message, note, exc_info=exc)
