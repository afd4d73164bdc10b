"""Every request's input checked before it reaches a game: bodies (size, JSON, fields),
ids, seats, agent specs, answers and saves. A bad input raises :class:`ApiError`, a 4xx
with a message that says what is wrong; nothing is changed by a refused request."""

from __future__ import annotations

import json
import re
import secrets

from singapore_env.engine import Game
from singapore_env.engine.config import RULESETS, ConfigError, RulesConfig, check_keys
from singapore_env.engine.content import SEAT_NAMES
from singapore_env.engine.decisions import Decision
from singapore_env.engine.save_validation import SaveFormatError

from .limits import Shares
from .table import PERSON

_too_many_bodies = {
    "client": "too many request bodies from one client (your address) are being read at "
              "once: try again when one is sent",
    "all": "the server is reading too many request bodies at once: try again in a moment"}

#: The largest request body read (a saved game with its text log is ~10-100 KB).
MAX_BODY = 2 * 1024 * 1024
#: The bytes all the request bodies being read at once may hold (past each body's
#: first :data:`FREE_BYTES`), a quarter of it for one client address.
BODIES_BUDGET = 64 * 1024 * 1024
#: The first bytes of each body, read outside the budget (an answer, a new game: a
#: connection holds at most this much of them, so with the connection cap they are
#: bounded too), so uploads held open never stop the small requests.
FREE_BYTES = 64 * 1024
#: Game ids: 12 lowercase hex digits.
ID_PATTERN = re.compile(r"[0-9a-f]{12}")
MAX_SEED = 2**31 - 1
MAX_DELAY = 10.0


class ApiError(Exception):
    """A refused request: HTTP ``status`` and a message for the client."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def bodies_budget() -> Shares:
    """The bytes of request bodies one server reads at once (:data:`BODIES_BUDGET`, a
    quarter for one client)."""
    return Shares(BODIES_BUDGET)


async def read_json(request, limit: int = MAX_BODY) -> dict:
    """The request's body as a JSON object (at most ``limit`` bytes). Past its first
    :data:`FREE_BYTES` a body's bytes count against the app's bodies budget: a 503 while
    the bodies being read hold all of it, or this client's share of it (slow uploads
    cannot fill the memory, nor one client's uploads stop the others')."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise ApiError(413, f"the body is larger than {limit} bytes")
    budget: Shares = request.app.state.web.bodies
    client = request.client.host if request.client else "-"
    body, held = bytearray(), 0
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise ApiError(413, f"the body is larger than {limit} bytes")
            more = len(body) - FREE_BYTES - held
            if more > 0:
                if not budget.take(client, more):
                    raise ApiError(503, _too_many_bodies[budget.full_for(client, more)])
                held += more
    finally:
        budget.give(client, held)
    if not body:
        return {}
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise ApiError(400, f"the body is not JSON: {str(exc)[:120]}") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object")
    return data


def game_id(text: str) -> str:
    """A well-formed game id (12 lowercase hex digits)."""
    if not ID_PATTERN.fullmatch(text):
        raise ApiError(400, f"malformed game id {text[:40]!r}: ids are 12 hex digits")
    return text


def seat_of(text: str) -> int:
    """A seat given as 0..3 or by name (``sultan``)."""
    if text in ("0", "1", "2", "3"):
        return int(text)
    if text in SEAT_NAMES:
        return SEAT_NAMES.index(text)
    raise ApiError(400, f"unknown seat {text[:40]!r}: give 0..3 or one of "
                        f"{', '.join(SEAT_NAMES)}")


def _int(body: dict, name: str, default: int, lo: int, hi: int) -> int:
    value = body.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ApiError(400, f"{name} must be an integer in {lo}..{hi}, got {value!r}"[:200])
    return value


def known_keys(body: dict, allowed: tuple[str, ...]) -> None:
    """ApiError 400 naming any field of ``body`` not in ``allowed``."""
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise ApiError(400, f"unknown field(s) {', '.join(map(repr, unknown))[:120]}; "
                            f"fields are {', '.join(allowed)}")


