"""Every worked example of the rulebook, reaching the rulebook's numbers.

Seats: 0 Lieutenant-Governor, 1 Resident (British Agents); 2 Temenggong, 3 Sultan
(Malay Rajas). The rulebook names players by colour; each test says who is who.
"""

import pytest

from singapore_env.engine.decisions import Decision, Kind
from singapore_env.engine import Game
from singapore_env.engine.frames import ConflictPhase
from singapore_env.engine.rules.activate import activate, activate_options
from singapore_env.engine.rules.base import multiplier
from singapore_env.engine.rules.population import populate
from singapore_env.engine.rules.tableau import activation_groups
from singapore_env.engine.scenario import (card_id, give_hand, give_revealed, give_tableau,
                                    put_on_top, run_frame, script_dice)
from singapore_env.engine.state import Frame

PASS, YES = Decision(Kind.PASS), Decision(Kind.YES)
B1, B2, B3, BS, G1, G2, G3, GS = range(8)


def game() -> Game:
    g = Game(seed=7)
    g.s.tableau = [[], [], [], []]
    for seat in range(4):  # leaders back in their own tableaux, alone
        give_tableau(g, seat, g.c.defs[g.c.leader_ids[seat]].key)
    return g


def tokens(g, space):
    return g.s.districts[space * 4: space * 4 + 4]


def coleman_school_resident(school_up: bool = True):
    """The rulebook's Community of the Resident: G.D. Coleman = School (with a
    Population card when face up) = Resident."""
    g = game()
    res = 1
    g.s.tableau[res] = []
    give_tableau(g, res, "gd_coleman", link=True)
    give_tableau(g, res, "school", link=True, pops=["hokkien"] if school_up else [],
                 up=school_up)
    give_tableau(g, res, "resident")
    return g, res


def influence(seat, n):
    return Frame("influence", seat, n=n, pos=-1, asking=0, store_asked=0)


# --------------------------------------------------------------- Placing Influence
def test_influence_placement_and_district_scoring_example():
    """Important Concepts: Pink (Raja) places 4 Influence: G1, G2, own Storehouse, B1;
    the x2 green district then holds 5 tokens: Blue (Raja) +2 VP, Pink +6 VP, Yellow
    (Agent) nothing."""
    g = game()
    pink, blue, yellow = 2, 3, 0
    g.s.population = [0, 6]             # G2 open, G3 closed; only B1 open on the blue side
    g.s.storehouse = [4, 3]
    g.s.districts[G2 * 4 + pink] = 2
    g.s.districts[G2 * 4 + blue] = 1
    g.s.districts[G2 * 4 + yellow] = 1
    ships, vp = g.s.ships, list(g.s.vp)
    run_frame(g, influence(pink, 4))
    assert set(g.legal_decisions()) == {Decision(Kind.INFLUENCE_START, sp)
                                        for sp in (B1, BS, G1, G2, GS)}
    g.step(Decision(Kind.INFLUENCE_START, G1))
    assert g.pending.kind == "influence" and g.legal_decisions() == [YES, PASS]
    g.step(YES)                          # the 3rd token in the own Storehouse
    assert tokens(g, G1)[pink] == 1
    assert tokens(g, B1)[pink] == 1      # the 4th token must go to the open blue district
    assert g.s.storehouse == [4, 4]
    assert tokens(g, G2) == [0, 0, 0, 0]  # scored and cleared
    assert g.s.vp[pink] - vp[pink] == 6
    assert g.s.vp[blue] - vp[blue] == 2
    assert g.s.vp[yellow] == vp[yellow]
    assert g.s.ships == ships + 1        # the x2 district shows a ship


def test_influence_skips_storehouse_when_declined_and_closed_districts():
    g = game()
    run_frame(g, influence(0, 3))
    g.step(Decision(Kind.INFLUENCE_START, B1))  # B2, B3 closed
    g.step(PASS)                                 # pass the British Storehouse
    assert tokens(g, B1)[0] == 1 and tokens(g, G1)[0] == 1
    assert g.pending.kind == "influence" and g.pending.d.n == 1  # at the Malay Storehouse
    g.step(PASS)
    assert tokens(g, B1)[0] == 2 and g.s.storehouse == [0, 0]


