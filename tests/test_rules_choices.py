"""The choices of docs/rules.md where the sources are silent, each checked."""

from singapore_env.engine.decisions import Decision, Kind
from singapore_env.engine import Game
from singapore_env.engine.frames import ConflictPhase
from singapore_env.engine.rules.base import star_allowed_in_conflict
from singapore_env.engine.scenario import (card_id, give_hand, give_revealed, give_tableau,
                                    put_on_top, run_frame, script_dice)
from singapore_env.engine.state import Frame

PASS, YES = Decision(Kind.PASS), Decision(Kind.YES)


def game(seed=5) -> Game:
    g = Game(seed=seed)
    g.s.tableau = [[], [], [], []]
    for seat in range(4):
        give_tableau(g, seat, g.c.defs[g.c.leader_ids[seat]].key)
    return g


def conflict(strength_dice, plus=0, table="pirate_attack"):
    return Frame("conflict", -1, table=table, dice=strength_dice, plus=plus, base=2, per=1,
                 phase=ConflictPhase.ROLL, strength=0, cards=[[], [], [], []],
                 money=[0, 0, 0, 0], boosts=[[], [], [], []])


def test_forced_decision_is_applied_automatically():
    g = Game(seed=2)
    for _ in range(3):  # three players place their Leaders (skipping leader actions)
        seat = g.acting_seat
        g.step(next(d for d in g.legal_decisions() if d.kind == Kind.PLACE_LEADER))
        while g.acting_seat == seat:
            g.step(PASS)
    assert g.pending.kind != "place_leader"  # the last Leader space was taken for him
    assert sum(1 for x in g.s.leader_space if x >= 0) == 4


def test_money_only_contribution_is_not_a_volunteer_and_is_capped():
    g = game()
    g.s.first_player = 0
    g.s.hands = [[], [], [], []]
    g.s.wealth = [9, 0, 0, 0]
    script_dice(g, [1, 0])                       # 2D + 0 = 1
    run_frame(g, conflict(2))
    g.step(Decision(Kind.ADD_MONEY))             # $1 = the whole strength: cap reached
    assert g.s.wealth[0] == 8 and g.s.vp[0] == 0  # paid, no volunteer VP (no card)


def test_star_cards_in_conflicts():
    g = game()
    assert star_allowed_in_conflict(g)           # Singapore Treaty allows them
    g.s.anglo_dutch, g.s.ships = 1, 6
    assert not star_allowed_in_conflict(g)
    g.s.ships = 7
    assert star_allowed_in_conflict(g)


def test_counter_bonus_adds_when_contributing():
    g = game()
    g.s.first_player = 0
    g.s.hands = [[], [], [], []]
    g.s.wealth = [0, 0, 0, 0]
    give_tableau(g, 0, "police_force")
    give_hand(g, 0, "artillery_3")
    script_dice(g, [2, 2])                       # strength 4
    run_frame(g, conflict(2))
    g.step(Decision(Kind.COMMIT, 0))
    # 3 + Police Force 1 = 4: countered; volunteer VP 2 + 4
    assert g.s.vp[0] == 6


def test_lose_population_card_takes_one_cube_and_player_chooses():
    g = game()
    give_tableau(g, 2, "police_force", pops=["hokkien", "javanese"])
    give_tableau(g, 2, "sports_day", pops=["bugis"])
    g.s.population = [0, 6]
    run_frame(g, Frame("lose_pop", 2, n=1))
    assert g.pending.kind == "lose_pop"
    g.step(Decision(Kind.DISCARD_POP, 2))
    assert g.s.tableau[2][2].pops == [] and g.s.population[1] == 5


def test_starting_on_a_storehouse_puts_the_first_token_there():
    g = game()
    g.s.storehouse = [0, 0]
    run_frame(g, Frame("influence", 0, n=2, pos=-1, asking=0, store_asked=0))
    g.step(Decision(Kind.INFLUENCE_START, 7))    # the Malay Storehouse
    assert g.s.storehouse == [0, 1] and g.s.districts[0] == 1  # then B1


