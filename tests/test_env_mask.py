"""The action mask is exactly the engine's legal set; the observation decodes by name."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from singapore_env.engine.content import SEAT_NAMES  # noqa: E402
from singapore_env.engine.decisions import ActionTable, Decision, Kind  # noqa: E402
from singapore_env.encoding import ObservationEncoder  # noqa: E402
from singapore_env.engine import Game  # noqa: E402
from singapore_env.env import raw_env  # noqa: E402

MIN_STEPS = 6000


def test_action_table_round_trip():
    table = ActionTable()
    enc = ObservationEncoder()
    assert len(enc.table) == len(table) == enc.n_actions
    for i in range(len(table)):
        d = table.decision(i)
        assert table.index(d) == i
    assert {d.kind for d in table.decisions} == {int(k) for k in Kind}
    with pytest.raises(ValueError):
        table.index(Decision(Kind.PLACE_LEADER, 99))
    with pytest.raises(ValueError):
        table.decision(len(table))


def test_mask_equals_engine_legal_set_over_random_play():
    """Thousands of env steps: the mask is exactly the legal set, for the acting agent only."""
    e = raw_env()
    table = ActionTable(e.cfg.max_tableau, e.cfg.max_hand)
    space = e.observation_space("sultan")
    rng = np.random.default_rng(123)
    steps = 0
    seed = 0
    kinds = set()
    while steps < MIN_STEPS:
        e.reset(seed=seed)
        seed += 1
        game = e.game
        while not game.is_over:
            agent = e.agent_selection
            seat = SEAT_NAMES.index(agent)
            assert seat == game.acting_seat
            obs = e.observe(agent)
            mask = obs["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (len(table),)
            expected = np.zeros(len(table), np.int8)
            for d in game.legal_decisions():
                expected[table.index(d)] = 1
            assert np.array_equal(mask, expected), game.pending
            assert all(table.decision(i) in game.legal_decisions()
                       for i in np.flatnonzero(mask))
            for other in e.agents:
                if other != agent:
                    assert not e.observe(other)["action_mask"].any()
            assert space.contains(obs)
            kinds.add(game.pending.kind)
            legal = np.flatnonzero(mask)
            e.step(int(legal[rng.integers(legal.size)]))
            steps += 1
    assert steps >= MIN_STEPS
    # the random games reach the common questions and several out-of-turn ones
    assert {"actions", "place_leader", "connect", "influence", "contribute"} <= kinds


def test_mask_without_slavery_cards():
    e = raw_env(slavery=False)
    assert len(e.table) == len(raw_env().table)
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    while not e.game.is_over:
        mask = e.observe(e.agent_selection)["action_mask"]
        assert {e.table.decision(i) for i in np.flatnonzero(mask)} == set(
            e.game.legal_decisions())
        legal = np.flatnonzero(mask)
        e.step(int(legal[rng.integers(legal.size)]))


def test_decode_round_trip_and_slices():
    enc = ObservationEncoder()
    g = Game(6, keep_text_log=False)
    rng = np.random.default_rng(0)
    for _ in range(120):
        legal = g.legal_decisions()
        g.step(legal[int(rng.integers(len(legal)))])
    seat = g.acting_seat
    v = enc.encode(g, seat)
    parts = enc.decode(v)
    assert list(parts) == [name for name, *_ in enc.slices]
    for name, shape, low, high, _ in enc.slices:
        assert parts[name].shape == shape
        assert (parts[name] >= low).all() and (parts[name] <= high).all()
    flat = np.concatenate([parts[name].ravel() for name, *_ in enc.slices])
    assert np.array_equal(flat, v) and flat.size == enc.size
    # a few slices read back to the state they encode
    assert parts["me"].argmax() == seat
    order = enc._order[seat]
    assert order[0] == seat
    assert np.allclose(parts["wealth"], [g.s.wealth[p] / 20 for p in order])
    assert np.allclose(parts["hand_size"], [len(g.s.hands[p]) / enc.H for p in order])
    hand_keys = [g.c.defs[c].key for c in g.s.hands[seat]]
    assert enc.describe(v).get("own_hand", [])[:len(hand_keys)] == hand_keys
    own_row = [g.c.defs[s.card].key for s in g.s.tableau[seat]]
    assert enc.describe(v)["tableau"][0] == own_row
    assert parts["pending_kind"].sum() == 1
    # encode into a given buffer gives the same vector
    buf = np.full(enc.size, 7.0, np.float32)
    assert np.array_equal(enc.encode(g, seat, out=buf), v)


def test_relative_seats():
    enc = ObservationEncoder()
    g = Game(2, keep_text_log=False)
    for seat in range(4):
        parts = enc.decode(enc.encode(g, seat))
        order = enc._order[seat]
        # clockwise seating LG, Temenggong, Resident, Sultan starting from the observer
        cw = (0, 2, 1, 3)
        i = cw.index(seat)
        assert order == tuple(cw[(i + k) % 4] for k in range(4))
        rel_first = parts["first_player"].argmax()
        assert order[rel_first] == g.s.first_player
        leader_rows = [enc.tableau_keys[int(r[0, :len(enc.tableau_keys)].argmax())]
                       for r in parts["tableau"]]
        assert leader_rows == [g.c.defs[g.c.leader_ids[p]].key for p in order]
