"""The frame registry and the small helpers every rules module shares.

A *frame* kind is either automatic (``@auto``: runs when it reaches the top of the
stack) or a decision (``@decision``: offers ``legal(g, frame)`` and takes
``apply(g, frame, decision)``). Handlers pop their own frame when they are done, so a
procedure (a War, an Upkeep) can stay on the stack while it pushes the questions it
needs answered.
"""

from __future__ import annotations

from typing import Callable, Protocol

import numpy as np

from ..config import NUMBER_LIMIT, RulesConfig
from ..content import SEAT_FACTION, Content
from ..decisions import DECISION, FastKind as Kind
from ..state import VP_SOURCES, Frame, GameState

VP_SOURCE_INDEX = {name: i for i, name in enumerate(VP_SOURCES)}


class RulesGame(Protocol):
    """What the rules read and write of a game (:class:`singapore_env.engine.game.Game`
    is the one that runs them): its state, rules configuration, content and dice."""

    s: GameState
    cfg: RulesConfig
    c: Content
    rng: np.random.Generator
    keep_text_log: bool


AUTO: dict[str, Callable] = {}
LEGAL: dict[str, Callable] = {}
APPLY: dict[str, Callable] = {}

# Seating clockwise: LG, Temenggong, Resident, Sultan (factions alternate).
CLOCKWISE = (0, 2, 1, 3)
_NEXT = {CLOCKWISE[i]: CLOCKWISE[(i + 1) % 4] for i in range(4)}
PASS = DECISION[Kind.PASS, 0]
YES = DECISION[Kind.YES, 0]
FACES = (0, 0, 1, 1, 2, 2)  # the 1819 die
D4_SIDES = 4               # the first edition's D4


def auto(kind: str):
    """Register an automatic frame handler ``fn(g, frame)``."""
    def register(fn):
        AUTO[kind] = fn
        return fn
    return register


def decision(kind: str):
    """Register a decision frame: decorate a class with ``legal`` and ``apply``."""
    def register(cls):
        LEGAL[kind] = cls.legal
        APPLY[kind] = cls.apply
        return cls
    return register


def yes_no(kind: str, on_yes: Callable, available: Callable | None = None) -> None:
    """Register a yes/no question: YES runs ``on_yes(g, frame)``, PASS declines.
    With ``available(g, frame)`` false the question is not asked."""
    def legal(g, f):
        return [YES, PASS] if available is None or available(g, f) else []

    def apply(g, f, d):
        pop(g)
        if d.kind == Kind.YES:
            on_yes(g, f)

    LEGAL[kind], APPLY[kind] = legal, apply


def one_more_dollar(kind: str, room: Callable, add: Callable) -> None:
    """Register a question about the War answered a dollar at a time: ADD_MONEY runs
    ``add(war_data)`` while ``room(g, frame, war_data)`` says one more fits; PASS ends."""
    def legal(g, f):
        return [DECISION[Kind.ADD_MONEY, 0], PASS] if room(g, f, find_frame(g, "war").d) \
            else [PASS]

    def apply(g, f, d):
        if d.kind == Kind.ADD_MONEY:
            add(find_frame(g, "war").d)
        else:
            pop(g)

    LEGAL[kind], APPLY[kind] = legal, apply


# ---------------------------------------------------------------- seats
def faction(seat: int) -> int:
    return SEAT_FACTION[seat]


def mate(seat: int) -> int:
    """The other player of the same faction (0<->1, 2<->3)."""
    return seat ^ 1


def next_clockwise(seat: int) -> int:
    return _NEXT[seat]


def clockwise_from(seat: int) -> list[int]:
    i = CLOCKWISE.index(seat)
    return [CLOCKWISE[(i + k) % 4] for k in range(4)]


# ---------------------------------------------------------------- chance
def roll(g: "RulesGame", dice: int) -> int:
    """Sum of ``dice`` 1819 dice (faces 0,0,1,1,2,2)."""
    return sum(roll_dice(g, dice))


