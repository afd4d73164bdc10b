"""The rules audit's findings: each rule quoted from the rulebook and checked through
``Game.step`` on positions built with the scenario helpers."""

import pathlib

import pytest

from singapore_env.engine.config import ConfigError, RulesConfig
from singapore_env.engine.decisions import Decision, Kind
from singapore_env.engine import Game
from singapore_env.engine.invariants import check_invariants
from singapore_env.engine.rules.population import can_populate
from singapore_env.engine.scenario import (card_id, give_hand, give_revealed, give_tableau,
                                    put_on_top, run_frame, script_dice, take)
from singapore_env.engine.state import Frame
from test_rules_choices import conflict, game

PASS, YES = Decision(Kind.PASS), Decision(Kind.YES)


def set_market(g, keys) -> None:
    """Replace the open Market cards (the old ones go to the discard pile)."""
    g.s.market_discard.extend(c for c in g.s.market if c >= 0)
    g.s.market = [take(g, card_id(g, k)) for k in keys]


def answer_until(g, kind: str) -> None:
    """Answer every question (PASS when legal, else the first option) until ``kind``."""
    while g.pending is not None and g.pending.kind != kind:
        legal = g.legal_decisions()
        g.step(PASS if PASS in legal else legal[0])


def stop_after(g) -> None:
    """Leave only a question nobody answers under the frames a test runs, so the test
    sees the state right after them (``answer_until(g, "war_join")``)."""
    g.s.stack = [Frame("war_join", 0, side=0)]


def andromache_in_conflict():
    """A Conflict event (dice scripted) in which the Resident, holding a revealed HMS
    Andromache, is the first asked for its contribution; every player has $1."""
    g = game()
    g.s.first_player = 1
    g.s.wealth = [1, 1, 1, 1]
    give_revealed(g, 1, "hms_andromache")
    script_dice(g, [2, 2])
    run_frame(g, conflict(2))
    return g


def keys_in_tableau(g, seat: int) -> list[str]:
    return [g.c.defs[slot.card].key for slot in g.s.tableau[seat]]


# ---------------------------------------------------------------- Major Economic Boom
def test_major_economic_boom_each_player_takes_a_card_or_three_dollars():
    """Major Economic Boom: "Starting from the First Player, each player takes 1 open
    Market card except the most expensive one, OR gains $3." "Do not replenish Market
    until Event is resolved." "Add 2 Ships to the Port." """
    g = game()
    g.s.round, g.s.first_player, g.s.ships = 2, 2, 0
    g.s.wealth = [0, 0, 0, 0]
    set_market(g, ["gutta_percha_plantation", "land_holdings", "nutmeg_plantation",
                   "cathedral", "gambier_pepper_trading"])
    put_on_top(g, g.s.event_deck, "major_economic_boom")
    stop_after(g)
    run_frame(g, Frame("events"))
    assert g.pending.kind == "boom_pick" and g.acting_seat == 2     # the First Player
    assert set(g.legal_decisions()) == {PASS, *(Decision(Kind.BUY_MARKET, i)
                                                 for i in (0, 1, 2, 4))}  # not Cathedral
    g.step(Decision(Kind.BUY_MARKET, 0))                            # takes Gutta Percha
    answer_until(g, "boom_pick")
    assert "gutta_percha_plantation" in keys_in_tableau(g, 2) and g.s.wealth[2] == 0
    assert g.s.market[0] == -1                                      # not replenished yet
    assert g.acting_seat == 1                                       # clockwise: Resident
    g.step(PASS)                                                    # $3 instead
    assert g.acting_seat == 3
    assert Decision(Kind.BUY_MARKET, 0) not in g.legal_decisions()  # the gap stays empty
    g.step(Decision(Kind.BUY_MARKET, 1))
    answer_until(g, "boom_pick")
    assert g.acting_seat == 0
    g.step(PASS)
    answer_until(g, "war_join")
    assert g.s.wealth == [3, 3, 0, 0] and g.s.ships == 2
    assert -1 not in g.s.market                                     # refilled at the end
    check_invariants(g)


