"""``singapore-1819 serve``: the web app on uvicorn, one process, on loopback unless
told otherwise, with limits for strangers' connections (docs/web.md): a connection that
has not sent its whole request (headers and body) within ``request_timeout`` seconds is
closed, at most ``max_connections`` are held at once (one more is answered 503 and
closed), a quarter of them for one client address (:mod:`singapore_app.web.limits`), an
idle kept-alive connection is closed after :data:`KEEP_ALIVE_SECONDS`, and a stop closes
the connections still sending their request and waits at most :data:`GRACEFUL_SECONDS`
for the requests under way."""

from __future__ import annotations

import logging
import socket
import threading
import time

from .limits import Connections, client_of, connection_cap

LOOPBACK = ("127.0.0.1", "::1", "localhost")
#: Seconds a connection may take to send its whole request, headers and body.
REQUEST_SECONDS = 60.0
#: Connections held at once, at most (fewer when the file limit is low: see
#: :func:`default_connections`).
MAX_CONNECTIONS = 512
#: Seconds an idle kept-alive connection stays open.
KEEP_ALIVE_SECONDS = 5
#: Seconds a stop waits for the requests under way.
GRACEFUL_SECONDS = 10

log = logging.getLogger(__name__)


def _busy(message: bytes) -> bytes:
    body = b'{"error": "%s"}' % message
    return (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
            b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(body), body))


_FULL = _busy(b"this server holds all the connections it takes: try again")
_YOURS_FULL = _busy(b"your address holds more than its share of this server's "
                    b"connections: this one is closed (keep fewer open)")


def default_connections() -> int:
    """:data:`MAX_CONNECTIONS`, or half the process's open-file limit if that is lower
    (the games' files and the journal need descriptors too)."""
    return connection_cap(None, MAX_CONNECTIONS)


def guarded_protocol(request_seconds: float, max_connections: int,
                     client_connections: int | None = None):
    """uvicorn's h11 protocol with a deadline for each request, a connection cap and a
    share of it for each client address (default: a quarter; past the limits a
    newcomer takes the place of a waiting connection of the client past its share:
    :class:`~singapore_app.web.limits.Connections`); at a stop, a connection still
    sending its request is closed (its handler ends quietly, nothing waits on it)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    finished = (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR)
    held = Connections(max_connections, client_connections)

    def waiting(protocol) -> int | None:
        """A connection waiting for a request: 0 if it never sent one, 1 if idle
        between two; None: a request is under way."""
        if protocol.conn.their_state is not h11.IDLE or not (
                protocol.cycle is None or protocol.cycle.response_complete):
            return None
        return int(protocol._served)

    class Guarded(H11Protocol):
        _deadline = None
        _client = None  # (the address it is held for, once held)
        _served = False  # (it sent a whole request)

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            client = client_of(transport.get_extra_info("peername"))
            taken, dropped, why = held.admit(client, self, waiting)
            if dropped is not None:
                dropped._client = None
                dropped._refuse(_YOURS_FULL)
            if not taken:
                self._refuse(_YOURS_FULL if why == "client" else _FULL)
                return
            self._client = client
            self._arm()

        def _refuse(self, answer: bytes) -> None:
            self.transport.write(answer)
            self.transport.close()

        def _arm(self) -> None:
            self._deadline = self.loop.call_later(request_seconds, self._too_slow)

        def data_received(self, data: bytes) -> None:
            if self._deadline is None and self.conn.their_state is h11.IDLE:
                self._arm()  # (the next request on a kept connection)
            super().data_received(data)
            if self.conn.their_state in finished:
                self._served = True
                if self._deadline is not None:
                    self._deadline.cancel()
                    self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self.conn.their_state not in finished:
                log.info("closing a connection that did not send its request in %g s",
                         request_seconds)
                self.transport.close()

        def shutdown(self) -> None:
            if self.conn.their_state not in finished and self.conn.their_state is not h11.IDLE:
                self.transport.close()  # (a request never finished: nothing to wait for)
                return
            super().shutdown()

        def connection_lost(self, exc) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            if self._client is not None:
                held.drop(self._client, self)
                self._client = None
            super().connection_lost(exc)

    return Guarded


def config(app, host: str, port: int, request_timeout: float = REQUEST_SECONDS,
           max_connections: int | None = None, client_connections: int | None = None,
           warn=log.warning):
    """The uvicorn configuration of ``app`` with the server's limits: ``max_connections``
    (None: :func:`default_connections`) clamped to what the open-file limit carries,
    with a warning through ``warn``; ``client_connections`` of them for one client
    address (None: a quarter)."""
    import uvicorn

    most = connection_cap(max_connections, MAX_CONNECTIONS, warn)
    client = None if client_connections is None else min(client_connections, most)
    # (a listen backlog under the cap: the connections accepted at once before any is
    # turned away stay within the file limit)
    return uvicorn.Config(
        app, host=host, port=port, log_level="warning", lifespan="on",
        http=guarded_protocol(request_timeout, most, client), backlog=max(8, min(128, most // 4)),
        timeout_keep_alive=KEEP_ALIVE_SECONDS, timeout_graceful_shutdown=GRACEFUL_SECONDS)


def serve(host: str = "127.0.0.1", port: int = 8819, games_dir: str = "games",
          workers: int = 4, allow_code: bool = False, log=print,
          request_timeout: float = REQUEST_SECONDS, max_connections: int | None = None,
          client_connections: int | None = None, **options) -> None:
    """Run the app until interrupted; games are kept in ``games_dir``; ``options`` go to
    :func:`~singapore_app.web.app.create_app` (``think_limit``, ``max_games``)."""
    import uvicorn

    from .app import create_app

    if host not in LOOPBACK:
        log(f"warning: listening on {host}: anyone who reaches this address can start "
            f"games and watch them (seats stay behind their secrets)")
    log(f"singapore-1819 web app on http://{'[' + host + ']' if ':' in host else host}:"
        f"{port}/  (games in {games_dir})")
    app = create_app(games_dir, workers=workers, allow_code=allow_code, **options)
    uvicorn.Server(config(app, host, port, request_timeout, max_connections,
                          client_connections, warn=log)).run()


class BackgroundServer:
    """The app served on loopback from a thread (tests, benchmarks, scripts)::

        with BackgroundServer(games_dir) as url:
            ...  # url is http://127.0.0.1:PORT
    """

    def __init__(self, games_dir=None, workers: int = 2, port: int = 0,
                 request_timeout: float = REQUEST_SECONDS, max_connections: int | None = None,
                 client_connections: int | None = None, **options):
        import uvicorn

        from .app import create_app

        self.port = port or free_port()
        self.server = uvicorn.Server(config(create_app(games_dir, workers=workers, **options),
                                            "127.0.0.1", self.port, request_timeout,
                                            max_connections, client_connections))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the web app did not start")
            time.sleep(0.02)
        return self.url

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
