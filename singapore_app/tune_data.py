"""Card-data knobs of a tuning study: a number in the card or board data
(``singapore_env/engine/data``), named by the data files' own keys, and the edited copy
of the data folder each setting plays with.

A name is ``card.ID.PATH`` (a card of ``cards.toml`` or ``folk_heroes.toml`` by its
``id``) or ``board.PATH`` (``board.toml``); ``PATH`` is the dotted keys down to one
integer, where a list is entered by position (``0``, ``1``...) or, for a list of records,
by the ``id`` or ``type`` of the one record that has it::

    card.cathedral.price                       # price = 6
    card.syed_omar_aljunied.price.british      # price = { british = 4, malay = 2 }
    card.natural_history_drawings.end_game.vp.n   # end_game = [{ type = "vp", n = 2 }]
    card.police_force.instant.influence.n      # the Influence its instant effect gives
    board.max_ships
    board.loop.B2.opens_at
    board.port_bands.3.2                       # a row of port_bands, its third number

The settings of a trial's data knobs are written as an edited copy of the study's data
folder in ``DIR/data/<hash>/`` (:func:`variant_folder`; the hash of the edits, so a
setting played again reuses its folder), which every game path reads as any edited data
folder (``Table.content``).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tomllib
from pathlib import Path

from singapore_env.engine.content import DATA_DIR, EXTRA_FILES, ContentError, load_content

from .study import StudyError

#: The first part of a data knob's name.
PREFIXES = ("card.", "board.")
_CARD_FILES = ("cards.toml", *EXTRA_FILES)


def is_data_knob(name: str) -> bool:
    """Whether ``name`` names a number in the card or board data (not a rules setting)."""
    return name.startswith(PREFIXES)


def _read(folder: Path, file: str) -> dict:
    path = folder / file
    if not path.exists():
        return {}
    with open(path, "rb") as fh:
        return tomllib.load(fh)


def locate(name: str, data: str | None = None) -> tuple[str, list]:
    """``(file, keys)``: where the data knob ``name`` sits in the data folder ``data``
    (the shipped one if None): the file and the keys from its top down to the number.
    StudyError names what is missing."""
    folder = Path(data) if data else DATA_DIR
    head, _, rest = name.partition(".")
    if head == "board":
        file, raw, keys, where, path = "board.toml", _read(folder, "board.toml"), [], "board", rest
    else:
        card, _, path = rest.partition(".")
        found = None
        for file in _CARD_FILES:
            raw = _read(folder, file)
            for section, records in raw.items():
                if isinstance(records, list):
                    for i, rec in enumerate(records):
                        if isinstance(rec, dict) and rec.get("id") == card:
                            found = file, raw, [section, i]
        if found is None:
            named = [rec["id"] for f in _CARD_FILES
                     for records in _read(folder, f).values() if isinstance(records, list)
                     for rec in records if isinstance(rec, dict)
                     and str(rec.get("name", "")).lower() == card.replace("_", " ").lower()]
            hint = f" (the card named so has id {named[0]!r})" if named else ""
            raise StudyError(f"knob {name!r}: no card with id {card!r} in "
                             f"{', '.join(_CARD_FILES)}{hint}; name it card.ID.FIELD")
        file, raw, keys = found
        where = f"card {card!r}"
    if not path:
        raise StudyError(f"knob {name!r}: name the number in {where}, e.g. "
                         + ("card.ID.price" if head == "card" else "board.max_ships"))
    node = _node(raw, keys)
    for part in path.split("."):
        if isinstance(node, dict):
            if part not in node:
                raise StudyError(f"knob {name!r}: {where} has no field {part!r}; fields: "
                                 f"{', '.join(sorted(node))}")
            keys.append(part)
        elif isinstance(node, list):
            keys.append(_entry(name, where, node, part))
        else:
            raise StudyError(f"knob {name!r}: {where}: {part!r} goes past a number")
        node = _node(raw, keys)
    if type(node) is not int:
        shown = "a table" if isinstance(node, dict) else "a list" if isinstance(node, list) \
            else f"{type(node).__name__} {node!r}"
        raise StudyError(f"knob {name!r}: a data knob names an integer; this is {shown}"
                         + (f" (keys: {', '.join(sorted(node))})" if isinstance(node, dict) else ""))
    return file, keys


def _entry(name: str, where: str, items: list, part: str) -> int:
    """The position in ``items`` a path part names: a position, or the ``id`` or
    ``type`` of exactly one record."""
    if part.isdigit():
        if int(part) >= len(items):
            raise StudyError(f"knob {name!r}: {where}: position {part} is past the list's "
                             f"{len(items)} entries")
        return int(part)
    hits = [i for i, x in enumerate(items) if isinstance(x, dict)
            and part in (x.get("id"), x.get("type"))]
    if len(hits) != 1:
        why = "no record" if not hits else f"{len(hits)} records"
        raise StudyError(f"knob {name!r}: {where}: {why} with id or type {part!r} in the "
                         f"list; give its position (0..{len(items) - 1})")
    return hits[0]


def _node(raw, keys: list):
    for key in keys:
        raw = raw[key]
    return raw


def standard_value(name: str, data: str | None = None) -> int:
    """The number the data knob ``name`` names in the data folder ``data`` (the
    shipped one if None)."""
    file, keys = locate(name, data)
    return _node(_read(Path(data) if data else DATA_DIR, file), keys)


def variant_folder(edits: dict, data: str | None, workdir: str | Path) -> str:
    """The folder of the data folder ``data`` (the shipped one if None) with the data
    knobs ``edits`` (``{name: value}``) set: ``workdir/data/<hash>/``, written once (the
    edited files rewritten, the others copied) and reused. StudyError if the edited data
    is not valid content."""
    base = Path(data) if data else DATA_DIR
    files = ["board.toml", *_CARD_FILES]
    digest = hashlib.sha256(json.dumps(sorted(edits.items())).encode())
    for file in files:
        if (base / file).exists():
            digest.update((base / file).read_bytes())
    folder = Path(workdir) / "data" / digest.hexdigest()[:16]
    if folder.is_dir():
        return str(folder)
    raws: dict = {}
    for name, value in edits.items():
        file, keys = locate(name, data)
        raw = raws.setdefault(file, _read(base, file))
        _node(raw, keys[:-1])[keys[-1]] = value
    tmp = folder.with_name(f"{folder.name}.{os.getpid()}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for file in files:
        if file in raws:
            (tmp / file).write_text(dump_toml(raws[file]))
        elif (base / file).exists():
            shutil.copyfile(base / file, tmp / file)
    try:
        load_content(tmp)
    except ContentError as exc:
        shutil.rmtree(tmp)
        shown = ", ".join(f"{k}={v}" for k, v in edits.items())
        raise StudyError(f"with {shown} the card data is not valid: {exc}") from None
    try:
        tmp.rename(folder)
    except OSError:  # written meanwhile by another run: the same bytes
        shutil.rmtree(tmp)
    return str(folder)


def dump_toml(raw: dict) -> str:
    """TOML text of a data file's table (what ``tomllib`` read): top-level values, then
    each list of records as ``[[section]]`` blocks, everything deeper inline."""
    lines, blocks = [], []
    for key, value in raw.items():
        if isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
            for rec in value:
                blocks += ["", f"[[{_key(key)}]]"] + [f"{_key(k)} = {_inline(v)}"
                                                      for k, v in rec.items()]
        else:
            lines.append(f"{_key(key)} = {_inline(value)}")
    return "\n".join(lines + blocks) + "\n"


def _key(key: str) -> str:
    return key if key and all(c.isalnum() or c in "_-" for c in key) and key.isascii() \
        else json.dumps(key)


def _inline(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_inline(x) for x in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_inline(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")
