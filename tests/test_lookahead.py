"""learned:zero's lookahead: the student's proposals, scored by the value network on a
world sampled from the seat's view; the student alone everywhere else."""

import numpy as np
import pytest

from agents import make_agent
from agents.heuristic import HeuristicAgent
from agents.learned import LearnedAgent, NumpyPolicy
from agents.lookahead import LOOKAHEAD_KINDS, ROLLOUT_QUESTIONS, TOP_K, LookaheadPolicies
from agents.pointer_actor import VALUE_KEYS
from agents.reference import FactionPolicies
from arena.simulate import play_game
from singapore_env import native
from singapore_env.engine import Game
from singapore_env.engine.config import RULESETS, RulesConfig
from singapore_env.engine.content import SEAT_FACTION


def _cheap_lookahead() -> LookaheadPolicies:
    """``learned:zero``'s networks and lookahead at one world and rollouts to the second
    Action question: the player of the tests that play whole games on the Python engine
    (at the shipped settings a game there takes minutes)."""
    shipped = make_agent("learned:zero")
    return LookaheadPolicies(shipped.student, shipped.values, worlds=1, questions=2)


def _looked_ahead_position(agent: LookaheadPolicies, seed: int = 2,
                           ruleset: str = "standard") -> Game:
    """A game (heuristic play) stopped at a question where the lookahead compares answers
    and another seat holds cards."""
    game = Game(seed, RulesConfig.named(ruleset))
    heuristic = HeuristicAgent(seed=0)
    while True:
        seat = game.acting_seat
        if game.s.round >= 2 and any(game.s.hands[p] for p in range(4) if p != seat) \
                and len(agent.candidates(game, seat, game.legal_decisions())) >= 2:
            return game
        game.step(heuristic.choose(game, seat))


def test_learned_zero_is_the_policy_pair_looking_ahead_with_its_own_value_heads():
    agent = make_agent("learned:zero", seed=1)
    assert isinstance(agent, LookaheadPolicies) and agent.name == "learned:zero"
    assert isinstance(agent.student, FactionPolicies)
    student = make_agent("learned:zero-policy")
    assert isinstance(student, FactionPolicies) and student.name == "learned:zero-policy"
    for faction, net in agent.values.items():
        assert net.has_value and net is agent.student.by_faction[faction].policy
        assert not net.meta.get("candidate_prior")
    assert make_agent("lookahead:zero").values == agent.values


def test_a_value_network_has_no_policy_to_play(zero_copy):
    folder = zero_copy(value_only=True)
    with pytest.raises(ValueError, match="value network.*no policy to play"):
        LearnedAgent.load(folder / "british.npz")
    with pytest.raises(ValueError, match="value network"):
        make_agent(f"learned:{folder / 'malay.npz'}")


def test_it_looks_ahead_only_on_the_action_question_and_among_the_student_s_best():
    """Move by move: where the question offers no Market card, Activation or Decree, the
    student's answer; where it does, one of at most TOP_K of the student's answers."""
    agent = _cheap_lookahead()
    student = make_agent("learned:zero-policy")
    game, looked = Game(6), 0
    agent.reset(6)
    while not game.is_over:
        seat = game.acting_seat
        legal = game.legal_decisions()
        choice = agent.choose(game, seat)
        offered = {d.kind for d in legal} & LOOKAHEAD_KINDS
        candidates = agent.candidates(game, seat, legal)
        if len(legal) > 1 and offered:
            assert 1 <= len(candidates) <= TOP_K and choice in [legal[i] for i in candidates]
            assert legal[candidates[0]] == student.choose(game, seat)
            looked += len(candidates) > 1
        else:
            assert not candidates and choice == student.choose(game, seat)
        game.step(choice)
    assert looked > 10


@pytest.mark.parametrize("ruleset", RULESETS)
def test_it_plays_every_ruleset_and_repeats_with_a_seed(ruleset):
    cfg = RulesConfig.named(ruleset)
    def seats():                                      # one lookahead seat per faction
        return [_cheap_lookahead() if p % 2 == 0 else make_agent("heuristic") for p in range(4)]

    a = play_game(3, seats(), cfg)
    b = play_game(3, seats(), cfg)
    assert a.round == 8 and a.final_scores == b.final_scores


