"""Simulation Mode: the Rajas' Roles, the Colonial Rulers and the Agents' veto.

When the Anglo-Dutch Treaty comes into force, each Raja declares a Role for the rest
of the game: Colonial Ally or Resistance Leader. The engine asks the Rajas one after
the other (clockwise from the first player), but a declared Role stays hidden from
every other seat until both have declared; then both are revealed together and the
Agents become Colonial Rulers. For each Colonial Ally the Agents are then asked,
clockwise, whether they veto its use of the British Storehouse; the veto needs every
Agent's YES and lasts for the rest of the game.

The Role modifiers are small helpers read by the standard rules modules (income,
prices, district scoring, Storehouse access, War targets and spoils). A Role only
counts once revealed (:func:`role_of`), so every helper is neutral in the other
rulesets and before the Treaty.
"""

from __future__ import annotations

from ..decisions import DECISION, FastKind as Kind
from ..state import Frame
from .base import (PASS, YES, add_storehouse, auto, clockwise_from, decision, faction,
                   find_frame, log, mate, multiplier, pop, push, shuffle)

ALLY, LEADER, RULER = 0, 1, 2
ROLE_NAMES = ("Colonial Ally", "Resistance Leader", "Colonial Ruler")


def role_of(g, seat: int) -> int:
    """The seat's revealed Role (ALLY, LEADER, RULER), or -1 (none, or still hidden)."""
    return g.s.roles[seat] if g.s.roles_public else -1


# ---------------------------------------------------------------- setup
def setup_simulation(g) -> None:
    """Simulation setup (the simulation ruleset's setup step): put away the Malay star
    Battle cards and one British card of each key in ``sim_put_away_british``; shuffle
    the Folk Hero deck. (The Battle decks are already shuffled; each player then draws
    1 Battle card as usual.)"""
    s, defs = g.s, g.c.defs
    malay = s.battle_deck[1]
    s.put_away = [c for c in malay if defs[c].star]
    s.battle_deck[1] = [c for c in malay if not defs[c].star]
    british = s.battle_deck[0]
    for key in g.cfg.sim_put_away_british:
        card = next((c for c in british if defs[c].key == key), -1)
        if card >= 0:
            british.remove(card)
            s.put_away.append(card)
    s.folk_deck = list(g.c.folk_ids)
    shuffle(g, s.folk_deck)


# ---------------------------------------------------------------- declaring Roles
def role_frames(g) -> list[Frame]:
    """The Anglo-Dutch Treaty came into force: in a ruleset with Roles the Rajas declare,
    then all is revealed."""
    if not g.ruleset.has_roles:
        return []
    rajas = [p for p in clockwise_from(g.s.first_player) if faction(p) == 1]
    return [Frame("declare_role", p) for p in rajas] + [Frame("reveal_roles")]


@decision("declare_role")
class DeclareRole:
    """Choose a Role in secret: CHOOSE 0 = Colonial Ally, CHOOSE 1 = Resistance Leader."""

    @staticmethod
    def legal(g, f):
        return [DECISION[Kind.CHOOSE, ALLY], DECISION[Kind.CHOOSE, LEADER]]

    @staticmethod
    def apply(g, f, d):
        pop(g)
        g.s.roles[f.seat] = d.arg


@auto("reveal_roles")
def reveal_roles(g, f) -> None:
    """Both Rajas have declared: reveal the Roles, the Agents become Colonial Rulers,
    and the Agents may veto each Colonial Ally's use of the British Storehouse."""
    pop(g)
    s = g.s
    for p in range(4):
        if faction(p) == 0:
            s.roles[p] = RULER
    s.roles_public = 1
    log(g, "roles: " + ", ".join(f"seat {p} {ROLE_NAMES[s.roles[p]]}" for p in range(4)))
    agents = [p for p in clockwise_from(s.first_player) if faction(p) == 0]
    push(g, *[Frame("storehouse_veto", agents[0], ally=p, agents=agents[1:])
              for p in clockwise_from(s.first_player) if s.roles[p] == ALLY])


@decision("storehouse_veto")
class StorehouseVeto:
    """An Agent agrees (YES) to veto the Colonial Ally's use of the British Storehouse;
    the veto holds once every Agent agreed (PASS by any Agent ends the question)."""

    @staticmethod
    def legal(g, f):
        return [YES, PASS]

    @staticmethod
    def apply(g, f, d):
        pop(g)
        if d.kind != Kind.YES:
            return
        ally, rest = f.d.ally, f.d.agents
        if rest:
            push(g, Frame("storehouse_veto", rest[0], ally=ally, agents=rest[1:]))
        else:
            g.s.vetoed[ally] = 1
            log(g, f"the Agents veto seat {ally}'s use of the British Storehouse")