# Dice are drawn one scalar at a time: the same numbers and generator state as one
# ``integers(..., size=dice)`` call (tests/test_engine_speed_paths.py), at a third of
# the cost of building an array.
def roll_dice(g: "RulesGame", dice: int) -> list[int]:
    """The faces of ``dice`` 1819 dice, one by one (for a re-roll of some of them)."""
    rng = g.rng
    return [FACES[rng.integers(0, 6)] for _ in range(dice)]


def roll_d4(g: "RulesGame", dice: int) -> list[int]:
    """The faces of ``dice`` four-sided dice (1..4; first-edition ruleset)."""
    rng = g.rng
    return [int(rng.integers(1, D4_SIDES + 1)) for _ in range(dice)]


def shuffle(g: "RulesGame", cards: list[int]) -> None:
    """Shuffle a list of card ids in place with the game's RNG."""
    if len(cards) > 1:
        order = g.rng.permutation(len(cards)).tolist()
        cards[:] = [cards[i] for i in order]


# ---------------------------------------------------------------- stack
def push(g: "RulesGame", *frames: Frame) -> None:
    """Push frames so that the first one given runs first."""
    g.s.stack.extend(reversed(frames))


def pop(g: "RulesGame") -> Frame:
    return g.s.stack.pop()


def find_frame(g: "RulesGame", kind: str) -> Frame:
    for f in reversed(g.s.stack):
        if f.kind == kind:
            return f
    raise LookupError(f"no {kind!r} frame on the stack")


def log(g: "RulesGame", text: str) -> None:
    if g.keep_text_log:
        g.s.log_text.append(f"R{g.s.round} {text}")


# ---------------------------------------------------------------- money, ships, VP
def fit(value: int, what: str, seat: int = -1) -> int:
    """``value``, a number the game stores; OverflowError if it is past
    :data:`~singapore_env.engine.config.NUMBER_LIMIT` either way (the native engine
    raises the same, in the same words, where it would otherwise wrap)."""
    if -NUMBER_LIMIT <= value <= NUMBER_LIMIT:
        return value
    owner = f"seat {seat}'s " if seat >= 0 else ""
    raise OverflowError(f"{owner}{what} would be {value}, past {NUMBER_LIMIT}, the limit of "
                        f"a game's numbers")


def score(g: "RulesGame", seat: int, vp: int, source: str) -> None:
    """Award ``vp`` to ``seat`` on the VP track, recorded under ``source`` (one of
    :data:`~singapore_env.engine.state.VP_SOURCES`): every VP change goes through here."""
    g.s.vp[seat] = fit(g.s.vp[seat] + vp, "VP", seat)
    record_source(g, seat, source, vp)


def record_source(g: "RulesGame", seat: int, source: str, vp: int) -> None:
    """Record ``vp`` of ``seat`` under ``source`` (Legacies and End Game bonuses are
    recorded here without entering the VP track)."""
    sources = g.s.vp_sources[seat]
    i = VP_SOURCE_INDEX[source]
    sources[i] = fit(sources[i] + vp, "VP", seat)


def record_fact(g: "RulesGame", kind: str, *values: int) -> None:
    """Note a game fact ``[kind, round, *values]`` for statistics (docs/state-format.md)."""
    g.s.facts.append([kind, g.s.round, *(int(v) for v in values)])


def gain(g: "RulesGame", seat: int, dollars: int) -> None:
    g.s.wealth[seat] = fit(max(0, g.s.wealth[seat] + dollars), "Wealth", seat)


def add_population(g: "RulesGame", fac: int, n: int) -> None:
    """Add (or with n < 0 remove) cubes; close districts whose boxes empty."""
    s, b = g.s, g.c.board
    before = s.population[fac]
    after = min(b.max_population, max(0, before + n))
    s.population[fac] = after
    if after < before:
        for space, kind in enumerate(b.loop_kind):
            if (kind == "district" and b.loop_faction[space] == fac
                    and after < b.loop_opens_at[space] <= before):
                for seat in range(4):
                    s.districts[space * 4 + seat] = 0
                log(g, f"district {b.loop_ids[space]} closes")


def add_ships(g: "RulesGame", n: int) -> None:
    g.s.ships = min(g.c.board.max_ships, max(0, g.s.ships + n))


def add_storehouse(g: "RulesGame", fac: int, n: int) -> None:
    g.s.storehouse[fac] = fit(max(0, g.s.storehouse[fac] + n), "Storehouse")


