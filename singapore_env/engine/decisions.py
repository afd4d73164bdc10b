"""Decisions: what a player can choose, as ``Decision(kind, arg)`` pairs of ints.

The same table serves the engine (legal decisions), the text interface and the RL
action space: :class:`ActionTable` maps every decision to one index and back in O(1).
"""

from __future__ import annotations

import functools
from enum import IntEnum
from typing import TYPE_CHECKING, Mapping, NamedTuple

import numpy as np


class Kind(IntEnum):
    """Every kind of decision. ``arg`` meaning is in :func:`arg_sizes` comments."""

    PASS = 0              # decline / end turn / done / no
    YES = 1               # accept the yes/no question asked
    PLACE_LEADER = 2      # leader space
    LEADER_MONEY = 3      # Market leader space: take $1 instead
    LEADER_STOREHOUSE = 4 # Battle leader space: 1 token to Storehouse instead
    BUY_MARKET = 5        # market slot
    BUY_BATTLE = 6        # 0 = top card for $2; 1 = $2 + 2 tokens, draw 2 keep 1
    KEEP_BATTLE = 7       # which of the two drawn cards to keep
    POPULATE = 8
    ATTACH_POP = 9        # tableau position receiving the Population card
    ACTIVATE = 10         # tableau position of the first card of the group
    RAID = 11
    DECREE = 12           # vice index
    WAR = 13              # defender seat
    REVEAL = 14           # hand index (free action)
    REBUILD = 15          # tableau position of a closed Public Works (free action)
    SEARCH = 16           # tableau position of the card granting the search
    CHOOSE = 17           # option index of a small menu (searched card, spoils share,
                          # dice to re-roll as a bit mask)
    CONNECT = 18          # position * 2 + side (0 = left of it, 1 = right of it)
    INFLUENCE_START = 19  # loop space where influence placement starts
    COMMIT = 20           # hand index, or max_hand + revealed index
    ADD_MONEY = 21        # one more dollar (contribution, spoils, ally payment) or token
    FUND = 22             # fund the excess Public Works token
    CLOSE = 23            # close the Public Works card at a tableau position
    MOVE_SEAT = 24        # tableau (seat) in which the next move happens
    MOVE_CARD = 25        # source * (2T + 1) + target (position * 2 + side, or 2T = detach)
    MOVE_POP = 26         # source position * T + destination position
    REMOVE_INFLUENCE = 27 # loop space to remove one own token from
    DISCARD_POP = 28      # tableau position whose (first) Population card is lost
    STORE = 29            # number of influence tokens to store on the card
    DISCARD_CARD = 30     # tableau position of a card discarded for War strength / taken
    INSPIRE = 31          # simulation: Resistance Leader's action, draw a Folk Hero card
    FOLK_HERO = 32        # simulation: play the Folk Hero card at this hand index


#: The members of :class:`Kind` as plain class attributes (the very same objects).
#: Under Python 3.11 ``Kind.PASS`` goes through the enum metaclass's ``__getattr__``
#: hook and costs ~4x a plain class attribute; the rules read kinds on every question,
#: so they import this as ``Kind`` (``from ..decisions import FastKind as Kind``).
if TYPE_CHECKING:
    FastKind = Kind  # the same members, so the type checker reads them as Kind's
else:
    FastKind = type("FastKind", (), {k.name: k for k in Kind})

N_LOOP = 8
N_VICES = 5
N_CHOOSE = 4
N_STORE = 9


class Decision(NamedTuple):
    kind: int
    arg: int = 0

    def __repr__(self) -> str:
        return f"Decision({Kind(self.kind).name}, {self.arg})"


class SharedDecisions(dict):
    """(kind, arg) -> one shared Decision, made on first use (its kind a :class:`Kind`
    whoever asks first: the native engine asks with plain ints)."""

    def __missing__(self, key: tuple[int, int]) -> Decision:
        d = self[key] = Decision(Kind(key[0]), key[1])
        return d


#: The Decision of each ``(kind, arg)``, shared: decisions are immutable values, and the
#: rules list thousands of options per second, so they take them from this table
#: (``DECISION[Kind.REVEAL, i]``, ~3x cheaper than building ``Decision(Kind.REVEAL, i)``).
DECISION: dict[tuple[int, int], Decision] = SharedDecisions()


def is_int(x) -> bool:
    """A true integer (Python or numpy): not a bool, a float or a string of digits."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def is_decision(x) -> bool:
    """A :class:`Decision` or a ``(kind, arg)`` pair (tuple or list) of true integers."""
    return isinstance(x, (tuple, list)) and len(x) == 2 and is_int(x[0]) and is_int(x[1])


@functools.lru_cache(maxsize=None)
def arg_sizes(max_tableau: int, max_hand: int) -> Mapping[int, int]:
    """How many distinct args each kind has, for the given engine limits (one shared
    dict per pair of limits: read it, do not change it)."""
    t, h = max_tableau, max_hand
    return {
        Kind.PASS: 1, Kind.YES: 1, Kind.PLACE_LEADER: 4, Kind.LEADER_MONEY: 1,
        Kind.LEADER_STOREHOUSE: 1, Kind.BUY_MARKET: 5, Kind.BUY_BATTLE: 2,
        Kind.KEEP_BATTLE: 2, Kind.POPULATE: 1, Kind.ATTACH_POP: t, Kind.ACTIVATE: t,
        Kind.RAID: 1, Kind.DECREE: N_VICES, Kind.WAR: 4, Kind.REVEAL: h, Kind.REBUILD: t,
        Kind.SEARCH: t, Kind.CHOOSE: N_CHOOSE, Kind.CONNECT: 2 * t,
        Kind.INFLUENCE_START: N_LOOP, Kind.COMMIT: 2 * h, Kind.ADD_MONEY: 1, Kind.FUND: 1,
        Kind.CLOSE: t, Kind.MOVE_SEAT: 4, Kind.MOVE_CARD: t * (2 * t + 1),
        Kind.MOVE_POP: t * t, Kind.REMOVE_INFLUENCE: N_LOOP, Kind.DISCARD_POP: t,
        Kind.STORE: N_STORE, Kind.DISCARD_CARD: t, Kind.INSPIRE: 1, Kind.FOLK_HERO: h,
    }


class ActionTable:
    """Index <-> Decision, built once; O(1) both ways."""

    def __init__(self, max_tableau: int = 16, max_hand: int = 12):
        self.max_tableau, self.max_hand = max_tableau, max_hand
        self.sizes = arg_sizes(max_tableau, max_hand)
        self.offset: dict[int, int] = {}
        self.decisions: list[Decision] = []
        for kind in Kind:
            self.offset[int(kind)] = len(self.decisions)
            self.decisions.extend(Decision(int(kind), a) for a in range(self.sizes[kind]))
        self._kind_of_index = [d.kind for d in self.decisions]

    def __len__(self) -> int:
        return len(self.decisions)

    def index(self, decision: Decision) -> int:
        kind, arg = decision
        size = self.sizes.get(kind)
        if size is None or not 0 <= arg < size:
            raise ValueError(f"{decision!r} is outside the action table")
        return self.offset[kind] + arg

    def decision(self, index: int) -> Decision:
        if not 0 <= index < len(self.decisions):
            raise ValueError(f"action index {index} outside 0..{len(self.decisions) - 1}")
        return self.decisions[index]
