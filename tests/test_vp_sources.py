"""Points by source and game facts, recorded by the engine where it awards VP."""

import json

import pytest

from agents.registry import make_agent
from singapore_env.engine.config import RULESETS, RulesConfig
from singapore_env.engine import Game
from arena.simulate import play_game
from singapore_env.engine.state import FINAL_ONLY_SOURCES, VP_SOURCES


def _finished(ruleset: str, agent: str, seed: int, **changes) -> Game:
    agents = [make_agent(agent) for _ in range(4)]
    return play_game(seed, agents, RulesConfig.named(ruleset, **changes), keep_game=True).game


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("agent,seeds", [("random", range(6)), ("heuristic", range(1))])
def test_sources_sum_to_the_final_vp(ruleset, agent, seeds):
    for seed in seeds:
        g = _finished(ruleset, agent, seed)
        assert [sum(row) for row in g.s.vp_sources] == g.final_scores
        track = [sum(v for name, v in zip(VP_SOURCES, row) if name not in FINAL_ONLY_SOURCES)
                 for row in g.s.vp_sources]
        assert track == g.s.vp
        assert all(row[VP_SOURCES.index("unrecorded")] == 0 for row in g.s.vp_sources)


def test_heuristic_games_score_from_several_sources():
    g = _finished("standard", "heuristic", 3)
    totals = {name: sum(row[i] for row in g.s.vp_sources) for i, name in enumerate(VP_SOURCES)}
    assert totals["district"] > 0 and totals["upkeep_tax"] > 0 and totals["legacy"] > 0
    kinds = {fact[0] for fact in g.s.facts}
    assert "conflict" in kinds
    for kind, round_, *values in g.s.facts:
        assert 1 <= round_ <= 8
        if kind == "war":
            attacker, defender, victor = values
            assert victor in (attacker, defender, -1)


def test_conflict_vp_beyond_the_event_is_its_own_source():
    capped = [_finished("standard", "heuristic", seed, conflict_vp_full_strength=False)
              for seed in range(2)]
    index = VP_SOURCES.index("conflict_excess")
    assert all(row[index] == 0 for g in capped for row in g.s.vp_sources)
    full = [_finished("standard", "heuristic", seed) for seed in range(2)]
    assert any(row[index] > 0 for g in full for row in g.s.vp_sources)


def test_saves_carry_sources_and_facts():
    g = _finished("standard", "random", 4)
    again = Game.from_json(g.to_json())
    assert again.s.vp_sources == g.s.vp_sources and again.s.facts == g.s.facts
    replayed = Game.load_replay(g.to_json())
    assert replayed.s.vp_sources == g.s.vp_sources and replayed.s.facts == g.s.facts


def test_a_save_from_before_sources_loads_with_its_vp_unrecorded():
    g = Game(5)
    for _ in range(150):
        g.step(g.legal_decisions()[0])
    data = json.loads(g.to_json())
    del data["state"]["vp_sources"], data["state"]["facts"]
    old = Game.from_dict(data)
    assert [row[VP_SOURCES.index("unrecorded")] for row in old.s.vp_sources] == g.s.vp
    assert old.s.facts == []


def _running_save_with_vp() -> dict:
    g = Game(5)
    rng = __import__("random").Random(3)
    while max(g.s.vp) < 3:
        legal = g.legal_decisions()
        g.step(legal[rng.randrange(len(legal))])
    return json.loads(g.to_json())


def test_a_save_with_a_negative_vp_award_is_rejected_with_its_place():
    """The VP track still adds up, but a source went negative: the game would fail an
    invariant later, so the loader refuses it and names the entry."""
    data = _running_save_with_vp()
    row = data["state"]["vp_sources"][1]
    district, decree = VP_SOURCES.index("district"), VP_SOURCES.index("decree")
    row[decree] += row[district] + 2
    row[district] = -2
    from singapore_env.engine.save_validation import SaveFormatError
    with pytest.raises(SaveFormatError, match=r"vp_sources\[1\] district is negative \(-2\)"):
        Game.from_dict(data)


def test_a_running_save_with_end_of_game_vp_is_rejected():
    data = _running_save_with_vp()
    data["state"]["vp_sources"][2][VP_SOURCES.index("legacy")] = -4
    from singapore_env.engine.save_validation import SaveFormatError
    with pytest.raises(SaveFormatError, match=r"vp_sources\[2\] legacy is -4 in a running game"):
        Game.from_dict(data)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_finished_games_with_negative_end_game_vp_still_load(ruleset):
    g = _finished(ruleset, "random", 0)
    assert Game.from_json(g.to_json()).s.vp_sources == g.s.vp_sources
