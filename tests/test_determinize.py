"""Determinization: hidden information resampled, public information and invariants kept.
The hidden-information tests run on both engines (a native world is read back through
its save); tests/test_native_determinize.py checks that the two draw the same worlds."""

import functools
import random

import numpy as np
import pytest

from agents.determinize import determinize
from singapore_env import native
from singapore_env.engine.content import SEAT_FACTION
from singapore_env.engine import Game
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.frames import WarPhase
from singapore_env.engine.invariants import check_invariants


ENGINES = ["python", pytest.param("native", marks=pytest.mark.skipif(
    not native.available(), reason="the native engine is not built here"))]


@pytest.fixture(params=ENGINES)
def engine(request) -> str:
    return request.param


def resampler(engine: str):
    """``determinize`` on ``engine``, taking and giving Python games: on the native
    engine, of the game's native copy, the world read back from its save (after checking
    its invariants), so that the same checks read both. (The copies cost more than the
    determinization: the native runs check fewer positions.)"""
    if engine == "python":
        return determinize

    def on_native(g: Game, seat: int, rng: np.random.Generator) -> Game:
        world = determinize(_native_copy(g.to_json()), seat, rng)
        assert world.broken_invariants() == ""
        return Game.from_json(world.to_json())
    return on_native


@functools.lru_cache(maxsize=4)
def _native_copy(save: str) -> "native.NativeGame":
    """The native game of a save (kept for the next seats: determinize leaves it as is)."""
    return native.NativeGame.from_json(save)


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


def _midgame_positions(n_games: int, every: int = 7, ruleset: str = "standard"):
    """Games at many points of random games of ``ruleset``."""
    cfg = RulesConfig.named(ruleset)
    for seed in range(n_games):
        g = Game(seed, cfg, keep_text_log=False)
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


def test_other_hands_keep_size_and_faction_and_sometimes_differ(engine):
    resample = resampler(engine)
    differ = same = 0
    for g in _midgame_positions(15 if engine == "python" else 5, every=11):
        for seat in range(4):
            a = resample(g, seat, np.random.default_rng(1))
            b = resample(g, seat, np.random.default_rng(2))
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


def test_unseen_cards_stay_in_their_faction_pool(engine):
    resample = resampler(engine)
    for g in _midgame_positions(10 if engine == "python" else 4, every=13):
        for seat in range(4):
            w = resample(g, seat, np.random.default_rng(seat))
            for fac in (0, 1):
                def unseen(x, fac=fac, seat=seat):
                    cards = list(x.s.battle_deck[fac])
                    for p in range(4):
                        if p != seat and SEAT_FACTION[p] == fac:
                            cards += x.s.hands[p]
                    return sorted(cards)
                if not any(f.kind in ("keep_battle", "war", "conflict") for f in g.s.stack):
                    assert unseen(w) == unseen(g)


def test_rng_and_decks_are_resampled(engine):
    resample = resampler(engine)
    g = Game(3)
    while g.s.round < 2:
        g.step(g.legal_decisions()[-1])
    worlds = [resample(g, g.acting_seat, np.random.default_rng(i)) for i in range(8)]
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


def pending_keep_battle() -> Game:
    """A game waiting for seat 0 (British) to keep one of two Battle cards drawn."""
    from singapore_env.engine.state import Frame
    g = Game(5)
    a, b = g.s.battle_deck[0].pop(), g.s.battle_deck[0].pop()
    g.s.stack.append(Frame("keep_battle", 0, cards=[a, b]))
    g._run()
    check_invariants(g)
    return g


def hidden_war_commit() -> Game:
    """A War in which the Temenggong (seat 2) committed its starting card face down, the
    attacker (seat 0) asked whether to discard for the War."""
    from singapore_env.engine.scenario import give_tableau
    from singapore_env.engine.state import Frame
    g = Game(6)
    give_tableau(g, 0, "police_force")  # so that the war_discard question is really asked
    card = g.s.hands[2].pop()
    g.s.stack.append(Frame("war", 0, defender=2, phase=WarPhase.ROLL, joined=[0, 0],
                           allies=[-1, -1], commits=[-1, -1, card, -1], bonus=[0, 0, 0, 0],
                           roll0=0, roll1=0, k=0, paid=0, share=-1, cap=0, victor=-1, loser=-1))
    g.s.stack.append(Frame("war_discard", 0))
    check_invariants(g)
    return g


def test_pending_keep_battle_and_war_commits_of_others_are_resampled(engine):
    resample = resampler(engine)
    g = pending_keep_battle()
    a, b = g.s.stack[-1].d.cards
    seen = set()
    for i in range(20):
        w = resample(g, 2, np.random.default_rng(i))
        check_invariants(w)
        seen.add(tuple(w.s.stack[-1].d.cards))
        assert all(g.c.defs[c].faction == 0 for c in w.s.stack[-1].d.cards)
        own = resample(g, 0, np.random.default_rng(i))
        assert own.s.stack[-1].d.cards == [a, b]
    assert len(seen) > 1


