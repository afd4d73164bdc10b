"""The encoder of a game is the one its rules shape: ``singapore_env.encoding.encoder_for``
shares one encoder per :func:`~singapore_env.encoding.observation_key`, and every player
that reads observations (the env, an agent at engine level, a learned network) reads
exactly the observation of the game in front of it, whatever it met before in the same
process: another ruleset, another number of rounds."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.base import Agent
from agents.registry import make_agent
from singapore_env.encoding import ObservationEncoder, encoder_for, observation_key
from singapore_env.engine import Game, RulesConfig
from singapore_app.study import Study, Variant

ROOT = Path(__file__).resolve().parent.parent
#: Standard, simulation and a shorter game (its round slice is smaller): met in this
#: order in one process, each after the others.
CONFIGS = [RulesConfig.named("standard"), RulesConfig.named("simulation"),
           RulesConfig.named("standard", event_ii_cards=3)]


def _fresh(game: Game, seat: int) -> np.ndarray:
    """The observation by an encoder built for this game alone (no sharing)."""
    return ObservationEncoder(game.c, game.cfg).encode(game, seat)


def _other_values(cfg: RulesConfig) -> dict:
    """A change of every rules setting outside the observation key."""
    key_fields = {"ruleset", "max_tableau", "max_hand", "market_slots", "event_i_cards",
                  "event_ii_cards", "actions_per_turn"}
    out = {}
    for f in dataclasses.fields(cfg):
        value = getattr(cfg, f.name)
        if f.name in key_fields:
            continue
        if isinstance(value, bool):
            out[f.name] = not value
        elif isinstance(value, int):
            out[f.name] = value + 1
    out["search_shortlist"] = cfg.search_shortlist - 1   # (at most the menu's 4)
    out["spoils_sharing"] = "optional"
    out["spoils_shares"] = ((1, 4), (3, 4))   # (as many shares: the key holds the count)
    out["sim_put_away_british"] = ("artillery_3",)
    return out


@pytest.mark.parametrize("ruleset", ["standard", "simulation", "first-edition"])
def test_settings_outside_the_key_do_not_change_an_observation(ruleset):
    cfg = RulesConfig.named(ruleset)
    changed = cfg.replace(**_other_values(cfg))
    game = Game(4, cfg, keep_text_log=False)
    assert observation_key(game.c, changed) == observation_key(game.c, cfg)
    ours, theirs = ObservationEncoder(game.c, cfg), ObservationEncoder(game.c, changed)
    rng = np.random.default_rng(4)
    for _ in range(120):
        for seat in range(4):
            assert np.array_equal(ours.encode(game, seat), theirs.encode(game, seat))
        legal = game.legal_decisions()
        game.step(legal[rng.integers(len(legal))])


def test_encoders_are_shared_per_key_and_differ_across_keys():
    encoders = [encoder_for(Game(0, cfg).c, cfg) for cfg in CONFIGS]
    assert encoder_for(Game(1, CONFIGS[0]).c, CONFIGS[0].replace(war_cost=3)) is encoders[0]
    assert len({id(e) for e in encoders}) == 3
    assert encoders[2].size < encoders[0].size   # fewer rounds: a smaller round slice


class Recorder(Agent):
    """Takes the first legal action and keeps every observation it was given."""

    name = "recorder"

    def __init__(self):
        self.seen: list[np.ndarray] = []

    def act(self, observation, mask):
        self.seen.append(observation["observation"])
        return int(np.flatnonzero(mask)[0])


def test_an_agent_reads_each_games_own_observation_in_one_process():
    agent = Recorder()
    for cfg in CONFIGS:
        game = Game(9, cfg, keep_text_log=False)
        for _ in range(40):
            seat = game.acting_seat
            decision = agent.choose(game, seat)
            assert np.array_equal(agent.seen[-1], _fresh(game, seat)), cfg.ruleset
            game.step(decision)


@pytest.mark.parametrize("spec", ["learned:zero", "rerank:net=zero"])
def test_a_learned_player_reads_each_games_own_observation_in_one_process(spec):
    """The network reads the observation of the game it plays; a network made for other
    rounds refuses a game whose observation is of another size (it cannot read it)."""
    from agents.learned import PolicyView

    agent = make_agent(spec, seed=0)
    if spec == "learned:zero":  # its shipped rollouts take minutes on the Python engine
        agent.worlds, agent.questions = 1, 2
    seen = []
    original = PolicyView.observation

    def observation(view, game, seat):
        obs = original(view, game, seat)
        seen.append((obs["observation"], _fresh(game, seat)))
        return obs

    PolicyView.observation = observation
    try:
        for cfg in CONFIGS[:2]:
            game = Game(9, cfg, keep_text_log=False)
            for _ in range(25):
                game.step(agent.choose(game, game.acting_seat))
        assert seen and all(np.array_equal(a, b) for a, b in seen)
        game = Game(9, CONFIGS[2], keep_text_log=False)
        with pytest.raises(ValueError, match="trained for other rules"):
            for _ in range(200):
                game.step(agent.choose(game, game.acting_seat))
        assert seen[-1][0].size == encoder_for(Game(9).c, CONFIGS[2]).size
    finally:
        PolicyView.observation = original


def _simulation_cell(after_standard: bool) -> list[dict]:
    """The records of the simulation cell of a small ``learned:zero`` study."""
    variants = [Variant("standard")] * after_standard + [Variant("simulation", "simulation")]
    records = Study({"learned": ("learned:zero",) * 4}, variants, games=1, seed=3,
                    swap=False).run()
    return [r for r in records if r["variant"] == "simulation"]


def test_a_study_cell_plays_the_same_games_alone_or_after_another_ruleset():
    """The simulation cell of a balance study of ``learned:zero`` players gives the same
    games whether it runs alone (in a fresh process) or after a standard cell."""
    code = ("import json, sys; sys.path.insert(0, 'tests'); "
            "from test_encoder_identity import _simulation_cell; "
            "print(json.dumps(_simulation_cell(False)))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    alone = json.loads(done.stdout.splitlines()[-1])
    assert len(alone) == 1 and _simulation_cell(True) == alone


def test_a_network_given_another_observation_size_says_so():
    """At env level too: an observation of another size is refused with the reason, not
    numpy's matmul error."""
    from agents.learned import NumpyPolicy

    net = NumpyPolicy([(np.zeros((6, 2)), np.zeros(2))], (np.zeros((2, 4)), np.zeros(4)))
    assert net.logits(np.zeros(6, np.float32)).shape == (4,)
    with pytest.raises(ValueError, match="reads 6 inputs but the game's observation gives 5"):
        net.logits(np.zeros(5, np.float32))
