"""The engine's read-only query face: what code above the engine may ask of a game.

The environment, the agents, the arena and the applications read a game's rules-derived
facts (prices, costs, open districts, projected scores, the seating) only through this
module; none of them imports :mod:`singapore_env.engine.rules` (an architecture test
holds that). Every function here reads a :class:`~singapore_env.engine.game.Game` (``g``)
and changes nothing; the rules modules stay free to reorganise behind it.

    from singapore_env.engine import Game, query
    g = Game(seed=7)
    query.market_price(g, 0, g.s.market[0])   # (price, once-per-turn discount used)
"""

from __future__ import annotations

from .rules.base import (AUTO, CLOCKWISE, D4_SIDES, FACES, LEGAL, active_boosts,
                         boost_total, district_open, find_frame, modifier_total, multiplier,
                         revealed_boosts, star_allowed_in_conflict, star_allowed_in_war)
from .rules.conflict import own_strength, spendable_boosts
from .rules.decree import decree_cost
from .rules.market import (buy_battle_options, market_price, price_function, search_candidates,
                           vice_outlawed)
from .rules.population import can_populate, vacant_slots
from .rules.raid_first_edition import COMMIT_FRAMES
from .rules.roles import (ALLY, LEADER, ROLE_NAMES, RULER, lone_leader, may_access,
                          scores_everywhere, spoils_multiplier, storehouse_of,
                          storehouse_tokens)
from .rules.scoring import legacy_metric, legacy_vp, projected_final_vp
from .rules.tableau import activation_groups, joins, move_card, run_bounds
from .rules.turn import ACTION_COST
from .rules.upkeep import tax_totals
from .rules.war import commit_options, committed_card, war_cost
from .rules.war_first_edition import steal_price

#: Frame kinds that ask a seat a decision (every ruleset's), and those the engine runs
#: itself when they reach the top of the stack.
DECISION_FRAME_KINDS: frozenset[str] = frozenset(LEGAL)
AUTOMATIC_FRAME_KINDS: frozenset[str] = frozenset(AUTO)


def row_after_card_move(row, src: int, target: int) -> list:
    """A copy of tableau ``row`` with the card at ``src`` moved to ``target`` (a target
    as a MOVE_CARD decision encodes it); ``row`` itself is left as it was."""
    trial = [slot.copy() for slot in row]
    move_card(trial, src, target)
    return trial


__all__ = [
    # seating, dice and roles
    "CLOCKWISE", "FACES", "D4_SIDES", "ALLY", "LEADER", "RULER", "ROLE_NAMES",
    # the turn and the frame stack
    "ACTION_COST", "DECISION_FRAME_KINDS", "AUTOMATIC_FRAME_KINDS", "COMMIT_FRAMES", "find_frame",
    # boosts and modifiers
    "boost_total", "modifier_total", "active_boosts", "revealed_boosts", "multiplier",
    "star_allowed_in_war", "star_allowed_in_conflict",
    # the board and the roles' storehouses
    "district_open", "tax_totals", "storehouse_of", "storehouse_tokens", "may_access",
    "lone_leader", "scores_everywhere",
    # prices and costs
    "market_price", "price_function", "vice_outlawed", "search_candidates",
    "buy_battle_options", "decree_cost", "war_cost", "steal_price", "spoils_multiplier",
    # tableau and population
    "activation_groups", "run_bounds", "joins", "row_after_card_move", "vacant_slots",
    "can_populate",
    # conflicts and wars
    "own_strength", "spendable_boosts", "commit_options", "committed_card",
    # scoring
    "legacy_metric", "legacy_vp", "projected_final_vp",
]
