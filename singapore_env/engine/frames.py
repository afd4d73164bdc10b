"""The data of pending frames: one small typed record per frame kind.

A :class:`~singapore_env.engine.state.Frame` holds its ``kind``, its ``seat`` and ``d``, the
record of :data:`FRAME_RECORDS` for its kind (``None`` for the kinds that hold nothing):
``Frame("actions", 2, left=1).d`` is ``ActionsData(left=1)``. The records are slotted
dataclasses; a frame that works in phases has an :class:`~enum.IntEnum` for them.

A record's fields are its saved data (``docs/state-format.md``), in the order they are
saved: ``to_dict`` gives the JSON object of a frame's ``d`` (phases as plain ints, a field
left at its default omitted) and the save loader builds the record from that object.
Fields with a default are the ones a save may lack: dice faces before the roll, the
totals before they are computed, a ``parent`` that is the usual one.

Flags are the ints 0 and 1, as they are saved.
"""

from dataclasses import MISSING, dataclass, fields
from enum import IntEnum
from types import UnionType
from typing import Any, ClassVar, get_args, get_origin

#: Frame kind -> the record class of its data (kinds not listed hold no data). (Any: the
#: attributes :func:`record` writes, ``required`` and the methods, are beyond a type checker.)
FRAME_RECORDS: dict[str, Any] = {}


def record(*kinds: str):
    """Class decorator: make ``cls`` the slotted dataclass holding the data of frames of
    ``kinds``, with ``copy()`` and ``to_dict()`` and the class attributes ``required``
    and ``optional`` (field names without and with a default)."""
    def make(cls):
        cls = dataclass(slots=True)(cls)
        cls.required = tuple(f.name for f in fields(cls) if f.default is MISSING)
        cls.optional = tuple(f.name for f in fields(cls) if f.default is not MISSING)
        _write_methods(cls)
        for kind in kinds:
            FRAME_RECORDS[kind] = cls
        return cls
    return make


def _write_methods(cls) -> None:
    """Write ``copy`` and ``to_dict`` for the fields of ``cls``, one statement per field
    (as :mod:`dataclasses` writes ``__init__``): the state is copied thousands of times per
    search decision, and a loop over the fields with getattr/setattr would cost several
    times as much. Lists are copied to the depth of their type; a field left at its
    default is left out of ``to_dict``."""
    names = {"_new": object.__new__, "cls": cls}
    copy_lines = ["def copy(self):", "    r = _new(cls)"]
    dict_lines = ["def to_dict(self):", "    d = {}"]
    for f in fields(cls):
        value = f"self.{f.name}"
        copy_lines.append(f"    r.{f.name} = {_copied(f.type, value)}")
        if f.default is MISSING:
            dict_lines.append(f"    d[{f.name!r}] = {_saved(f.type, value)}")
        else:  # (saved only when set: an optional list is not None then)
            names[f"_default_{f.name}"] = f.default
            dict_lines += [f"    if {value} != _default_{f.name}:",
                           f"        d[{f.name!r}] = {_saved(_set(f.type), value)}"]
    copy_lines.append("    return r")
    dict_lines.append("    return d")
    exec("\n".join(copy_lines + dict_lines), names)
    cls.copy, cls.to_dict = names["copy"], names["to_dict"]
    cls.copy.__doc__ = "An independent copy (its lists are its own)."
    cls.to_dict.__doc__ = "The saved JSON object of this data (lists copied)."


def _set(kind):
    """The type of an optional field's value once it is set (``list[int] | None``:
    ``list[int]``)."""
    if type(kind) is UnionType:
        return next(k for k in get_args(kind) if k is not type(None))
    return kind


def _copied(kind, value: str) -> str:
    """The expression copying ``value``, a field of type ``kind``, to the depth of its
    lists (an optional list: ``list[int] | None``, may be None)."""
    if type(kind) is UnionType:
        return f"None if {value} is None else {_copied(_set(kind), value)}"
    if get_origin(kind) is list:
        item = get_args(kind)[0]
        return f"[x[:] for x in {value}]" if get_origin(item) is list else f"{value}[:]"
    return value


def _saved(kind, value: str) -> str:
    """The expression giving the saved JSON value of ``value``, a field of type ``kind``."""
    if isinstance(kind, type) and issubclass(kind, IntEnum):
        return f"int({value})"
    return _copied(kind, value)


