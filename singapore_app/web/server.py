"""``singapore-1819 serve``: the web app on uvicorn, one process, on loopback unless
told otherwise."""

from __future__ import annotations

import socket
import threading
import time

LOOPBACK = ("127.0.0.1", "::1", "localhost")


def serve(host: str = "127.0.0.1", port: int = 8819, games_dir: str = "games",
          workers: int = 4, allow_code: bool = False, log=print, **options) -> None:
    """Run the app until interrupted; games are kept in ``games_dir``; ``options`` go to
    :func:`~singapore_app.web.app.create_app` (``think_limit``, ``max_games``)."""
    import uvicorn

    from .app import create_app

    if host not in LOOPBACK:
        log(f"warning: listening on {host}: anyone who reaches this address can start "
            f"games and watch them (seats stay behind their secrets)")
    log(f"singapore-1819 web app on http://{'[' + host + ']' if ':' in host else host}:"
        f"{port}/  (games in {games_dir})")
    uvicorn.run(create_app(games_dir, workers=workers, allow_code=allow_code, **options),
                host=host, port=port, log_level="warning")


class BackgroundServer:
    """The app served on loopback from a thread (tests, benchmarks, scripts)::

        with BackgroundServer(games_dir) as url:
            ...  # url is http://127.0.0.1:PORT
    """

    def __init__(self, games_dir=None, workers: int = 2, port: int = 0, **options):
        import uvicorn

        from .app import create_app

        self.port = port or free_port()
        config = uvicorn.Config(create_app(games_dir, workers=workers, **options),
                                host="127.0.0.1",
                                port=self.port, log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
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
