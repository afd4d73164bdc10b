"""Shapes of saved values: the checkers of ints, card lists and strings, and what each
kind of pending frame holds (:data:`FRAMES`), for :mod:`singapore_env.engine.save_validation`.

A checker returns the value it accepts (lists copied) or raises :class:`Bad` saying
what is wrong; the caller adds where. Many checkers also have a bulk form, ``many``:
given a list of values, the list of what the checker returns for each, tested over the
whole list at once (a type set, min and max, a set inclusion: no call per entry), or
None if some entry fails. A list checker uses its entries' bulk form and runs their
checker one by one only when that fails, to name the bad entry.
"""

from __future__ import annotations

from itertools import chain

from .config import NUMBER_LIMIT
from .frames import (ConflictPhase, DecreePhase, RaidFePhase, RaidPhase, WarFePhase,
                     WarPhase)

#: The bound on VP, dollars and the other open-ended counters a save may hold: a tenth of
#: the limit of a game's numbers (config.NUMBER_LIMIT), so a game the loaders take has
#: the room play needs (a whole game with every setting at its bound adds a few million)
#: and never stops with an OverflowError after it loaded.
BIG = NUMBER_LIMIT // 10
#: The longest Public Works track a save may hold: what the native state holds with room
#: for play (native/state.hpp LOADED_PW_TRACK: an Upkeep asks one question per token past
#: the tax, and the native engine holds 32 pending questions); games reach about 8.
PW_TRACK_MOST = 24
INT_ONLY = frozenset({int})


class Bad(Exception):
    """A value of the wrong type or range (the caller adds where it is)."""


def short(x) -> str:
    """``repr(x)`` cut to 60 characters, for messages."""
    shown = repr(x)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def int_in(lo: int, hi: int):
    """Checker of an int in ``lo..hi`` (not a bool)."""
    def check(x):
        if type(x) is not int or not lo <= x <= hi:
            raise Bad(f"must be an int in {lo}..{hi}, got {short(x)}")
        return x

    def many(xs: list) -> list | None:
        if not xs or ({*map(type, xs)} <= INT_ONLY and lo <= min(xs) and max(xs) <= hi):
            return xs[:]
        return None
    # (the ignores here: mypy does not follow attributes set on a function)
    check.many, check.range = many, (lo, hi)  # type: ignore[attr-defined]
    return check


def phase_of(phases):
    """Checker of a saved phase: an int among the values of the IntEnum ``phases``,
    given as its member."""
    check_int = int_in(min(phases), max(phases))

    def check(x):
        return phases(check_int(x))
    return check


def one_of(*choices: str):
    """Checker of a string among ``choices``."""
    def check(x):
        if not isinstance(x, str) or x not in choices:
            raise Bad(f"must be one of {list(choices)}, got {short(x)}")
        return x
    return check


def list_of(item, length: int | None = None, most: int = 1000, many=None):
    """Checker of a list of ``length`` (or at most ``most``) entries passing ``item``;
    ``many`` is the bulk form of ``item`` if it has none of its own."""
    item_many = many or getattr(item, "many", None)

    def check(x):
        if type(x) is not list:
            raise Bad(f"must be a list, got {short(x)}")
        if length is not None and len(x) != length:
            raise Bad(f"must have {length} entries, got {len(x)}")
        if len(x) > most:
            raise Bad(f"must have at most {most} entries, got {len(x)}")
        out = item_many(x) if item_many is not None else None
        if out is not None:
            return out
        out = []
        for i, y in enumerate(x):
            try:
                out.append(item(y))
            except Bad as exc:
                raise Bad(f"[{i}] {exc}") from None
        return out

    def lists(xs: list) -> list | None:
        """The bulk form: the entries of all the lists ``xs`` checked as one list."""
        if not {*map(type, xs)} <= {list}:
            return None
        sizes = [*map(len, xs)]
        if length is not None and {*sizes} - {length} or max(sizes, default=0) > most:
            return None
        assert item_many is not None  # (lists is the bulk form only if there is one)
        flat = item_many([*chain.from_iterable(xs)])
        if flat is None:
            return None
        out, start = [], 0
        for size in sizes:
            out.append(flat[start:start + size])
            start += size
        return out
    if item_many is not None:
        check.many = lists  # type: ignore[attr-defined]
    check.shape = (item, length, most)  # type: ignore[attr-defined]
    return check


