"""Validation of saved games (``docs/state-format.md``) before the engine accepts them.

A saved game comes from bug reports and other people's runs, so nothing in it is
trusted: every field is checked for its JSON type and range, every card id for the
category of its pile, every pending frame (kind, seat, data, the frame it belongs to)
against the shapes the rules modules push. Whatever is wrong raises
:class:`SaveFormatError` naming the field; nothing else escapes a load.
"""

from __future__ import annotations

import json

from .config import ConfigError, RulesConfig
from .decisions import Decision, Kind
from .state import OPTIONAL_FIELDS, VP_SOURCES, Frame, GameState, Slot

FORMAT_NAME = "singapore-1819-game"
FORMAT_VERSION = 1
_KINDS = frozenset(int(k) for k in Kind)
_TOP_KEYS = ("seed", "config", "history", "rng", "state")
_BIG = 10**6          # bound on VP, dollars and other open-ended counters
_DEPTH = 8            # nesting allowed in the free-form config ``extra``
_U128 = 2**128
_ROUND_ENDS = ("cleanup", "round", "end_game")  # what closes a round, bottom of the stack
#: Procedures that never run inside one of their own kind (each holds cards or dice).
_ONE_AT_A_TIME = ("war", "war_fe", "raid", "raid_fe", "conflict", "decree", "upkeep",
                  "cleanup", "round", "end_game")
#: Game facts (``rules.base.record_fact``): kind -> checkers of the values after the round.
_FACT_VALUES = {"anglo_dutch": (), "war": ("seat", "seat", "seat?"),
                "raid": ("seat", "int"), "decree": ("seat", "vice", "outcome"),
                "conflict": ("int", "int")}


class SaveFormatError(ValueError):
    """A saved game that cannot be loaded (malformed, tampered or from other content)."""


def parse_json(text) -> object:
    """The JSON value of ``text``; SaveFormatError for anything that is not JSON
    (including nesting too deep for the parser and numbers too long to convert)."""
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError) as exc:
        raise SaveFormatError(f"not JSON: {str(exc)[:200]}") from None


def check_header(data) -> tuple[RulesConfig, int, list[Decision]]:
    """The config, seed and decision log of a saved game, each validated."""
    if not isinstance(data, dict):
        raise SaveFormatError("a saved game is a JSON object")
    if data.get("format") != FORMAT_NAME:
        raise SaveFormatError(f"format is {_short(data.get('format'))}, expected "
                              f"{FORMAT_NAME!r}")
    if data.get("version") != FORMAT_VERSION or isinstance(data.get("version"), bool):
        raise SaveFormatError(f"version {_short(data.get('version'))} is not supported "
                              f"(this engine reads {FORMAT_VERSION})")
    for key in _TOP_KEYS:
        if key not in data:
            raise SaveFormatError(f"missing field {key!r}")
    seed = data["seed"]
    if not _is_int(seed) or seed < 0 or seed >= _U128:
        raise SaveFormatError(f"seed must be a non-negative int, got {_short(seed)}")
    if not isinstance(data.get("keep_text_log", True), bool):
        raise SaveFormatError("keep_text_log must be true or false")
    config = data["config"]
    if isinstance(config, dict) and _depth(config.get("extra"), _DEPTH) > _DEPTH:
        raise SaveFormatError(f"bad config: extra is nested deeper than {_DEPTH}")
    try:
        cfg = RulesConfig.from_dict(config)
    except (ConfigError, TypeError, ValueError) as exc:
        raise SaveFormatError(f"bad config: {str(exc)[:200]}") from None
    raw = data["history"]
    if not isinstance(raw, list):
        raise SaveFormatError(f"history must be a list, got {type(raw).__name__}")
    history = []
    for i, d in enumerate(raw):
        if not (type(d) is list and len(d) == 2 and _is_int(d[0]) and _is_int(d[1])
                and d[0] in _KINDS):
            raise SaveFormatError(f"history[{i}] is not a [kind, arg] decision: {_short(d)}")
        history.append(Decision(d[0], d[1]))
    return cfg, seed, history


