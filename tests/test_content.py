"""Content data: the shipped files load; malformed files give errors naming file, card, field."""

import shutil

import pytest

from singapore_env.engine.content import DATA_DIR, ContentError, default_content, load_content


def test_shipped_content_loads_with_expected_decks():
    c = default_content()
    assert 36 <= len(c.market_ids) <= 40
    assert all(12 <= len(ids) <= 15 for ids in c.battle_ids)
    assert 16 <= len(c.population_ids) <= 20
    assert len(c.event_ids["I"]) >= 5 and len(c.event_ids["II"]) >= 6
    printed = {"natural_history_drawings", "police_force", "cathedral", "hajjah_fatimah",
               "opium_tax_farm", "giant_kusu", "perahu", "hms_andromache", "buto_ijo",
               "javanese", "orang_laut", "hokkien", "major_pirate_attack"}
    for key in printed:
        assert not c.defs[c.by_key[key][0]].designed, key
    assert any(d.designed for d in c.defs)
    assert c.defs[c.by_key["police_force"][0]].price == (3, 3)
    assert c.defs[c.by_key["syed_omar_aljunied"][0]].price == (4, 2)


def test_designed_leader_parts_are_marked():
    c = default_content()
    sultan = c.defs[c.leader_ids[3]]
    assert sultan.designed_parts == () and [x.name for x in sultan.legacies][:2] == [
        "Prosperous", "Patron"]
    assert all(c.defs[c.leader_ids[p]].designed_parts for p in range(3))


def test_without_slavery_the_two_slavery_cards_are_out():
    keys = {default_content(False).defs[i].key for i in default_content(False).market_ids}
    assert "hamba_abdi" not in keys and "sakai" not in keys


@pytest.fixture
def data(tmp_path):
    for name in ("board.toml", "cards.toml"):
        shutil.copy(DATA_DIR / name, tmp_path / name)
    return tmp_path


def _edit(data, old, new):
    path = data / "cards.toml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize("old,new,message", [
    ('id = "police_force"\nname = "Police Force"\ndesigned = false\nprice = 3',
     'id = "police_force"\nname = "Police Force"\ndesigned = false\nprice = "three"',
     "cards.toml: [[market]] 'police_force': field 'price'"),
    ('instant = [{ type = "influence", n = 2 }, { type = "public_works" }]',
     'instant = [{ type = "influense", n = 2 }, { type = "public_works" }]',
     "field 'instant[0].type': unknown type 'influense'"),
    ('connectors = ["black_notch", "black_notch"]',
     'connectors = ["green_notch", "black_notch"]',
     "field 'connectors[0]'"),
    ('id = "natural_history_drawings"', 'id = "police_force"', "duplicate id 'police_force'"),
    ("schema_version = 1", "schema_version = 2", "schema_version is 2"),
    ('id = "police_force"\nname = "Police Force"',
     'id = "police_force"\nname = "Police Force"\npirce = 4',
     "[[market]] 'police_force': field 'pirce': unknown field"),
])
def test_malformed_cards_name_file_card_and_field(data, old, new, message):
    _edit(data, old, new)
    with pytest.raises(ContentError) as err:
        load_content(data)
    assert message in str(err.value)


def test_not_toml_and_missing_file(data):
    (data / "cards.toml").write_text("[[market]\nid =")
    with pytest.raises(ContentError, match="cards.toml: not valid TOML"):
        load_content(data)
    (data / "cards.toml").unlink()
    with pytest.raises(ContentError, match="file not found"):
        load_content(data)


def test_unknown_card_id_is_a_clear_error():
    c = default_content()
    with pytest.raises(ContentError, match="unknown card id 9999"):
        c.card(9999)


def test_every_effect_type_has_one_interpreter():
    """The effect vocabulary and its interpreter are one table each, in one order."""
    from singapore_env.engine.content_defs import EFFECT_FIELDS
    from singapore_env.engine.rules.effects import APPLY

    assert list(APPLY) == list(EFFECT_FIELDS)
