"""The JSON API under ``/api/`` (docs/web.md): start, list, resume and download games,
a seat's view, its legal answers and its answer, a spectator's view, replays, and the
creator's pace, stop and delete.

Each handler checks its input (:mod:`singapore_app.web.inputs`, agent specs
:mod:`singapore_app.web.specs`) before touching a game; the engine decides legality (an
illegal answer is its ``IllegalDecision``, a 409 with the engine's words). A seat's view
needs that seat's secret (header ``X-Seat-Key`` or query ``key``); the creator's actions
the creator's secret (header ``X-Owner-Key``). An answer is on disk before its 200 (a
503 when the disk cannot take it).
"""

from __future__ import annotations

import asyncio
import json

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from singapore_env.engine.content import SEAT_NAMES
from singapore_env.engine.game import IllegalDecision
from singapore_env.engine.save_validation import SaveFormatError
from singapore_env.words import seat_words

from . import inputs, specs, views
from .inputs import ApiError
from .table import PERSON, Table, dealt_again, key_fits, rebuilt


def _state(request: Request):
    return request.app.state.web


async def _off_loop(request: Request, build, *args):
    """``build(*args)`` on the server's thread for pages (views of finished games,
    replays: they read a game nothing changes any more)."""
    return await asyncio.get_running_loop().run_in_executor(_state(request).pages, build,
                                                            *args)


async def _view_response(request: Request, table: Table, seat: int | None):
    """The view as a response: built on the event loop while the game can change, off
    it once the game is finished."""
    if table.finished:
        return await _off_loop(request, lambda: JSONResponse(view(table, seat)))
    return JSONResponse(view(table, seat))


async def _table(request: Request) -> Table:
    return await _state(request).tables.open(inputs.game_id(request.path_params["game"]))


def _seat(request: Request, table: Table) -> int:
    """The seat of the path, if the request holds its secret (else ApiError 403)."""
    seat = inputs.seat_of(request.path_params["seat"])
    key = request.headers.get("x-seat-key") or request.query_params.get("key")
    if table.seats[seat] != PERSON:
        raise ApiError(403, f"the {seat_words(seat)} is played by an agent "
                            f"({table.seats[seat]}), not by a person")
    if not table.key_fits(seat, key):
        raise ApiError(403, f"wrong or missing secret for the {seat_words(seat)}'s seat: "
                            f"open the seat's own link (its key is in it)")
    return seat


def _links(table: Table) -> dict:
    seats = []
    for p, spec in enumerate(table.seats):
        entry = {"seat": SEAT_NAMES[p], "player": spec}
        if spec == PERSON:
            entry |= {"key": table.keys[p], "url": f"/play/{table.id}?seat={p}#key={table.keys[p]}"}
        seats.append(entry)
    return {"id": table.id, "seats": seats, "watch": f"/play/{table.id}",
            "replay": f"/replay/{table.id}", "owner_key": table.owner,
            "manage": f"/play/{table.id}#owner={table.owner}"}


def view(table: Table, seat: int | None) -> dict:
    """Everything ``seat`` (None: a spectator) may see of ``table``."""
    g = table.game
    out = {"id": table.id, "seat": None if seat is None else SEAT_NAMES[seat],
           "ruleset": g.cfg.ruleset, "decisions": len(g.history),
           "over": g.is_over, "stopped": table.stopped, "status": views.headline(table),
           "error": table.error, "acting": SEAT_NAMES[g.acting_seat] if not g.is_over else None,
           "players": table.seats, "delay": table.delay,
           "thinking": None if table.thinking is None else SEAT_NAMES[table.thinking],
           "open_book": table.open_book, "board": views.board(g, seat),
           "log": table.log_for(seat),
           "question": views.question(g, seat) if seat is not None and not table.finished
           else None}
    if table.open_book:  # (the seed rebuilds every hidden card)
        out["seed"] = g.seed
    return out


# ---------------------------------------------------------------- games
async def list_games(request: Request):
    return JSONResponse({"games": _state(request).tables.recent()})


async def _open(request: Request, game, seats: list[str], delay: float = 0.0,
                replay_only: bool = False, log_lines: list | None = None,
                base: dict | None = None):
    """A new table written to disk, its agents started: its links (201)."""
    web = _state(request)
    table = web.tables.new(game, seats, delay, replay_only=replay_only, log_lines=log_lines,
                           base=base)
    try:
        await web.tables.save(table)
    except ApiError:
        web.tables.forget(table)  # (its links were never given: nobody can play it)
        raise
    web.driver.kick(table)
    return JSONResponse(_links(table), status_code=201)


async def create_game(request: Request):
    web = _state(request)
    game, seats, delay = inputs.new_game_of(await inputs.read_json(request))
    await specs.check_seats(seats, web.allow_code, web.think_limit, game)
    return await _open(request, game, seats, delay)


async def _saved(body: dict):
    """The game of a body's save and its log, replayed from its seed on a thread (400
    if the save is not what its seed and decisions give: edited by hand)."""
    game = inputs.save_of(body)
    try:
        log_lines = await asyncio.get_running_loop().run_in_executor(None, rebuilt, game)
    except SaveFormatError as exc:
        raise ApiError(400, f"not a usable save of this game: {exc}"[:400]) from None
    return game, log_lines


async def resume_game(request: Request):
    """A saved game played on from where it was, with new seats; with a person among
    them, everything hidden is dealt again first (whoever holds a save knows every
    hidden card of it, and its seed gives the dice to come)."""
    web = _state(request)
    body = await inputs.read_json(request)
    inputs.known_keys(body, ("save", "seats", "delay"))
    seats, delay = inputs.seats_of(body), inputs.delay_of(body)
    game, log_lines = await _saved(body)
    await specs.check_seats(seats, web.allow_code, web.think_limit, game)
    if PERSON not in seats or game.is_over:
        return await _open(request, game, seats, delay, game.is_over, log_lines)
    game = await asyncio.get_running_loop().run_in_executor(web.pages, dealt_again, game)
    return await _open(request, game, seats, delay, base=json.loads(game.to_json()))