def delay_of(body: dict) -> float:
    """Seconds between agent moves, 0..10."""
    value = body.get("delay", 0.0)
    if (not isinstance(value, (int, float)) or isinstance(value, bool)
            or not 0 <= value <= MAX_DELAY):
        raise ApiError(400, f"delay must be a number of seconds in 0..{MAX_DELAY:g}, "
                            f"got {value!r}"[:200])
    return float(value)


def seats_of(body: dict) -> list[str]:
    """Four seats, each ``"person"`` or an agent spec (checked by
    :func:`singapore_app.web.specs.check_seats`)."""
    seats = body.get("seats", [PERSON, "heuristic", "heuristic", "heuristic"])
    if not (isinstance(seats, list) and len(seats) == 4
            and all(isinstance(x, str) and 0 < len(x.strip()) <= 200 for x in seats)):
        raise ApiError(400, "seats must be a list of 4 strings: \"person\" or an agent spec "
                            "(random, heuristic, mcts:iters=24, learned:zero...)")
    return [x.strip() for x in seats]


def rules_of(body: dict) -> tuple[RulesConfig, int]:
    """The ruleset (with optional ``settings`` changes) and the seed of a new game: the
    creator's, or else a fresh one from the operating system's randomness."""
    ruleset = body.get("ruleset", "standard")
    if ruleset not in RULESETS:
        raise ApiError(400, f"unknown ruleset {str(ruleset)[:40]!r}; rulesets are "
                            f"{', '.join(RULESETS)}")
    settings = body.get("settings", {})
    if not isinstance(settings, dict):
        raise ApiError(400, "settings must be an object of rule settings")
    try:
        check_keys(settings)
        cfg = RulesConfig.named(ruleset, **settings)
        Game(0, cfg)  # a configuration the engine can set up
    except (ConfigError, TypeError, ValueError) as exc:
        raise ApiError(400, f"settings: {exc}"[:300]) from None
    if "seed" not in body:
        return cfg, secrets.randbits(64)
    return cfg, _int(body, "seed", 0, 0, MAX_SEED)


def new_game_of(body: dict) -> tuple[Game, list[str], float]:
    """A new game, its seats and its pace from a ``POST /api/games`` body."""
    known_keys(body, ("ruleset", "seed", "seats", "delay", "settings"))
    cfg, seed = rules_of(body)
    seats, delay = seats_of(body), delay_of(body)
    return Game(seed, cfg), seats, delay


def save_of(body: dict) -> Game:
    """The game in a body's ``save`` (a save's JSON text, or its object), as the engine's
    validation reads it (its replay is checked by
    :func:`singapore_app.web.table.rebuilt`)."""
    save = body.get("save")
    try:
        if isinstance(save, str):
            return Game.from_json(save)
        if isinstance(save, dict):
            return Game.from_dict(save)
    except SaveFormatError as exc:
        raise ApiError(400, f"not a usable save of this game: {exc}"[:400]) from None
    raise ApiError(400, "save must be a saved game: its JSON text or the JSON object")


def answer_of(body: dict, game: Game) -> Decision:
    """The decision a body names: ``{"index": i}`` (into the legal answers) or
    ``{"decision": [kind, arg]}``, one of the two, with ``expect``: the decision count
    the client saw (required: an answer means something only at the question it was
    chosen for, so a retried or doubled answer is a 409, never a second move)."""
    known_keys(body, ("index", "decision", "expect"))
    if "index" in body and "decision" in body:
        raise ApiError(400, "give the answer one way: {\"index\": i} or "
                            "{\"decision\": [kind, arg]}, not both")
    if "expect" not in body:
        raise ApiError(400, "expect is missing: give the number of decisions taken when the "
                            "answer was chosen (the view's \"decisions\")")
    if _int(body, "expect", 0, 0, 10**9) != len(game.history):
        raise ApiError(409, f"the game has moved on: {len(game.history)} decisions taken, "
                            f"the answer was for {body['expect']}")
    legal = game.legal_decisions()
    if "index" in body:
        return legal[_int(body, "index", 0, 0, max(0, len(legal) - 1))]
    pair = body.get("decision")
    if (isinstance(pair, list) and len(pair) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in pair)):
        return Decision(*pair)
    raise ApiError(400, "give the answer as {\"index\": i} (into the legal answers) or "
                        "{\"decision\": [kind, arg]}")