@pytest.mark.parametrize("ruleset", RULESETS)
def test_never_reads_hidden_state(ruleset):
    """Same seed, two games that differ only in what the acting seat cannot see (another
    seat's hand swapped with its faction's Battle deck, the Market and Population deck
    orders): the same scores of the same answers."""
    agent = make_agent("learned:zero")
    g = _looked_ahead_position(agent, seed=2 if ruleset == "standard" else 4, ruleset=ruleset)
    seat = g.acting_seat
    other = next(p for p in range(4) if p != seat and g.s.hands[p])
    h = g.clone()
    hand, deck = h.s.hands[other], h.s.battle_deck[SEAT_FACTION[other]]
    assert deck, "the test needs a Battle deck to swap with"
    hand[0], deck[-1] = deck[-1], hand[0]
    h.s.market_deck.reverse()
    h.s.population_deck.reverse()
    assert h.s.hands[other] != g.s.hands[other]
    seen = []
    for game in (g, h):
        agent.reset(11)
        seen.append((agent.choose(game, seat), agent.last_scores))
    assert seen[0] == seen[1] and len(seen[0][1]) >= 2


def test_a_real_difference_in_public_state_changes_the_scores():
    """The scores compared above are sensitive: changing public wealth changes them."""
    agent = make_agent("learned:zero")
    g = _looked_ahead_position(agent)
    seat = g.acting_seat
    h = g.clone()
    h.s.wealth[(seat + 1) % 4] += 7
    scores = []
    for game in (g, h):
        agent.reset(11)
        agent.choose(game, seat)
        scores.append(agent.last_scores)
    assert scores[0] != scores[1]


def test_a_value_network_without_a_value_head_is_refused(zero_copy):
    student = make_agent("learned:zero-policy")
    folder = zero_copy(drop=VALUE_KEYS)
    no_value = {f: NumpyPolicy.load(folder / f"{n}.npz")
                for f, n in enumerate(("british", "malay"))}
    with pytest.raises(ValueError, match="needs a value head"):
        LookaheadPolicies(student, no_value)


@pytest.mark.parametrize("questions", [2, ROLLOUT_QUESTIONS])
def test_the_rollout_plays_on_to_the_seat_s_nth_action_question(questions):
    """After an answer the students play every seat, the seat's next Action questions
    too, until the seat faces the main Action question for the ``questions``-th time
    (ROLLOUT_QUESTIONS for ``learned:zero``); without the rollout the value is read
    right after the answer, and the scores differ."""
    shipped = make_agent("learned:zero")
    agent = LookaheadPolicies(shipped.student, shipped.values, questions=questions)
    g = _looked_ahead_position(agent)
    seat = g.acting_seat
    world = g.clone()
    world.step(world.legal_decisions()[agent.candidates(g, seat, g.legal_decisions())[0]])
    before = world.clone()
    agent.roll_out(world, seat)
    assert world.acting_seat == seat and agent.candidates(world, seat, world.legal_decisions())
    played = world.history[len(before.history):]
    assert played and before.history == world.history[:len(before.history)]
    passed = 0
    for decision in played:
        passed += (before.acting_seat == seat
                   and bool(agent.candidates(before, seat, before.legal_decisions())))
        before.step(decision)
    assert passed == questions - 1
    seen = []
    for rollout in (True, False):
        agent.rollout = rollout
        agent.reset(11)
        seen.append(agent.choose(g, seat) and dict(agent.last_scores))
    assert seen[0].keys() == seen[1].keys() and seen[0] != seen[1]