def rng_state(data) -> dict:
    """The PCG64 bit-generator state saved in ``data["rng"]``, validated."""
    if not isinstance(data, dict) or data.get("bit_generator") != "PCG64":
        raise SaveFormatError("malformed state: rng.bit_generator must be 'PCG64'")
    inner = data.get("state")
    if not isinstance(inner, dict):
        raise SaveFormatError("malformed state: rng.state must be an object")
    for where, value, top in (("state.state", inner.get("state"), _U128),
                              ("state.inc", inner.get("inc"), _U128),
                              ("has_uint32", data.get("has_uint32"), 2),
                              ("uinteger", data.get("uinteger"), 2**32)):
        if not _is_int(value) or not 0 <= value < top:
            raise SaveFormatError(f"malformed state: rng.{where} must be an int in "
                                  f"0..{top - 1}, got {_short(value)}")
    return {"bit_generator": "PCG64",
            "state": {"state": inner["state"], "inc": inner["inc"]},
            "has_uint32": data["has_uint32"], "uinteger": data["uinteger"]}


def state_from_dict(d, g) -> GameState:
    """Build the ``GameState`` of game ``g`` (its config and content set) from saved
    data, checking every field; SaveFormatError names the first bad one."""
    if not isinstance(d, dict):
        raise SaveFormatError("malformed state: state must be an object")
    expected = set(GameState.__slots__)
    missing = sorted(expected - set(d) - set(OPTIONAL_FIELDS))
    unknown = sorted(set(d) - expected, key=str)
    if missing or unknown:
        raise SaveFormatError(f"malformed state: fields missing {missing}, unknown "
                              f"{[_short(k) for k in unknown[:5]]}")
    v = _StateCheck(g)
    s = GameState.__new__(GameState)
    for name in GameState.__slots__:
        if name in d:
            setattr(s, name, v.field(name, d[name]))
    if "facts" not in d:  # saved before facts were recorded
        s.facts = []
    if "vp_sources" not in d:  # saved before VP sources were recorded
        s.vp_sources = [[0] * (len(VP_SOURCES) - 1) + [vp] for vp in s.vp]
    v.consistent(s)
    return s


def _is_int(x) -> bool:
    return type(x) is int


def _short(x) -> str:
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


def _depth(x, most: int) -> int:
    """Nesting depth of lists/dicts in ``x``, stopping once it exceeds ``most``."""
    if most < 0:
        return 1
    if isinstance(x, dict):
        return 1 + max((_depth(v, most - 1) for v in x.values()), default=0)
    if isinstance(x, list):
        return 1 + max((_depth(v, most - 1) for v in x), default=0)
    return 0


class _Bad(Exception):
    """A value of the wrong type or range (the caller adds where it is)."""


# ---------------------------------------------------------------- value checkers
def _int(lo: int, hi: int):
    def check(x):
        if not _is_int(x) or not lo <= x <= hi:
            raise _Bad(f"must be an int in {lo}..{hi}, got {_short(x)}")
        return x
    return check


def _str(*choices: str):
    def check(x):
        if not isinstance(x, str) or x not in choices:
            raise _Bad(f"must be one of {list(choices)}, got {_short(x)}")
        return x
    return check


def _list(item, length: int | None = None, most: int = 1000):
    def check(x):
        if type(x) is not list:
            raise _Bad(f"must be a list, got {_short(x)}")
        if length is not None and len(x) != length:
            raise _Bad(f"must have {length} entries, got {len(x)}")
        if len(x) > most:
            raise _Bad(f"must have at most {most} entries, got {len(x)}")
        out = []
        for i, y in enumerate(x):
            try:
                out.append(item(y))
            except _Bad as exc:
                raise _Bad(f"[{i}] {exc}") from None
        return out
    return check


SEAT = _int(0, 3)
SEAT_OR_NONE = _int(-1, 3)
FLAG = _int(0, 1)
COUNT = _int(0, _BIG)
SMALL = _int(0, 50)
DICE = _list(_int(0, 4), most=40)