# ---------------------------------------------------------------- phases
class DecreePhase(IntEnum):
    """What a ``decree`` frame does next."""

    VETO = 0          # ask the holders of a veto boost
    RESOLVE = 1       # outlaw or legalize the vice, unless vetoed


class RaidPhase(IntEnum):
    """What a standard ``raid`` frame does next."""

    ROLL = 0          # roll the die (a re-roll question may follow)
    HINDER = 1        # ask the holders of a raid-hinder boost
    RESOLVE = 2       # take the dollars; a ship may leave


class RaidFePhase(IntEnum):
    """What a first-edition ``raid_fe`` frame does next."""

    INTERVENE = 0     # ask the other players whether they intervene
    ROLL = 1          # roll the D4s, ask re-roll and hinder questions
    RESOLVE = 2       # take the dollars, settle the intervention


class ConflictPhase(IntEnum):
    """What a ``conflict`` frame does next."""

    ROLL = 0          # roll the strength, ask every player's contribution
    REVEAL = 1        # reveal the contributions, apply the table row


class WarPhase(IntEnum):
    """What a standard ``war`` frame does next."""

    JOIN = 0          # ask the faction mates whether they join
    ACCEPT = 1        # the attacker / defender accept the volunteer
    COMMIT = 2        # every fighter commits a Battle card
    DISCARD = 3       # discard-for-War questions
    ROLL = 4          # both sides roll (re-roll questions may follow)
    TOTALS = 5        # compare the totals; ask for the spoils
    SPOILS = 6        # settle the spoils (the totals are known from here on)
    END = 7           # discard the commits, ships leave


class WarFePhase(IntEnum):
    """What a first-edition ``war_fe`` frame does next."""

    COMMIT = 0        # both sides commit Battle cards
    DISCARD = 1       # discard-for-War questions
    TOKENS = 2        # both sides withdraw Storehouse tokens
    ROLL = 3          # both sides roll D4s (re-roll questions may follow)
    BATTLE = 4        # compare the totals, take the loser's Wealth, ask for the rest
    END = 5           # discard the commits, ships leave


# ---------------------------------------------------------------- rolls
class Rolls:
    """Base of the records holding dice rolls: each roll field (named in ``ROLLS``) holds
    the sum, and ``<field>_dice`` its faces (None before the roll), which a ``reroll``
    frame names by the roll field (its ``field``) to re-roll some of them."""

    __slots__ = ()
    ROLLS: ClassVar[tuple[str, ...]] = ()

    def total(self, field: str) -> int:
        """The sum of roll ``field``."""
        return getattr(self, field)

    def faces(self, field: str) -> list[int] | None:
        """The faces of roll ``field`` (None before the roll or if it is not a roll here)."""
        return getattr(self, field + "_dice") if field in self.ROLLS else None

    def set_roll(self, field: str, faces: list[int]) -> None:
        """Make ``faces`` the result of roll ``field``."""
        setattr(self, field, sum(faces))
        setattr(self, field + "_dice", faces)


# ---------------------------------------------------------------- the turn and cards
@record("actions")
class ActionsData:
    """A turn's Actions: how many are ``left``."""

    left: int


@record("leader_action")
class LeaderActionData:
    """The action of the leader ``space`` just taken."""

    space: int


@record("place_card", "connect", "attach_pop")
class CardData:
    """The ``card`` a frame places, connects or attaches."""

    card: int


@record("effects")
class EffectsData:
    """The instant effects of ``card`` left from effect ``start`` on, for a card with
    ``pops`` Population cards."""

    card: int
    start: int
    pops: int


@record("keep_battle")
class KeepBattleData:
    """The Battle ``cards`` drawn, one of which is kept."""

    cards: list[int]


@record("search_pick")
class SearchPickData:
    """The Market cards found by a search (``options``), one of which is taken."""

    options: list[int]


@record("influence")
class InfluenceData:
    """``n`` Influence tokens left to place, going round the loop from ``pos`` (-1
    before the start is chosen); ``asking``: the space at ``pos`` may take the token or
    let it pass; ``store_asked``: the question of storing tokens on a card was asked."""

    n: int
    pos: int
    asking: int
    store_asked: int


@record("moves")
class MovesData:
    """``n`` tableau moves left in ``scope`` "own" (the seat's tableau) or "any" (the
    ``target`` seat's, -1 until it is chosen)."""

    n: int
    scope: str
    target: int


@record("boom_pick", "lose_pop", "remove_influence")
class CountData:
    """How many times (``n``) the question is still asked."""

    n: int


