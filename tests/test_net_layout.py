"""What a network reads is part of its identity: a table whose settings change the
observation layout a network reads is refused at creation, everywhere, saying which
setting changes what (agents/net_layout.py)."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from agents.learned import LearnedAgent, NumpyPolicy
from agents.net_layout import LayoutMismatch, check_reads, check_table, layout_meta
from agents.registry import make_agent
from arena.runner import Table, play_tables
from arena.simulate import play_game
from singapore_app.cli import main
from singapore_env.encoding import encoder_for
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import default_content

SHORT = RulesConfig.named("standard", event_i_cards=1)


def _encoder(cfg: RulesConfig):
    return encoder_for(default_content(cfg.slavery), cfg)


@pytest.mark.parametrize("spec", ["learned:zero", "learned:zero-policy", "rerank",
                                  "mcts:net=zero:iters=2"])
def test_a_shipped_network_refuses_a_table_that_changes_its_layout(spec):
    with pytest.raises(LayoutMismatch) as info:
        check_table([spec, "random", "random", "random"], SHORT, None)
    message = str(info.value)
    assert "event_i_cards = 1 (the standard ruleset has 3) changes the rounds" in message
    assert "reads an observation of 5146 values, this table's has 5144" in message
    assert "slice 'round': 9 values, here 7" in message


@pytest.mark.parametrize("ruleset", ["standard", "simulation", "first-edition"])
def test_the_shipped_networks_play_every_ruleset(ruleset):
    cfg = RulesConfig.named(ruleset)
    check_table(["learned:zero", "learned:zero-policy", "rerank", "mcts:net=zero"], cfg, None)
    # (a setting that only scales a value keeps the layout)
    check_table(["learned:zero"] * 4, RulesConfig.named(ruleset, actions_per_turn=3), None)


@pytest.mark.parametrize("setting, value, words", [
    ("max_hand", 13, "max_hand = 13 (the standard ruleset has 12) changes the hand slices"),
    ("market_slots", 6, "market_slots = 6 (the standard ruleset has 5) changes the `market`"),
    ("max_tableau", 17, "max_tableau = 17"),
])
def test_each_layout_setting_is_named(setting, value, words):
    cfg = RulesConfig.named("standard", **{setting: value})
    with pytest.raises(LayoutMismatch, match=words.replace("(", r"\(").replace(")", r"\)")):
        check_table(["learned:zero", "random", "random", "random"], cfg, None)


def test_play_game_and_play_tables_refuse_before_any_game():
    with pytest.raises(LayoutMismatch):
        play_game(1, ["learned:zero", "random", "random", "random"], SHORT)
    with pytest.raises(LayoutMismatch):
        play_tables([Table(("random", "learned:zero-policy", "random", "random"), SHORT)], 1)


@pytest.mark.parametrize("command", [
    ["simulate", "--games", "1", "--players", "learned:zero,random,random,random"],
    ["evaluate", "--games", "1", "--british", "learned:zero", "--malay", "random"],
    ["balance", "--games", "1", "--players", "z=learned:zero,random,random,random"],
])
def test_the_command_line_refuses_with_exit_2(tmp_path, command):
    out = ["--out", str(tmp_path / "out")] if command[0] == "balance" else []
    result = CliRunner().invoke(main, [*command, *out, "--no-progress", "--engine", "python",
                                       "--set", "event_i_cards=1"])
    assert result.exit_code == 2, result.output
    assert "learned:zero cannot play this table: event_i_cards = 1" in result.output
    assert "Traceback" not in result.output


def test_the_faction_env_refuses_such_opponents():
    pytest.importorskip("gymnasium")
    from arena.faction_env import FactionEnv

    with pytest.raises(LayoutMismatch, match="event_i_cards"):
        FactionEnv("british", opponents="learned:zero", config=SHORT)
    FactionEnv("british", opponents="learned:zero")  # the standard table: accepted


def _tiny(tmp_path, cfg: RulesConfig, meta: bool):
    """A small flat network reading ``cfg``'s observation, its layout in its meta or
    not."""
    encoder = _encoder(cfg)
    rng = np.random.default_rng(0)
    policy = NumpyPolicy([(rng.normal(size=(encoder.size, 8)), np.zeros(8))],
                         (rng.normal(size=(8, encoder.n_actions)), np.zeros(encoder.n_actions)),
                         meta=layout_meta(None, cfg) if meta else None)
    policy.save(tmp_path / "tiny.npz")
    return LearnedAgent.load(tmp_path / "tiny.npz")


def test_a_saved_network_carries_its_layout(tmp_path):
    agent = _tiny(tmp_path, SHORT, meta=True)
    assert agent.policy.meta["obs_size"] == _encoder(SHORT).size
    check_reads(agent.policy, _encoder(SHORT))                   # its own table: plays
    play_game(2, [agent, "random", "random", "random"], SHORT)
    with pytest.raises(LayoutMismatch) as info:                  # the standard one: not
        check_reads(agent.policy, _encoder(RulesConfig.standard()), "tiny")
    assert "slice 'round': 7 values, here 9" in str(info.value)


def test_the_same_width_with_another_layout_is_refused(tmp_path):
    # (a content with other card keys of the same counts: the fingerprint tells the
    # layouts apart where the width cannot)
    agent = _tiny(tmp_path, RulesConfig.standard(), meta=True)
    agent.policy.meta["obs_layout"] = "0" * 16  # (a network trained on another layout)
    with pytest.raises(LayoutMismatch, match="reads an observation of 5146 values, this "
                                             "table's has 5146"):
        check_reads(agent.policy, _encoder(RulesConfig.standard()))


def test_the_web_app_refuses_it_at_creation(tmp_path):
    from web_support import client

    with client(tmp_path) as c:
        r = c.post("/api/games", json={"seats": ["learned:zero", "random", "person", "random"],
                                       "settings": {"event_i_cards": 1}})
        assert r.status_code == 400, r.text
        assert "event_i_cards = 1" in r.text and "cannot play this table" in r.text
        r = c.post("/api/games", json={"seats": ["learned:zero", "random", "person", "random"]})
        assert r.status_code == 201, r.text


def test_an_agent_without_networks_plays_any_table():
    check_table(["heuristic", "random", "mcts:iters=2", make_agent("random")], SHORT, None)