class _StateCheck:
    """Checks one saved state against game ``g``'s content and config."""

    def __init__(self, g):
        c, cfg = g.c, g.cfg
        self.g, self.c, self.cfg = g, c, cfg
        self.rounds = cfg.event_i_cards + cfg.event_ii_cards + 1
        self.n_cards = len(c.defs)
        self.modifier_names = {m.type for cdef in c.defs for m in cdef.modifiers}
        n_spaces = len(c.board.loop_ids)

        card = self.card
        self.scalars = {
            "round": _int(0, self.rounds), "first_player": SEAT, "anglo_dutch": FLAG,
            "ships": _int(0, c.board.max_ships), "current_event": card("event", none=True),
            "game_over": FLAG, "turn_seat": SEAT_OR_NONE, "decisions": _int(0, 10**9),
            "discount_used": FLAG, "roles_public": FLAG,
        }
        seat_ints = _list(_int(-_BIG, _BIG), 4)
        self.lists = {
            "vp": seat_ints, "wealth": _list(COUNT, 4), "storehouse": _list(COUNT, 2),
            "population": _list(_int(0, c.board.max_population), 2),
            "pw_track": _list(SEAT, most=100),
            "market": _list(card("market", none=True), cfg.market_slots),
            "market_deck": _list(card("market")), "market_discard": _list(card("market")),
            "population_deck": _list(card("population")),
            "population_discard": _list(card("population")),
            "event_deck": _list(card("event"), most=self.rounds),
            "event_discard": _list(card("event"), most=self.rounds),
            "leader_space": _list(SEAT_OR_NONE, len(c.board.leader_spaces)),
            "outlawed": _list(SEAT_OR_NONE, len(c.board.vices)),
            "wars_won": _list(_int(0, 1000), 4),
            "used_cards": _list(card("market", "leader", "battle", "folk_hero")),
            "districts": _list(COUNT, 4 * n_spaces),
            "final_vp": _list(_int(-_BIG, _BIG), most=4),
            "roles": _list(_int(-1, 2), 4), "vetoed": _list(FLAG, 4),
            "folk_deck": _list(card("folk_hero")), "folk_discard": _list(card("folk_hero")),
            "put_away": _list(card("battle")),
            "hands": _list(_list(card("battle"), most=cfg.max_hand), 4),
            "revealed": _list(_list(card("battle")), 4),
            "battle_deck": _list(_list(card("battle")), 2),
            "battle_discard": _list(_list(card("battle")), 2),
            "modifiers": _list(self.modifier, most=20),
            "folk_hands": _list(_list(card("folk_hero")), 4),
            "vp_sources": _list(_list(_int(-_BIG, _BIG), len(VP_SOURCES)), 4),
            "facts": _list(self.fact, most=10**5),
            "tableau": _list(_list(self.slot, most=cfg.max_tableau), 4),
            "stack": _list(self.frame_shape, most=500),
            "log_text": _list(self.text, most=10**6),
        }

    # ------------------------------------------------------------ values
    def card(self, *categories: str, none: bool = False):
        defs, lo = self.c.defs, -1 if none else 0

        def check(x):
            if not _is_int(x) or not lo <= x < len(defs):
                raise _Bad(f"must be a card id in {lo}..{len(defs) - 1}, got {_short(x)}")
            if x >= 0 and defs[x].category not in categories:
                raise _Bad(f"{defs[x].key} is a {defs[x].category} card, expected "
                           f"{' or '.join(categories)}")
            return x
        return check

    def modifier(self, x):
        if not (type(x) is list and len(x) == 2 and isinstance(x[0], str)
                and _is_int(x[1]) and -100 <= x[1] <= 100):
            raise _Bad(f"must be a [name, n] pair with a small n, got {_short(x)}")
        if x[0] not in self.modifier_names:
            raise _Bad(f"unknown modifier {_short(x[0])}; known: "
                       f"{sorted(self.modifier_names)}")
        return [x[0], x[1]]

    def fact(self, x):
        values = _FACT_VALUES.get(x[0]) if type(x) is list and x and isinstance(x[0], str) \
            else None
        if values is None or len(x) != 2 + len(values):
            raise _Bad(f"a fact is [kind, round, values...] with a kind of "
                       f"{sorted(_FACT_VALUES)}, got {_short(x)}")
        checks = {"seat": SEAT, "seat?": SEAT_OR_NONE, "int": _int(-_BIG, _BIG),
                  "vice": _int(0, len(self.c.board.vices) - 1), "outcome": _int(-1, 1)}
        _int(0, self.rounds)(x[1])
        for value, check in zip(x[2:], values):
            checks[check](value)
        return list(x)

    @staticmethod
    def text(x):
        if not isinstance(x, str):
            raise _Bad(f"must be a string, got {_short(x)}")
        return x

    def slot(self, x) -> Slot:
        if type(x) is not list or len(x) != 8:
            raise _Bad(f"a tableau slot is an 8-entry list, got {_short(x)}")
        card = self.card("market", "leader")(x[0])
        for i in (1, 2, 4, 7):
            FLAG(x[i])
        pops = _list(self.card("population"), most=self.c.defs[card].pop_slots)(x[3])
        _str("", "closed", "outlawed")(x[6])
        return Slot(card, bool(x[1]), bool(x[2]), pops, bool(x[4]), COUNT(x[5]), x[6],
                    bool(x[7]))

    def frame_shape(self, x) -> Frame:
        if not isinstance(x, dict) or set(x) != {"kind", "seat", "d"}:
            raise _Bad(f"a frame is an object with kind, seat and d, got {_short(x)}")
        kind, seat, data = x["kind"], x["seat"], x["d"]
        spec = FRAMES.get(kind) if isinstance(kind, str) else None
        if spec is None or (spec.ruleset and self.cfg.ruleset not in spec.ruleset):
            raise _Bad(f"unknown frame kind {_short(kind)} in the {self.cfg.ruleset} ruleset")
        try:
            (SEAT if spec.seated else _int(-1, -1 if spec.seated is False else 3))(seat)
        except _Bad as exc:
            raise _Bad(f"{kind}.seat {exc}") from None
        if not isinstance(data, dict):
            raise _Bad(f"{kind}.d must be an object, got {_short(data)}")
        missing = sorted(set(spec.need) - set(data))
        unknown = sorted(set(data) - set(spec.need) - set(spec.may), key=str)
        if missing or unknown:
            raise _Bad(f"{kind}.d keys missing {missing}, unknown "
                       f"{[_short(k) for k in unknown[:5]]}")
        out = {}
        for key, value in data.items():
            try:
                out[key] = {**spec.need, **spec.may}[key](self, value)
            except _Bad as exc:
                raise _Bad(f"{kind}.d.{key} {exc}") from None
        return Frame(kind, seat, **out)

    def field(self, name: str, value):
        check = self.scalars.get(name) or self.lists[name]
        try:
            return check(value)
        except _Bad as exc:
            raise SaveFormatError(f"malformed state: {name} {exc}") from None

    # ------------------------------------------------------------ across fields
    def consistent(self, s: GameState) -> None:
        def need(ok: bool, what: str) -> None:
            if not ok:
                raise SaveFormatError(f"inconsistent state: {what}")

        c = self.c
        for f, ids in ((0, s.battle_deck[0] + s.battle_discard[0]),
                       (1, s.battle_deck[1] + s.battle_discard[1])):
            need(all(cid in c.battle_ids[f] for cid in ids),
                 f"battle_deck/battle_discard[{f}] holds another faction's Battle card")
        for seat, row in enumerate(s.tableau):
            need(all(c.defs[slot.card].category == "market" or slot.card == c.leader_ids[seat]
                     for slot in row), f"tableau[{seat}] holds another seat's Leader")
        need(len(set(s.used_cards)) == len(s.used_cards), "used_cards repeats a card")
        if s.game_over:
            need(len(s.final_vp) == 4, "a finished game has 4 final_vp")
            need(not s.stack, "a finished game has no pending frames")
        else:
            need(not s.final_vp, "final_vp is set but game_over is 0")
            need(bool(s.stack) and s.stack[0].kind in _ROUND_ENDS,
                 f"a running game's stack starts with one of {_ROUND_ENDS}")
            need(s.round >= 1, "a running game is in round 1 or later")
            need(len(s.event_deck) <= self.rounds - s.round,
                 f"{len(s.event_deck)} Events left in round {s.round} of {self.rounds}")
        kinds = [f.kind for f in s.stack]
        for kind in _ONE_AT_A_TIME:
            need(kinds.count(kind) <= 1, f"the stack holds more than one {kind} frame")
        for i, f in enumerate(s.stack):
            spec = FRAMES[f.kind]
            below = s.stack[:i]
            parent = spec.parent(f) if spec.parent else None
            if parent is not None:
                found = [p for p in below if p.kind == parent]
                need(bool(found), f"stack[{i}] {f.kind} has no {parent} frame below it")
                if spec.check:
                    need(spec.check(f, found[-1]), f"stack[{i}] {f.kind} does not fit its "
                                                   f"{parent} frame")
            elif spec.check:
                need(spec.check(f, None), f"stack[{i}] {f.kind} data is inconsistent")