# --------------------------------------------------------------- Population
def test_population_example_orang_laut_opens_second_district():
    """Malay 7 cubes (G2 open), British 5; Red (Agent) populates Orang Laut (+2):
    the 1st cube fills box 1, opens B2 and the multiplier becomes x2."""
    g = game()
    red = 0
    g.s.population = [5, 7]
    assert multiplier(g) == 1
    put_on_top(g, g.s.population_deck, "orang_laut")
    populate(g, red)
    g._run()  # the Leader card's single slot takes it (forced)
    assert g.s.population == [7, 7]
    assert multiplier(g) == 2
    assert g.s.tableau[red][0].pops == [card_id(g, "orang_laut")]


def test_losing_population_closes_district_and_discards_its_influence():
    from singapore_env.engine.rules.base import add_population
    g = game()
    g.s.population = [6, 0]
    g.s.districts[B2 * 4 + 0] = 3
    add_population(g, 0, -1)
    assert tokens(g, B2) == [0, 0, 0, 0]
    assert multiplier(g) == 1


def test_population_is_capped_at_the_boxes():
    from singapore_env.engine.rules.base import add_population
    g = game()
    add_population(g, 1, 30)
    assert g.s.population[1] == 22


# --------------------------------------------------------------- Upkeep
def test_successful_upkeep_example():
    """5 Tax and 2 Public Works: Pink gets 1 VP; Blue and Red lead with 2 tokens and
    get 2 x 2 = 4 VP each."""
    g = game()
    blue, red, pink = 2, 0, 3
    give_tableau(g, blue, "opium_tax_farm")      # 2 player Tax tokens
    give_tableau(g, red, "spirit_farm")          # 2
    give_tableau(g, pink, "brothel_licences")    # 1
    g.s.pw_track = [1, 1]
    vp = list(g.s.vp)
    run_frame(g, Frame("upkeep"))
    gained = [g.s.vp[p] - vp[p] for p in range(4)]
    assert gained == [4, 0, 4, 1]


def test_failed_upkeep_example_fund():
    """4 Tax, 6 Public Works: Blue and Pink each own one excess token and Fund it with
    $1 x multiplier 2 = $2."""
    g = game()
    blue, pink = 2, 3
    give_tableau(g, 0, "opium_tax_farm")
    give_tableau(g, 1, "spirit_farm")
    give_tableau(g, blue, "police_force")
    give_tableau(g, pink, "sports_day")
    g.s.pw_track = [0, 1, 0, 1, blue, pink]
    g.s.population = [6, 6]                      # two opened districts: x2
    g.s.wealth = [5, 5, 5, 5]
    run_frame(g, Frame("upkeep"))
    assert g.pending.kind == "fund_close" and g.acting_seat == pink  # newest token first
    assert Decision(Kind.FUND) in g.legal_decisions()
    g.step(Decision(Kind.FUND))
    assert g.acting_seat == blue
    g.step(Decision(Kind.FUND))
    assert g.s.wealth == [5, 5, 3, 3]
    assert len(g.s.pw_track) == 6


def test_closing_example_breaks_the_community():
    """G.D. Coleman = School = Resident; the School is Closed: flipped, its Population
    card and one cube discarded, its token removed; Coleman and Resident stand alone."""
    g, res = coleman_school_resident()
    g.s.population = [6, 0]
    g.s.pw_track = [res]
    g.s.wealth[res] = 0                          # cannot fund
    run_frame(g, Frame("fund_close", res, index=0))
    assert g.legal_decisions() == [Decision(Kind.CLOSE, 1)] or g.pending.kind != "fund_close"
    school = g.s.tableau[res][1]
    assert not school.up and school.down == "closed" and school.pops == []
    assert g.s.pw_track == [] and g.s.population == [5, 0]
    assert activation_groups(g.s.tableau[res]) == [(0, 0), (2, 2)]


def test_rebuild_restores_token_and_community_not_population():
    from singapore_env.engine.rules.market import rebuild, rebuild_options
    g, res = coleman_school_resident(school_up=False)
    g.s.wealth[res] = 10
    assert Decision(Kind.REBUILD, 1) in rebuild_options(g, res)
    rebuild(g, res, 1)
    assert g.s.wealth[res] == 10 - (4 - 1)       # School $4, G.D. Coleman: PW cost $1 less
    assert g.s.pw_track == [res]
    assert activation_groups(g.s.tableau[res]) == [(0, 2)]


