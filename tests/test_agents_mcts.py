"""The search agent: legal moves in every ruleset, reproducible with a seed, blind to
hidden information, and its parameters parsed from the agent spec."""

import pytest

from agents.base import _encoder_for
from agents.heuristic import HeuristicAgent
from agents.mcts import SEARCHED, MctsAgent, heuristic_candidates
from agents.registry import AgentSpec, make_agent
from singapore_env.candidates import projected_vp
from singapore_env.engine.config import RULESETS, RulesConfig
from singapore_env.engine.content import SEAT_FACTION
from singapore_env.engine import Game
from arena.simulate import play_game

FAST = "mcts:iters=4:topk=2:horizon=1"


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("slavery", [True, False])
def test_plays_only_legal_decisions_over_a_full_game(ruleset, slavery):
    """play_game steps the engine, which raises IllegalDecision on an illegal choice."""
    cfg = RulesConfig.named(ruleset, slavery=slavery)
    agents = [make_agent(FAST), make_agent("heuristic"), make_agent("heuristic"),
              make_agent(FAST)]
    result = play_game(3, agents, cfg)
    assert result.round == 8 and result.winners
    assert agents[0].stats.searched > 5 and agents[0].stats.simulations >= 4 * 5


def test_same_seed_same_game():
    """An iteration budget and a seed give the same decisions, byte for byte."""
    assert _history_prefix(5, 150) == _history_prefix(5, 150)


def _history_prefix(seed: int, n: int) -> list:
    g = Game(seed)
    agents = [MctsAgent(seed=p, iters=4, topk=2, horizon=1) for p in range(4)]
    while len(g.history) < n:
        seat = g.acting_seat
        g.step(agents[seat].choose(g, seat))
    return list(g.history)


def _searched_position(seed: int = 2, ruleset: str = "standard") -> Game:
    """A game (heuristic play) stopped at a searched question with several options."""
    g = Game(seed, RulesConfig.named(ruleset))
    h = HeuristicAgent(seed=0)
    while not (g.pending.kind == "actions" and g.s.round >= 2
               and len(g.legal_decisions()) >= 3
               and any(g.s.hands[p] for p in range(4) if p != g.acting_seat)):
        g.step(h.choose(g, g.acting_seat))
    return g


def hidden_twins(ruleset: str) -> tuple[Game, Game, int, int]:
    """A searched position, a copy differing only in what the acting seat cannot see
    (another seat's hand card swapped with its faction's Battle deck, the Market and
    Population deck orders reversed), the acting seat and that other seat."""
    g = _searched_position(seed=2 if ruleset == "standard" else 4, ruleset=ruleset)
    seat = g.acting_seat
    other = next(p for p in range(4) if p != seat and g.s.hands[p])
    h = g.clone()
    hand, deck = h.s.hands[other], h.s.battle_deck[SEAT_FACTION[other]]
    assert deck, "the test needs a Battle deck to swap with"
    hand[0], deck[-1] = deck[-1], hand[0]
    h.s.market_deck.reverse()
    h.s.population_deck.reverse()
    return g, h, seat, other


@pytest.mark.parametrize("ruleset", RULESETS)
def test_never_reads_hidden_state(ruleset):
    """Same agent seed, two games that differ only in what the acting seat cannot see
    (another seat's hand swapped with its faction's Battle deck, the Market and
    Population deck orders): the same candidates, the same sampled evidence, the same
    choice."""
    g, h, seat, other = hidden_twins(ruleset)
    assert h.s.hands[other] != g.s.hands[other]

    choices, searches = [], []
    for game in (g, h):
        agent = MctsAgent(seed=11, iters=9, topk=3, gap=float("inf"))
        choices.append(agent.choose(game, seat))
        searches.append(agent.last_search)
    assert choices[0] == choices[1]
    assert searches[0] == searches[1] and searches[0]["worlds"] == 3
    assert any(searches[0]["advantage"])  # the evidence is not trivially empty


def test_a_real_difference_in_public_state_changes_the_evidence():
    """The evidence compared above is sensitive: changing public wealth changes it."""
    g = _searched_position()
    seat = g.acting_seat
    h = g.clone()
    h.s.wealth[(seat + 1) % 4] += 7
    searches = []
    for game in (g, h):
        agent = MctsAgent(seed=11, iters=9, topk=3, gap=float("inf"))
        agent.choose(game, seat)
        searches.append(agent.last_search["advantage"])
    assert searches[0] != searches[1]


