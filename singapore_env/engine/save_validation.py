"""Validation of saved games (``docs/state-format.md``) before the engine accepts them.

A saved game comes from bug reports and other people's runs, so nothing in it is
trusted: every field is checked for its JSON type and range, every card id for the
category of its pile, every pending frame (kind, seat, data, the frame it belongs to)
against the shapes the rules modules push, and what every frame refers to
(:mod:`~singapore_env.engine.save_references`). Whatever is wrong raises
:class:`SaveFormatError` naming the field; nothing else escapes a load.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any
from copy import deepcopy
from itertools import chain
from operator import attrgetter, itemgetter, le

from .config import ConfigError, RulesConfig
from .decisions import Decision, Kind, SharedDecisions
from .frames import FRAME_RECORDS
from .rulesets import ruleset_of
from .save_plain import PlainFields
from .save_references import frame_reference_problem
from .save_shapes import (BIG, COUNT, DOWN, FLAG, FRAMES, INT_ONLY, PW_TRACK_MOST, SEAT,
                          SEAT_OR_NONE, Bad, int_in, list_of, one_of, short, text)
from .state import FINAL_ONLY_SOURCES, OPTIONAL_FIELDS, VP_SOURCES, Frame, GameState, Slot

FORMAT_NAME = "singapore-1819-game"
FORMAT_VERSION = 1
#: Keys of the saved ``config`` object beside the rules settings: environment settings a
#: game does not use. Every save writes them as :func:`env_settings_in_saves` gives them
#: (so a game's save stays the same bytes); a load ignores whatever values they have.
ENV_SETTINGS_IN_SAVES = frozenset({"extra", "max_decisions", "reward_mode"})


def env_settings_in_saves() -> dict:
    """The values a save writes for :data:`ENV_SETTINGS_IN_SAVES` (a new dict each call)."""
    return {"extra": {}, "max_decisions": 0, "reward_mode": "win"}


_KINDS = frozenset(int(k) for k in Kind)
_FIELDS = frozenset(GameState.__slots__)
_DOWN = frozenset(DOWN)
_FRAME_KEYS = frozenset({"kind", "seat", "d"})
_TOP_KEYS = ("seed", "config", "history", "rng", "state")
_U128 = 2**128
_ROUND_ENDS = ("cleanup", "round", "end_game")  # what closes a round, bottom of the stack
#: Columns of ``vp_sources``: VP awarded during play (never negative: every award the rules
#: make is a count) and VP recorded only when the game ends (Legacies and End Game bonuses
#: may be negative, and are 0 until then).
_TRACK_COLUMNS = tuple(i for i, name in enumerate(VP_SOURCES) if name not in FINAL_ONLY_SOURCES)
_FINAL_COLUMNS = tuple(i for i, name in enumerate(VP_SOURCES) if name in FINAL_ONLY_SOURCES)
#: Procedures that never run inside one of their own kind (each holds cards or dice).
_ONE_AT_A_TIME = ("war", "war_fe", "raid", "raid_fe", "conflict", "decree", "upkeep",
                  "cleanup", "round", "end_game")
#: Questions of a fight a seat is asked once at a time (the fight is one at a time).
_ONCE_PER_SEAT = ("war_join", "war_accept", "war_commit", "war_discard", "fe_commit")
#: Game facts (``rules.base.record_fact``): kind -> checkers of the values after the round.
_FACT_VALUES = {"anglo_dutch": (), "war": ("seat", "seat", "seat?"),
                "raid": ("seat", "int"), "decree": ("seat", "vice", "outcome"),
                "conflict": ("int", "int")}


class SaveFormatError(ValueError):
    """A saved game that cannot be loaded (malformed, tampered or from other content)."""


def parse_json(text) -> Any:
    """The JSON value of ``text``; SaveFormatError for anything that is not JSON
    (including nesting too deep for the parser and numbers too long to convert)."""
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError) as exc:
        raise SaveFormatError(f"not JSON: {str(exc)[:200]}") from None


def check_header(data, parsed: bool = False) -> tuple[RulesConfig, int, list[Decision]]:
    """The config, seed and decision log of a saved game, each validated. ``parsed``:
    ``data`` is straight from ``json.loads`` (plain JSON types only)."""
    if not isinstance(data, dict):
        raise SaveFormatError("a saved game is a JSON object")
    if data.get("format") != FORMAT_NAME:
        raise SaveFormatError(f"format is {short(data.get('format'))}, expected "
                              f"{FORMAT_NAME!r}")
    if data.get("version") != FORMAT_VERSION or isinstance(data.get("version"), bool):
        raise SaveFormatError(f"version {short(data.get('version'))} is not supported "
                              f"(this engine reads {FORMAT_VERSION})")
    for key in _TOP_KEYS:
        if key not in data:
            raise SaveFormatError(f"missing field {key!r}")
    seed = data["seed"]
    if type(seed) is not int or seed < 0 or seed >= _U128:
        raise SaveFormatError(f"seed must be a non-negative int, got {short(seed)}")
    if not isinstance(data.get("keep_text_log", True), bool):
        raise SaveFormatError("keep_text_log must be true or false")
    return _config(data["config"], parsed), seed, _history(data["history"])


#: The last config built from a save, per ruleset name (see _config).
_CONFIGS: dict[str, _SeenConfig] = {}


def _config(config, parsed: bool) -> RulesConfig:
    """``RulesConfig.from_dict`` of the saved config without its environment keys
    (:data:`ENV_SETTINGS_IN_SAVES`), validated. A parsed config is built once per ruleset
    while it stays the same (:class:`_SeenConfig`)."""
    ruleset = config.get("ruleset") if parsed and type(config) is dict else None
    seen = _CONFIGS.get(ruleset) if type(ruleset) is str else None
    if seen is not None and seen.same(config):
        return seen.cfg
    rules = ({key: value for key, value in config.items() if key not in ENV_SETTINGS_IN_SAVES}
             if isinstance(config, dict) else config)
    try:
        cfg = RulesConfig.from_dict(rules)
    except (ConfigError, TypeError, ValueError) as exc:
        raise SaveFormatError(f"bad config: {str(exc)[:200]}") from None
    if type(ruleset) is str:
        _CONFIGS[ruleset] = _SeenConfig(config, cfg)
    return cfg


class _SeenConfig:
    """A config built from a save's JSON object, and a test of whether other JSON is
    the same: ``==`` alone takes 1, 1.0 and true for one another, so the keys' order
    and the values' types are compared too, and the lists and objects by their repr
    (the values of a valid config are never floats, so no -0.0 equals 0.0 here)."""

    def __init__(self, data: dict, cfg: RulesConfig):
        self.data, self.cfg = deepcopy(data), cfg  # (the caller's data may change)
        self.keys, self.types = [*data], [*map(type, data.values())]
        self.nested = itemgetter(*(key for key, value in data.items()
                                   if type(value) in (list, dict)))
        self.nested_repr = repr(self.nested(data))

    def same(self, data: dict) -> bool:
        """Whether JSON object ``data`` is the same as the one this config was built from."""
        return (data == self.data and [*data] == self.keys
                and [*map(type, data.values())] == self.types
                and repr(self.nested(data)) == self.nested_repr)


def _history(raw) -> list[Decision]:
    """The decision log, validated: a list of [kind, arg] pairs of ints."""
    if not isinstance(raw, list):
        raise SaveFormatError(f"history must be a list, got {type(raw).__name__}")
    pairs = _decision_pairs(raw)
    if pairs is None:
        for i, d in enumerate(raw):
            if not (type(d) is list and len(d) == 2 and type(d[0]) is int and type(d[1]) is int
                    and d[0] in _KINDS):
                raise SaveFormatError(f"history[{i}] is not a [kind, arg] decision: "
                                      f"{short(d)}")
    assert pairs is not None  # (the bulk test fails only on an entry the loop rejects)
    return list(map(_bounded(_LOGGED, 4096).__getitem__, pairs))


#: The Decision of each (kind, arg) pair of plain ints read from a log, shared (a lookup
#: costs a third of building the named tuple).
_LOGGED: dict[tuple[int, int], Decision] = SharedDecisions()


def _decision_pairs(raw: list) -> Iterable[tuple[int, int]] | None:
    """The (kind, arg) of each entry of ``raw`` if every one is a [kind, arg] pair of ints
    with a known kind (checked list-wide; :func:`_history` finds the first bad entry if
    not), else None."""
    if not raw:
        return ()
    if {*map(type, raw)} != {list}:
        return None
    try:  # (strict: lists of unequal lengths raise, and all of 2 entries unpack)
        kinds, args = zip(*raw, strict=True)
    except ValueError:
        return None
    if {*map(type, kinds), *map(type, args)} <= INT_ONLY and _KINDS.issuperset(kinds):
        return zip(kinds, args)
    return None


def _bounded(cache: dict, most: int = 64) -> dict:
    """``cache``, emptied first if it holds ``most`` entries (a per-process memo)."""
    if len(cache) >= most:
        cache.clear()
    return cache


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
        if type(value) is not int or not 0 <= value < top:
            raise SaveFormatError(f"malformed state: rng.{where} must be an int in "
                                  f"0..{top - 1}, got {short(value)}")
    return {"bit_generator": "PCG64",
            "state": {"state": inner["state"], "inc": inner["inc"]},
            "has_uint32": data["has_uint32"], "uinteger": data["uinteger"]}


def state_from_dict(d, g, copy: bool = True) -> GameState:
    """Build the ``GameState`` of game ``g`` (its config and content set) from saved
    data, checking every field; SaveFormatError names the first bad one. Without
    ``copy``, the state may hold the lists of ``d`` (the caller's own, just parsed)."""
    if not isinstance(d, dict):
        raise SaveFormatError("malformed state: state must be an object")
    if d.keys() != _FIELDS:
        missing = sorted(_FIELDS - set(d) - set(OPTIONAL_FIELDS))
        unknown = sorted(set(d) - _FIELDS, key=str)
        if missing or unknown:
            raise SaveFormatError(f"malformed state: fields missing {missing}, unknown "
                                  f"{[short(k) for k in unknown[:5]]}")
    v = _state_check(g.cfg, g.c)
    s = GameState.__new__(GameState)
    plain, fields = v.plain.values(d, copy), v.fields
    if plain is not None:  # the plain fields are all good: only the others are left
        for name, value in zip(v.plain.names, plain):
            setattr(s, name, value)
        fields = v.rest
    for name, check in fields:
        if name in d:
            try:
                setattr(s, name, check(d[name]))
            except Bad as exc:
                raise SaveFormatError(f"malformed state: {name} {exc}") from None
    if "facts" not in d:  # saved before facts were recorded
        s.facts = []
    if "vp_sources" not in d:  # saved before VP sources were recorded
        s.vp_sources = [[0] * (len(VP_SOURCES) - 1) + [vp] for vp in s.vp]
    v.consistent(s)
    return s


def _state_check(cfg: RulesConfig, c) -> "_StateCheck":
    """The checker of saved states for config ``cfg`` and content ``c``, built once per
    pair (both are immutable; the memo holds the content, so its id stays its own)."""
    check = _CHECKS.get((cfg, id(c)))
    if check is None:
        check = _bounded(_CHECKS)[cfg, id(c)] = _StateCheck(cfg, c)
    return check


class _StateCheck:
    """Checks one saved state against a config and a content set."""

    def __init__(self, cfg: RulesConfig, c):
        self.c, self.cfg = c, cfg
        self.rounds = cfg.event_i_cards + cfg.event_ii_cards + 1
        self.modifier_names = {m.type for cdef in c.defs for m in cdef.modifiers}
        self.battle_ids = [frozenset(ids) for ids in c.battle_ids]
        self.market_ids = self.card("market").ids
        #: seat -> the cards its tableau may hold (Market cards and its own Leader)
        self.seat_cards = [self.market_ids | {leader} for leader in c.leader_ids]
        self.tableau_card, self.pop_card = self.card("market", "leader"), self.card("population")
        self.pop_slots = c.pop_slots
        values = {"seat": SEAT, "seat?": SEAT_OR_NONE, "int": int_in(-BIG, BIG),
                  "vice": int_in(0, len(c.board.vices) - 1), "outcome": int_in(-1, 1)}
        #: fact kind -> checkers of its round and values
        self.facts = {kind: (int_in(0, self.rounds), *(values[name] for name in names))
                      for kind, names in _FACT_VALUES.items()}
        kinds = ruleset_of(cfg).frames
        #: frame kind of this ruleset -> (its spec, checkers of its data by key)
        self.frames = {kind: (spec, {key: make(self) for key, make in spec.data.items()})
                       for kind, spec in FRAMES.items() if kind in kinds}
        checks = self._field_checks()
        #: (field, checker) in GameState order, which is the order fields are checked in.
        self.fields = tuple((name, checks[name]) for name in GameState.__slots__)
        self.plain = PlainFields(checks)
        #: the fields left to check once the plain ones passed
        self.rest = tuple((name, check) for name, check in self.fields
                          if name not in self.plain.names)

    def _field_checks(self) -> dict:
        c, cfg, card = self.c, self.cfg, self.card
        seat_ints = list_of(int_in(-BIG, BIG), 4)
        return {
            "round": int_in(0, self.rounds), "first_player": SEAT, "anglo_dutch": FLAG,
            "ships": int_in(0, c.board.max_ships), "current_event": card("event", none=True),
            "game_over": FLAG, "turn_seat": SEAT_OR_NONE, "decisions": int_in(0, 10**9),
            "discount_used": FLAG, "roles_public": FLAG,
            "vp": seat_ints, "wealth": list_of(COUNT, 4), "storehouse": list_of(COUNT, 2),
            "population": list_of(int_in(0, c.board.max_population), 2),
            "pw_track": list_of(SEAT, most=PW_TRACK_MOST),
            "market": list_of(card("market", none=True), cfg.market_slots),
            "market_deck": list_of(card("market")), "market_discard": list_of(card("market")),
            "population_deck": list_of(card("population")),
            "population_discard": list_of(card("population")),
            "event_deck": list_of(card("event"), most=self.rounds),
            "event_discard": list_of(card("event"), most=self.rounds),
            "leader_space": list_of(SEAT_OR_NONE, len(c.board.leader_spaces)),
            "outlawed": list_of(SEAT_OR_NONE, len(c.board.vices)),
            "wars_won": list_of(int_in(0, 1000), 4),
            "used_cards": list_of(card("market", "leader", "battle", "folk_hero")),
            "districts": list_of(COUNT, 4 * len(c.board.loop_ids)),
            "final_vp": list_of(int_in(-BIG, BIG), most=4),
            "roles": list_of(int_in(-1, 2), 4), "vetoed": list_of(FLAG, 4),
            "folk_deck": list_of(card("folk_hero")), "folk_discard": list_of(card("folk_hero")),
            "put_away": list_of(card("battle")),
            "hands": list_of(list_of(card("battle"), most=cfg.max_hand), 4),
            "revealed": list_of(list_of(card("battle")), 4),
            "battle_deck": list_of(list_of(card("battle")), 2),
            "battle_discard": list_of(list_of(card("battle")), 2),
            "modifiers": list_of(self.modifier, most=20),
            "folk_hands": list_of(list_of(card("folk_hero")), 4),
            "vp_sources": list_of(list_of(int_in(-BIG, BIG), len(VP_SOURCES)), 4),
            "facts": list_of(self.fact, most=10**5),
            "tableau": list_of(list_of(self.slot, most=cfg.max_tableau, many=self.slots), 4),
            "stack": list_of(self.frame_shape, most=500),
            "log_text": list_of(text, most=10**6),
        }

    # ------------------------------------------------------------ values
    def card(self, *categories: str, none: bool = False):
        """The checker of a card id of one of ``categories`` (or -1 with ``none``); its
        ``ids`` are the ids it accepts."""
        defs, lo = self.c.defs, -1 if none else 0

        def check(x):
            if type(x) is not int or not lo <= x < len(defs):
                raise Bad(f"must be a card id in {lo}..{len(defs) - 1}, got {short(x)}")
            if x >= 0 and defs[x].category not in categories:
                raise Bad(f"{defs[x].key} is a {defs[x].category} card, expected "
                           f"{' or '.join(categories)}")
            return x
        # (the ignores: mypy does not follow attributes set on a function)
        ids = check.ids = frozenset([-1] * none).union(  # type: ignore[attr-defined]
            *(self.c.category_ids[category] for category in categories))
        check.many = lambda xs: (  # type: ignore[attr-defined]
            xs[:] if {*map(type, xs)} <= INT_ONLY and ids.issuperset(xs) else None)
        return check

    def modifier(self, x):
        if not (type(x) is list and len(x) == 2 and isinstance(x[0], str)
                and type(x[1]) is int and -100 <= x[1] <= 100):
            raise Bad(f"must be a [name, n] pair with a small n, got {short(x)}")
        if x[0] not in self.modifier_names:
            raise Bad(f"unknown modifier {short(x[0])}; known: "
                       f"{sorted(self.modifier_names)}")
        return [x[0], x[1]]

    def fact(self, x):
        checks = self.facts.get(x[0]) if type(x) is list and x and isinstance(x[0], str) \
            else None
        if checks is None or len(x) != 1 + len(checks):
            raise Bad(f"a fact is [kind, round, values...] with a kind of "
                       f"{sorted(_FACT_VALUES)}, got {short(x)}")
        for value, check in zip(x[1:], checks):  # the round, then the values
            check(value)
        return list(x)

    def slot(self, x) -> Slot:
        """A tableau slot: [card, up, link, pops, activated, stored, down, searched]."""
        if type(x) is not list or len(x) != 8:
            raise Bad(f"a tableau slot is an 8-entry list, got {short(x)}")
        card = self.tableau_card(x[0])
        for i in (1, 2, 4, 7):
            FLAG(x[i])
        pops = list_of(self.pop_card, most=self.pop_slots[card])(x[3])
        one_of(*DOWN)(x[6])
        return Slot(card, bool(x[1]), bool(x[2]), pops, bool(x[4]), COUNT(x[5]), x[6],
                    bool(x[7]))

    def slots(self, xs: list) -> list[Slot] | None:
        """The bulk form of :meth:`slot`, column by column."""
        if not xs:
            return []
        if not {*map(type, xs)} <= {list}:
            return None
        try:  # (strict: lists of unequal lengths raise, and all of 8 entries unpack)
            cards, ups, links, pops, activated, stored, down, searched = zip(*xs, strict=True)
        except ValueError:
            return None
        flags = ups + links + activated + searched
        if not ({*map(type, cards + flags + stored)} <= INT_ONLY
                and self.tableau_card.ids.issuperset(cards) and {*flags} <= {0, 1}
                and 0 <= min(stored) and max(stored) <= BIG
                and {*map(type, down)} <= {str} and {*down} <= _DOWN
                and {*map(type, pops)} <= {list}
                and all(map(le, map(len, pops), map(self.pop_slots.__getitem__, cards)))
                and self.pop_card.many([*chain.from_iterable(pops)]) is not None):
            return None
        return list(map(Slot, cards, map(bool, ups), map(bool, links), map(list.copy, pops),
                        map(bool, activated), stored, down, map(bool, searched)))

    def frame_shape(self, x) -> Frame:
        if not isinstance(x, dict) or x.keys() != _FRAME_KEYS:
            raise Bad(f"a frame is an object with kind, seat and d, got {short(x)}")
        kind, seat, data = x["kind"], x["seat"], x["d"]
        found = self.frames.get(kind) if isinstance(kind, str) else None
        if found is None:
            raise Bad(f"unknown frame kind {short(kind)} in the {self.cfg.ruleset} ruleset")
        spec, checks = found
        try:
            spec.seat(seat)
        except Bad as exc:
            raise Bad(f"{kind}.seat {exc}") from None
        if not isinstance(data, dict):
            raise Bad(f"{kind}.d must be an object, got {short(data)}")
        record = FRAME_RECORDS.get(kind)
        required = record.required if record is not None else ()
        if not data.keys() >= {*required} or not data.keys() <= checks.keys():
            missing = sorted(set(required) - set(data))
            unknown = sorted(set(data) - set(checks), key=str)
            raise Bad(f"{kind}.d keys missing {missing}, unknown "
                       f"{[short(k) for k in unknown[:5]]}")
        values = {}
        for key, value in data.items():
            try:
                values[key] = checks[key](value)
            except Bad as exc:
                raise Bad(f"{kind}.d.{key} {exc}") from None
        f = Frame.__new__(Frame)  # (the record is at hand: not looked up again)
        f.kind, f.seat, f.d = kind, seat, record(**values) if record is not None else None
        return f

    # ------------------------------------------------------------ across fields
    def consistent(self, s: GameState) -> None:
        """Raise SaveFormatError naming the first cross-field check ``s`` fails."""
        problem = self._problem(s)
        if problem:
            raise SaveFormatError(f"inconsistent state: {problem}")

    def _problem(self, s: GameState) -> str | None:
        """What is inconsistent across the fields of ``s`` (None if nothing)."""
        for f in (0, 1):
            if not self.battle_ids[f].issuperset(s.battle_deck[f] + s.battle_discard[f]):
                return f"battle_deck/battle_discard[{f}] holds another faction's Battle card"
        for seat, row in enumerate(s.tableau):
            if not self.seat_cards[seat].issuperset(map(attrgetter("card"), row)):
                return f"tableau[{seat}] holds another seat's Leader"
        if len(set(s.used_cards)) != len(s.used_cards):
            return "used_cards repeats a card"
        problem = self._vp_sources_problem(s)
        if problem:
            return problem
        if s.game_over:
            if len(s.final_vp) != 4:
                return "a finished game has 4 final_vp"
            if s.stack:
                return "a finished game has no pending frames"
        else:
            if s.final_vp:
                return "final_vp is set but game_over is 0"
            if not (s.stack and s.stack[0].kind in _ROUND_ENDS):
                return f"a running game's stack starts with one of {_ROUND_ENDS}"
            if s.round < 1:
                return "a running game is in round 1 or later"
            if len(s.event_deck) > self.rounds - s.round:
                return f"{len(s.event_deck)} Events left in round {s.round} of {self.rounds}"
        return self._stack_problem(s.stack) or frame_reference_problem(s, self.c, self.cfg)

    @staticmethod
    def _vp_sources_problem(s: GameState) -> str | None:
        """A negative VP award, or end-of-game VP recorded in a running game (either would
        break the game's VP invariants later), if any."""
        for seat, row in enumerate(s.vp_sources):
            if min(row[i] for i in _TRACK_COLUMNS) < 0:
                i = next(i for i in _TRACK_COLUMNS if row[i] < 0)
                return f"vp_sources[{seat}] {VP_SOURCES[i]} is negative ({row[i]})"
            if not s.game_over and any(row[i] for i in _FINAL_COLUMNS):
                i = next(i for i in _FINAL_COLUMNS if row[i])
                return (f"vp_sources[{seat}] {VP_SOURCES[i]} is {row[i]} in a running game "
                        f"(recorded only when the game ends)")
        return None

    @staticmethod
    def _stack_problem(stack: list[Frame]) -> str | None:
        """What is wrong with how the frames of ``stack`` sit on each other, if anything."""
        kinds = [f.kind for f in stack]
        for kind in _ONE_AT_A_TIME if len(set(kinds)) < len(kinds) else ():
            if kinds.count(kind) > 1:
                return f"the stack holds more than one {kind} frame"
        asked = [(f.kind, f.seat) for f in stack if f.kind in _ONCE_PER_SEAT]
        for kind, seat in asked if len(set(asked)) < len(asked) else ():
            if asked.count((kind, seat)) > 1:
                return f"the stack asks seat {seat} the {kind} question twice"
        for i, f in enumerate(stack):
            spec = FRAMES[f.kind]
            parent = spec.parent(f) if spec.parent else None
            if parent is not None:
                found = [p for p in stack[:i] if p.kind == parent]
                if not found:
                    return f"stack[{i}] {f.kind} has no {parent} frame below it"
                if spec.check and not spec.check(f, found[-1]):
                    return f"stack[{i}] {f.kind} does not fit its {parent} frame"
            elif spec.check and not spec.check(f, None):
                return f"stack[{i}] {f.kind} data is inconsistent"
        return None


_CHECKS: dict[tuple[RulesConfig, int], _StateCheck] = {}