def test_godowns_stores_then_returns_influence():
    from singapore_env.engine.rules.activate import activate
    g = game()
    give_tableau(g, 2, "godowns")
    run_frame(g, Frame("influence", 2, n=3, pos=-1, asking=0, store_asked=0))
    assert Decision(Kind.STORE, 3) in g.legal_decisions()
    g.step(Decision(Kind.STORE, 3))
    slot = g.s.tableau[2][1]
    assert slot.stored == 3 and g.pending.kind != "influence"
    activate(g, 2, 1)
    g._run()
    assert slot.stored == 0
    assert g.pending.kind == "influence" and g.pending.d.n == 3


def test_school_counts_every_population_draw():
    from singapore_env.engine.rules.population import populate
    g = game()
    school = give_tableau(g, 3, "school")
    put_on_top(g, g.s.population_deck, "orang_laut")
    populate(g, 0)
    g._run()
    assert school.stored == 1


def test_police_force_discard_for_war_strength():
    g = game()
    g.s.storehouse = [7, 0]
    g.s.hands = [[], [], [], []]
    g.s.battle_deck = [[], []]
    g.s.battle_discard = [list(g.c.battle_ids[0]), list(g.c.battle_ids[1])]
    g.s.wealth = [0, 0, 3, 0]
    give_tableau(g, 0, "police_force")
    g.s.pw_track = [0]
    run_frame(g, Frame("actions", 0, left=2))
    g.step(Decision(Kind.WAR, 2))
    g.step(PASS)                                 # Resident stays out
    g.step(PASS)                                 # Sultan stays out
    assert g.pending.kind == "war_discard"
    script_dice(g, [1, 0, 1, 0, 0])              # 1 vs 1 ; +1 discard wins by 1
    g.step(Decision(Kind.DISCARD_CARD, 1))
    assert [g.c.defs[s.card].key for s in g.s.tableau[0]] == ["lieutenant_governor"]
    assert g.s.pw_track == []
    assert g.pending.kind == "spoils"


def test_andromache_hinders_another_players_raid():
    from singapore_env.engine.rules.raid import raid
    g = game()
    give_revealed(g, 1, "hms_andromache")
    g.s.ships, g.s.wealth[3] = 5, 0
    script_dice(g, [2])
    raid(g, 3)
    g._run()
    assert g.pending.kind == "hinder" and g.acting_seat == 1
    g.step(YES)
    assert g.s.wealth[3] == 0 and g.s.ships == 5


def test_buto_ijo_ignores_upkeep_payments():
    g = game()
    give_revealed(g, 2, "buto_ijo")
    give_tableau(g, 2, "police_force")
    g.s.pw_track = [2, 2]
    g.s.wealth = [0, 0, 0, 0]
    run_frame(g, Frame("upkeep"))
    assert g.pending.kind == "place_leader" and g.s.pw_track == [2, 2]


def test_unfundable_and_unclosable_token_is_removed():
    g = game()
    g.s.pw_track = [1]
    g.s.wealth = [0, 0, 0, 0]
    run_frame(g, Frame("upkeep"))
    assert g.s.pw_track == []


def test_vetoed_decree_is_not_refunded_and_gives_no_vp():
    from singapore_env.engine.rules.decree import decree
    g = game()
    give_tableau(g, 0, "courthouse")
    g.s.storehouse = [6, 5]
    decree(g, 2, 1)
    g._run()
    assert g.pending.kind == "veto"
    g.step(YES)
    assert g.s.storehouse == [0, 0] and g.s.vp[2] == 0 and g.s.outlawed[1] == -1


def test_search_buys_the_named_card_from_the_deck():
    from singapore_env.engine.rules.market import search, search_options
    g = game()
    give_tableau(g, 3, "naraina_pillai")
    temple = card_id(g, "hindu_temple")
    if temple not in g.s.market_deck:
        put_on_top(g, g.s.market_deck, "hindu_temple")
    g.s.wealth[3] = 20
    assert search_options(g, 3) == [Decision(Kind.SEARCH, 1)]
    search(g, 3, 1)
    g._run()
    while temple not in [s.card for s in g.s.tableau[3]]:
        g.step(g.legal_decisions()[0])
    assert temple not in g.s.market_deck
    assert search_options(g, 3) == []              # once per game


def test_hand_limit_blocks_buying():
    from singapore_env.engine.rules.market import buy_battle_options
    g = game()
    g.s.wealth[0] = 10
    g.s.hands[0] = []
    for _ in range(g.cfg.max_hand):
        g.s.hands[0].append(g.s.battle_discard[0].pop() if g.s.battle_discard[0]
                            else g.s.battle_deck[0].pop())
    assert buy_battle_options(g, 0) == []