@record("fund_close")
class FundCloseData:
    """The Public Works token (``index`` in ``pw_track``) to fund or whose card closes."""

    index: int


# ---------------------------------------------------------------- decree, raid, conflict
@record("decree")
class DecreeData:
    """A Decree on ``vice``; ``vetoed`` once someone vetoed it."""

    vice: int
    phase: DecreePhase
    vetoed: int


@record("veto")
class VetoData:
    """The veto question about the Decree on ``vice``."""

    vice: int


@record("raid")
class RaidData(Rolls):
    """A standard Raid: the ``roll`` and the ``hinder`` subtracted from it."""

    ROLLS = ("roll",)
    die: ClassVar[str] = ""  # the 1819 die (the first edition's records save "d4")

    phase: RaidPhase
    roll: int
    hinder: int
    roll_dice: list[int] | None = None


@record("reroll")
class RerollData:
    """A re-roll question: up to ``dice`` dice of roll ``field`` of the ``parent`` frame
    (its kind), with the boost of ``card``."""

    parent: str
    field: str
    card: int
    dice: int


@record("conflict")
class ConflictData:
    """A Conflict Event: ``table`` row from the rolled ``strength`` (``dice`` dice +
    ``plus``) less the contributions; volunteers score ``base`` + ``per`` x strength.
    Per seat: the marked Battle ``cards``, the ``money`` and the counter ``boosts``."""

    table: str
    dice: int
    plus: int
    base: int
    per: int
    phase: ConflictPhase
    strength: int
    cards: list[list[int]]
    money: list[int]
    boosts: list[list[int]]


# ---------------------------------------------------------------- war
@record("war")
class WarData(Rolls):
    """A standard War on ``defender``: the sides' volunteers (``joined``) and accepted
    ``allies`` (per side, -1 none), per seat the committed card (-1 none) and discard
    ``bonus``, the rolls, then the spoils: ``k`` dollars taken, ``paid`` by the loser's
    ally, the ally's ``share`` (-1 none), the ``cap``, ``victor`` and ``loser`` (-1
    before the result) and the side ``totals``."""

    ROLLS = ("roll0", "roll1")
    die: ClassVar[str] = ""  # the 1819 die (the first edition's records save "d4")

    defender: int
    phase: WarPhase
    joined: list[int]
    allies: list[int]
    commits: list[int]
    bonus: list[int]
    roll0: int
    roll1: int
    k: int
    paid: int
    share: int
    cap: int
    victor: int
    loser: int
    roll0_dice: list[int] | None = None
    roll1_dice: list[int] | None = None
    totals: list[int] | None = None


@record("war_join", "war_accept", "fe_tokens")
class SideData:
    """The War ``side`` (0 attacker, 1 defender) a question is about."""

    side: int


@record("war_discard")
class WarDiscardData:
    """A discard-for-War question about the War frame of kind ``parent``."""

    parent: str = "war"


# ---------------------------------------------------------------- simulation
@record("storehouse_veto")
class StorehouseVetoData:
    """The Agents' veto of ``ally``'s British Storehouse; ``agents`` still to answer."""

    ally: int
    agents: list[int]


# ---------------------------------------------------------------- first edition
@record("raid_fe")
class RaidFeData(Rolls):
    """A first-edition Raid: the ``intervener`` (-1 none) and the cards committed per
    seat, the ``roll`` and ``hinder``; ``shown``: the commits are public."""

    ROLLS = ("roll",)

    phase: RaidFePhase
    intervener: int
    commits: list[list[int]]
    die: str
    roll: int
    hinder: int
    shown: int
    roll_dice: list[int] | None = None


@record("war_fe")
class WarFeData(Rolls):
    """A first-edition War on ``defender``: the cards committed and discard ``bonus``
    per seat, the Storehouse ``tokens`` per side, the rolls, the ``totals``, ``victor``
    and ``loser`` (-1 before the result), the dollars still ``due``; ``shown``: the
    commits are public."""

    ROLLS = ("roll0", "roll1")

    defender: int
    phase: WarFePhase
    commits: list[list[int]]
    bonus: list[int]
    tokens: list[int]
    die: str
    roll0: int
    roll1: int
    totals: list[int]
    victor: int
    loser: int
    due: int
    shown: int
    roll0_dice: list[int] | None = None
    roll1_dice: list[int] | None = None


@record("fe_commit")
class FeCommitData:
    """A first-edition commit question for the ``parent`` frame (``raid_fe`` or
    ``war_fe``); ``must``: the first card is compulsory."""

    parent: str
    must: int