def test_hidden_war_commit_is_resampled_for_the_other_side(engine):
    resample = resampler(engine)
    g = hidden_war_commit()
    card = next(f for f in g.s.stack if f.kind == "war").d.commits[2]
    commits = set()
    for i in range(30):
        w = resample(g, 0, np.random.default_rng(i))
        check_invariants(w)
        war = next(f for f in w.s.stack if f.kind == "war")
        c = war.d.commits[2]
        assert g.c.defs[c].faction == 1 and not g.c.defs[c].star  # no star before the ADT
        commits.add(c)
        mine = resample(g, 2, np.random.default_rng(i))
        assert next(f for f in mine.s.stack if f.kind == "war").d.commits[2] == card
    assert len(commits) > 1


def _hidden_changed(g: Game, seat: int) -> Game:
    """A twin of ``g`` that differs only in what ``seat`` cannot see: the first card of
    every other hand, another seat's drawn (keep_battle) card and hidden War or
    first-edition commits swapped with the top card of their faction's Battle deck (a
    hidden Conflict contribution follows its card), every deck reversed, the other Folk
    Hero hands' first card swapped with the Folk Hero deck's top card, another Raja's
    hidden Role switched, and other future dice."""
    h = g.clone()
    s = h.s

    def swap(pile: list[int], i: int, deck: list[int]) -> None:
        if deck and pile[i] >= 0:
            pile[i], deck[-1] = deck[-1], pile[i]

    conflict = next((f for f in s.stack if f.kind == "conflict"), None)
    for q in range(4):
        if q != seat and s.hands[q]:
            old = s.hands[q][0]
            swap(s.hands[q], 0, s.battle_deck[SEAT_FACTION[q]])
            marks = conflict.d.cards[q] if conflict is not None else []
            if old in marks:
                marks[marks.index(old)] = s.hands[q][0]
        if q != seat and s.folk_hands[q]:
            swap(s.folk_hands[q], 0, s.folk_deck)
        if q != seat and not s.roles_public and s.roles[q] >= 0:
            s.roles[q] = 1 - s.roles[q]
    for f in s.stack:
        if f.kind == "keep_battle" and f.seat != seat:
            swap(f.d.cards, 0, s.battle_deck[SEAT_FACTION[f.seat]])
        elif f.kind == "war" and f.d.phase < WarPhase.SPOILS:
            for q in range(4):
                if q != seat:
                    swap(f.d.commits, q, s.battle_deck[SEAT_FACTION[q]])
        elif f.kind in ("raid_fe", "war_fe") and not f.d.shown:
            for q in range(4):
                if q != seat and f.d.commits[q]:
                    swap(f.d.commits[q], 0, s.battle_deck[SEAT_FACTION[q]])
    for pile in (s.market_deck, s.population_deck, s.event_deck, *s.battle_deck):
        pile.reverse()
    h.rng = np.random.default_rng(1819)
    return h


@pytest.mark.parametrize("ruleset", ["standard", "simulation", "first-edition"])
def test_the_world_depends_only_on_what_the_seat_sees(engine, ruleset):
    """Twin games that differ only in what the seat cannot see (``_hidden_changed``):
    the same world from the same generator state. A change of the seat's own hand
    changes the world (so that the test can fail)."""
    resample = resampler(engine)
    same = own_changed = 0
    for g in _midgame_positions(2, every=15, ruleset=ruleset):
        for seat in range(4):
            world = resample(g, seat, np.random.default_rng(seat)).to_json()
            twin = _hidden_changed(g, seat)
            assert resample(twin, seat, np.random.default_rng(seat)).to_json() == world
            same += 1
            hand, deck = g.s.hands[seat], g.s.battle_deck[SEAT_FACTION[seat]]
            if seat == 0 and hand and deck:
                mine = g.clone()
                mine.s.hands[seat][0], mine.s.battle_deck[SEAT_FACTION[seat]][-1] = deck[-1], hand[0]
                assert resample(mine, seat, np.random.default_rng(seat)).to_json() != world
                own_changed += 1
    assert same > 80 and own_changed > 5


@pytest.mark.parametrize("seat", range(4))
def test_determinized_worlds_play_to_the_end(seat):
    for g in _midgame_positions(3, every=40):
        w = determinize(g, seat, np.random.default_rng(seat))
        rng = random.Random(seat)
        while not w.is_over:
            w.step(rng.choice(w.legal_decisions()))
            check_invariants(w)
        assert w.winners




def andromache_spent() -> Game:
    """A Conflict in which the Resident spent HMS Andromache's +2 and passed; the Sultan
    is asked next."""
    from singapore_env.engine.decisions import Decision, Kind
    from test_rules_findings import andromache_in_conflict

    g = andromache_in_conflict()
    g.step(Decision(Kind.YES))
    g.step(Decision(Kind.PASS))                  # the Resident is done; the Sultan asks
    return g


def test_spent_counter_boost_is_resampled_for_the_others(engine):
    """Whether another seat spent HMS Andromache's +2 in the Conflict is hidden: other
    worlds differ on it; the holder's own world keeps its choice."""
    resample = resampler(engine)
    from singapore_env.engine.scenario import card_id

    g = andromache_spent()
    andromache = card_id(g, "hms_andromache")
    rng = np.random.default_rng(0)

    def spent(world):
        return next(f for f in world.s.stack if f.kind == "conflict").d.boosts[1]

    assert {tuple(spent(resample(g, 0, rng))) for _ in range(20)} == {(), (andromache,)}
    assert all(spent(resample(g, 1, rng)) == [andromache] for _ in range(5))