def text(x):
    """Checker of a string."""
    if not isinstance(x, str):
        raise Bad(f"must be a string, got {short(x)}")
    return x


text.many = lambda xs: xs[:] if {*map(type, xs)} <= {str} else None  # type: ignore[attr-defined]
SEAT = int_in(0, 3)
SEAT_OR_NONE = int_in(-1, 3)
FLAG = int_in(0, 1)
COUNT = int_in(0, BIG)
SMALL = int_in(0, 50)
DICE = list_of(int_in(0, 4), most=40)
DOWN = ("", "closed", "outlawed")  # why a tableau card is face down


# ---------------------------------------------------------------- frame shapes
class _Spec:
    """What one frame kind holds: its seat (True = a seat 0..3, False = -1, None =
    either), its data, the frame it works on and a cross-check. The data are makers of
    checkers by field of the kind's record (:mod:`singapore_env.engine.frames`, which says
    the fields a save may lack): each takes the state checker (its ``cfg``, content ``c``
    and ``card(*categories)``) and gives the checker of that field. The rulesets whose
    saves may hold the frame say so in their ``Ruleset.frames``."""

    def __init__(self, seated=True, data=None, parent=None, check=None):
        self.seat = SEAT if seated else int_in(-1, -1 if seated is False else 3)
        self.data = data or {}
        self.parent = (lambda f: parent) if isinstance(parent, str) else parent
        self.check = check


def _v(checker):
    """A state-independent checker as a maker of a frame-data checker."""
    return lambda self: checker


def _card(*categories, none=False):
    return lambda self: self.card(*categories, none=none)


def _cards(*categories, length=None, most=20):
    return lambda self: list_of(self.card(*categories), length, most)


_SEATS2 = _v(list_of(SEAT_OR_NONE, 2))
_COUNTS4 = _v(list_of(COUNT, 4))
_ROLL = _v(int_in(0, 200))
_COMMITS4 = lambda self: list_of(list_of(self.card("battle"), most=20), 4)  # noqa: E731


def _reroll_fits(f, parent) -> bool:
    """A re-roll names a roll of its frame, already rolled."""
    return parent.d.faces(f.d.field) is not None


def _war_fits(f, _) -> bool:
    """A War (either edition) is declared on another seat; once it has a victor it has
    a loser too, and a standard War settling its spoils has both."""
    d = f.d
    if (d.victor >= 0) != (d.loser >= 0) or d.defender == f.seat:
        return False
    if f.kind == "war" and d.phase == WarPhase.SPOILS:
        return d.victor >= 0 and d.totals is not None
    return True


