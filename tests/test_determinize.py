"""Determinization: hidden information resampled, public information and invariants kept."""

import random

import numpy as np
import pytest

from agents.determinize import determinize
from singapore_env.engine.content import SEAT_FACTION
from singapore_env.engine import Game
from singapore_env.engine.frames import WarPhase
from singapore_env.engine.invariants import check_invariants


def _public(g: Game, seat: int) -> dict:
    """What ``seat`` sees (a subset of the state that determinize must not touch)."""
    s = g.s
    return {
        "round": s.round, "first": s.first_player, "ships": s.ships, "adt": s.anglo_dutch,
        "vp": list(s.vp), "wealth": list(s.wealth), "store": list(s.storehouse),
        "pop": list(s.population), "pw": list(s.pw_track), "market": list(s.market),
        "districts": list(s.districts), "outlawed": list(s.outlawed),
        "leaders": list(s.leader_space), "event": s.current_event,
        "tableau": [[slot.to_list() for slot in row] for row in s.tableau],
        "revealed": [list(r) for r in s.revealed],
        "hand_sizes": [len(h) for h in s.hands], "own_hand": list(s.hands[seat]),
        "discards": ([list(x) for x in s.battle_discard], list(s.market_discard),
                     list(s.population_discard), list(s.event_discard)),
        "deck_sizes": (len(s.market_deck), len(s.population_deck), len(s.event_deck),
                       [len(d) for d in s.battle_deck]),
        "market_deck": sorted(s.market_deck), "pop_deck": sorted(s.population_deck),
        "stack": [(f.kind, f.seat) for f in s.stack],
    }


def _midgame_positions(n_games: int, every: int = 7):
    """(game, acting seat) at many points of random games."""
    for seed in range(n_games):
        g = Game(seed, keep_text_log=False)
        rng = random.Random(seed)
        k = 0
        while not g.is_over:
            k += 1
            if k % every == 0:
                yield g
            g.step(rng.choice(g.legal_decisions()))


def test_invariants_and_public_information_hold_on_many_determinizations():
    rng = np.random.default_rng(0)
    count = strict = 0
    for g in _midgame_positions(25):
        before = g.to_json()
        for seat in range(4):
            w = determinize(g, seat, rng)
            check_invariants(w)
            count += 1
            pub_g, pub_w = _public(g, seat), _public(w, seat)
            if seat == g.acting_seat:
                # the observer's own question is unchanged
                assert w.legal_decisions() == g.legal_decisions()
                assert pub_g == pub_w
                strict += 1
            elif pub_g["stack"] == pub_w["stack"]:
                assert pub_g == pub_w
            # else: another seat's question became forced in this world (e.g. its
            # resampled hand holds no committable card) and the engine answered it
            assert w.is_over or w.legal_decisions(), "the world can be continued"
        assert g.to_json() == before, "the original game is untouched"
    assert count > 1000 and strict > 250


def test_other_hands_keep_size_and_faction_and_sometimes_differ():
    differ = same = 0
    for g in _midgame_positions(15, every=11):
        for seat in range(4):
            a = determinize(g, seat, np.random.default_rng(1))
            b = determinize(g, seat, np.random.default_rng(2))
            kinds = [f.kind for f in g.s.stack]
            if any([f.kind for f in w.s.stack] != kinds for w in (a, b)):
                continue  # a question became forced in that world and play went on
            assert a.s.hands[seat] == g.s.hands[seat] == b.s.hands[seat]
            for p in range(4):
                for w in (a, b):
                    assert len(w.s.hands[p]) == len(g.s.hands[p])
                    assert all(g.c.defs[c].faction == SEAT_FACTION[p] for c in w.s.hands[p])
            others = [p for p in range(4) if p != seat and g.s.hands[p]]
            if others:
                if any(a.s.hands[p] != b.s.hands[p] for p in others):
                    differ += 1
                else:
                    same += 1
    assert differ > 0 and differ > same


def test_unseen_cards_stay_in_their_faction_pool():
    for g in _midgame_positions(10, every=13):
        for seat in range(4):
            w = determinize(g, seat, np.random.default_rng(seat))
            for fac in (0, 1):
                def unseen(x):
                    cards = list(x.s.battle_deck[fac])
                    for p in range(4):
                        if p != seat and SEAT_FACTION[p] == fac:
                            cards += x.s.hands[p]
                    return sorted(cards)
                if not any(f.kind in ("keep_battle", "war", "conflict") for f in g.s.stack):
                    assert unseen(w) == unseen(g)


