"""Load and validate the game content (``data/*.toml``) into frozen definitions.

The definitions (cards, board, their vocabularies) are :mod:`.content_defs`, re-exported
here: ``from singapore_env.engine.content import Content, SEAT_FACTION`` is the usual
import. The format is documented in ``docs/content-format.md``; any error names the
file, the card and the field.
"""

from __future__ import annotations

import hashlib
import tomllib
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

from .config import MAX_VALUE
from .content_defs import (SCHEMA_VERSION, DATA_DIR, FACTIONS, SEAT_NAMES, SEAT_FACTION, COLOURS,
                           SHAPES, CARD_KINDS, EFFECT_FIELDS, BOOST_FIELDS, END_GAME_FIELDS,
                           MODIFIER_FIELDS, LEGACY_METRICS, CONFLICT_ROW_EFFECTS, ContentError,
                           SECTION_KEYS, CATEGORIES, EXTRA_FILES, Effect, Connector, Legacy,
                           check_range,
                           CardDef, Board, Content)

__all__ = ["SCHEMA_VERSION", "DATA_DIR", "FACTIONS", "SEAT_NAMES", "SEAT_FACTION", "COLOURS",
           "SHAPES", "CARD_KINDS", "EFFECT_FIELDS", "BOOST_FIELDS", "END_GAME_FIELDS",
           "MODIFIER_FIELDS", "LEGACY_METRICS", "CONFLICT_ROW_EFFECTS", "ContentError",
           "SECTION_KEYS", "CATEGORIES", "EXTRA_FILES", "Effect", "Connector", "Legacy",
           "CardDef", "Board", "Content", "load_content", "default_content", "resolve_content",
           "check_numbers"]


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
            why = check_range(f"{etype}.{k}", v) if type(v) is int else ""
            if why:
                ctx.fail(f"{key}[{i}].{k}", why)
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
    why = check_range("card.pop_slots", out["pop_slots"])
    if why:
        ctx.fail("pop_slots", why)
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
    check_numbers(raw, path.name)
    return raw


def check_numbers(x, fname: str, where: str = "") -> None:
    """ContentError naming the first number of content data (a data file's table, or
    any nest of dicts, lists and tuples) past ``MAX_VALUE`` either way: the bound that
    keeps every score and counter of a game inside both engines' ints (docs/native.md,
    "Numbers")."""
    if isinstance(x, dict):
        for key, value in x.items():
            check_numbers(value, fname, f"{where}.{key}" if where else str(key))
    elif isinstance(x, (list, tuple)):
        for i, value in enumerate(x):
            check_numbers(value, fname, f"{where}[{i}]")
    elif isinstance(x, int) and not isinstance(x, bool) and not -MAX_VALUE <= x <= MAX_VALUE:
        raise ContentError(f"{fname}: {where}: {x} is past the limit of a content number "
                           f"(-{MAX_VALUE}..{MAX_VALUE})")


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

    for cdef in defs:
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
