"""Load and validate the game content (``data/*.toml``) into frozen definitions.

Every physical card gets an integer *card id*; the game state only ever stores those
ids. ``Content.defs[card_id]`` is the card's :class:`CardDef`. The format is
documented in ``docs/content-format.md``; any error names the file, the card and the
field.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

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
LEGACY_METRICS = {
    "wealth", "population_cards", "dependent_cards", "pop_on_dependents", "tax_tokens",
    "public_works_tokens", "personality_cards", "public_works_cards", "commerce_cards",
    "battle_cards", "storehouse_tokens", "outlawed_vices", "wars_won",
}
CONFLICT_ROW_EFFECTS = {
    "storehouse_all", "wealth_all", "ships", "lose_population_card", "remove_influence",
}


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


# ---------------------------------------------------------------- validation helpers
class _Ctx:
    def __init__(self, file: str, where: str):
        self.file, self.where = file, where

    def fail(self, field_name: str, msg: str):
        raise ContentError(f"{self.file}: {self.where}: field {field_name!r}: {msg}")

    def get(self, d: dict, key: str, typ, default=..., choices=None):
        if key not in d:
            if default is ...:
                self.fail(key, "is required")
            return default
        value = d[key]
        if typ is int and isinstance(value, bool) or not isinstance(value, typ):
            self.fail(key, f"expected {getattr(typ, '__name__', typ)}, got {value!r}")
        if choices is not None and value not in choices:
            self.fail(key, f"{value!r} is not one of {sorted(choices)}")
        return value


def _effects(ctx: _Ctx, raw, key: str, vocab: dict[str, dict]) -> tuple[Effect, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        ctx.fail(key, "expected a list of records")
    out = []
    for i, rec in enumerate(raw):
        if not isinstance(rec, dict) or "type" not in rec:
            ctx.fail(f"{key}[{i}]", "expected a record with a 'type'")
        etype = rec["type"]
        if etype not in vocab:
            ctx.fail(f"{key}[{i}].type", f"unknown type {etype!r}; known: {sorted(vocab)}")
        fields = dict(vocab[etype])
        for k, v in rec.items():
            if k == "type":
                continue
            if k not in fields:
                ctx.fail(f"{key}[{i}].{k}", f"not a field of {etype!r}; fields: {sorted(fields)}")
            default = fields[k]
            if isinstance(default, bool):
                ok = isinstance(v, bool)
            elif isinstance(default, int):
                ok = isinstance(v, int) and not isinstance(v, bool)
            else:
                ok = isinstance(v, type(default))
            if not ok:
                ctx.fail(f"{key}[{i}].{k}", f"expected {type(default).__name__}, got {v!r}")
            fields[k] = tuple(v) if isinstance(v, list) else v
        out.append(Effect(etype, MappingProxyType(fields)))
    return tuple(out)


def _connector(ctx: _Ctx, raw: str, key: str) -> Connector | None:
    if raw == "none":
        return None
    parts = raw.split("_") if isinstance(raw, str) else []
    if len(parts) != 2 or parts[0] not in COLOURS or parts[1] not in SHAPES:
        ctx.fail(key, f"{raw!r} is not 'none' or <black|red|both>_<solid|notch>")
    return Connector(parts[0], parts[1])


def _card_common(ctx: _Ctx, raw: dict, category: str) -> dict:
    out = {
        "key": ctx.get(raw, "id", str),
        "name": ctx.get(raw, "name", str),
        "category": category,
        "designed": ctx.get(raw, "designed", bool, False),
        "note": ctx.get(raw, "note", str, ""),
    }
    return out


def _tableau_card(ctx: _Ctx, raw: dict, out: dict) -> None:
    conns = ctx.get(raw, "connectors", list, ["none", "none"])
    if len(conns) != 2:
        ctx.fail("connectors", "expected [left, right]")
    out["left"] = _connector(ctx, conns[0], "connectors[0]")
    out["right"] = _connector(ctx, conns[1], "connectors[1]")
    out["pop_slots"] = ctx.get(raw, "pop_slots", int, 0)
    out["instant"] = _effects(ctx, raw.get("instant"), "instant", EFFECT_FIELDS)
    out["action"] = _effects(ctx, raw.get("action"), "action", EFFECT_FIELDS)
    out["boosts"] = _effects(ctx, raw.get("boosts"), "boosts", BOOST_FIELDS)
    out["end_game"] = _effects(ctx, raw.get("end_game"), "end_game", END_GAME_FIELDS)
    kinds = ctx.get(raw, "kinds", list, [])
    for k in kinds:
        if k not in CARD_KINDS:
            ctx.fail("kinds", f"unknown kind {k!r}; known: {sorted(CARD_KINDS)}")
    out["kinds"] = frozenset(kinds)


def _parse_market(ctx: _Ctx, raw: dict, vices: tuple[str, ...]) -> CardDef:
    out = _card_common(ctx, raw, "market")
    price = raw.get("price")
    if isinstance(price, int) and not isinstance(price, bool):
        out["price"] = (price, price)
    elif isinstance(price, dict) and set(price) == {"british", "malay"}:
        out["price"] = (ctx.get(price, "british", int), ctx.get(price, "malay", int))
    else:
        ctx.fail("price", f"expected an int or {{british = n, malay = n}}, got {price!r}")
    if min(out["price"]) < 0:
        ctx.fail("price", "must be >= 0")
    _tableau_card(ctx, raw, out)
    vice = ctx.get(raw, "vice", str, "")
    if vice and vice not in vices:
        ctx.fail("vice", f"{vice!r} is not one of {list(vices)}")
    if bool(vice) != bool(out["kinds"] & {"vice", "slavery"}):
        ctx.fail("vice", "a card has a vice exactly when its kinds include vice or slavery")
    out["vice"] = vice
    return CardDef(**out)


def _parse_leader(ctx: _Ctx, raw: dict) -> CardDef:
    out = _card_common(ctx, raw, "leader")
    _tableau_card(ctx, raw, out)
    out["seat"] = SEAT_NAMES.index(ctx.get(raw, "seat", str, choices=SEAT_NAMES))
    out["faction"] = FACTIONS.index(ctx.get(raw, "faction", str, choices=FACTIONS))
    if out["faction"] != SEAT_FACTION[out["seat"]]:
        ctx.fail("faction", "does not match the seat's faction")
    legacies = []
    for i, leg in enumerate(ctx.get(raw, "legacies", list, [])):
        lctx = _Ctx(ctx.file, f"{ctx.where} legacy {i}")
        metric = lctx.get(leg, "metric", str, choices=LEGACY_METRICS)
        bands = lctx.get(leg, "bands", list, [])
        if not all(isinstance(b, list) and len(b) == 2 for b in bands):
            lctx.fail("bands", "expected a list of [threshold, vp] pairs")
        per = lctx.get(leg, "per", int, 0)
        if not bands and not per:
            lctx.fail("bands", "a legacy needs bands or per")
        legacies.append(Legacy(lctx.get(leg, "name", str), metric,
                               tuple(tuple(b) for b in bands), per))
    out["legacies"] = tuple(legacies)
    parts = ctx.get(raw, "designed_parts", list, [])
    for part in parts:
        if part not in ("legacies", "attribute"):
            ctx.fail("designed_parts", f"{part!r} is not 'legacies' or 'attribute'")
    out["designed_parts"] = tuple(parts)
    attr = ctx.get(raw, "attribute", dict, {})
    if attr:
        actx = _Ctx(ctx.file, f"{ctx.where} attribute")
        out["attribute_name"] = actx.get(attr, "name", str)
        out["boosts"] = out["boosts"] + _effects(actx, attr.get("boosts"), "boosts", BOOST_FIELDS)
    return CardDef(**out)


def _parse_battle(ctx: _Ctx, raw: dict) -> CardDef:
    out = _card_common(ctx, raw, "battle")
    out["faction"] = FACTIONS.index(ctx.get(raw, "faction", str, choices=FACTIONS))
    out["strength"] = ctx.get(raw, "strength", int)
    if not 0 <= out["strength"] <= 9:
        ctx.fail("strength", "must be 0..9")
    out["star"] = ctx.get(raw, "star", bool, False)
    out["boosts"] = _effects(ctx, raw.get("reveal"), "reveal", BOOST_FIELDS)
    return CardDef(**out)


def _parse_population(ctx: _Ctx, raw: dict) -> CardDef:
    out = _card_common(ctx, raw, "population")
    ctx.get(raw, "band", str, "", choices={"", "green", "purple"})
    out["instant"] = _effects(ctx, raw.get("instant"), "instant", EFFECT_FIELDS)
    return CardDef(**out)


def _parse_folk_hero(ctx: _Ctx, raw: dict) -> CardDef:
    out = _card_common(ctx, raw, "folk_hero")
    out["instant"] = _effects(ctx, raw.get("instant"), "instant", EFFECT_FIELDS)
    for e in out["instant"]:
        if e.type == "conflict":
            ctx.fail("instant", "a Folk Hero card cannot start a Conflict Event")
    return CardDef(**out)


def _parse_event(ctx: _Ctx, raw: dict) -> CardDef:
    out = _card_common(ctx, raw, "event")
    out["deck"] = ctx.get(raw, "deck", str, choices={"I", "II"})
    out["instant"] = _effects(ctx, raw.get("instant"), "instant", EFFECT_FIELDS)
    out["modifiers"] = _effects(ctx, raw.get("modifiers"), "modifiers", MODIFIER_FIELDS)
    return CardDef(**out)


def _parse_board(path: Path) -> Board:
    raw = _load_toml(path)
    ctx = _Ctx(path.name, "board")
    loop = ctx.get(raw, "loop", list)
    factions = []
    for i, sp in enumerate(loop):
        sctx = _Ctx(path.name, f"loop[{i}]")
        sctx.get(sp, "kind", str, choices={"district", "storehouse"})
        factions.append(FACTIONS.index(sctx.get(sp, "faction", str, choices=FACTIONS)))
    vices = ctx.get(raw, "vice", list)
    return Board(
        max_ships=ctx.get(raw, "max_ships", int),
        port_bands=tuple(tuple(b) for b in ctx.get(raw, "port_bands", list)),
        multiplier_track=tuple(ctx.get(raw, "multiplier_track", list)),
        pw_ship_spaces=frozenset(ctx.get(raw, "public_works_ship_spaces", list)),
        population_boxes=tuple(ctx.get(raw, "population_boxes", list)),
        loop_ids=tuple(sp["id"] for sp in loop),
        loop_kind=tuple(sp["kind"] for sp in loop),
        loop_faction=tuple(factions),
        loop_multiplier=tuple(sp.get("multiplier", 0) for sp in loop),
        loop_ship=tuple(sp.get("ship", False) for sp in loop),
        loop_opens_at=tuple(sp.get("opens_at", 0) for sp in loop),
        leader_spaces=tuple(sp["action"] for sp in ctx.get(raw, "leader_space", list)),
        vices=tuple(v["id"] for v in vices),
        vice_cost=tuple(v["outlaw_cost"] for v in vices),
        vice_can_legalize=tuple(v["can_legalize"] for v in vices),
    )


def _load_toml(path: Path) -> dict:
    try:
        with open(path, "rb") as fh:
            raw = tomllib.load(fh)
    except FileNotFoundError:
        raise ContentError(f"{path}: file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{path.name}: not valid TOML: {exc}") from None
    version = raw.get("schema_version")
    if version != SCHEMA_VERSION:
        raise ContentError(
            f"{path.name}: schema_version is {version!r}, this engine reads {SCHEMA_VERSION}"
        )
    return raw


def load_content(data_dir: str | Path = DATA_DIR, slavery: bool = True) -> Content:
    """Load ``board.toml`` and ``cards.toml`` from ``data_dir`` and validate them.

    ``slavery=False`` leaves out the cards whose kinds include ``slavery``.
    """
    data_dir = Path(data_dir)
    extra = [data_dir / name for name in EXTRA_FILES if (data_dir / name).exists()]
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in [
        data_dir / "board.toml", data_dir / "cards.toml", *extra])).hexdigest()[:16] \
        if (data_dir / "cards.toml").exists() and (data_dir / "board.toml").exists() else ""
    board = _parse_board(data_dir / "board.toml")
    path = data_dir / "cards.toml"
    raw = _load_toml(path)
    fname = path.name

    defs: list[CardDef] = []
    by_key: dict[str, list[int]] = {}
    seen: set[str] = set()

    def add(section: str, parser, rec: dict, extra=(), fname: str = fname) -> list[int]:
        ctx = _Ctx(fname, f"[[{section}]] {rec.get('id', '?')!r}")
        unknown = sorted(set(rec) - SECTION_KEYS[section])
        if unknown:
            ctx.fail(unknown[0], f"unknown field; fields of [[{section}]]: "
                                 f"{sorted(SECTION_KEYS[section])}")
        cdef = parser(ctx, rec, *extra)
        if cdef.key in seen:
            ctx.fail("id", f"duplicate id {cdef.key!r}")
        seen.add(cdef.key)
        count = ctx.get(rec, "count", int, 1)
        if count < 1:
            ctx.fail("count", "must be >= 1")
        ids = []
        for _ in range(count):
            ids.append(len(defs))
            defs.append(cdef)
        by_key[cdef.key] = ids
        return ids

    market: list[int] = []
    for rec in raw.get("market", []):
        ids = add("market", _parse_market, rec, (board.vices,))
        if slavery or "slavery" not in defs[ids[0]].kinds:
            market.extend(ids)
    leaders = [-1] * 4
    for rec in raw.get("leader", []):
        (cid,) = add("leader", _parse_leader, rec)
        leaders[defs[cid].seat] = cid
    if -1 in leaders:
        missing = [SEAT_NAMES[i] for i, c in enumerate(leaders) if c == -1]
        raise ContentError(f"{fname}: [[leader]]: missing leader for seats {missing}")
    battle: tuple[list[int], list[int]] = ([], [])
    for rec in raw.get("battle", []):
        ids = add("battle", _parse_battle, rec)
        battle[defs[ids[0]].faction].extend(ids)
    population: list[int] = []
    for rec in raw.get("population", []):
        population.extend(add("population", _parse_population, rec))
    events: dict[str, list[int]] = {"I": [], "II": []}
    for rec in raw.get("event", []):
        ids = add("event", _parse_event, rec)
        events[defs[ids[0]].deck].extend(ids)
    folk: list[int] = []
    for path in extra:
        for rec in _load_toml(path).get("folk_hero", []):
            folk.extend(add("folk_hero", _parse_folk_hero, rec, fname=path.name))

    tables = {}
    for name, table in raw.get("conflict_tables", {}).items():
        ctx = _Ctx(fname, f"[conflict_tables.{name}]")
        rows = []
        for i, row in enumerate(ctx.get(table, "rows", list)):
            if not (isinstance(row, list) and len(row) == 3):
                ctx.fail(f"rows[{i}]", "expected [low, high, [effects]]")
            effs = _effects(ctx, row[2], f"rows[{i}]", EFFECT_FIELDS)
            for e in effs:
                if e.type not in CONFLICT_ROW_EFFECTS:
                    ctx.fail(f"rows[{i}]", f"{e.type!r} cannot be a conflict result")
            rows.append((row[0], row[1], effs))
        tables[name] = tuple(rows)

    for cid, cdef in enumerate(defs):
        for e in cdef.instant:
            if e.type == "conflict" and e["table"] not in tables:
                raise ContentError(
                    f"{fname}: {cdef.category} {cdef.key!r}: field 'instant': conflict table "
                    f"{e['table']!r} is not defined; defined: {sorted(tables)}")
        for b in cdef.boosts:
            if b.type == "search":
                for k in b["cards"]:
                    if k not in by_key:
                        raise ContentError(
                            f"{fname}: {cdef.category} {cdef.key!r}: field 'boosts': search "
                            f"names unknown card {k!r}")
    for faction in (0, 1):
        if not battle[faction]:
            raise ContentError(f"{fname}: [[battle]]: no cards for faction {FACTIONS[faction]}")

    return Content(
        board=board,
        defs=tuple(defs),
        by_key=MappingProxyType({k: tuple(v) for k, v in by_key.items()}),
        market_ids=tuple(market),
        leader_ids=tuple(leaders),
        battle_ids=(tuple(battle[0]), tuple(battle[1])),
        population_ids=tuple(population),
        event_ids={k: tuple(v) for k, v in events.items()},
        conflict_tables=MappingProxyType(tables),
        folk_ids=tuple(folk),
        digest=digest + ("" if slavery else "-noslavery"),
    )


@lru_cache(maxsize=8)
def default_content(slavery: bool = True) -> Content:
    """The shipped content (cached)."""
    return load_content(DATA_DIR, slavery=slavery)


def resolve_content(content: "Content | str | Path | None" = None,
                    slavery: bool = True) -> Content:
    """The content a game plays with: the shipped one (``None``), a loaded
    :class:`Content`, or the folder of an edited copy of the data files (a path: loaded
    with :func:`load_content` for ``slavery`` and cached per process).

    A path keeps objects that carry it picklable (worker processes load it themselves).
    """
    if content is None:
        return default_content(slavery)
    if isinstance(content, Content):
        return content
    if isinstance(content, (str, Path)):
        folder = Path(content).expanduser().resolve()
        if not folder.is_dir():
            raise ContentError(f"content folder {str(content)!r} does not exist (give a copy "
                               f"of {DATA_DIR} with edited files)")
        return _folder_content(str(folder), slavery)
    raise TypeError(f"content must be a Content, a data folder path or None, "
                    f"got {type(content).__name__}")


@lru_cache(maxsize=16)
def _folder_content(folder: str, slavery: bool) -> Content:
    return load_content(folder, slavery=slavery)
