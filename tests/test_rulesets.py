"""The ruleset objects (:mod:`singapore_env.engine.rulesets`) declare everything the engine and
the higher layers play differently per ruleset: a new ruleset is a new object."""

import random

import pytest

from agents.heuristic import OWN_ACTION_SCORES
from singapore_env.engine import config, rulesets
from singapore_env.engine.config import RulesConfig, check_keys
from singapore_env.engine.decisions import Kind
from singapore_env.encoding import ObservationEncoder
from singapore_env.engine import Game
from singapore_env.engine.invariants import check_invariants
from singapore_env.render import render_text
from singapore_env.engine.rules.base import AUTO, LEGAL
from singapore_env.engine.rules.turn import CORE
from singapore_env.engine.rulesets import (BY_NAME, FIRST_EDITION, SIMULATION, STANDARD,
                                           Ruleset, ruleset_of)
from singapore_env.engine.save_shapes import FRAMES


def _random_game(seed: int, cfg: RulesConfig, ruleset: Ruleset) -> Game:
    """A random game, checked after every step: invariants hold and the stack holds
    only frames of ``ruleset``."""
    g = Game(seed, cfg, keep_text_log=False)
    rng = random.Random(seed)
    while not g.is_over:
        g.step(rng.choice(g.legal_decisions()))
        check_invariants(g)
        assert {f.kind for f in g.s.stack} <= ruleset.frames
    return g


def test_every_ruleset_is_registered_under_its_name_the_standard_one_first():
    assert list(BY_NAME.values()) == [STANDARD, FIRST_EDITION, SIMULATION]
    assert all(name == r.name for name, r in BY_NAME.items())
    assert config.RULESETS == tuple(BY_NAME)
    for name in config.RULESETS:
        assert ruleset_of(RulesConfig.named(name)) is BY_NAME[name]
        assert Game(1, RulesConfig.named(name)).ruleset is BY_NAME[name]


def test_a_preset_holds_settings_and_named_applies_it_under_the_overrides():
    assert set(config.PRESETS) <= set(BY_NAME)
    for r in BY_NAME.values():
        preset = config.PRESETS.get(r.name, {})
        check_keys(preset)
        cfg = RulesConfig.named(r.name)
        assert cfg == RulesConfig(ruleset=r.name, **preset)
        assert RulesConfig.named(r.name, war_cost=5).war_cost == 5
    assert config.PRESETS["first-edition"] == {"war_cost": 0, "war_cost_under_anglo_dutch": 0}


@pytest.mark.parametrize("setting", ["reward_mode=faction", "max_decisions=5", "extra=1"])
def test_the_rules_config_holds_rules_only(setting):
    """How an environment rewards or truncates are its own arguments: not rules settings
    (a study's ``set`` or the CLI's ``--set`` name the settings)."""
    with pytest.raises(config.ConfigError, match="unknown rules setting.*settings: slavery"):
        config.parse_setting(setting)
    with pytest.raises(TypeError):
        RulesConfig(**dict([setting.split("=")]))


def test_a_rulesets_action_table_is_the_core_one_with_its_own_procedures_in_place():
    for r in BY_NAME.values():
        assert dict(r.actions) == {**CORE, **r.own_actions}
    assert set(FIRST_EDITION.own_actions) == {Kind.RAID, Kind.WAR}
    assert not STANDARD.own_actions and not SIMULATION.own_actions
    with pytest.raises(ValueError, match="not core actions"):
        Ruleset("x", frozenset(), own_actions={Kind.PASS: CORE[Kind.RAID]})


def test_every_frame_kind_belongs_to_a_ruleset_and_has_a_save_shape():
    registered = set(LEGAL) | set(AUTO)
    assert set().union(*(r.frames for r in BY_NAME.values())) == registered == set(FRAMES)
    assert {"raid", "war"} <= STANDARD.frames and {"raid_fe", "war_fe"} <= FIRST_EDITION.frames
    assert not {"raid", "war"} & FIRST_EDITION.frames
    assert {"declare_role", "reveal_roles"} <= SIMULATION.frames - STANDARD.frames


@pytest.mark.parametrize("ruleset", BY_NAME.values(), ids=BY_NAME)
def test_random_games_hold_only_their_rulesets_frames_and_roles(ruleset):
    for seed in range(6):
        g = _random_game(seed, RulesConfig.named(ruleset.name), ruleset)
        assert bool(g.s.roles_public) <= ruleset.has_roles  # Roles only where declared
        assert bool(g.s.put_away) == (ruleset.setup is not None)  # the setup step ran


def test_the_heuristic_scores_every_action_a_ruleset_plays_its_own_way():
    assert {r for r in BY_NAME.values() if r.own_actions} == set(OWN_ACTION_SCORES)


def test_a_new_ruleset_is_one_new_object(monkeypatch):
    """A ruleset made of existing parts (the first edition's Raid and War with Simulation
    Mode's Roles, which its War does not buy into) plays, saves, loads, renders and
    encodes once it is registered, with no other change."""
    roles = SIMULATION.frames - STANDARD.frames - {"ruler_buy"}
    mixed = Ruleset("first-edition-roles", frames=FIRST_EDITION.frames | roles,
                    own_actions=FIRST_EDITION.own_actions, setup=SIMULATION.setup,
                    has_roles=True, procedures=FIRST_EDITION.procedures | SIMULATION.procedures)
    monkeypatch.setattr(rulesets, "BY_NAME", {**BY_NAME, mixed.name: mixed})
    monkeypatch.setattr(config, "RULESETS", (*config.RULESETS, mixed.name))
    monkeypatch.setattr(config, "PRESETS", {**config.PRESETS,
                                            mixed.name: config.PRESETS["first-edition"]})
    cfg = RulesConfig.named(mixed.name)
    assert cfg.war_cost == 0
    encoder = ObservationEncoder(config=cfg)
    declared = 0
    for seed in range(8):
        g = _random_game(seed, cfg, mixed)
        declared += g.s.roles_public
        assert Game.from_json(g.to_json()).to_json() == g.to_json()
        assert "role:" in render_text(g) or not g.s.roles_public
        assert encoder.encode(g, 0).any()
    assert declared  # some games reached the Anglo-Dutch Treaty and its Roles
    from singapore_env import native
    if native.available():  # the native engine plays it by its procedures, not its name
        assert native.plays(cfg)
        for seed in range(4):
            assert not native.compare_random_game(seed, cfg)[1]


def test_a_ruleset_names_only_known_procedures_and_the_native_engine_reads_them():
    from singapore_env import native
    assert FIRST_EDITION.procedures == {"first_edition_raid_and_war"}
    assert SIMULATION.procedures == {"simulation_setup", "roles"} and not STANDARD.procedures
    with pytest.raises(ValueError, match="unknown procedures"):
        Ruleset("x", frozenset(), procedures=frozenset({"bidding"}))
    assert native.NATIVE_RULESETS == tuple(BY_NAME)
    assert native.NATIVE_PROCEDURES == rulesets.PROCEDURES
