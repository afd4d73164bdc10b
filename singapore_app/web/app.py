"""The web app: the pages, the JSON API and the agents' driver in one Starlette app.

    app = create_app(games_dir="games")     # what ``singapore-1819 serve`` runs

Errors are JSON ``{"error": message}``: a 4xx status for every refused request, a 500
for anything else that goes wrong in a request (logged once, with its traceback; the
connection is answered, never dropped), a 503 for a request cut short by the server's
stop (not logged).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from . import inputs
from .api import ROUTES
from .driver import Driver
from .inputs import ApiError
from .limits import OncePerSecond, Shares
from .specs import THINK_LIMIT
from .store import MAX_GAMES, Tables

STATIC = Path(__file__).with_name("static")
log = logging.getLogger(__name__)


@dataclass
class WebState:
    """What the handlers share: the tables, the agents' driver, whether agent specs
    may load code or files from the server's disk, the seconds an agent may think per
    decision, the threads that build pages, and the bytes of request bodies being read
    (:func:`singapore_app.web.inputs.read_json`)."""

    tables: Tables
    driver: Driver
    allow_code: bool = False
    think_limit: float = THINK_LIMIT
    #: threads building views of finished games and replays (never behind agents)
    pages: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(
        2, thread_name_prefix="pages"))
    bodies: Shares = field(default_factory=lambda: inputs.bodies_budget())


def _page(name: str):
    async def page(request: Request):
        return FileResponse(STATIC / name, media_type="text/html")
    return page


async def _api_error(request: Request, exc: ApiError):
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def _http_error(request: Request, exc: HTTPException):
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code,
                        headers=getattr(exc, "headers", None))


class JsonErrors:
    """ASGI middleware: an exception a request raises becomes a JSON 500 (or the
    connection is closed if the answer had begun), logged here once."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = False

        async def sending(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except ClientDisconnect:
            return  # (the client went, or was cut off for sending too slowly)
        except asyncio.CancelledError:
            # (the server's stop cut the request short once its grace was over: said to
            # the client, not logged as a failure)
            if not started:
                await JSONResponse({"error": "the server is stopping: try again later"},
                                   status_code=503)(scope, receive, send)
            return
        except Exception:  # noqa: BLE001 -- every failure of a request is answered
            log.exception("error in %s %s", scope.get("method"), scope.get("path"))
            if not started:
                await JSONResponse({"error": "internal error: the server failed on this "
                                             "request (it is in the server's log)"},
                                   status_code=500)(scope, receive, send)


def create_app(games_dir: str | Path | None = None, workers: int = 2,
               allow_code: bool = False, think_limit: float = THINK_LIMIT,
               max_games: int = MAX_GAMES) -> Starlette:
    """The app; ``games_dir`` holds the games (None: kept in memory only), ``workers``
    threads run the agents, ``allow_code`` lets agent specs load files and code,
    ``think_limit`` caps an agent's seconds per decision, ``max_games`` the games in
    progress."""
    tables = Tables(games_dir, max_games)
    state = WebState(tables, Driver(tables, workers, think_limit), allow_code, think_limit)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        loop = asyncio.get_running_loop()
        complaints = loop.get_exception_handler()
        loop.set_exception_handler(OncePerSecond())
        opened = tables.load_all()
        if opened:
            log.info("opened %d saved games from %s", len(opened), games_dir)
        for table in list(tables.tables.values()):
            state.driver.kick(table)
        stop = asyncio.Event()
        flusher = asyncio.get_running_loop().create_task(tables.keep_flushing(stop))
        yield
        await state.driver.close()
        stop.set()
        await asyncio.gather(flusher, return_exceptions=True)
        await tables.close()
        state.pages.shutdown(wait=False, cancel_futures=True)
        loop.set_exception_handler(complaints)

    routes = [Route("/", _page("index.html")),
              Route("/favicon.ico", lambda request: Response(status_code=204)),
              Route("/play/{game}", _page("play.html")),
              Route("/replay/{game}", _page("replay.html")),
              Mount("/static", StaticFiles(directory=STATIC), name="static"), *ROUTES]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(JsonErrors)],
                    exception_handlers={ApiError: _api_error, HTTPException: _http_error})
    app.state.web = state
    return app