# --------------------------------------------------------------- Activate
def test_activate_example_community():
    """Sports Day = Temenggong = Gutta Percha (with a Population card), Opium Tax Farm
    alone. Activating the Community: 2 Influence, 1 token in the Malay Storehouse, $2.
    The Community cannot be activated again this round."""
    g = game()
    tem = 2
    g.s.tableau[tem] = []
    give_tableau(g, tem, "sports_day", link=True)
    give_tableau(g, tem, "temenggong", link=True)
    give_tableau(g, tem, "gutta_percha_plantation", pops=["javanese"])
    give_tableau(g, tem, "opium_tax_farm")
    g.s.wealth[tem] = 0
    g.s.storehouse = [0, 0]
    assert activate_options(g, tem) == [Decision(Kind.ACTIVATE, 0)]  # Opium: no Action
    activate(g, tem, 0)
    g._run()
    assert g.s.storehouse == [0, 1]
    assert g.s.wealth[tem] == 2
    assert g.pending.kind == "influence" and g.pending.d.n == 2
    assert activate_options(g, tem) == []


def test_commerce_half_round_modifier_rounds_up():
    g = game()
    give_tableau(g, 2, "gutta_percha_plantation", pops=["javanese", "orang_laut"])
    g.s.wealth[2] = 0
    g.s.modifiers = [["commerce_half", 0]]
    activate(g, 2, 1)
    assert g.s.wealth[2] == 2  # $3 halved, rounded up


# --------------------------------------------------------------- Buy
def test_buy_connection_example():
    """Cathedral = Hajjah Fatimah; Alexander Guthrie and Sports Day alone. The bought
    Gutta Percha can connect to Hajjah Fatimah or Alexander Guthrie, only one."""
    g = game()
    p = 2
    g.s.tableau[p] = []
    give_tableau(g, p, "cathedral", link=True)
    give_tableau(g, p, "hajjah_fatimah")
    give_tableau(g, p, "alexander_guthrie")
    give_tableau(g, p, "sports_day")
    give_tableau(g, p, "gutta_percha_plantation")
    run_frame(g, Frame("connect", p, card=card_id(g, "gutta_percha_plantation")))
    assert set(g.legal_decisions()) == {
        Decision(Kind.CONNECT, 1 * 2 + 1),   # right of Hajjah Fatimah
        Decision(Kind.CONNECT, 2 * 2 + 0),   # left of Alexander Guthrie
        Decision(Kind.CONNECT, 2 * 2 + 1),   # right of Alexander Guthrie
        PASS,
    }
    g.step(Decision(Kind.CONNECT, 1 * 2 + 1))
    keys = [g.c.defs[s.card].key for s in g.s.tableau[p]]
    assert keys[:3] == ["cathedral", "hajjah_fatimah", "gutta_percha_plantation"]
    assert activation_groups(g.s.tableau[p])[0] == (0, 2)


def test_market_prices_by_faction_and_shift_refill():
    from singapore_env.engine.rules.market import buy_market, market_price
    g = game()
    omar = card_id(g, "syed_omar_aljunied")
    assert market_price(g, 0, omar)[0] == 4 and market_price(g, 2, omar)[0] == 2
    before = list(g.s.market)
    g.s.wealth[0] = 20
    buy_market(g, 0, 2)
    g._run()
    while g.pending.kind != "place_leader":   # resolve instant effects with first options
        g.step(g.legal_decisions()[0])
    assert g.s.market[1:] == [before[0], before[1], before[3], before[4]]
    assert g.s.market[0] >= 0
    assert g.s.tableau[0][-1].card == before[2] or any(
        s.card == before[2] for s in g.s.tableau[0])


def test_market_flush_discards_rightmost():
    from singapore_env.engine.rules.market import flush_market
    g = game()
    before = list(g.s.market)
    flush_market(g)
    assert g.s.market[1:] == before[:4]
    assert g.s.market_discard[-1] == before[4]