def test_market_keeps_empty_slots_when_deck_runs_out():
    from singapore_env.engine.rules.market import flush_market
    g = game()
    g.s.market_discard.extend(g.s.market_deck)
    g.s.market_deck = []
    flush_market(g)
    assert g.s.market[0] == -1


def test_perahu_adds_a_ship_when_revealed():
    from singapore_env.engine.rules.market import reveal
    g = game()
    give_hand(g, 2, "perahu")
    ships = g.s.ships
    reveal(g, 2, len(g.s.hands[2]) - 1)
    assert g.s.ships == ships + 1 and card_id(g, "perahu") in g.s.revealed[2]


def test_conflict_vp_may_be_capped_at_the_event_strength():
    from singapore_env.engine.config import RulesConfig
    for full, expected in ((True, 2 + 9), (False, 2 + 4)):
        g = Game(seed=5, config=RulesConfig.standard(conflict_vp_full_strength=full))
        g.s.first_player = 0
        g.s.hands = [[], [], [], []]
        g.s.wealth = [0, 0, 0, 0]
        give_hand(g, 2, "spirit_of_badang")          # strength 9
        script_dice(g, [2, 2])                       # strength 4
        run_frame(g, conflict(2))
        while g.pending.kind == "contribute" and g.acting_seat != 2:
            g.step(PASS)
        g.step(Decision(Kind.COMMIT, 0))
        assert g.s.vp[2] == expected


def test_conflict_cards_stay_in_hand_until_the_reveal():
    g = game()
    g.s.first_player = 0
    g.s.hands = [[], [], [], []]
    g.s.wealth = [0, 0, 0, 0]
    card = give_hand(g, 0, "artillery_3")
    give_hand(g, 0, "artillery_4")
    script_dice(g, [2, 2, 2])
    run_frame(g, conflict(3, plus=5))
    g.step(Decision(Kind.COMMIT, 0))
    assert g.s.hands[0][0] == card and len(g.s.hands[0]) == 2   # marked, still held
    assert Decision(Kind.COMMIT, 0) not in g.legal_decisions()   # not twice
    g.step(PASS)                                 # the others hold nothing: no question
    assert card not in g.s.hands[0] and card in g.s.battle_discard[0]


def test_no_slavery_decree_without_slavery():
    from singapore_env.engine.config import RulesConfig
    from singapore_env.engine.rules.decree import decree_options
    g = Game(seed=1, config=RulesConfig.standard(slavery=False))
    g.s.storehouse = [10, 10]
    slavery = g.c.board.vices.index("slavery")
    assert Decision(Kind.DECREE, slavery) not in decree_options(g, 1)
    assert Decision(Kind.DECREE, slavery + 1) in decree_options(g, 1)


def test_empty_godowns_cannot_be_activated():
    from singapore_env.engine.rules.activate import activate_options
    g = game()
    g.s.tableau[2] = []
    slot = give_tableau(g, 2, "godowns")
    assert activate_options(g, 2) == []
    slot.stored = 2
    assert activate_options(g, 2) == [Decision(Kind.ACTIVATE, 0)]


def test_instant_effects_resolve_top_to_bottom():
    from singapore_env.engine.rules.market import gain_card
    g = game()
    g.s.population = [0, 5]
    gain_card(g, 2, take_card(g, "thian_hock_keng"))       # Influence 2, then 1 cube
    g._run()
    assert g.pending.kind == "influence" and g.s.population[1] == 5  # cube not yet added
    g.step(Decision(Kind.INFLUENCE_START, 4))
    while g.pending.kind in ("influence", "connect"):
        g.step(g.legal_decisions()[-1])
    assert g.s.population[1] == 6


def test_revealed_star_card_war_bonus_needs_star_conditions():
    from singapore_env.engine.rules.war import war_bonus
    g = game()
    give_revealed(g, 2, "hang_tuah")
    assert war_bonus(g, 2) == 0                  # Singapore Treaty: star cards not in War
    g.s.anglo_dutch, g.s.ships = 1, 7
    assert war_bonus(g, 2) > 0


def take_card(g, key):
    from singapore_env.engine.scenario import take
    return take(g, card_id(g, key))