# ---------------------------------------------------------------- frame shapes
class _Spec:
    """What one frame kind holds: its seat (True = a seat 0..3, False = -1, None =
    either), required and optional data, the frame it works on and a cross-check."""

    def __init__(self, seated=True, need=None, may=None, parent=None, check=None,
                 ruleset=()):
        self.seated, self.need, self.may = seated, need or {}, may or {}
        self.parent = (lambda f: parent) if isinstance(parent, str) else parent
        self.check, self.ruleset = check, ruleset


def _v(checker):
    """A state-independent checker used as a frame-data checker."""
    return lambda self, x: checker(x)


def _card(*categories, none=False):
    return lambda self, x: self.card(*categories, none=none)(x)


def _cards(*categories, length=None, most=20):
    return lambda self, x: _list(self.card(*categories), length, most)(x)


_SEATS2 = _v(_list(SEAT_OR_NONE, 2))
_COUNTS4 = _v(_list(COUNT, 4))
_ROLL = _v(_int(0, 200))
_COMMITS4 = lambda self, x: _list(_list(self.card("battle"), most=20), 4)(x)  # noqa: E731
_FE = ("first-edition",)
_SIM = ("simulation",)
_NOT_FE = ("standard", "simulation")


def _reroll_fits(f, parent) -> bool:
    return f.d["field"] + "_dice" in parent.d and f.d["field"] in parent.d