def test_prior_first_and_topk_candidates():
    g = _searched_position()
    seat = g.acting_seat
    prior = HeuristicAgent(seed=1).choose(g, seat)
    cands = heuristic_candidates(HeuristicAgent(seed=1), g, seat, prior, 3, float("inf"))
    assert cands[0] == prior and len(cands) == 3 and len(set(cands)) == 3
    assert all(d in g.legal_decisions() for d in cands)
    scores = dict((d, v) for v, d in HeuristicAgent().option_scores(g, seat))
    close = heuristic_candidates(HeuristicAgent(seed=1), g, seat, prior, 3, 0.0)
    assert close[0] == prior and all(scores[d] >= scores[prior] for d in close[1:])


def test_trivial_questions_are_answered_by_the_heuristic_without_search():
    g = Game(4)
    agent = MctsAgent(seed=0, iters=8)
    h = HeuristicAgent(seed=0)
    while g.pending.kind in SEARCHED or len(g.legal_decisions()) < 2:
        g.step(h.choose(g, g.acting_seat))
    seat = g.acting_seat
    assert agent.choose(g, seat) == HeuristicAgent(seed=0).choose(g, seat)
    assert agent.stats.searched == 0


def test_value_counts_the_faction_win_and_margin():
    agent = MctsAgent(iters=1, vp_weight=0.5)
    # seat 1 (British) wins 60 to 50: a faction win for seat 0, margin +10 VP
    assert agent.value([40, 60, 50, 30], 0) == pytest.approx(1 + 0.5 * 0.5)
    assert agent.value([40, 60, 50, 30], 2) == pytest.approx(0 - 0.5 * 0.5)
    # a tie at the top between the factions shares the win
    assert agent.value([60, 50, 60, 30], 0) == pytest.approx(0.5 + 0.5 * 0.0)


# ---------------------------------------------------------------- specs
def test_spec_parameters_reach_the_agent():
    agent = make_agent("mcts:iters=400:topk=4:gap=2:seconds=0.25", seed=3)
    assert isinstance(agent, MctsAgent)
    assert (agent.iters, agent.topk, agent.gap, agent.seconds) == (400, 4, 2.0, 0.25)
    assert agent.name == "mcts:iters=400:topk=4:gap=2:seconds=0.25"
    assert make_agent("mcts").name == "mcts"
    typed = make_agent(AgentSpec("mcts", {"iters": 400, "topk": 4}))
    assert (typed.iters, typed.topk, typed.name) == (400, 4, "mcts:iters=400:topk=4")


def test_a_spec_reads_and_writes_its_text():
    spec = AgentSpec.parse(" mcts : iters=400:topk=3 ")
    assert spec == AgentSpec("mcts", {"iters": "400", "topk": "3"})
    assert str(spec) == "mcts:iters=400:topk=3"
    assert str(spec.with_params(net="a/b.npz", topk=2)) == "mcts:iters=400:topk=2:net=a/b.npz"
    assert AgentSpec.parse("learned:runs/x:y.npz") == AgentSpec("learned", {}, "runs/x:y.npz")
    assert AgentSpec.parse("bot.py:MyBot:depth=3") == AgentSpec("bot.py", {"depth": "3"},
                                                                 "MyBot")
    assert str(AgentSpec("rerank", {"net": "n.npz", "margin": 1.0, "x": True})) == \
        "rerank:net=n.npz:margin=1.0:x=1"
    assert AgentSpec.parse(spec) is spec


def test_seed_parameter_works_for_every_agent():
    a, b = make_agent("heuristic:seed=3"), make_agent("heuristic", seed=3)
    assert a.rng.integers(1 << 30) == b.rng.integers(1 << 30)
    tuned = make_agent("heuristic:war_margin=0.5")
    assert tuned.params["war_margin"] == 0.5


@pytest.mark.parametrize("spec, message", [
    ("mcts:depth=3", "unknown parameter(s) depth; allowed: gap, horizon, iters, margin, "
                     "net, seconds, seed, topk, vp_weight, z"),
    ("mcts:select=puct", "unknown parameter(s) select"),
    ("mcts:iters=many", "parameter iters expects an integer, got 'many'"),
    ("mcts:iters", "parameters are written key=value"),
    ("mcts:iters=1:iters=2", "parameter 'iters' is given twice"),
    ("mcts:iters=-1", "iters must be in 0..1000000"),
    ("mcts:horizon=-2", "horizon must be >= 0 rounds"),
    ("learned:", "name the policy file, learned:PATH"),
    ("heuristic:speed=2", "allowed: action_cost"),
    ("random:seed=x", "parameter seed expects an integer"),
    ("nobody:iters=3", "unknown agent 'nobody'"),
])
def test_bad_specs_raise_precise_errors(spec, message):
    with pytest.raises(ValueError) as exc:
        make_agent(spec)
    assert message in str(exc.value)