# ---------------------------------------------------------------- Storehouse access
def storehouse_of(g, seat: int) -> int:
    """The faction whose Storehouse ``seat`` uses (a Colonial Ally: the British one),
    or -1 when a Colonial Ally was vetoed."""
    if role_of(g, seat) == ALLY:
        return -1 if g.s.vetoed[seat] else 0
    return faction(seat)


def may_access(g, seat: int, fac: int) -> bool:
    """May ``seat`` place Influence on the Storehouse of ``fac`` (anyone may, except a
    Colonial Ally: only on the British one, and not once vetoed)?"""
    return role_of(g, seat) != ALLY or storehouse_of(g, seat) == fac


def storehouse_tokens(g, seat: int) -> int:
    """Tokens ``seat`` may spend from its Storehouse."""
    fac = storehouse_of(g, seat)
    return g.s.storehouse[fac] if fac >= 0 else 0


def spend_storehouse(g, seat: int, n: int) -> None:
    """Spend ``n`` tokens from the Storehouse ``seat`` uses."""
    fac = storehouse_of(g, seat)
    if fac >= 0:
        add_storehouse(g, fac, -n)


def lone_leader(g, seat: int) -> bool:
    """``seat`` is the only Resistance Leader."""
    return role_of(g, seat) == LEADER and g.s.roles.count(LEADER) == 1


def place_in_storehouse(g, seat: int, n: int, fac: int | None = None) -> None:
    """``seat`` places ``n`` tokens in a Storehouse (its own unless ``fac`` is given):
    nothing for a Storehouse it may not access; the only Resistance Leader places
    ``lone_leader_extra_tokens`` more in its own Storehouse."""
    own = storehouse_of(g, seat)
    fac = own if fac is None else fac
    if fac < 0 or not may_access(g, seat, fac):
        return
    if n > 0 and fac == own and lone_leader(g, seat):
        n += g.cfg.lone_leader_extra_tokens
    add_storehouse(g, fac, n)


# ---------------------------------------------------------------- Colonial Ally
def income_bonus(g, seat: int) -> int:
    """Extra Income of a Colonial Ally."""
    return g.cfg.ally_income if role_of(g, seat) == ALLY else 0


def ally_dual_price(g, seat: int) -> int | None:
    """For a Colonial Ally, the extra over the British price at which it may buy a
    dual-cost Market card; None for everyone else."""
    return g.cfg.ally_dual_price_extra if role_of(g, seat) == ALLY else None


def scores_everywhere(g, seat: int) -> bool:
    """A Colonial Ally's Influence scores in every District."""
    return role_of(g, seat) == ALLY


# ---------------------------------------------------------------- War
def war_targets(g, seat: int) -> list[int]:
    """Seats ``seat`` may declare War on: the other faction; a Colonial Ally none; a
    Resistance Leader also a Colonial Ally of its own faction."""
    role = role_of(g, seat)
    if role == ALLY:
        return []
    out = [p for p in range(4) if faction(p) != faction(seat)]
    if role == LEADER and role_of(g, mate(seat)) == ALLY:
        out.append(mate(seat))
    return out


def may_join(g, f) -> bool:
    """May the seat asked volunteer to join the War? Not a Colonial Ally, and not a
    seat already fighting (a Raja attacking the other Raja)."""
    if not g.s.roles_public:
        return True
    war = find_frame(g, "war")
    return role_of(g, f.seat) != ALLY and f.seat not in (war.seat, war.d.defender)


def spoils_multiplier(g, victor: int, opponents: list[int]) -> int:
    """The Spoils of War multiplier for ``victor`` against ``opponents``: Resistance
    Leader +5 against at least one Agent, -1 against only Colonial Allies; Colonial
    Ruler -2 against only Colonial Allies; never below ``spoils_multiplier_floor``."""
    base = multiplier(g)
    role = role_of(g, victor)
    only_allies = all(role_of(g, p) == ALLY for p in opponents)
    cfg = g.cfg
    if role == LEADER and any(faction(p) == 0 for p in opponents):
        base += cfg.leader_spoils_bonus_vs_agents
    elif role == LEADER and only_allies:
        base -= cfg.leader_spoils_penalty_vs_allies
    elif role == RULER and only_allies:
        base -= cfg.ruler_spoils_penalty_vs_allies
    else:
        return base
    return max(cfg.spoils_multiplier_floor, base)