# ---------------------------------------------------------------- buying a card
def test_bought_card_resolves_instant_effects_before_entering_the_tableau():
    """Buy Market card: "1. Resolve any instant effects; 2. Add the card to your
    tableau, making at most one connection." So the card's own instant Move cannot
    hang cards on it: it is not in the tableau while its effects resolve."""
    g = game()
    give_tableau(g, 0, "school")                 # could join Jackson Plan's left side
    g.s.wealth[0] = 10
    set_market(g, ["jackson_plan", "land_holdings", "nutmeg_plantation", "cathedral",
                   "gambier_pepper_trading"])
    plan = g.s.market[0]
    run_frame(g, Frame("actions", 0, left=2))
    g.step(Decision(Kind.BUY_MARKET, 0))
    seen = []
    while g.pending.kind != "connect":
        seen.append(g.pending.kind)
        assert plan not in [slot.card for slot in g.s.tableau[0]]
        check_invariants(g)
        legal = g.legal_decisions()
        g.step(PASS if PASS in legal else legal[0])
    assert "moves" in seen
    assert plan in [slot.card for slot in g.s.tableau[0]]
    assert all(d.kind in (Kind.CONNECT, Kind.PASS) for d in g.legal_decisions())


# ---------------------------------------------------------------- closing
def test_closing_discards_the_tokens_stored_on_the_card():
    """Closing example: "you were unable to fund your School. So you flip the card over
    and discard the Population card and player tokens." """
    g = game()
    school = give_tableau(g, 0, "school", pops=["hokkien"])
    school.stored = 4
    g.s.population = [1, 0]
    g.s.pw_track = [0]
    g.s.wealth = [0, 0, 0, 0]
    run_frame(g, Frame("upkeep"))                # no money: Close is forced
    assert not school.up and school.down == "closed"
    assert school.pops == [] and school.stored == 0 and g.s.population[0] == 0


# ---------------------------------------------------------------- Giant Kusu
def declare_war(g, attacker: int, defender: int, anglo_dutch: int = 0) -> None:
    """Empty hands, purses and VP, 7 ships, full Storehouses: ``attacker`` declares War
    on ``defender``; the War's questions follow."""
    g.s.anglo_dutch, g.s.ships = anglo_dutch, 7
    g.s.hands = [[], [], [], []]
    g.s.storehouse = [7, 7]
    g.s.wealth = [0, 0, 0, 0]
    g.s.vp = [0, 0, 0, 0]
    stop_after(g)
    run_frame(g, Frame("actions", attacker, left=2))
    g.step(Decision(Kind.WAR, defender))


def start_war(g, faces, anglo_dutch=1):
    """The Temenggong attacks the LG (no allies, no cards); the dice show ``faces``."""
    declare_war(g, 2, 0, anglo_dutch)
    g.step(PASS)                                 # the Sultan stays out
    dice = script_dice(g, faces)
    g.step(PASS)                                 # the Resident stays out
    while g.pending.kind == "war_commit":
        g.step(PASS)                             # no card committed
    return dice


def test_giant_kusu_holder_chooses_which_dice_to_reroll():
    """Giant Kusu: "Once per round, re-roll up to 2 dice in a roll. Use the better
    result." The holder chooses the dice: none, the first, the second or both."""
    g = game()
    give_revealed(g, 2, "giant_kusu")
    dice = start_war(g, [2, 0, 1, 1, 2, 0])    # 2+0 vs 1+1; re-roll: 2; ships lost: 0
    assert g.pending.kind == "reroll" and g.acting_seat == 2
    assert set(g.legal_decisions()) == {PASS, *(Decision(Kind.CHOOSE, m) for m in (1, 2, 3))}
    g.step(Decision(Kind.CHOOSE, 2))             # only the second die (the 0)
    assert dice.faces == []                      # one die rolled again
    assert g.s.vp[2] == 2                        # 2+2 beats 1+1 by 2 (else a tie)
    assert card_id(g, "giant_kusu") in g.s.used_cards


def test_giant_kusu_keeps_the_better_result():
    """ "Use the better result": a worse re-roll leaves the roll as it was."""
    g = game()
    give_revealed(g, 2, "giant_kusu")
    start_war(g, [2, 1, 0, 0, 0, 0])             # 3 vs 0; re-rolling the 1 shows 0
    g.step(Decision(Kind.CHOOSE, 2))
    assert g.s.vp[2] == 3


def test_giant_kusu_in_a_raid_rerolls_the_single_die():
    from singapore_env.engine.rules.raid import raid
    g = game()
    give_revealed(g, 3, "giant_kusu")
    g.s.ships, g.s.wealth[3] = 5, 0
    script_dice(g, [0, 2])
    raid(g, 3)
    g._run()
    assert set(g.legal_decisions()) == {PASS, Decision(Kind.CHOOSE, 1)}
    g.step(Decision(Kind.CHOOSE, 1))
    assert g.s.wealth[3] == 2 and g.s.ships == 4