def _war_fits(f, _) -> bool:
    """A War (either edition) is declared on another seat; once it has a victor it has
    a loser too, and a standard War settling its spoils (phase 6) has both."""
    d = f.d
    if (d["victor"] >= 0) != (d["loser"] >= 0) or d["defender"] == f.seat:
        return False
    if f.kind == "war" and d["phase"] == 6:
        return d["victor"] >= 0 and "totals" in d
    return True


FRAMES: dict[str, _Spec] = {
    # the round
    "round": _Spec(False), "events": _Spec(False), "income": _Spec(False),
    "upkeep": _Spec(False), "cleanup": _Spec(False), "end_game": _Spec(False),
    "refill_market": _Spec(False),
    "turn": _Spec(), "place_leader": _Spec(),
    "actions": _Spec(need={"left": lambda self, x: _int(0, self.cfg.actions_per_turn)(x)}),
    "leader_action": _Spec(need={"space": _v(_int(0, 3))}),
    # cards
    "place_card": _Spec(need={"card": _card("market")}),
    "connect": _Spec(need={"card": _card("market")}),
    "effects": _Spec(None, need={"card": _card("market", "leader", "event", "battle",
                                               "folk_hero", "population"),
                                 "start": _v(SMALL), "pops": _v(SMALL)}),
    "attach_pop": _Spec(need={"card": _card("population")}),
    "keep_battle": _Spec(need={"cards": _cards("battle", most=2)}),
    "search_pick": _Spec(need={"options": _cards("market", most=4)}),
    "influence": _Spec(need={"n": _v(SMALL), "pos": _v(_int(-1, 100)),
                             "asking": _v(FLAG), "store_asked": _v(FLAG)}),
    "moves": _Spec(need={"n": _v(SMALL), "scope": _v(_str("own", "any")),
                         "target": _v(SEAT_OR_NONE)}),
    "boom_pick": _Spec(need={"n": _v(SMALL)}),
    "lose_pop": _Spec(need={"n": _v(SMALL)}),
    "remove_influence": _Spec(need={"n": _v(SMALL)}),
    "fund_close": _Spec(need={"index": _v(_int(0, 100))}),
    # decree
    "decree": _Spec(need={"vice": _v(_int(0, 20)), "phase": _v(_int(0, 2)),
                          "vetoed": _v(FLAG)}),
    "veto": _Spec(need={"vice": _v(_int(0, 20))}, parent="decree"),
    # raid and conflict
    "raid": _Spec(need={"phase": _v(_int(0, 2)), "roll": _ROLL, "hinder": _v(_int(0, 200))},
                  may={"roll_dice": _v(DICE)}, ruleset=_NOT_FE),
    "hinder": _Spec(parent="raid", ruleset=_NOT_FE),
    "reroll": _Spec(need={"parent": _v(_str("raid", "raid_fe", "war", "war_fe")),
                          "field": _v(_str("roll", "roll0", "roll1")),
                          "card": _card("battle"), "dice": _v(_int(0, 40))},
                    parent=lambda f: f.d["parent"], check=_reroll_fits),
    "conflict": _Spec(False, need={
        "table": lambda self, x: _str(*self.c.conflict_tables)(x),
        "dice": _v(_int(0, 40)), "plus": _v(_int(0, 100)), "base": _v(_int(0, 100)),
        "per": _v(_int(0, 100)), "phase": _v(_int(0, 1)), "strength": _ROLL,
        "cards": _COMMITS4, "money": _v(_list(COUNT, 4)),
        "boosts": lambda self, x: _list(_list(self.card("market", "leader", "battle",
                                                        "folk_hero"), most=20), 4)(x)}),
    "contribute": _Spec(parent="conflict"),
    # war
    "war": _Spec(need={
        "defender": _v(SEAT), "phase": _v(_int(0, 7)), "joined": _v(_list(FLAG, 2)),
        "allies": _SEATS2, "commits": lambda self, x: _list(self.card("battle", none=True),
                                                            4)(x),
        "bonus": _COUNTS4, "roll0": _ROLL, "roll1": _ROLL, "k": _v(COUNT), "paid": _v(COUNT),
        "share": lambda self, x: _int(-1, len(self.cfg.spoils_shares) - 1)(x), "cap": _v(COUNT), "victor": _v(SEAT_OR_NONE),
        "loser": _v(SEAT_OR_NONE)},
        may={"roll0_dice": _v(DICE), "roll1_dice": _v(DICE),
             "totals": _v(_list(COUNT, 2))}, check=_war_fits, ruleset=_NOT_FE),
    "war_join": _Spec(need={"side": _v(FLAG)}, parent="war", ruleset=_NOT_FE),
    "war_accept": _Spec(need={"side": _v(FLAG)}, parent="war", ruleset=_NOT_FE),
    "war_commit": _Spec(parent="war", ruleset=_NOT_FE),
    "war_discard": _Spec(may={"parent": _v(_str("war_fe"))},
                         parent=lambda f: f.d.get("parent", "war")),
    "spoils": _Spec(parent="war", ruleset=_NOT_FE),
    "ally_pay": _Spec(parent="war", ruleset=_NOT_FE),
    "share": _Spec(parent="war", ruleset=_NOT_FE),
    # simulation
    "declare_role": _Spec(ruleset=_SIM), "reveal_roles": _Spec(False, ruleset=_SIM),
    "storehouse_veto": _Spec(need={"ally": _v(SEAT), "agents": _v(_list(SEAT, most=2))},
                             ruleset=_SIM),
    "ruler_buy": _Spec(parent="war", ruleset=_SIM),
    # first edition
    "raid_fe": _Spec(need={"phase": _v(_int(0, 2)), "intervener": _v(SEAT_OR_NONE),
                           "commits": _COMMITS4, "die": _v(_str("d4")), "roll": _ROLL,
                           "hinder": _v(_int(0, 200)), "shown": _v(FLAG)},
                     may={"roll_dice": _v(DICE)}, ruleset=_FE),
    "war_fe": _Spec(need={
        "defender": _v(SEAT), "phase": _v(_int(0, 6)), "commits": _COMMITS4,
        "bonus": _COUNTS4, "tokens": _v(_list(COUNT, 2)), "die": _v(_str("d4")),
        "roll0": _ROLL, "roll1": _ROLL, "totals": _v(_list(COUNT, 2)),
        "victor": _v(SEAT_OR_NONE), "loser": _v(SEAT_OR_NONE), "due": _v(COUNT),
        "shown": _v(FLAG)},
        may={"roll0_dice": _v(DICE), "roll1_dice": _v(DICE)}, check=_war_fits,
        ruleset=_FE),
    "fe_intervene": _Spec(parent="raid_fe", ruleset=_FE),
    "fe_hinder": _Spec(parent="raid_fe", ruleset=_FE),
    "fe_commit": _Spec(need={"parent": _v(_str("raid_fe", "war_fe")), "must": _v(FLAG)},
                       parent=lambda f: f.d["parent"], ruleset=_FE),
    "fe_tokens": _Spec(need={"side": _v(FLAG)}, parent="war_fe", ruleset=_FE),
    "fe_donate": _Spec(parent="war_fe", ruleset=_FE),
    "fe_plunder": _Spec(parent="war_fe", ruleset=_FE),
}
