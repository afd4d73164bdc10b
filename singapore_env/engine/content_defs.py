"""The definitions of the game content: cards, board and their vocabularies (frozen).

Every physical card gets an integer *card id*; the game state only ever stores those
ids. ``Content.defs[card_id]`` is the card's :class:`CardDef`. :mod:`.content` loads and
validates the data files (``data/*.toml``, ``docs/content-format.md``) into these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from .config import MAX_VALUE

SCHEMA_VERSION = 1
DATA_DIR = Path(__file__).parent / "data"

FACTIONS = ("british", "malay")
SEAT_NAMES = ("lieutenant_governor", "resident", "temenggong", "sultan")
SEAT_FACTION = (0, 0, 1, 1)  # seat -> faction index
COLOURS = ("black", "red", "both")
SHAPES = ("solid", "notch")
CARD_KINDS = {
    "personality", "commerce", "public_works", "tax", "vice", "slavery",
    "goods_trading", "temple",
}

# effect type -> allowed fields (with defaults)
EFFECT_FIELDS: dict[str, dict] = {
    "influence": {"n": 0, "per_pop": 0},
    "wealth": {"n": 0, "per_pop": 0, "dice": 0},
    "storehouse": {"n": 0},
    "public_works": {},
    "tax": {"player": 0, "neutral": 0},
    "population": {"n": 0},
    "ships": {"n": 0},
    "move": {"n": 1, "scope": "own"},
    "battle_draw": {"n": 1},
    "storehouse_all": {"n": 0},
    "wealth_all": {"n": 0},
    "battle_draw_all": {"n": 1},
    "population_all": {"n": 0},
    "market_pick_all": {"n": 3},
    "conflict": {
        "table": "", "dice": 0, "plus": 0, "volunteer_base": 2, "volunteer_per_strength": 1,
    },
    "lose_population_card": {"n": 1},
    "remove_influence": {"n": 1},
}
BOOST_FIELDS: dict[str, dict] = {
    "price_discount": {"n": 1, "applies": "all", "when": "always", "once_per_turn": False},
    "raid_bonus": {"n": 1},
    "decree_discount": {"n": 1},
    "counter_bonus": {"n": 1, "once_per_round": False},
    "raid_hinder": {"n": 2, "once_per_round": False},
    "war_bonus": {"n": 1},
    "discard_for_war": {"n": 1},
    "upkeep_ignore": {"n": 1},
    "population_watch": {},
    "store_influence": {"n": 4},
    "search": {"cards": [], "once_per_game": True},
    "veto_decree": {"cost": 6, "slavery_cost": 10},
    "reroll": {"dice": 2, "once_per_round": True},
    "ships_on_reveal": {"n": 1},
    "tax_if_public_works_connected": {"neutral": 1},
}
END_GAME_FIELDS: dict[str, dict] = {
    "vp": {"n": 0},
    "vp_dice": {"dice": 1, "plus": 0},
    "vp_per_pop": {"n": 0},
    "vp_per_stored_tokens": {"per": 3},
}
MODIFIER_FIELDS: dict[str, dict] = {
    "commerce_half": {},
    "market_price": {"n": 1},
    "raid_bonus": {"n": 1},
    "war_cost": {"n": 1},
    "decree_cost": {"n": 1},
    "populate_influence": {"n": 1},
}
#: The ranges of the content numbers that size a roll, a question or a pending frame,
#: ``"<effect type>.<field>" -> (low, high)``: dice as many as a roll holds (20, as
#: ``war_dice``); counts of questions within a frame's count (50); a Conflict's strength
#: within a roll's bound (20 dice of at most 2, plus 100); War bonuses not negative (a
#: War's totals count up); a divisor not zero. Every other number is
#: within +-``MAX_VALUE`` (engine/config.py); docs/content-format.md lists them.
FIELD_RANGES: dict[str, tuple[int, int]] = {
    "wealth.dice": (0, 20), "conflict.dice": (0, 20), "reroll.dice": (0, 20),
    "vp_dice.dice": (0, 20), "conflict.plus": (0, 100), "conflict.volunteer_base": (0, 100),
    "conflict.volunteer_per_strength": (0, 100), "raid_hinder.n": (0, 50), "move.n": (0, 50),
    "lose_population_card.n": (0, 50), "remove_influence.n": (0, 50),
    "market_pick_all.n": (0, 50), "influence.n": (0, 10), "influence.per_pop": (0, 5),
    "discard_for_war.n": (0, MAX_VALUE), "war_bonus.n": (0, MAX_VALUE),
    "vp_per_stored_tokens.per": (1, MAX_VALUE),
    # a card's Population slots: as many as the native state holds (native/state.hpp ROOM_POPS)
    "card.pop_slots": (0, 8),
}
LEGACY_METRICS = {
    "wealth", "population_cards", "dependent_cards", "pop_on_dependents", "tax_tokens",
    "public_works_tokens", "personality_cards", "public_works_cards", "commerce_cards",
    "battle_cards", "storehouse_tokens", "outlawed_vices", "wars_won",
}
CONFLICT_ROW_EFFECTS = {
    "storehouse_all", "wealth_all", "ships", "lose_population_card", "remove_influence",
}


def check_range(name: str, value: int) -> str:
    """"" if ``value`` is within the range :data:`FIELD_RANGES` gives ``name``, else why."""
    low, high = FIELD_RANGES.get(name, (value, value))
    return "" if low <= value <= high else f"must be in {low}..{high}, got {value}"


class ContentError(ValueError):
    """The content data is malformed; the message names file, card and field."""


_COMMON_KEYS = {"id", "name", "designed", "count", "note"}
_TABLEAU_KEYS = {"kinds", "vice", "pop_slots", "connectors", "instant", "action", "boosts",
                 "end_game"}
SECTION_KEYS = {
    "market": _COMMON_KEYS | _TABLEAU_KEYS | {"price"},
    "leader": _COMMON_KEYS | _TABLEAU_KEYS | {"seat", "faction", "legacies", "attribute",
                                              "designed_parts"},
    "battle": _COMMON_KEYS | {"faction", "strength", "star", "reveal"},
    "population": _COMMON_KEYS | {"band", "instant"},
    "event": _COMMON_KEYS | {"deck", "instant", "modifiers"},
    "folk_hero": _COMMON_KEYS | {"instant"},
}
#: Every card category (a card's category is the section it is defined in).
CATEGORIES = tuple(SECTION_KEYS)
# Files read besides board.toml and cards.toml (optional; part of the content digest).
EXTRA_FILES = ("folk_heroes.toml",)


@dataclass(frozen=True)
class Effect:
    """One effect/boost/end-game record: a type and its (defaulted) fields."""

    type: str
    args: MappingProxyType

    def __getitem__(self, key):
        return self.args[key]


@dataclass(frozen=True)
class Connector:
    colour: str
    shape: str

    def joins(self, other: "Connector | None") -> bool:
        """Opposite shapes and identical colours (two-tone matches either colour)."""
        if other is None or self.shape == other.shape:
            return False
        return self.colour == other.colour or "both" in (self.colour, other.colour)


@dataclass(frozen=True)
class Legacy:
    name: str
    metric: str
    bands: tuple[tuple[int, int], ...] = ()
    per: int = 0


@dataclass(frozen=True)
class CardDef:
    """A card as printed (or designed). Shared by every copy of the card."""

    key: str
    name: str
    category: str  # market | leader | battle | population | event | folk_hero
    designed: bool = False
    price: tuple[int, int] = (0, 0)  # (british, malay)
    kinds: frozenset = frozenset()
    vice: str = ""
    pop_slots: int = 0
    left: Connector | None = None
    right: Connector | None = None
    instant: tuple[Effect, ...] = ()
    action: tuple[Effect, ...] = ()
    boosts: tuple[Effect, ...] = ()
    end_game: tuple[Effect, ...] = ()
    faction: int = -1
    strength: int = 0
    star: bool = False
    deck: str = ""
    modifiers: tuple[Effect, ...] = ()
    seat: int = -1
    legacies: tuple[Legacy, ...] = ()
    attribute_name: str = ""
    designed_parts: tuple[str, ...] = ()   # designed parts of a printed card (leaders)
    note: str = ""
    # Facts derived once from the fields above (the rules ask them on every question).
    #: boost type -> the card's boosts of that type (a plain dict, read on every
    #: question: a mappingproxy's ``get`` costs 2.5x; do not change it)
    boosts_of: dict = field(init=False, repr=False, compare=False)
    dual_price: bool = field(init=False, repr=False, compare=False)
    #: The Action's dollar costs as ``(n, per_pop)`` terms: each wealth effect costs
    #: ``-(n + per_pop * pops)`` when that is positive (see :meth:`action_cost`).
    cost_terms: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    #: Tax tokens the card shows for its owner and neutral ones (its tax effects).
    tax_player: int = field(init=False, repr=False, compare=False)
    tax_neutral: int = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        by_type: dict[str, tuple[Effect, ...]] = {}
        for b in self.boosts:
            by_type[b.type] = by_type.get(b.type, ()) + (b,)
        object.__setattr__(self, "boosts_of", by_type)
        object.__setattr__(self, "dual_price", self.price[0] != self.price[1])
        object.__setattr__(self, "cost_terms", tuple(
            (e["n"], e["per_pop"]) for e in self.action if e.type == "wealth"))
        taxes = [e for e in self.instant if e.type == "tax"]
        object.__setattr__(self, "tax_player", sum(e["player"] for e in taxes))
        object.__setattr__(self, "tax_neutral", sum(e["neutral"] for e in taxes))

    def action_cost(self, pops: int) -> int:
        """Dollars the card's Action must pay with ``pops`` Population cards attached
        (its negative wealth effects without dice)."""
        cost = 0
        for n, per_pop in self.cost_terms:
            amount = n + per_pop * pops
            if amount < 0:
                cost -= amount
        return cost

    def boost(self, kind: str) -> Effect | None:
        """The card's first boost of type ``kind``, or None."""
        found = self.boosts_of.get(kind)
        return found[0] if found else None


