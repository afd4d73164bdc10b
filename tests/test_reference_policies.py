"""The shipped reference policies (``learned:default``)."""

from agents import make_agent
from agents.pointer_actor import PointerActor
from agents.reference import FactionPolicies
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import SEAT_FACTION
from arena.simulate import play_game


def test_learned_default_plays_each_seat_with_its_factions_policy():
    agent = make_agent("learned:default", seed=1)
    assert isinstance(agent, FactionPolicies)
    assert all(isinstance(a.policy, PointerActor) for a in agent.by_faction.values())
    assert agent.by_faction[0].policy.meta["faction"] == "british"
    assert agent.by_faction[1].policy.meta["faction"] == "malay"
    assert all(a.policy.meta["candidate_prior"] == "heuristic"
               for a in agent.by_faction.values())
    for ruleset in ("standard", "first-edition", "simulation"):
        result = play_game(3, [agent] * 4, RulesConfig.named(ruleset))
        assert result.round == 8          # the engine raises on any illegal decision


def test_learned_default_is_deterministic_and_beats_random():
    wins = 0
    for seed in range(4):
        agents = [make_agent("learned:default") if SEAT_FACTION[p] == seed % 2
                  else make_agent("random") for p in range(4)]
        a = play_game(seed, agents)
        b = play_game(seed, agents)
        assert a.final_scores == b.final_scores
        wins += any(SEAT_FACTION[w] == seed % 2 for w in a.winners)
    assert wins >= 3


def test_learned_pure_reads_no_heuristic_score():
    """learned:pure is the shipped pair without the heuristic prior: its candidate
    features' prior columns are zero, and it plays every ruleset legally."""
    from agents.learned import PolicyView
    from singapore_env.candidates import FEATURES
    from singapore_env.engine import Game

    agent = make_agent("learned:pure", seed=1)
    assert isinstance(agent, FactionPolicies) and agent.name == "learned:pure"
    prior = [FEATURES.index("prior_score"), FEATURES.index("prior_gap")]
    for faction, learned in agent.by_faction.items():
        assert isinstance(learned.policy, PointerActor)
        assert learned.policy.meta["faction"] == ("british", "malay")[faction]
        assert not learned.policy.meta.get("candidate_prior")
        game = Game(5)
        seat = game.acting_seat
        features = PolicyView(learned.policy).observation(game, seat)["candidate_features"]
        assert features[:, 0].sum() > 1 and not features[:, prior].any()
    for ruleset in ("standard", "first-edition", "simulation"):
        result = play_game(4, [agent] * 4, RulesConfig.named(ruleset))
        assert result.round == 8
