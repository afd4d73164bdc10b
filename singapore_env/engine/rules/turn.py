"""The round: Events, Income, player turns (Leader, two Actions, Free Actions),
Upkeep, Cleanup; and the end of the game."""

from __future__ import annotations

from ..decisions import DECISION, Decision, FastKind as Kind
from ..state import Frame
from .activate import activate, activate_options
from .base import (PASS, add_ships, add_storehouse, auto, clockwise_from, decision, gain, log,
                   next_clockwise, pop, push, record_fact)
from .decree import decree, decree_options
from .effects import resolve_instant
from .folk_hero import inspire, inspire_options, play_folk, play_options
from .market import (buy_battle, buy_battle_options, buy_market, buy_market_options,
                     flush_market, rebuild, rebuild_options, reveal, reveal_options, search,
                     search_options)
from .population import can_populate, populate
from .raid import raid, raid_options
from .roles import income_bonus, place_in_storehouse, role_frames
from .scoring import final_scores
from .war import declare_war, war_options


@auto("round")
def start_round(g, f) -> None:
    pop(g)
    g.s.round += 1
    log(g, f"round {g.s.round} begins; first player seat {g.s.first_player}")
    push(g, Frame("events"), Frame("income"),
         *[Frame("turn", p) for p in clockwise_from(g.s.first_player)],
         Frame("upkeep"), Frame("cleanup"))


@auto("events")
def events(g, f) -> None:
    pop(g)
    s = g.s
    if s.round == 1:
        add_ships(g, g.cfg.singapore_treaty_ships)
        log(g, "the Singapore Treaty is revealed")
        return
    treaty = not s.anglo_dutch and s.ships >= g.cfg.anglo_dutch_ship_threshold
    if treaty:
        s.anglo_dutch = 1
        record_fact(g, "anglo_dutch")
        log(g, "the Anglo-Dutch Treaty comes into force")
    if s.current_event >= 0:
        s.event_discard.append(s.current_event)
    s.current_event = s.event_deck.pop()
    event = g.c.defs[s.current_event]
    s.modifiers = [[m.type, m.args.get("n", 0)] for m in event.modifiers]
    log(g, f"event: {event.name}")
    push(g, *resolve_instant(g, -1, s.current_event))
    if treaty:  # Simulation Mode: the Roles are declared before the Event resolves
        push(g, *role_frames(g))


@auto("income")
def income(g, f) -> None:
    pop(g)
    s = g.s
    if s.round == 1:
        dollars, tokens = g.cfg.first_round_income, 0
    else:
        dollars, tokens = g.c.board.income(s.ships)
    for seat in range(4):
        gain(g, seat, dollars + income_bonus(g, seat))
    for fac in (0, 1):
        add_storehouse(g, fac, tokens)


@auto("turn")
def turn(g, f) -> None:
    pop(g)
    g.s.turn_seat = f.seat
    g.s.discount_used = 0
    push(g, Frame("place_leader", f.seat), Frame("actions", f.seat, left=g.cfg.actions_per_turn))


@decision("place_leader")
class PlaceLeader:
    """Place the Leader on an open Leader space (mandatory)."""

    @staticmethod
    def legal(g, f):
        return [DECISION[Kind.PLACE_LEADER, i] for i, occ in enumerate(g.s.leader_space)
                if occ < 0]

    @staticmethod
    def apply(g, f, d):
        pop(g)
        g.s.leader_space[d.arg] = f.seat
        push(g, Frame("leader_action", f.seat, space=d.arg))


@decision("leader_action")
class LeaderAction:
    """The Leader space's action, if feasible and wanted (PASS declines it)."""

    @staticmethod
    def legal(g, f):
        seat, action = f.seat, g.c.board.leader_spaces[f.d.space]
        if action == "market":
            opts = buy_market_options(g, seat) + [DECISION[Kind.LEADER_MONEY, 0]]
        elif action == "populate":
            opts = [DECISION[Kind.POPULATE, 0]] if can_populate(g, seat) else []
        else:
            opts = buy_battle_options(g, seat) + [DECISION[Kind.LEADER_STOREHOUSE, 0]]
        return opts + [PASS] if opts else []

    @staticmethod
    def apply(g, f, d):
        pop(g)
        seat = f.seat
        if d.kind == Kind.LEADER_MONEY:
            gain(g, seat, g.cfg.leader_money)
        elif d.kind == Kind.LEADER_STOREHOUSE:
            place_in_storehouse(g, seat, g.cfg.leader_storehouse_tokens)
        elif d.kind != Kind.PASS:
            g.ruleset.actions[d.kind](g, seat, d.arg)


# Core actions: kind -> fn(g, seat, arg). Each uses one Action (War two). A ruleset may
# play some its own way (Ruleset.own_actions); the turn plays its table (Ruleset.actions).
CORE = {
    Kind.BUY_MARKET: buy_market,
    Kind.BUY_BATTLE: lambda g, seat, arg: buy_battle(g, seat, bool(arg)),
    Kind.POPULATE: lambda g, seat, arg: populate(g, seat),
    Kind.ACTIVATE: activate,
    Kind.RAID: lambda g, seat, arg: raid(g, seat),
    Kind.DECREE: decree,
    Kind.WAR: declare_war,
    Kind.SEARCH: search,
    Kind.INSPIRE: inspire,
}
FREE = {Kind.REVEAL: reveal, Kind.REBUILD: rebuild, Kind.FOLK_HERO: play_folk}
ACTION_COST = {Kind.WAR: 2}


@decision("actions")
class Actions:
    """Two Actions (War counts as two) and any Free Actions; PASS ends the turn."""

    @staticmethod
    def legal(g, f):
        seat, left = f.seat, f.d.left
        opts: list[Decision] = []
        if left > 0:
            opts += buy_market_options(g, seat)
            opts += buy_battle_options(g, seat)
            if can_populate(g, seat):
                opts.append(DECISION[Kind.POPULATE, 0])
            opts += activate_options(g, seat)
            opts += raid_options(g, seat)
            opts += decree_options(g, seat)
            if left >= ACTION_COST[Kind.WAR]:
                opts += war_options(g, seat)
            opts += search_options(g, seat)
            opts += inspire_options(g, seat)
        opts += reveal_options(g, seat)
        opts += play_options(g, seat)
        opts += rebuild_options(g, seat)
        opts.append(PASS)
        return opts

    @staticmethod
    def apply(g, f, d):
        if d.kind == Kind.PASS:
            pop(g)
            g.s.turn_seat = -1
            return
        if d.kind in FREE:
            FREE[d.kind](g, f.seat, d.arg)
            return
        f.d.left -= ACTION_COST.get(d.kind, 1)
        g.ruleset.actions[d.kind](g, f.seat, d.arg)


@auto("cleanup")
def cleanup(g, f) -> None:
    pop(g)
    s = g.s
    s.leader_space = [-1] * len(s.leader_space)
    flush_market(g)
    s.first_player = next_clockwise(s.first_player)
    for row in s.tableau:
        for slot in row:
            slot.activated = False
    s.used_cards = []
    push(g, Frame("end_game") if not s.event_deck else Frame("round"))


@auto("end_game")
def end_game(g, f) -> None:
    pop(g)
    g.s.final_vp = final_scores(g)
    g.s.game_over = 1
    log(g, f"game over: final VP {g.s.final_vp}")