@dataclass(frozen=True)
class Board:
    max_ships: int
    port_bands: tuple[tuple[int, int, int, int], ...]
    multiplier_track: tuple[int, ...]
    pw_ship_spaces: frozenset
    population_boxes: tuple[int, ...]
    loop_ids: tuple[str, ...]
    loop_kind: tuple[str, ...]       # district | storehouse
    loop_faction: tuple[int, ...]
    loop_multiplier: tuple[int, ...]
    loop_ship: tuple[bool, ...]
    loop_opens_at: tuple[int, ...]
    leader_spaces: tuple[str, ...]   # action per space: market | populate | battle
    vices: tuple[str, ...]
    vice_cost: tuple[int, ...]
    vice_can_legalize: tuple[bool, ...]

    @property
    def max_population(self) -> int:
        return sum(self.population_boxes)

    def income(self, ships: int) -> tuple[int, int]:
        for lo, hi, dollars, tokens in self.port_bands:
            if lo <= ships <= hi:
                return dollars, tokens
        raise ValueError(f"no port band for {ships} ships")


@dataclass(frozen=True)
class Content:
    """All definitions of one content set, plus the physical card list."""

    board: Board
    defs: tuple[CardDef, ...]           # card id -> definition
    by_key: MappingProxyType            # card key -> tuple of card ids
    market_ids: tuple[int, ...]
    leader_ids: tuple[int, ...]         # indexed by seat
    battle_ids: tuple[tuple[int, ...], tuple[int, ...]]  # by faction
    population_ids: tuple[int, ...]
    event_ids: dict = field(default_factory=dict)       # deck name -> ids
    conflict_tables: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    folk_ids: tuple[int, ...] = ()      # the Folk Hero deck (Simulation Mode)
    digest: str = ""                    # sha256 of the data files (guards saved games)
    # Per-card facts by card id, derived once: the price for each faction, the index of
    # the card's vice on the board (-1 for none) and the Population it takes; and the
    # ids of each card category (saves and invariants test piles against them).
    prices: tuple[tuple[int, ...], tuple[int, ...]] = field(init=False, repr=False,
                                                            compare=False)
    vice_index: tuple[int, ...] = field(init=False, repr=False, compare=False)
    pop_slots: tuple[int, ...] = field(init=False, repr=False, compare=False)
    category_ids: MappingProxyType = field(init=False, repr=False, compare=False)
    #: boost type -> (card id -> that card's boosts of the type, () for none); only the
    #: types some card has (the rules read it on most questions: a plain dict)
    boosts_by_type: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "prices", tuple(tuple(d.price[fac] for d in self.defs)
                                                 for fac in (0, 1)))
        vices = self.board.vices
        object.__setattr__(self, "vice_index", tuple(vices.index(d.vice) if d.vice else -1
                                                     for d in self.defs))
        object.__setattr__(self, "pop_slots", tuple(d.pop_slots for d in self.defs))
        object.__setattr__(self, "category_ids", MappingProxyType({
            category: frozenset(i for i, d in enumerate(self.defs) if d.category == category)
            for category in CATEGORIES}))
        types = {kind for d in self.defs for kind in d.boosts_of}
        object.__setattr__(self, "boosts_by_type", {
            kind: tuple(d.boosts_of.get(kind, ()) for d in self.defs) for kind in types})

    def card(self, card_id: int) -> CardDef:
        """Definition of a card id; raises ContentError for an unknown id."""
        if not isinstance(card_id, int) or not 0 <= card_id < len(self.defs):
            raise ContentError(f"unknown card id {card_id!r}; ids are 0..{len(self.defs) - 1}")
        return self.defs[card_id]
