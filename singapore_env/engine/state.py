"""Game state as plain data: no rules here (a saved state is checked in save_validation).

Seats are ints 0..3 (lieutenant_governor, resident, temenggong, sultan); factions are
0 (British) and 1 (Malay). Cards are integer ids into ``Content.defs``. Pending work is
a stack of :class:`Frame` records (the top frame is what happens next), so a game can
be copied and saved at any point, even in the middle of a War; a frame's data is a
typed record (:mod:`singapore_env.engine.frames`).
"""

from __future__ import annotations

from typing import Any

from .frames import FRAME_RECORDS


class Slot:
    """One card in a tableau. ``link`` = connected to the next card on the right."""

    __slots__ = ("card", "up", "link", "pops", "activated", "stored", "down", "searched")

    def __init__(self, card: int, up: bool = True, link: bool = False, pops=None,
                 activated: bool = False, stored: int = 0, down: str = "",
                 searched: bool = False):
        self.card = card
        self.up = up
        self.link = link
        self.pops = pops if pops is not None else []
        self.activated = activated
        self.stored = stored          # tokens stored on the card (School, Godowns)
        self.down = down              # why face down: "" | "closed" | "outlawed"
        self.searched = searched      # a once-per-game search was used

    def copy(self) -> "Slot":
        s = _bare(Slot)  # (skips __init__'s defaults: a third cheaper)
        s.card, s.up, s.link, s.pops = self.card, self.up, self.link, self.pops[:]
        s.activated, s.stored, s.down, s.searched = (self.activated, self.stored, self.down,
                                                     self.searched)
        return s

    def to_list(self) -> list:
        return [self.card, int(self.up), int(self.link), list(self.pops), int(self.activated),
                self.stored, self.down, int(self.searched)]


#: A Slot, Frame or GameState without running its ``__init__`` (copies set every field)
_bare = object.__new__


class Frame:
    """A pending step: ``kind`` names its handler, ``seat`` who acts, ``d`` its data: the
    record of its kind (:data:`~singapore_env.engine.frames.FRAME_RECORDS`) made from the
    keyword arguments, or None for a kind that holds no data."""

    __slots__ = ("kind", "seat", "d")
    d: Any  # (its record class depends on ``kind``: beyond a type checker)

    def __init__(self, kind: str, seat: int = -1, **data):
        self.kind = kind
        self.seat = seat
        record = FRAME_RECORDS.get(kind)
        if record is not None:
            self.d = record(**data)
        elif data:
            raise TypeError(f"a {kind!r} frame holds no data, got {sorted(data)}")
        else:
            self.d = None

    def copy(self) -> "Frame":
        f = _bare(Frame)
        f.kind, f.seat = self.kind, self.seat
        f.d = self.d.copy() if self.d is not None else None  # (most frames hold no data)
        return f

    def to_dict(self) -> dict:
        return {"kind": self.kind, "seat": self.seat,
                "d": self.d.to_dict() if self.d is not None else {}}

    def __repr__(self) -> str:
        return f"Frame({self.kind!r}, seat={self.seat}, {self.d})"


#: Where VP come from: every VP the engine awards is recorded under one of these
#: (``GameState.vp_sources[seat][i]`` for ``VP_SOURCES[i]``); ``unrecorded`` holds the VP
#: track of a game saved before sources were recorded.
VP_SOURCES = ("district", "upkeep_tax", "most_tax", "conflict", "conflict_excess",
              "war_spoils", "war_plunder", "decree", "legacy", "end_game", "unrecorded")
#: Sources counted at the end of the game only (not on the VP track).
FINAL_ONLY_SOURCES = ("legacy", "end_game")

# Field name -> kind of copy (scalar, list of ints, list of lists, ...).
_SCALARS = ("round", "first_player", "anglo_dutch", "ships", "current_event",
            "game_over", "turn_seat", "decisions", "discount_used", "roles_public")
_INT_LISTS = ("vp", "wealth", "storehouse", "population", "pw_track", "market",
              "market_deck", "market_discard", "population_deck", "population_discard",
              "event_deck", "event_discard", "leader_space", "outlawed", "wars_won", "used_cards",
              "districts", "final_vp", "roles", "vetoed", "folk_deck", "folk_discard",
              "put_away")
_NESTED = ("hands", "revealed", "battle_deck", "battle_discard", "modifiers", "folk_hands",
           "vp_sources", "facts")
#: Fields a save made before they existed may lack (save_validation fills them in).
OPTIONAL_FIELDS = ("vp_sources", "facts")