async def open_replay(request: Request):
    """A saved game opened to be replayed (everything in it is shown)."""
    body = await inputs.read_json(request)
    inputs.known_keys(body, ("save",))
    game, log_lines = await _saved(body)
    return await _open(request, game, ["saved"] * 4, replay_only=True, log_lines=log_lines)


async def spectator_view(request: Request):
    return await _view_response(request, await _table(request), None)


async def seat_view(request: Request):
    table = await _table(request)
    return await _view_response(request, table, _seat(request, table))


async def seat_legal(request: Request):
    table = await _table(request)
    seat = _seat(request, table)
    g = table.game
    return JSONResponse({"decisions": len(g.history), "to_answer": g.acting_seat == seat,
                         "question": views.question(g, seat)})


async def seat_answer(request: Request):
    web = _state(request)
    table = await _table(request)
    seat = _seat(request, table)
    body = await inputs.read_json(request)
    g = table.game
    if table.finished:
        raise ApiError(409, f"the game is {'stopped' if table.stopped else 'over'}; "
                            f"no answer is taken")
    if table.error:
        raise ApiError(409, f"{table.error}; no answer is taken")
    if g.acting_seat != seat:
        raise ApiError(409, f"it is the {seat_words(g.acting_seat)}'s decision, not the "
                            f"{seat_words(seat)}'s")
    decision = inputs.answer_of(body, g)
    web.tables.check_saving()
    try:
        table.step(decision)
    except IllegalDecision as exc:
        raise ApiError(409, f"illegal answer: {exc}"[:600]) from None
    web.tables.stepped(table)
    web.driver.kick(table)
    await web.tables.durable()
    return JSONResponse(view(table, seat))


# ---------------------------------------------------------------- the creator's
async def _owned(request: Request) -> Table:
    """The table of the path, if the request holds its creator's secret (else 403)."""
    table = await _table(request)
    key = request.headers.get("x-owner-key") or request.query_params.get("owner")
    if not key_fits(table.owner, key):
        raise ApiError(403, "wrong or missing creator's secret: give the key the game "
                            "was created with (header X-Owner-Key)")
    return table


async def set_pace(request: Request):
    """The seconds between agent moves, changed while the game goes on."""
    table = await _owned(request)
    body = await inputs.read_json(request)
    inputs.known_keys(body, ("delay",))
    table.delay = inputs.delay_of(body)
    await _state(request).tables.save(table)
    return JSONResponse({"id": table.id, "delay": table.delay})


async def stop_game(request: Request):
    """No more moves: the agents stop and no answer is taken (the book stays shut
    while people have cards to hide)."""
    table = await _owned(request)
    if not table.finished:
        table.stopped = True
        await _state(request).tables.save(table)
    return JSONResponse({"id": table.id, "stopped": table.stopped,
                         "status": views.headline(table)})


async def delete_game(request: Request):
    """The game forgotten: out of memory, its file removed."""
    table = await _owned(request)
    table.stopped = True
    await _state(request).tables.delete(table)
    return JSONResponse({"id": table.id, "deleted": True})


def _open_book(table: Table, what: str) -> None:
    if not table.open_book:
        raise ApiError(403, f"the {what} shows every seat's hidden cards: it opens once the "
                            f"game is over (or for a game of agents only)")


async def download(request: Request):
    table = await _table(request)
    _open_book(table, "save")
    return Response(table.game.to_json(), media_type="application/json", headers={
        "content-disposition": f'attachment; filename="singapore-{table.id}.json"'})


async def replay_summary(request: Request):
    table = await _table(request)
    _open_book(table, "replay")
    timeline = await _state(request).tables.timeline(table, _state(request).pages)
    return await _off_loop(request, lambda: JSONResponse(timeline.summary()))


async def replay_step(request: Request):
    table = await _table(request)
    _open_book(table, "replay")
    timeline = await _state(request).tables.timeline(table, _state(request).pages)
    text = request.path_params["step"]
    if not (text.isascii() and text.isdigit() and len(text) <= 7
            and int(text) <= len(timeline)):
        raise ApiError(400, f"step must be an integer in 0..{len(timeline)}, got {text[:20]!r}")
    return await _off_loop(request, lambda: JSONResponse(timeline.view(int(text))))


ROUTES = [
    Route("/api/games", list_games, methods=["GET"]),
    Route("/api/games", create_game, methods=["POST"]),
    Route("/api/games/resume", resume_game, methods=["POST"]),
    Route("/api/replays", open_replay, methods=["POST"]),
    Route("/api/games/{game}", spectator_view, methods=["GET"]),
    Route("/api/games/{game}", delete_game, methods=["DELETE"]),
    Route("/api/games/{game}/pace", set_pace, methods=["POST"]),
    Route("/api/games/{game}/stop", stop_game, methods=["POST"]),
    Route("/api/games/{game}/save", download, methods=["GET"]),
    Route("/api/games/{game}/replay", replay_summary, methods=["GET"]),
    Route("/api/games/{game}/replay/{step}", replay_step, methods=["GET"]),
    Route("/api/games/{game}/seats/{seat}", seat_view, methods=["GET"]),
    Route("/api/games/{game}/seats/{seat}/legal", seat_legal, methods=["GET"]),
    Route("/api/games/{game}/seats/{seat}/answer", seat_answer, methods=["POST"]),
]
