"""Frame data records (:mod:`singapore_env.engine.frames`): one per frame kind that holds data,
checked on load by the save shapes of exactly its fields."""

import random
from enum import IntEnum

import pytest

from singapore_env.engine.config import RulesConfig
from singapore_env.engine import Game
from singapore_env.engine.frames import FRAME_RECORDS, RaidPhase
from singapore_env.engine.save_shapes import FRAMES
from singapore_env.engine.state import Frame


@pytest.mark.parametrize("kind", sorted(FRAMES))
def test_the_save_shape_checks_exactly_the_record_fields(kind):
    record = FRAME_RECORDS.get(kind)
    fields = record.required + record.optional if record is not None else ()
    assert sorted(FRAMES[kind].data) == sorted(fields)


def test_every_record_is_of_a_saved_frame_kind():
    assert set(FRAME_RECORDS) <= set(FRAMES)


def test_a_frame_of_a_kind_without_data_takes_none():
    assert Frame("upkeep").d is None
    with pytest.raises(TypeError, match="holds no data"):
        Frame("upkeep", n=1)


def test_a_field_left_at_its_default_is_not_saved():
    assert Frame("war_discard", 1).to_dict() == {"kind": "war_discard", "seat": 1, "d": {}}
    assert Frame("war_discard", 1, parent="war_fe").to_dict()["d"] == {"parent": "war_fe"}
    raid = Frame("raid", 0, phase=RaidPhase.ROLL, roll=0, hinder=0)
    assert [*raid.to_dict()["d"]] == ["phase", "roll", "hinder"]
    raid.d.set_roll("roll", [2, 1])
    assert raid.to_dict()["d"] == {"phase": 0, "roll": 3, "hinder": 0, "roll_dice": [2, 1]}


@pytest.mark.parametrize("ruleset", ["standard", "simulation", "first-edition"])
def test_a_phase_is_always_a_member_of_its_enum(ruleset):
    g, rng = Game(7, RulesConfig.named(ruleset)), random.Random(7)
    phases = 0
    while not g.is_over:
        for state in (g.s, Game.from_json(g.to_json()).s):
            for f in state.stack:
                if hasattr(f.d, "phase"):
                    assert isinstance(f.d.phase, IntEnum), (f.kind, f.d.phase)
                    phases += 1
        g.step(rng.choice(g.legal_decisions()))
    assert phases
