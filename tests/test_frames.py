"""Frame data records (:mod:`singapore_env.frames`): one per frame kind that holds data,
checked on load by the save shapes of exactly its fields."""

import pytest

from singapore_env.frames import FRAME_RECORDS
from singapore_env.save_shapes import FRAMES
from singapore_env.state import Frame


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
    raid = Frame("raid", 0, phase=0, roll=0, hinder=0)
    assert [*raid.to_dict()["d"]] == ["phase", "roll", "hinder"]
    raid.d.set_roll("roll", [2, 1])
    assert raid.to_dict()["d"] == {"phase": 0, "roll": 3, "hinder": 0, "roll_dice": [2, 1]}