def test_rng_and_decks_are_resampled():
    g = Game(3)
    while g.s.round < 2:
        g.step(g.legal_decisions()[-1])
    worlds = [determinize(g, g.acting_seat, np.random.default_rng(i)) for i in range(8)]
    assert len({tuple(w.s.market_deck) for w in worlds}) > 1
    assert len({tuple(w.s.population_deck) for w in worlds}) > 1
    assert len({tuple(w.s.event_deck) for w in worlds}) > 1
    dice = {tuple(w.rng.integers(0, 6, size=8)) for w in worlds}
    assert len(dice) > 1
    # the Event I cards stay on top of the Event II cards
    ids_i = set(g.c.event_ids["I"])
    for w in worlds:
        kinds = [e in ids_i for e in w.s.event_deck]
        assert kinds == sorted(kinds)
        assert sum(kinds) == sum(e in ids_i for e in g.s.event_deck)
        assert not set(w.s.event_deck) & (set(g.s.event_discard) | {g.s.current_event})


def test_pending_keep_battle_and_war_commits_of_others_are_resampled():
    from singapore_env.engine.state import Frame
    g = Game(5)
    # a pending keep_battle for seat 0 (British) with two cards out of the deck
    a, b = g.s.battle_deck[0].pop(), g.s.battle_deck[0].pop()
    g.s.stack.append(Frame("keep_battle", 0, cards=[a, b]))
    g._run()
    check_invariants(g)
    seen = set()
    for i in range(20):
        w = determinize(g, 2, np.random.default_rng(i))
        check_invariants(w)
        seen.add(tuple(w.s.stack[-1].d.cards))
        assert all(g.c.defs[c].faction == 0 for c in w.s.stack[-1].d.cards)
        own = determinize(g, 0, np.random.default_rng(i))
        assert own.s.stack[-1].d.cards == [a, b]
    assert len(seen) > 1


def test_hidden_war_commit_is_resampled_for_the_other_side():
    from singapore_env.engine.scenario import give_tableau
    from singapore_env.engine.state import Frame
    g = Game(6)
    give_tableau(g, 0, "police_force")  # so that the war_discard question is really asked
    card = g.s.hands[2].pop()  # the Temenggong's starting card, committed face down
    g.s.stack.append(Frame("war", 0, defender=2, phase=WarPhase.ROLL, joined=[0, 0],
                           allies=[-1, -1], commits=[-1, -1, card, -1], bonus=[0, 0, 0, 0],
                           roll0=0, roll1=0, k=0, paid=0, share=-1, cap=0, victor=-1, loser=-1))
    g.s.stack.append(Frame("war_discard", 0))
    check_invariants(g)
    commits = set()
    for i in range(30):
        w = determinize(g, 0, np.random.default_rng(i))
        check_invariants(w)
        war = next(f for f in w.s.stack if f.kind == "war")
        c = war.d.commits[2]
        assert g.c.defs[c].faction == 1 and not g.c.defs[c].star  # no star before the ADT
        commits.add(c)
        mine = determinize(g, 2, np.random.default_rng(i))
        assert next(f for f in mine.s.stack if f.kind == "war").d.commits[2] == card
    assert len(commits) > 1


@pytest.mark.parametrize("seat", range(4))
def test_determinized_worlds_play_to_the_end(seat):
    for g in _midgame_positions(3, every=40):
        w = determinize(g, seat, np.random.default_rng(seat))
        rng = random.Random(seat)
        while not w.is_over:
            w.step(rng.choice(w.legal_decisions()))
            check_invariants(w)
        assert w.winners




def test_spent_counter_boost_is_resampled_for_the_others():
    """Whether another seat spent HMS Andromache's +2 in the Conflict is hidden: other
    worlds differ on it; the holder's own world keeps its choice."""
    from singapore_env.engine.decisions import Decision, Kind
    from singapore_env.engine.scenario import card_id
    from test_rules_findings import andromache_in_conflict

    g = andromache_in_conflict()
    g.step(Decision(Kind.YES))
    g.step(Decision(Kind.PASS))                  # the Resident is done; the Sultan asks
    andromache = card_id(g, "hms_andromache")
    rng = np.random.default_rng(0)

    def spent(world):
        return next(f for f in world.s.stack if f.kind == "conflict").d.boosts[1]

    assert {tuple(spent(determinize(g, 0, rng))) for _ in range(20)} == {(), (andromache,)}
    assert all(spent(determinize(g, 1, rng)) == [andromache] for _ in range(5))