FRAMES: dict[str, _Spec] = {
    # the round
    "round": _Spec(False), "events": _Spec(False), "income": _Spec(False),
    "upkeep": _Spec(False), "cleanup": _Spec(False), "end_game": _Spec(False),
    "refill_market": _Spec(False),
    "turn": _Spec(), "place_leader": _Spec(),
    "actions": _Spec(data={"left": lambda self: int_in(0, self.cfg.actions_per_turn)}),
    "leader_action": _Spec(data={"space": _v(int_in(0, 3))}),
    # cards
    "place_card": _Spec(data={"card": _card("market")}),
    "connect": _Spec(data={"card": _card("market")}),
    "effects": _Spec(None, data={"card": _card("market", "leader", "event", "battle",
                                               "folk_hero", "population"),
                                 "start": _v(SMALL), "pops": _v(SMALL)}),
    "attach_pop": _Spec(data={"card": _card("population")}),
    "keep_battle": _Spec(data={"cards": _cards("battle", most=2)}),
    "search_pick": _Spec(data={"options": _cards("market", most=4)}),
    "influence": _Spec(data={"n": _v(SMALL), "pos": _v(int_in(-1, 100)),
                             "asking": _v(FLAG), "store_asked": _v(FLAG)}),
    "moves": _Spec(data={"n": _v(SMALL), "scope": _v(one_of("own", "any")),
                         "target": _v(SEAT_OR_NONE)}),
    "boom_pick": _Spec(data={"n": _v(SMALL)}),
    "lose_pop": _Spec(data={"n": _v(SMALL)}),
    "remove_influence": _Spec(data={"n": _v(SMALL)}),
    "fund_close": _Spec(data={"index": _v(int_in(0, 100))}),
    # decree
    "decree": _Spec(data={"vice": _v(int_in(0, 20)), "phase": _v(phase_of(DecreePhase)),
                          "vetoed": _v(FLAG)}),
    "veto": _Spec(data={"vice": _v(int_in(0, 20))}, parent="decree"),
    # raid and conflict
    "raid": _Spec(data={"phase": _v(phase_of(RaidPhase)), "roll": _ROLL,
                        "hinder": _v(int_in(0, 200)), "roll_dice": _v(DICE)}),
    "hinder": _Spec(parent="raid"),
    "reroll": _Spec(data={"parent": _v(one_of("raid", "raid_fe", "war", "war_fe")),
                          "field": _v(one_of("roll", "roll0", "roll1")),
                          "card": _card("battle"), "dice": _v(int_in(0, 40))},
                    parent=lambda f: f.d.parent, check=_reroll_fits),
    "conflict": _Spec(False, data={
        "table": lambda self: one_of(*self.c.conflict_tables),
        "dice": _v(int_in(0, 40)), "plus": _v(int_in(0, 100)), "base": _v(int_in(0, 100)),
        "per": _v(int_in(0, 100)), "phase": _v(phase_of(ConflictPhase)), "strength": _ROLL,
        "cards": _COMMITS4, "money": _v(list_of(COUNT, 4)),
        "boosts": lambda self: list_of(list_of(self.card("market", "leader", "battle",
                                                         "folk_hero"), most=20), 4)}),
    "contribute": _Spec(parent="conflict"),
    # war
    "war": _Spec(data={
        "defender": _v(SEAT), "phase": _v(phase_of(WarPhase)), "joined": _v(list_of(FLAG, 2)),
        "allies": _SEATS2, "commits": lambda self: list_of(self.card("battle", none=True), 4),
        "bonus": _COUNTS4, "roll0": _ROLL, "roll1": _ROLL, "k": _v(COUNT), "paid": _v(COUNT),
        "share": lambda self: int_in(-1, len(self.cfg.spoils_shares) - 1), "cap": _v(COUNT),
        "victor": _v(SEAT_OR_NONE), "loser": _v(SEAT_OR_NONE),
        "roll0_dice": _v(DICE), "roll1_dice": _v(DICE), "totals": _v(list_of(COUNT, 2))},
        check=_war_fits),
    "war_join": _Spec(data={"side": _v(FLAG)}, parent="war"),
    "war_accept": _Spec(data={"side": _v(FLAG)}, parent="war"),
    "war_commit": _Spec(parent="war"),
    "war_discard": _Spec(data={"parent": _v(one_of("war_fe"))}, parent=lambda f: f.d.parent),
    "spoils": _Spec(parent="war"),
    "ally_pay": _Spec(parent="war"),
    "share": _Spec(parent="war"),
    # simulation
    "declare_role": _Spec(), "reveal_roles": _Spec(False),
    "storehouse_veto": _Spec(data={"ally": _v(SEAT), "agents": _v(list_of(SEAT, most=2))}),
    "ruler_buy": _Spec(parent="war"),
    # first edition
    "raid_fe": _Spec(data={"phase": _v(phase_of(RaidFePhase)), "intervener": _v(SEAT_OR_NONE),
                           "commits": _COMMITS4, "die": _v(one_of("d4")), "roll": _ROLL,
                           "hinder": _v(int_in(0, 200)), "shown": _v(FLAG),
                           "roll_dice": _v(DICE)}),
    "war_fe": _Spec(data={
        "defender": _v(SEAT), "phase": _v(phase_of(WarFePhase)), "commits": _COMMITS4,
        "bonus": _COUNTS4, "tokens": _v(list_of(COUNT, 2)), "die": _v(one_of("d4")),
        "roll0": _ROLL, "roll1": _ROLL, "totals": _v(list_of(COUNT, 2)),
        "victor": _v(SEAT_OR_NONE), "loser": _v(SEAT_OR_NONE), "due": _v(COUNT),
        "shown": _v(FLAG), "roll0_dice": _v(DICE), "roll1_dice": _v(DICE)},
        check=_war_fits),
    "fe_intervene": _Spec(parent="raid_fe"),
    "fe_hinder": _Spec(parent="raid_fe"),
    "fe_commit": _Spec(data={"parent": _v(one_of("raid_fe", "war_fe")), "must": _v(FLAG)},
                       parent=lambda f: f.d.parent),
    "fe_tokens": _Spec(data={"side": _v(FLAG)}, parent="war_fe"),
    "fe_donate": _Spec(parent="war_fe"),
    "fe_plunder": _Spec(parent="war_fe"),
}