def test_outlawed_vice_cannot_be_bought():
    from singapore_env.engine.rules.market import can_buy_market
    g = game()
    put_on_top(g, g.s.market_deck, "opium_tax_farm")
    g.s.market[0] = -1
    from singapore_env.engine.rules.market import fill_market
    fill_market(g)
    slot = g.s.market.index(card_id(g, "opium_tax_farm"))
    g.s.wealth[0] = 20
    assert can_buy_market(g, 0, slot)
    g.s.outlawed[g.c.board.vices.index("opium")] = 1
    assert not can_buy_market(g, 0, slot)


def test_buy_battle_card_both_forms():
    from singapore_env.engine.rules.market import buy_battle, buy_battle_options
    g = game()
    g.s.wealth[0], g.s.storehouse[0] = 2, 1
    assert buy_battle_options(g, 0) == [Decision(Kind.BUY_BATTLE, 0)]
    g.s.storehouse[0] = 2
    assert Decision(Kind.BUY_BATTLE, 1) in buy_battle_options(g, 0)
    hand = len(g.s.hands[0])
    buy_battle(g, 0, True)
    g._run()
    assert g.pending.kind == "keep_battle"
    drawn = list(g.pending.d.cards)
    g.step(Decision(Kind.KEEP_BATTLE, 1))
    assert g.s.hands[0][-1] == drawn[1] and len(g.s.hands[0]) == hand + 1
    assert g.s.battle_discard[0][-1] == drawn[0]
    assert g.s.wealth[0] == 0 and g.s.storehouse[0] == 0


def test_public_works_track_ship_spaces():
    from singapore_env.engine.rules.base import add_public_works_token
    g = game()
    ships = g.s.ships
    for _ in range(3):
        add_public_works_token(g, 0)
    assert g.s.ships == ships
    add_public_works_token(g, 1)                 # the 4th space shows a ship
    assert g.s.ships == ships + 1