class GameState:
    """Everything about a game in progress, as ints and lists."""

    __slots__ = _SCALARS + _INT_LISTS + _NESTED + ("tableau", "stack", "log_text")

    def __init__(self):
        self.round = 0
        self.first_player = 0
        self.anglo_dutch = 0          # 1 once the Anglo-Dutch Treaty is in force
        self.ships = 0
        self.current_event = -1
        self.game_over = 0
        self.turn_seat = -1
        self.decisions = 0
        self.discount_used = 0         # a once-per-turn price discount was used
        self.vp = [0] * 4
        self.wealth = [0] * 4
        self.storehouse = [0, 0]       # by faction
        self.population = [0, 0]       # cubes by faction
        self.pw_track: list[int] = []  # owner seat per Public Works token, oldest first
        self.market: list[int] = []    # slot 0 = leftmost (newest) ... last = rightmost
        self.market_deck: list[int] = []
        self.market_discard: list[int] = []
        self.population_deck: list[int] = []
        self.population_discard: list[int] = []
        self.event_deck: list[int] = []  # top of deck = last element
        self.event_discard: list[int] = []
        self.leader_space = [-1] * 4   # space -> seat (-1 open)
        self.outlawed: list[int] = []  # per vice: -1 legal, else seat who outlawed it
        self.wars_won = [0] * 4
        self.used_cards: list[int] = []  # cards whose once-per-round boost was used
        self.districts: list[int] = []  # loop space * 4 + seat -> tokens (districts only)
        self.final_vp: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(4)]
        self.revealed: list[list[int]] = [[] for _ in range(4)]
        self.battle_deck: list[list[int]] = [[], []]   # top = last element
        self.battle_discard: list[list[int]] = [[], []]
        self.modifiers: list[list] = []  # round modifiers of the current event: [type, n]
        # Simulation Mode (empty / -1 in the other rulesets)
        self.roles = [-1] * 4          # -1 none, 0 Colonial Ally, 1 Resistance Leader,
        #                                2 Colonial Ruler (see rules/roles.py)
        self.roles_public = 0          # 1 once the Rajas' roles are revealed
        self.vetoed = [0] * 4          # 1: the Agents vetoed this Ally's British Storehouse
        self.folk_deck: list[int] = []  # top = last element
        self.folk_discard: list[int] = []
        self.folk_hands: list[list[int]] = [[] for _ in range(4)]
        self.put_away: list[int] = []  # Battle cards put away at setup
        # VP by source per seat (columns: VP_SOURCES) and game facts, for balance studies:
        # [kind, round, ...ints] (see rules/base.py ``record_fact``).
        self.vp_sources: list[list[int]] = [[0] * len(VP_SOURCES) for _ in range(4)]
        self.facts: list[list] = []
        self.tableau: list[list[Slot]] = [[] for _ in range(4)]
        self.stack: list[Frame] = []
        self.log_text: list[str] = []

    def copy(self) -> "GameState":
        """An independent copy. Search copies states thousands of times per decision, so
        every field is written out (a loop over the field names with getattr/setattr
        costs twice as much); ``tests/test_engine_speed_paths.py`` checks that every
        field is copied."""
        s = _bare(GameState)
        s.round, s.first_player, s.anglo_dutch = self.round, self.first_player, self.anglo_dutch
        s.ships, s.current_event, s.game_over = self.ships, self.current_event, self.game_over
        s.turn_seat, s.decisions = self.turn_seat, self.decisions
        s.discount_used, s.roles_public = self.discount_used, self.roles_public
        s.vp, s.wealth, s.storehouse = self.vp[:], self.wealth[:], self.storehouse[:]
        s.population, s.pw_track, s.market = self.population[:], self.pw_track[:], self.market[:]
        s.market_deck, s.market_discard = self.market_deck[:], self.market_discard[:]
        s.population_deck = self.population_deck[:]
        s.population_discard = self.population_discard[:]
        s.event_deck, s.event_discard = self.event_deck[:], self.event_discard[:]
        s.leader_space, s.outlawed = self.leader_space[:], self.outlawed[:]
        s.wars_won, s.used_cards = self.wars_won[:], self.used_cards[:]
        s.districts, s.final_vp = self.districts[:], self.final_vp[:]
        s.roles, s.vetoed = self.roles[:], self.vetoed[:]
        s.folk_deck, s.folk_discard = self.folk_deck[:], self.folk_discard[:]
        s.put_away = self.put_away[:]
        s.hands = [x[:] for x in self.hands]
        s.revealed = [x[:] for x in self.revealed]
        s.battle_deck = [x[:] for x in self.battle_deck]
        s.battle_discard = [x[:] for x in self.battle_discard]
        s.modifiers = [x[:] for x in self.modifiers]
        s.folk_hands = [x[:] for x in self.folk_hands]
        s.vp_sources = [x[:] for x in self.vp_sources]
        s.facts = self.facts[:]  # a recorded fact never changes: its row is shared
        s.tableau = [[slot.copy() for slot in row] for row in self.tableau]
        s.stack = [f.copy() for f in self.stack]
        s.log_text = self.log_text[:]
        return s

    def to_dict(self) -> dict:
        d = {name: getattr(self, name) for name in _SCALARS}
        for name in _INT_LISTS:
            d[name] = list(getattr(self, name))
        for name in _NESTED:
            d[name] = [list(x) for x in getattr(self, name)]
        d["tableau"] = [[slot.to_list() for slot in row] for row in self.tableau]
        d["stack"] = [f.to_dict() for f in self.stack]
        d["log_text"] = list(self.log_text)
        return d