def test_star_reroll_cannot_change_a_war_roll_under_the_singapore_treaty():
    """Singapore Treaty: ★ cards cannot be used in War, so Giant Kusu's re-roll is
    not offered for a War roll."""
    g = game()
    give_revealed(g, 2, "giant_kusu")
    start_war(g, [0, 0, 1, 1, 0], anglo_dutch=0)  # 0 vs 2, then 1D ships lost
    assert g.pending.kind == "war_join" and g.s.vp[0] == 2      # the War is over
    assert card_id(g, "giant_kusu") not in g.s.used_cards


# ---------------------------------------------------------------- HMS Andromache
def test_andromache_counter_is_the_holders_choice_without_cards():
    """HMS Andromache: "Once per round, -2 to another player's Raid roll, OR +2 to
    counter a Conflict Event." Using the +2 is a decision, even without a card."""
    g = game()
    g.s.first_player = 1
    g.s.hands = [[], [], [], []]
    g.s.wealth = [0, 0, 0, 0]
    g.s.wealth = [1, 1, 1, 1]
    give_revealed(g, 1, "hms_andromache")
    script_dice(g, [1, 1])                       # strength 2: everyone would lose $1
    stop_after(g)
    run_frame(g, conflict(2))
    assert g.pending.kind == "contribute" and g.acting_seat == 1
    assert YES in g.legal_decisions()
    g.step(YES)                                  # spend the +2 (hidden until the reveal)
    assert card_id(g, "hms_andromache") not in g.s.used_cards
    answer_until(g, "war_join")
    assert g.s.wealth == [1, 1, 1, 1] and g.s.vp[1] == 0  # countered; no card: no VP
    assert card_id(g, "hms_andromache") in g.s.used_cards


def test_andromache_counter_is_not_spent_automatically_with_a_card():
    g = game()
    g.s.first_player = 0
    g.s.hands = [[], [], [], []]
    g.s.wealth = [0, 0, 0, 0]
    give_revealed(g, 0, "hms_andromache")
    give_hand(g, 0, "artillery_3")
    script_dice(g, [2, 2])                       # strength 4
    stop_after(g)
    run_frame(g, conflict(2))
    g.step(Decision(Kind.COMMIT, 0))             # Artillery +3, no boost chosen
    g.step(PASS)
    answer_until(g, "war_join")
    assert g.s.vp[0] == 2 + 3
    assert card_id(g, "hms_andromache") not in g.s.used_cards   # still free for a Raid


def test_contributed_revealed_card_loses_its_own_counter_boost():
    """A contributed Battle card is discarded, so its Reveal Boost no longer counts:
    Nemesis (9, +2 to counter) against a strength-4 event earns 2 + 9 = 11 VP."""
    g = game()
    g.s.first_player = 0
    g.s.hands = [[], [], [], []]
    g.s.wealth = [0, 0, 0, 0]
    give_revealed(g, 0, "nemesis")
    script_dice(g, [2, 2])
    stop_after(g)
    run_frame(g, conflict(2))
    g.step(Decision(Kind.COMMIT, g.cfg.max_hand))   # the revealed Nemesis
    answer_until(g, "war_join")
    assert g.s.vp[0] == 11


def test_star_counter_boost_counts_only_when_star_cards_may_be_used():
    """★ cards may be used against Conflict Events under the Singapore Treaty, and under
    the Anglo-Dutch Treaty only with 7 ships or more; so may their Reveal Boosts."""
    from singapore_env.engine.rules.conflict import counter_boosts
    g = game()
    nemesis = give_revealed(g, 0, "nemesis")
    assert nemesis in [cid for cid, _ in counter_boosts(g, 0)]
    g.s.anglo_dutch, g.s.ships = 1, 6
    assert nemesis not in [cid for cid, _ in counter_boosts(g, 0)]


# ---------------------------------------------------------------- sharing spoils
def war_won_with_an_ally(cfg: RulesConfig) -> Game:
    """LG (with the Resident) beats the Temenggong 4-0; stop at the share question."""
    g = Game(seed=5, config=cfg)
    g.s.tableau = [[], [], [], []]
    declare_war(g, 0, 2)
    g.step(YES)                                  # the Resident volunteers
    g.step(PASS)                                 # the Sultan stays out
    script_dice(g, [2, 2, 0, 0, 0])              # 4 vs 0; then 1D ships lost
    g.step(YES)                                  # the LG accepts
    assert g.pending.kind == "share"
    return g