# --------------------------------------------------------------- Moving cards
def test_move_example():
    """G.D. Coleman = School = Resident, Sports Day (with Orang Laut) alone: any card
    but School may move; the four moves of the example are legal."""
    g, res = coleman_school_resident()
    give_tableau(g, res, "sports_day", pops=["orang_laut"])
    run_frame(g, Frame("moves", res, n=1, scope="own", target=-1))
    t = g.cfg.max_tableau
    w = 2 * t + 1
    legal = set(g.legal_decisions())
    assert Decision(Kind.MOVE_CARD, 3 * w + 0 * 2 + 0) in legal   # Sports Day to Coleman
    assert Decision(Kind.MOVE_CARD, 2 * w + 2 * t) in legal       # separate the Resident
    assert Decision(Kind.MOVE_CARD, 2 * w + 3 * 2 + 1) in legal   # Resident to Sports Day
    assert Decision(Kind.MOVE_POP, 3 * t + 2) in legal            # Orang Laut to Resident
    assert not any(d.kind == Kind.MOVE_CARD and d.arg // w == 1 for d in legal)  # School
    g.step(Decision(Kind.MOVE_CARD, 3 * w + 0))
    keys = [g.c.defs[s.card].key for s in g.s.tableau[res]]
    assert keys == ["sports_day", "gd_coleman", "school", "resident"]
    assert activation_groups(g.s.tableau[res]) == [(0, 3)]
    assert g.s.tableau[res][0].pops == [card_id(g, "orang_laut")]


# --------------------------------------------------------------- Income, Events
def test_income_example_four_ships():
    g = game()
    g.s.round, g.s.ships = 2, 4
    g.s.wealth, g.s.storehouse = [0] * 4, [0, 0]
    run_frame(g, Frame("income"))
    assert g.s.wealth == [3] * 4 and g.s.storehouse == [1, 1]


def test_first_round_income_and_singapore_treaty_ships():
    g = Game(seed=3)
    assert g.s.round == 1 and g.s.ships == 2
    assert g.s.wealth == [3] * 4


@pytest.mark.parametrize("ships,expected", [(6, 0), (7, 1)])
def test_anglo_dutch_treaty_comes_into_force_at_seven_ships(ships, expected):
    from singapore_env.engine.rules.war import war_cost
    g = game()
    g.s.round, g.s.ships = 2, ships
    run_frame(g, Frame("events"))
    assert g.s.anglo_dutch == expected
    assert war_cost(g, 0) == (4 if expected else 7)


def test_minor_economic_recession_instant_effects():
    g = game()
    g.s.round, g.s.ships, g.s.storehouse = 2, 5, [2, 0]
    put_on_top(g, g.s.event_deck, "minor_economic_recession")
    run_frame(g, Frame("events"))
    assert g.s.storehouse == [1, 0] and g.s.ships == 4
    assert ["commerce_half", 0] in g.s.modifiers


# --------------------------------------------------------------- Raid
def test_raid_with_daeng_ibrahim_bonus_removes_a_ship():
    from singapore_env.engine.rules.raid import raid
    g = game()
    give_tableau(g, 3, "daeng_ibrahim")
    g.s.ships, g.s.wealth[3] = 3, 0
    script_dice(g, [1])
    raid(g, 3)
    g._run()
    assert g.s.wealth[3] == 2 and g.s.ships == 2


def test_raid_below_two_keeps_the_ship_and_needs_a_ship():
    from singapore_env.engine.rules.raid import raid, raid_options
    g = game()
    g.s.ships, g.s.wealth[0] = 3, 0
    script_dice(g, [1])
    raid(g, 0)
    g._run()
    assert g.s.wealth[0] == 1 and g.s.ships == 3
    g.s.ships = 0
    assert raid_options(g, 0) == []


# --------------------------------------------------------------- Decree
def test_outlaw_and_legalize_opium():
    from singapore_env.engine.rules.decree import decree, decree_options
    from singapore_env.engine.rules.upkeep import tax_totals
    g = game()
    give_tableau(g, 2, "opium_tax_farm")
    opium = g.c.board.vices.index("opium")
    g.s.storehouse = [5, 0]
    assert tax_totals(g)[0][2] == 2
    assert Decision(Kind.DECREE, opium) in decree_options(g, 1)
    vp = g.s.vp[1]
    decree(g, 1, opium)
    g._run()
    slot = g.s.tableau[2][-1]
    assert not slot.up and g.s.outlawed[opium] == 1
    assert tax_totals(g)[0][2] == 0
    assert g.s.vp[1] == vp + 2 and g.s.storehouse[0] == 0
    g.s.storehouse = [0, 5]
    decree(g, 3, opium)
    g._run()
    assert slot.up and g.s.outlawed[opium] == -1 and tax_totals(g)[0][2] == 2


def test_slavery_costs_eight_and_cannot_be_legalized():
    from singapore_env.engine.rules.decree import decree, decree_cost, decree_options
    g = game()
    slavery = g.c.board.vices.index("slavery")
    g.s.storehouse = [7, 0]
    assert decree_cost(g, 1, slavery) == 8
    assert Decision(Kind.DECREE, slavery) not in decree_options(g, 1)
    g.s.storehouse = [8, 8]
    decree(g, 1, slavery)
    g._run()
    assert decree_cost(g, 2, slavery) == -1
    assert Decision(Kind.DECREE, slavery) not in decree_options(g, 2)


def test_malay_decrees_cost_eight_under_anglo_dutch_and_crawfurd_discount():
    from singapore_env.engine.rules.decree import decree_cost
    g = game()
    gambling = g.c.board.vices.index("gambling")
    assert decree_cost(g, 2, gambling) == 5
    g.s.anglo_dutch = 1
    assert decree_cost(g, 2, gambling) == 8 and decree_cost(g, 1, gambling) == 5
    assert decree_cost(g, 0, gambling) == 4       # the LG's attribute: 1 token less
    give_tableau(g, 2, "john_crawfurd")
    assert decree_cost(g, 2, gambling) == 7


def test_courthouse_veto():
    from singapore_env.engine.rules.decree import decree
    g = game()
    give_tableau(g, 2, "courthouse")
    gambling = g.c.board.vices.index("gambling")
    g.s.storehouse = [5, 6]
    decree(g, 1, gambling)
    g._run()
    assert g.pending.kind == "veto" and g.acting_seat == 2
    g.step(YES)
    assert g.s.outlawed[gambling] == -1 and g.s.storehouse == [0, 0]


# --------------------------------------------------------------- War
def _war_setup():
    g = game()
    res, sul, tem = 1, 3, 2
    g.s.anglo_dutch, g.s.ships = 1, 8
    g.s.population = [18, 6]                     # B2, B3, G2 opened: multiplier x3
    g.s.storehouse = [4, 0]
    g.s.wealth = [0, 0, 3, 5]
    give_hand(g, res, "hms_andromache")
    give_hand(g, sul, "perahu")
    give_revealed(g, tem, "giant_kusu")
    return g, res, sul, tem


def test_battle_example():
    """The Resident attacks the Sultan; the Temenggong helps with a face-up Giant Kusu.
    Resident 3 + HMS Andromache 7 = 10; Sultan 1 + Perahu 3 + Giant Kusu 5 = 9. The
    Resident wins by 1 x multiplier 3: he takes $1 and 2 VP."""
    g, res, sul, tem = _war_setup()
    assert multiplier(g) == 3
    run_frame(g, Frame("actions", res, left=2))
    g.step(Decision(Kind.WAR, sul))
    assert g.s.storehouse[0] == 0                # War costs 4 under the Anglo-Dutch Treaty
    assert g.pending.kind == "war_join" and g.acting_seat == 0
    g.step(PASS)
    assert g.acting_seat == tem
    g.step(YES)
    assert g.pending.kind == "war_accept" and g.acting_seat == sul
    g.step(YES)
    h = g.cfg.max_hand
    assert g.pending.kind == "war_commit" and g.acting_seat == res
    g.step(Decision(Kind.COMMIT, g.s.hands[res].index(card_id(g, "hms_andromache"))))
    assert g.acting_seat == sul
    g.step(Decision(Kind.COMMIT, g.s.hands[sul].index(card_id(g, "perahu"))))
    assert g.acting_seat == tem
    script_dice(g, [2, 1, 1, 0, 1])              # Resident 3, Sultan 1, then 1D ships lost
    g.step(Decision(Kind.COMMIT, h + 0))         # the revealed Giant Kusu
    assert g.pending.kind == "spoils" and g.acting_seat == res
    g.step(Decision(Kind.ADD_MONEY))
    assert g.legal_decisions() == [Decision(Kind.ADD_MONEY), PASS]
    vp = list(g.s.vp)
    g.step(PASS)                                 # demand $1, gain 2 VP
    assert g.pending.kind == "ally_pay" and g.acting_seat == tem
    g.step(PASS)
    assert g.s.vp[res] - vp[res] == 2
    assert g.s.wealth[res] == 1 and g.s.wealth[sul] == 4
    assert g.s.ships == 7                        # 1D = 1 ship removed
    assert g.s.wars_won[res] == 1
    assert card_id(g, "giant_kusu") in g.s.battle_discard[1]
    assert card_id(g, "hms_andromache") in g.s.battle_discard[0]


def test_star_cards_need_anglo_dutch_and_seven_ships():
    from singapore_env.engine.rules.base import star_allowed_in_war
    g, *_ = _war_setup()
    assert star_allowed_in_war(g)
    g.s.ships = 6
    assert not star_allowed_in_war(g)
    g.s.ships, g.s.anglo_dutch = 8, 0
    assert not star_allowed_in_war(g)


def test_war_tie_has_no_victor():
    g, res, sul, tem = _war_setup()
    g.s.hands = [[], [], [], []]
    g.s.revealed = [[], [], [], []]
    g.s.battle_deck = [[], []]
    g.s.battle_discard = [list(g.c.battle_ids[0]), list(g.c.battle_ids[1])]
    run_frame(g, Frame("actions", res, left=2))
    script_dice(g, [1, 1, 2, 0, 0])              # 2 vs 2, then no ship lost
    g.step(Decision(Kind.WAR, sul))
    g.step(PASS)
    g.step(PASS)
    assert g.pending.kind == "place_leader"     # no action left: the turn ended (forced)
    assert g.s.vp[res] == 0 and g.s.wealth == [0, 0, 3, 5] and g.s.wars_won == [0] * 4


def test_spoils_shared_with_ally_rounds_down():
    g, res, sul, tem = _war_setup()
    g.s.hands = [[], [], [], []]
    g.s.revealed = [[], [], [], []]
    g.s.battle_deck = [[], []]
    g.s.battle_discard = [list(g.c.battle_ids[0]), list(g.c.battle_ids[1])]
    give_hand(g, res, "artillery_4")
    run_frame(g, Frame("actions", res, left=2))
    g.step(Decision(Kind.WAR, sul))
    g.step(YES)                                   # LG joins
    g.step(PASS)                                  # Temenggong stays out
    g.step(YES)                                   # Resident accepts
    script_dice(g, [2, 2, 0, 0, 0])              # 4 + 4 = 8 vs 0: cap 8 x 3 = 24
    g.step(Decision(Kind.COMMIT, 0))
    for _ in range(5):
        g.step(Decision(Kind.ADD_MONEY))         # all of the Sultan's $5
    assert g.pending.kind == "share"              # $5 taken: the rest (19) is VP
    g.step(Decision(Kind.CHOOSE, 0))              # give the LG 1/3
    assert g.s.wealth[0] == 5 // 3 and g.s.vp[0] == 19 // 3
    assert g.s.wealth[res] == 5 - 5 // 3 and g.s.vp[res] == 19 - 19 // 3
    assert g.s.wealth[sul] == 0


# --------------------------------------------------------------- Conflict events
def test_major_pirate_attack_contributions_and_volunteer_vp():
    g = game()
    g.s.first_player = 0
    g.s.wealth = [5, 5, 5, 5]
    g.s.hands = [[], [], [], []]
    artillery = give_hand(g, 0, "artillery_3")
    script_dice(g, [2, 2, 2])                    # 3D + 5 = 11
    run_frame(g, Frame("conflict", -1, table="major_pirate_attack", dice=3, plus=5,
                       base=2, per=1, phase=ConflictPhase.ROLL, strength=0,
                       cards=[[], [], [], []], money=[0, 0, 0, 0], boosts=[[], [], [], []]))
    assert g.pending.kind == "contribute" and g.acting_seat == 0
    g.step(Decision(Kind.COMMIT, 0))             # Artillery +3
    g.step(Decision(Kind.ADD_MONEY))             # and $1
    g.step(PASS)
    for _ in range(3):                           # Temenggong, Resident, Sultan: nothing
        assert g.pending.kind == "contribute"
        g.step(PASS)
    # 11 - 4 = 7: "Each Player loses $2 and Remove 1 Ship"
    assert g.s.wealth == [5 - 1 - 2, 3, 3, 3]
    assert g.s.vp[0] == 2 + 4
    assert artillery in g.s.battle_discard[0]


# --------------------------------------------------------------- Leaders and turn
def test_leader_spaces_and_money_action():
    g = Game(seed=11)
    first = g.acting_seat
    assert g.pending.kind == "place_leader"
    g.step(Decision(Kind.PLACE_LEADER, 0))       # a Market space
    assert g.pending.kind == "leader_action"
    assert Decision(Kind.LEADER_MONEY) in g.legal_decisions()
    w = g.s.wealth[first]
    g.step(Decision(Kind.LEADER_MONEY))
    assert g.s.wealth[first] == w + 1 and g.pending.kind == "actions"


def test_royal_privilege_once_per_turn_on_market_space():
    from singapore_env.engine.rules.market import market_price
    g = game()
    omar = card_id(g, "syed_omar_aljunied")
    assert market_price(g, 3, omar)[0] == 2
    g.s.leader_space[0] = 3
    assert market_price(g, 3, omar) == (1, True)
    g.s.discount_used = 1
    assert market_price(g, 3, omar)[0] == 2


# --------------------------------------------------------------- End of game
def test_end_game_legacies_and_bonuses():
    from singapore_env.engine.rules.scoring import end_game_vp, legacy_vp
    g = game()
    sul = 3
    g.s.wealth[sul] = 12                         # Prosperous: $12-17 = 5 VP
    assert legacy_vp(g, sul) == 5
    give_tableau(g, sul, "natural_history_drawings")          # +2
    give_tableau(g, sul, "hamba_abdi", pops=["javanese", "bugis"])  # -3 per card
    assert end_game_vp(g, sul) == 2 - 6
    g.s.tableau[sul][1].up = False               # face down: no bonus
    assert end_game_vp(g, sul) == -6
    # Patron: 1+ dependent card = 4, 2 VP per population card on dependents
    assert legacy_vp(g, sul) == 5 + 4 + 2 * 2
