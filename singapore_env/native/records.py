"""What the compiled module is built from: the rulesets it plays (:data:`NATIVE_RULESETS`,
:func:`plays`), and its copies of the Python engine's loaded
:class:`~singapore_env.engine.content.Content` (:func:`_content`, kept for the last few
contents used), :class:`~singapore_env.engine.config.RulesConfig` with the engine's
constants (:func:`_config`) and table of shared Decision objects (:func:`_decision_table`):
no card or number is written twice.
"""

from __future__ import annotations

from collections import OrderedDict

from ..engine.config import NUMBER_LIMIT, RulesConfig
from ..engine.content import Content, check_numbers
from ..engine.decisions import DECISION, N_CHOOSE, N_LOOP, Kind, arg_sizes
from ..engine.query import ACTION_COST, D4_SIDES, FACES
from ..engine.rulesets import BY_NAME, ruleset_of
from ..engine.state import VP_SOURCES
from .loading import require

#: The ruleset procedures the native engine implements (``Ruleset.procedures``).
NATIVE_PROCEDURES = frozenset({"first_edition_raid_and_war", "simulation_setup", "roles"})
#: The rulesets the native engine plays: those whose every procedure it implements.
NATIVE_RULESETS = tuple(name for name, ruleset in BY_NAME.items()
                        if ruleset.procedures <= NATIVE_PROCEDURES)


def plays(cfg: RulesConfig) -> bool:
    """Whether the native engine plays this configuration's ruleset (knows each of its
    procedures)."""
    return ruleset_of(cfg).procedures <= NATIVE_PROCEDURES


#: Content digest -> the native copy of that Content, the most recently used last: a
#: few contents at a time (a copy is about 0.3 MB; the games and encoders using one keep
#: it alive themselves).
_NATIVE_CONTENT: OrderedDict[str, tuple[Content, object]] = OrderedDict()
_NATIVE_CONTENT_KEPT = 4


#: (max_tableau, max_hand) -> the native table of the shared Decision objects.
_DECISION_TABLES: dict[tuple[int, int], object] = {}


def _decision_table(cfg: RulesConfig):
    """The Decision objects of the action table of ``cfg``'s limits, for the native
    engine to hand out as legal decisions."""
    key = (cfg.max_tableau, cfg.max_hand)
    table = _DECISION_TABLES.get(key)
    if table is None:
        sizes = arg_sizes(*key)
        kinds = sorted(int(k) for k in Kind)
        offsets, decisions = [], []
        for kind in kinds:
            offsets.append(len(decisions))
            decisions += [DECISION[kind, arg] for arg in range(sizes[kind])]
        table = _DECISION_TABLES[key] = require().DecisionTable(
            decisions, offsets, [sizes[kind] for kind in kinds], DECISION.__getitem__)
    return table


def _content(content: Content):
    """The native engine's copy of a loaded Content (what the rules read of it), built
    once per content digest while it stays among the last few used."""
    key = content.digest or f"id {id(content)}"  # (the entry keeps that id taken)
    entry = _NATIVE_CONTENT.get(key)
    if entry is None:
        record = _content_record(content)
        check_numbers(record, "content")  # (a Content built by hand, not loaded)
        entry = _NATIVE_CONTENT[key] = (content, require().content(record))
        while len(_NATIVE_CONTENT) > _NATIVE_CONTENT_KEPT:
            _NATIVE_CONTENT.popitem(last=False)
    elif next(reversed(_NATIVE_CONTENT)) != key:
        _NATIVE_CONTENT.move_to_end(key)
    return entry[1]


def _effects(effects) -> list[dict]:
    return [{"type": e.type, **e.args} for e in effects]


def _content_record(content: Content) -> dict:
    """A Content as plain lists and dicts, for the native engine to read."""
    b = content.board
    board = {"max_ships": b.max_ships, "max_population": b.max_population,
             "port_bands": [list(x) for x in b.port_bands],
             "multiplier_track": list(b.multiplier_track),
             "pw_ship_spaces": sorted(b.pw_ship_spaces), "loop_ids": list(b.loop_ids),
             "loop_kind": list(b.loop_kind), "loop_faction": list(b.loop_faction),
             "loop_multiplier": list(b.loop_multiplier),
             "loop_ship": [int(x) for x in b.loop_ship], "loop_opens_at": list(b.loop_opens_at),
             "leader_spaces": list(b.leader_spaces), "vices": list(b.vices),
             "vice_cost": list(b.vice_cost),
             "vice_can_legalize": [int(x) for x in b.vice_can_legalize]}
    defs = [{"key": d.key, "name": d.name, "category": d.category, "price": list(d.price),
             "kinds": sorted(d.kinds), "vice": content.vice_index[i], "pop_slots": d.pop_slots,
             "left": (d.left.colour, d.left.shape) if d.left else None,
             "right": (d.right.colour, d.right.shape) if d.right else None,
             "instant": _effects(d.instant), "action": _effects(d.action),
             "boosts": _effects(d.boosts), "end_game": _effects(d.end_game),
             "modifiers": _effects(d.modifiers), "faction": d.faction, "strength": d.strength,
             "star": bool(d.star),
             "legacies": [(x.metric, [list(band) for band in x.bands], x.per) for x in d.legacies],
             "tax_player": d.tax_player, "tax_neutral": d.tax_neutral,
             "cost_terms": [list(x) for x in d.cost_terms]}
            for i, d in enumerate(content.defs)]
    return {"board": board, "defs": defs,
            "conflict_tables": {name: [(low, high, _effects(effects)) for low, high, effects in rows]
                                for name, rows in content.conflict_tables.items()},
            "market_ids": list(content.market_ids), "leader_ids": list(content.leader_ids),
            "population_ids": list(content.population_ids), "folk_ids": list(content.folk_ids),
            "battle_ids": [list(ids) for ids in content.battle_ids],
            "event_ids_i": list(content.event_ids.get("I", ())),
            "event_ids_ii": list(content.event_ids.get("II", ()))}


def _config(cfg: RulesConfig):
    """The native engine's copy of a configuration, with the engine's constants."""
    record = cfg.to_dict()
    procedures = ruleset_of(cfg).procedures
    record.update(n_loop=N_LOOP, n_choose=N_CHOOSE, action_cost_war=ACTION_COST[Kind.WAR],
                  number_limit=NUMBER_LIMIT, d4_sides=D4_SIDES, faces=list(FACES),
                  vp_sources=list(VP_SOURCES),
                  **{name: name in procedures for name in NATIVE_PROCEDURES})
    return require().config(record)