def test_spoils_sharing_is_mandatory_by_default():
    """Player board: "Faction victors split the gains 2:1" (spoils_sharing = mandatory)."""
    g = war_won_with_an_ally(RulesConfig.standard())
    assert set(g.legal_decisions()) == {Decision(Kind.CHOOSE, 0), Decision(Kind.CHOOSE, 1)}
    g.step(Decision(Kind.CHOOSE, 0))             # 1/3 of 4 VP, rounded down
    assert g.s.vp[:2] == [3, 1]


def test_spoils_sharing_optional_lets_the_victor_keep_everything():
    """Rulebook: "If the victor chooses to share the spoils with their ally, they must
    give their ally either 2/3 or 1/3 of the total." (spoils_sharing = optional)."""
    g = war_won_with_an_ally(RulesConfig.standard(spoils_sharing="optional"))
    assert PASS in g.legal_decisions()
    g.step(PASS)
    assert g.s.vp[:2] == [4, 0]


def test_spoils_sharing_rejects_unknown_values():
    with pytest.raises(ConfigError, match="spoils_sharing"):
        RulesConfig.standard(spoils_sharing="sometimes")


# ---------------------------------------------------------------- the documented choices
def test_excess_tokens_one_at_a_time_with_the_multiplier_read_again():
    """ "To Fund a Public Work, pay $1 × Upkeep Multiplier": each excess token is
    settled in turn at the multiplier of that moment, so a Close that closes a District
    makes the next Fund cheaper."""
    g = game()
    give_tableau(g, 0, "police_force", pops=["hokkien"])
    give_tableau(g, 0, "school")
    g.s.population = [18, 0]                     # x2 and x3 open: multiplier 2
    g.s.pw_track = [0, 0]
    g.s.wealth = [1, 0, 0, 0]
    run_frame(g, Frame("upkeep"))
    assert Decision(Kind.FUND) not in g.legal_decisions()   # $2 needed
    g.step(Decision(Kind.CLOSE, 1))              # Police Force: its cube leaves, x3 closes
    assert g.s.population[0] == 17
    assert Decision(Kind.FUND) in g.legal_decisions()       # now $1
    g.step(Decision(Kind.FUND))
    assert g.s.wealth[0] == 0 and g.s.tableau[0][2].up


def test_face_down_cards_have_no_vacant_population_slot():
    """ "If your tableau has no vacant Population slots, you may not Populate!" A
    face-down card's slots are not vacant: its workers had to leave."""
    g = game()
    g.s.tableau[0] = []                          # no Leader card: only the School
    give_tableau(g, 0, "school", up=False)
    assert not can_populate(g, 0)
    g.s.tableau[0][0].up = True
    assert can_populate(g, 0)


def test_conflict_contribution_stops_once_it_reaches_the_strength():
    """ "Deduct the Battle Cards value or Wealth contributed from the Conflict Event
    Strength": once a player's own contribution counters the whole strength there is
    nothing left to counter, so that player adds nothing more."""
    g = game()
    g.s.first_player = 0
    g.s.hands = [[], [], [], []]
    g.s.wealth = [9, 0, 0, 0]
    give_hand(g, 0, "artillery_3")
    script_dice(g, [1, 1])                       # strength 2
    stop_after(g)
    run_frame(g, conflict(2))
    g.step(Decision(Kind.COMMIT, 0))             # 3 >= 2: no more pieces
    assert g.pending.kind == "war_join"          # nobody else can give: resolved
    assert g.s.wealth[0] == 9 and g.s.vp[0] == 2 + 3


def test_riot_removes_influence_from_any_district_or_storehouse():
    """Secret Society Riot: "Each player removes 1 Influence Token." "* From any
    District or Storehouse." Either Storehouse, not only the own faction's."""
    g = game()
    g.s.districts[0 * 4 + 1] = 1                 # Resident: 1 token on B1
    g.s.storehouse = [1, 4]
    run_frame(g, Frame("remove_influence", 1, n=1))
    assert set(g.legal_decisions()) == {Decision(Kind.REMOVE_INFLUENCE, sp) for sp in (0, 3, 7)}
    g.step(Decision(Kind.REMOVE_INFLUENCE, 7))   # the Malay Storehouse
    assert g.s.storehouse == [1, 3] and g.s.districts[1] == 1


def test_rules_reference_stands_on_its_own():
    text = (pathlib.Path(__file__).parent.parent / "docs" / "rules.md").read_text()
    assert "../" not in text and "RULES §" not in text