@pytest.mark.skipif(not native.available(), reason="the native engine is not built here")
def test_the_native_rollout_plays_the_python_loops_decisions():
    """On native worlds the rollouts run in C++, all of them in lockstep
    (native/rollout.hpp, agents.native_nets.roll_out): from each (world, answer) the same
    decisions as the Python loop over the same world, and the position reached is the
    seat's observation and projected VP of the loop's, also as the compact row of their
    nonzero entries."""
    from agents.lookahead import ROLLOUT_LIMIT
    from agents.native_nets import roll_out
    from singapore_env.candidates import projected_vp
    from singapore_env.native.encoding import native_encoder_for

    agent = make_agent("learned:zero")
    worlds, seats, starts, expected = [], [], [], []
    for seed in (2, 5, 6):
        g = _looked_ahead_position(agent, seed=seed)
        seat = g.acting_seat
        world = native.NativeGame.from_json(g.to_json())
        worlds.append(world)
        seats.append(seat)
        for i in agent.candidates(g, seat, g.legal_decisions())[:2]:
            decision = world.legal_decisions()[i]
            starts.append((len(worlds) - 1, decision))
            after = world.clone()
            after.step(decision)
            agent.roll_out(after, seat)  # the Python loop
            expected.append((after, seat, after.decisions - world.decisions - 1))
    students = agent._native_students(worlds[0])
    leaves = roll_out(worlds, seats, starts, students, LOOKAHEAD_KINDS, ROLLOUT_QUESTIONS,
                      ROLLOUT_LIMIT)
    for k, (after, seat, played) in enumerate(expected):
        assert leaves.played[k] == played and leaves.over[k] == after.is_over
        if after.is_over:
            assert leaves.final_vp[k].tolist() == list(after.final_scores)
        else:
            encoder = native_encoder_for(after.c, after.cfg)
            assert np.array_equal(leaves.obs[k], encoder.encode(after, seat))
            assert np.array_equal(leaves.projected[k], projected_vp(after, seat))
        row = np.concatenate([leaves.obs[k], leaves.projected[k]])
        nonzero = np.flatnonzero(row)
        assert np.array_equal(leaves.nonzero_index[k, :len(nonzero)], nonzero)
        assert leaves.nonzero_value[k, :len(nonzero)].tobytes() == row[nonzero].tobytes()
        assert not leaves.nonzero_index[k, len(nonzero):].any()
        assert not leaves.nonzero_value[k, len(nonzero):].any()
    assert sum(p for *_, p in expected) > 20


def test_with_more_worlds_an_answer_s_score_is_its_mean_value_over_the_same_worlds():
    """``worlds=2``: both worlds are sampled from the seat's view in turn, every answer
    is played in each, and its score is the mean of its two values plus the weighted
    log-probability (the value with the networks' ``vp_weight`` times the VP margin);
    the default (:data:`~agents.lookahead.WORLDS`) is ``learned:zero``'s."""
    import numpy as np

    from agents.determinize import determinize
    from agents.learned import position_value
    from agents.lookahead import LOGP_WEIGHT

    pure = make_agent("learned:zero")
    agent = LookaheadPolicies(pure.student, pure.values, seed=3, worlds=2)
    g = _looked_ahead_position(agent)
    seat, legal = g.acting_seat, g.legal_decisions()
    agent.choose(g, seat)
    candidates, log_p = agent._proposals(g, seat, legal)
    rng = np.random.default_rng(3)
    worlds = [determinize(g, seat, rng) for _ in range(2)]
    expected = {}
    for i in candidates:
        values = []
        for world in worlds:
            after = world.clone()
            after.step(legal[i])
            agent.roll_out(after, seat)
            net = agent.values[SEAT_FACTION[seat]]
            assert not after.is_over
            values.append(position_value(net, after, seat, float(net.meta["vp_weight"])))
        expected[i] = (values[0] + values[1]) / 2 + LOGP_WEIGHT * log_p[i]
    assert agent.last_scores == pytest.approx(expected, abs=1e-12)
    one = LookaheadPolicies(pure.student, pure.values, seed=3)
    pure.reset(3)
    assert one.choose(g, seat) == pure.choose(g, seat) and one.last_scores == pure.last_scores
    assert one.last_scores != agent.last_scores
    with pytest.raises(ValueError, match="worlds must be >= 1"):
        LookaheadPolicies(pure.student, pure.values, worlds=0)
    with pytest.raises(ValueError, match="questions must be >= 1"):
        LookaheadPolicies(pure.student, pure.values, questions=0)
