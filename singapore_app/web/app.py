"""The web app: the pages, the JSON API and the agents' driver in one Starlette app.

    app = create_app(games_dir="games")     # what ``singapore-1819 serve`` runs

Errors are JSON ``{"error": message}`` with a 4xx status for every refused request.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .api import ROUTES
from .driver import Driver
from .inputs import ApiError
from .store import Tables

STATIC = Path(__file__).with_name("static")
log = logging.getLogger(__name__)


@dataclass
class WebState:
    """What the handlers share: the tables, the agents' driver, and whether agent specs
    may load code or files from the server's disk."""

    tables: Tables
    driver: Driver
    allow_code: bool = False


def _page(name: str):
    async def page(request: Request):
        return FileResponse(STATIC / name, media_type="text/html")
    return page


async def _api_error(request: Request, exc: ApiError):
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def _http_error(request: Request, exc: HTTPException):
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code,
                        headers=getattr(exc, "headers", None))


def create_app(games_dir: str | Path | None = None, workers: int = 2,
               allow_code: bool = False) -> Starlette:
    """The app; ``games_dir`` holds the games (None: kept in memory only), ``workers``
    threads run the agents, ``allow_code`` lets agent specs load files and code."""
    tables = Tables(games_dir)
    state = WebState(tables, Driver(tables, workers), allow_code)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        opened = tables.load_all()
        if opened:
            log.info("opened %d saved games from %s", len(opened), games_dir)
        for table in list(tables.tables.values()):
            state.driver.kick(table)
        flusher = asyncio.get_running_loop().create_task(tables.keep_flushing())
        yield
        await state.driver.close()
        flusher.cancel()
        await asyncio.gather(flusher, return_exceptions=True)

    routes = [Route("/", _page("index.html")),
              Route("/favicon.ico", lambda request: Response(status_code=204)),
              Route("/play/{game}", _page("play.html")),
              Route("/replay/{game}", _page("replay.html")),
              Mount("/static", StaticFiles(directory=STATIC), name="static"), *ROUTES]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={ApiError: _api_error, HTTPException: _http_error})
    app.state.web = state
    return app