def add_public_works_token(g: "RulesGame", seat: int) -> None:
    g.s.pw_track.append(seat)
    if len(g.s.pw_track) in g.c.board.pw_ship_spaces:
        add_ships(g, 1)


# ---------------------------------------------------------------- boosts
def active_boosts(g: "RulesGame", seat: int, kind: str):
    """Yield ``(holder, effect)`` for every face-up card of ``seat`` with that boost.

    ``holder`` is the tableau Slot, or None for a revealed Battle card (revealed cards
    are looked up by :func:`revealed_boosts`).
    """
    of_card = g.c.boosts_by_type.get(kind)  # None: no card has that boost
    if of_card is not None:
        for slot in g.s.tableau[seat]:
            if slot.up:
                for b in of_card[slot.card]:
                    yield slot, b


def revealed_boosts(g: "RulesGame", seat: int, kind: str):
    """Yield ``(card_id, effect)`` for revealed Battle cards of ``seat`` with that boost."""
    of_card = g.c.boosts_by_type.get(kind)
    if of_card is not None:
        for cid in g.s.revealed[seat]:
            for b in of_card[cid]:
                yield cid, b


def seat_boosts(g: "RulesGame", seat: int, kind: str) -> list:
    """Every boost of that kind ``seat`` has now: face-up tableau cards left to right,
    then revealed Battle cards."""
    of_card = g.c.boosts_by_type.get(kind)
    if of_card is None:  # no card has a boost of that type
        return []
    found = []
    for slot in g.s.tableau[seat]:
        if slot.up:
            own = of_card[slot.card]
            if own:
                found += own
    for cid in g.s.revealed[seat]:
        own = of_card[cid]
        if own:
            found += own
    return found


def boost_total(g: "RulesGame", seat: int, kind: str) -> int:
    """The sum of ``n`` over the seat's boosts of that kind."""
    total = 0
    for b in seat_boosts(g, seat, kind):
        total += b["n"]
    return total


def modifier_total(g: "RulesGame", kind: str) -> int:
    total = 0
    for t, n in g.s.modifiers:  # a loop: usually empty, asked on most questions
        if t == kind:
            total += n
    return total


def has_modifier(g: "RulesGame", kind: str) -> bool:
    return any(t == kind for t, _ in g.s.modifiers)


# ---------------------------------------------------------------- board
def multiplier(g: "RulesGame") -> int:
    """Failed-upkeep / spoils-of-war multiplier from the opened x2/x3 districts."""
    b = g.c.board
    opened = sum(1 for i, kind in enumerate(b.loop_kind)
                 if kind == "district" and b.loop_opens_at[i] > 0 and district_open(g, i))
    track = b.multiplier_track
    return track[min(opened, len(track) - 1)]


def district_open(g: "RulesGame", space: int) -> bool:
    b = g.c.board
    return g.s.population[b.loop_faction[space]] >= b.loop_opens_at[space]


def star_allowed_in_war(g: "RulesGame") -> bool:
    return bool(g.s.anglo_dutch) and g.s.ships >= g.cfg.star_ship_threshold


def star_allowed_in_conflict(g: "RulesGame") -> bool:
    if not g.s.anglo_dutch:
        return g.cfg.star_in_conflict_under_singapore
    return g.s.ships >= g.cfg.star_ship_threshold


def draw_battle(g: "RulesGame", fac: int) -> int:
    """Top card of a faction's Battle deck (reshuffling its discards); -1 if none."""
    s = g.s
    if not s.battle_deck[fac]:
        if not s.battle_discard[fac]:
            return -1
        s.battle_deck[fac] = s.battle_discard[fac]
        s.battle_discard[fac] = []
        shuffle(g, s.battle_deck[fac])
    return s.battle_deck[fac].pop()


def battle_available(g: "RulesGame", fac: int) -> int:
    return len(g.s.battle_deck[fac]) + len(g.s.battle_discard[fac])


def slot_position(g: "RulesGame", seat: int, card: int) -> int:
    for i, slot in enumerate(g.s.tableau[seat]):
        if slot.card == card:
            return i
    return -1
