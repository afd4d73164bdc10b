"""Action-aware observations and the pointer policy (issue: training that beats the heuristic)."""

import numpy as np
import pytest
from pettingzoo.test import api_test

from agents.priors import resolve_prior
from arena.faction_env import FactionEnv
from singapore_env import env as make_env
from singapore_env.candidates import FEATURES
from singapore_env.engine.decisions import Decision, Kind
from singapore_env.engine.rules.market import market_price


def _play_until(e, kind, rng, limit=3000):
    """Random legal play until the agent to act may take a decision of ``kind``."""
    for _ in range(limit):
        obs, _, term, trunc, _ = e.last()
        legal = [e.unwrapped.table.decision(i) for i in np.flatnonzero(obs["action_mask"])]
        if any(d.kind == kind for d in legal):
            return obs
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    pytest.fail(f"no {kind!r} decision came up")


@pytest.mark.parametrize("prior", [None, "heuristic"])
def test_env_with_candidates_passes_the_api_test(prior):
    api_test(make_env(candidates=True, candidate_prior=resolve_prior(prior)), num_cycles=200)


def test_faction_env_with_candidates_passes_gymnasiums_check():
    from gymnasium.utils.env_checker import check_env
    from agents.heuristic import HeuristicAgent


    check_env(FactionEnv("malay", candidates=True, candidate_prior="heuristic",
                         opponents=HeuristicAgent()), skip_render_check=True)


def test_buy_market_candidates_name_the_card_and_its_price():
    e = make_env(candidates=True)
    e.reset(seed=5)
    obs = _play_until(e, Kind.BUY_MARKET, np.random.default_rng(1))
    game, table = e.unwrapped.game, e.unwrapped.table
    seat = game.acting_seat
    card, feats = obs["candidate_card"], obs["candidate_features"]
    legal = set(np.flatnonzero(obs["action_mask"]))
    assert set(np.flatnonzero(feats[:, FEATURES.index("legal")])) == legal
    for a in legal:
        kind, arg = table.decision(a)
        if kind == Kind.BUY_MARKET:
            cid = game.s.market[arg]
            assert card[a] == cid + 1
            assert feats[a, FEATURES.index("price")] == pytest.approx(
                market_price(game, seat, cid)[0] / 10)
            assert feats[a, FEATURES.index("affordable")] == 1.0
    illegal = np.ones(len(card), bool)
    illegal[list(legal)] = False
    assert not card[illegal].any() and not feats[illegal].any()


def test_other_seats_get_no_candidates():
    e = make_env(candidates=True)
    e.reset(seed=2)
    acting = e.agent_selection
    for agent in e.agents:
        ob = e.observe(agent)
        assert ob["candidate_features"].any() == (agent == acting)


def test_a_boom_pick_is_free_in_the_candidate_features():
    """Major Economic Boom: each player "takes 1 open Market card" (no price to pay)."""
    from singapore_env.candidates import CandidateEncoder
    from singapore_env.encoding import action_table
    from singapore_env.engine.scenario import put_on_top, run_frame
    from singapore_env.engine.state import Frame
    from test_rules_findings import set_market, stop_after
    from test_rules_choices import game

    g = game()
    g.s.round, g.s.first_player, g.s.wealth = 2, 2, [0, 0, 0, 0]
    set_market(g, ["gutta_percha_plantation", "land_holdings", "nutmeg_plantation",
                   "cathedral", "gambier_pepper_trading"])
    put_on_top(g, g.s.event_deck, "major_economic_boom")
    stop_after(g)
    run_frame(g, Frame("events"))
    assert g.pending.kind == "boom_pick"
    table = action_table(g.cfg)
    out = CandidateEncoder(table, len(g.c.defs), g.cfg.max_tableau).encode(g, 2)
    card, feats = out["candidate_card"], out["candidate_features"]
    a = table.index(Decision(Kind.BUY_MARKET, 0))
    assert card[a] == g.s.market[0] + 1
    assert feats[a, FEATURES.index("price")] == 0 and feats[a, FEATURES.index("affordable")] == 1


def test_projected_vp_is_every_seats_projection_in_relative_order():
    from singapore_env.env import SEAT_OF
    from singapore_env.engine.rules.base import CLOCKWISE
    from singapore_env.engine.rules.scoring import projected_final_vp

    e = make_env(candidates=True)
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(120):  # into the game, so that the seats' projections differ
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = e.unwrapped.game
    for agent in e.agents:
        i = CLOCKWISE.index(SEAT_OF[agent])
        expected = [projected_final_vp(game, CLOCKWISE[(i + r) % 4]) / 50 for r in range(4)]
        assert e.observe(agent)["projected_vp"] == pytest.approx(expected)
    assert len({tuple(e.observe(a)["projected_vp"]) for a in e.agents}) > 1


def test_the_heuristic_prior_scores_the_turn_questions_and_its_best_has_gap_zero():
    from agents.heuristic import HeuristicAgent

    e = make_env(candidates=True, candidate_prior=resolve_prior("heuristic"))
    e.reset(seed=3)
    obs = _play_until(e, Kind.BUY_MARKET, np.random.default_rng(2))
    game, table = e.unwrapped.game, e.unwrapped.table
    scored = HeuristicAgent().option_scores(game, game.acting_seat)
    assert scored
    feats = obs["candidate_features"]
    score, gap = FEATURES.index("prior_score"), FEATURES.index("prior_gap")
    best = max(v for v, _ in scored)
    for v, d in scored:
        a = table.index(d)
        assert feats[a, score] == pytest.approx(v / 5, abs=1e-5)
        assert feats[a, gap] == pytest.approx(max(-10, (v - best) / 5), abs=1e-5)
    assert feats[:, gap].max() == 0
    plain = make_env(candidates=True)  # without a prior the columns stay zero
    plain.reset()
    plain.unwrapped.load(e.unwrapped.save())
    plain_feats = plain.observe(plain.agent_selection)["candidate_features"]
    assert not plain_feats[:, [score, gap]].any()
    assert np.array_equal(plain_feats[:, :score], feats[:, :score])


def test_an_unknown_prior_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="heuristic"):
        resolve_prior("oracle")
    with pytest.raises(ValueError, match="heuristic"):
        FactionEnv("malay", candidates=True, candidate_prior="oracle")


def test_the_env_takes_a_scorer_not_a_name():
    """The environment sits below the agents: it takes the prior's scorer itself, and
    names the agents' resolver when given a name."""
    with pytest.raises(ValueError, match="agents.priors.resolve_prior"):
        make_env(candidates=True, candidate_prior="heuristic")


def test_candidate_keys_read_nothing_hidden():
    """Worlds resampled from one seat's view (other hands, decks, future dice) give that
    seat the same candidate keys, prior included."""
    from agents.determinize import determinize
    from singapore_env.candidates import CandidateEncoder
    from singapore_env.encoding import action_table
    from singapore_env.engine import Game

    rng = np.random.default_rng(5)
    g = Game(9, keep_text_log=False)
    enc = CandidateEncoder(action_table(g.cfg), len(g.c.defs), g.cfg.max_tableau,
                           resolve_prior("heuristic"))
    checked = 0
    while not g.is_over:
        seat = g.acting_seat
        if g.s.decisions % 7 == 0:
            mine = enc.encode(g, seat)
            for _ in range(2):
                other = enc.encode(determinize(g, seat, rng), seat)
                for key in mine:
                    assert np.array_equal(mine[key], other[key]), key
            checked += 1
        legal = g.legal_decisions()
        g.step(legal[int(rng.integers(len(legal)))])
    assert checked > 20