# ---------------------------------------------------------------- value network
@pytest.fixture(scope="module")
def value_net(tmp_path_factory):
    """A small pointer network (random weights, a value head) saved as .npz."""
    torch = pytest.importorskip("torch")
    from singapore_env.candidates import RULES_FEATURES
    from singapore_env.engine.content import resolve_content
    from singapore_env.vector import VectorEnv
    from training.network.actor_critic import PointerActorCritic

    torch.manual_seed(0)
    venv = VectorEnv(1, seed=0)
    net = PointerActorCritic(venv.obs_size, venv.num_actions, [16], "tanh",
                             len(RULES_FEATURES), len(resolve_content(None, True).defs), 4,
                             value_hidden=8)
    torch.nn.init.normal_(net.value_head.net[2].weight)  # a value that reads the state
    path = tmp_path_factory.mktemp("net") / "net.npz"
    net.to_numpy({"faction": "british"}).save(path)
    return path


@pytest.mark.parametrize("ruleset", ["standard", "simulation"])
def test_net_guided_search_never_reads_hidden_state(ruleset, value_net):
    """The value head scores cut rollouts from the seat's view of a sampled world: two
    games differing only in hidden cards give the same evidence and choice."""
    g, h, seat, _ = hidden_twins(ruleset)
    choices, searches = [], []
    for game in (g, h):
        agent = make_agent(f"mcts:iters=6:topk=3:gap=1000:horizon=1:net={value_net}",
                           seed=11)
        choices.append(agent.choose(game, seat))
        searches.append(agent.last_search)
    assert choices[0] == choices[1] and searches[0] == searches[1]
    assert any(searches[0]["advantage"])


def test_net_value_replaces_the_projected_vp_at_the_cut(value_net):
    g = _searched_position()
    seat = g.acting_seat
    plain = MctsAgent(seed=11, iters=6, topk=3, gap=float("inf"), horizon=1)
    guided = MctsAgent(seed=11, iters=6, topk=3, gap=float("inf"), horizon=1,
                       net=str(value_net))
    plain.choose(g, seat)
    guided.choose(g, seat)
    assert plain.last_search["advantage"] != guided.last_search["advantage"]
    encoder = _encoder_for(g)
    obs = {"observation": encoder.encode(g, seat), "projected_vp": projected_vp(g, seat)}
    win, margin = guided.nets[SEAT_FACTION[seat]].outcome(obs)
    assert 0 <= win <= 1 and -1 <= margin <= 1
    assert guided.net_value(g, seat) == pytest.approx(win + 0.5 * margin)


@pytest.mark.parametrize("spec, message", [
    ("mcts:net=/nowhere.npz:horizon=1", "no policy file at /nowhere.npz"),
    ("mcts:net=zero:horizon=0", "net needs horizon >= 1"),
    ("mcts:net=default:horizon=1", "net=default was retired .*use net=zero"),
])
def test_bad_net_is_a_clear_error(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec)


def test_a_net_without_value_heads_is_a_clear_error(zero_copy):
    from agents.pointer_actor import VALUE_KEYS

    with pytest.raises(ValueError, match="has no value head"):
        make_agent(f"mcts:net={zero_copy(drop=VALUE_KEYS)}:horizon=1")


def test_net_zero_is_the_shipped_value_networks():
    """mcts:...:net=zero reads the shipped self-play networks (a value head per
    faction, agents/policies/zero/) and plays a legal game with them."""
    from agents.learned import POLICY_DIR, load_value_nets

    nets = load_value_nets("zero")
    assert set(nets) == {0, 1} and all(n.has_value for n in nets.values())
    assert nets[0] is not nets[1] and nets == load_value_nets(POLICY_DIR / "zero")
    agent = make_agent("mcts:iters=2:topk=2:horizon=1:net=zero", seed=1)
    result = play_game(2, [agent, make_agent("heuristic"), make_agent("heuristic"), agent])
    assert result.winners and agent.stats.searched > 0


def test_net_zero_alone_plays_with_one_round_before_the_cut():
    """``mcts:net=zero`` needs no other parameter: a network cuts the rollouts after
    one round (without one they run to the end)."""
    agent = make_agent("mcts:net=zero:iters=2")
    assert agent.horizon == 1 and agent.nets is not None
    assert make_agent("mcts:iters=2").horizon == 0
    g = _searched_position()
    assert make_agent("mcts:net=zero", seed=1).choose(g, g.acting_seat) in g.legal_decisions()
