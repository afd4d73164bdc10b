"""Saving and loading games: byte-stable JSON, snapshots, replays and tampered files."""

import json
import random

import pytest

from singapore_env.engine.decisions import ActionTable, Decision, Kind
from singapore_env.engine import Game, IllegalDecision, SaveFormatError


def _decisions(seed: int, n: int | None = None) -> list[Decision]:
    """The decisions of a random game (all of them, or the first n)."""
    g, rng, out = Game(seed, keep_text_log=False), random.Random(seed), []
    while not g.is_over and (n is None or len(out) < n):
        d = rng.choice(g.legal_decisions())
        out.append(d)
        g.step(d)
    return out


def _play(seed: int, decisions, game: Game | None = None) -> Game:
    g = game if game is not None else Game(seed)
    for d in decisions:
        g.step(d)
    return g


@pytest.fixture(scope="module")
def log7():
    return _decisions(7)


def test_same_seed_and_decisions_give_identical_json(log7):
    a, b = _play(7, log7), _play(7, log7)
    assert a.is_over
    assert a.to_json() == b.to_json()
    assert json.loads(a.to_json())["history"] == [[d.kind, d.arg] for d in log7]


@pytest.mark.parametrize("cut", [1, 40, 117, 180])
def test_save_mid_game_then_continue_equals_never_saving(log7, cut):
    straight = _play(7, log7)
    head = _play(7, log7[:cut])
    text = head.to_json()
    loaded = Game.from_json(text)
    assert loaded.to_json() == text
    assert loaded.acting_seat == head.acting_seat
    assert loaded.legal_decisions() == head.legal_decisions()
    assert _play(7, log7[cut:], loaded).to_json() == straight.to_json()
    # a clone taken at the same point continues the same way
    assert _play(7, log7[cut:], head.clone()).to_json() == straight.to_json()


def test_load_replay_equals_the_original(log7):
    for cut in (0, 60, len(log7)):
        g = _play(7, log7[:cut])
        assert Game.load_replay(g.to_json()).to_json() == g.to_json()


def test_save_format_without_slavery():
    from singapore_env.engine.config import RulesConfig
    g = Game(2, RulesConfig.standard(slavery=False))
    rng = random.Random(2)
    for _ in range(50):
        g.step(rng.choice(g.legal_decisions()))
    text = g.to_json()
    assert Game.from_json(text).to_json() == text
    assert Game.load_replay(text).to_json() == text


# ------------------------------------------------------------ tampered files
@pytest.fixture(scope="module")
def saved():
    """A mid-game save in which some hand holds a card."""
    g, rng = Game(11), random.Random(11)
    while not (sum(map(len, g.s.hands)) and len(g.history) > 30):
        g.step(rng.choice(g.legal_decisions()))
    return g.to_json()


def _tamper(text: str, change) -> str:
    data = json.loads(text)
    change(data)
    return json.dumps(data)


BOTH = [Game.from_json, Game.load_replay]


@pytest.mark.parametrize("load", BOTH)
def test_wrong_format_name(saved, load):
    bad = _tamper(saved, lambda d: d.update(format="chess-game"))
    with pytest.raises(SaveFormatError,
                       match="format is 'chess-game', expected 'singapore-1819-game'"):
        load(bad)


@pytest.mark.parametrize("load", BOTH)
def test_wrong_version(saved, load):
    bad = _tamper(saved, lambda d: d.update(version=2))
    with pytest.raises(SaveFormatError, match=r"version 2 is not supported \(this engine reads 1\)"):
        load(bad)


@pytest.mark.parametrize("load", BOTH)
@pytest.mark.parametrize("entry", [[5], [1, 2, 3], "PASS", [0, "0"], None, [99, 0]])
def test_history_entry_not_a_pair(saved, load, entry):
    def change(d):
        d["history"][3] = entry
    with pytest.raises(SaveFormatError, match=r"history\[3\] is not a \[kind, arg\] decision"):
        load(_tamper(saved, change))


@pytest.mark.parametrize("load", BOTH)
def test_missing_field(saved, load):
    bad = _tamper(saved, lambda d: d.pop("seed"))
    with pytest.raises(SaveFormatError, match="missing field 'seed'"):
        load(bad)


def test_duplicated_card(saved):
    def change(d):
        hands = d["state"]["hands"]
        owner = next(p for p in range(4) if hands[p])
        hands[(owner + 1) % 4].append(hands[owner][0])
    with pytest.raises(SaveFormatError, match="inconsistent state: cards in two places"):
        Game.from_json(_tamper(saved, change))


def test_negative_wealth(saved):
    def change(d):
        d["state"]["wealth"][2] = -3
    with pytest.raises(SaveFormatError, match=r"malformed state: wealth \[2\] .*-3"):
        Game.from_json(_tamper(saved, change))


def test_state_field_missing_or_unknown(saved):
    with pytest.raises(SaveFormatError, match="malformed state: .*missing.*'ships'"):
        Game.from_json(_tamper(saved, lambda d: d["state"].pop("ships")))
    with pytest.raises(SaveFormatError, match="malformed state: .*unknown.*'gold'"):
        Game.from_json(_tamper(saved, lambda d: d["state"].update(gold=3)))


def test_other_content(saved):
    with pytest.raises(SaveFormatError, match="saved with content 'abc'"):
        Game.from_json(_tamper(saved, lambda d: d.update(content="abc")))


@pytest.mark.parametrize("load", BOTH)
@pytest.mark.parametrize("text", ["", "not json at all", "{", "[1, 2"])
def test_not_json(load, text):
    with pytest.raises(SaveFormatError, match="not JSON"):
        load(text)


@pytest.mark.parametrize("load", BOTH)
def test_not_an_object(load):
    with pytest.raises(SaveFormatError, match="a saved game is a JSON object"):
        load("[1, 2, 3]")


def test_replay_of_an_illegal_log(saved):
    def change(d):  # the first question is where to place a Leader: FUND is not legal
        d["history"].insert(0, [int(Kind.FUND), 0])
    with pytest.raises(SaveFormatError, match="decision #0 of the log"):
        Game.load_replay(_tamper(saved, change))


# ------------------------------------------------------------ illegal decisions
def test_illegal_decision_leaves_the_game_unchanged():
    g, rng = Game(4), random.Random(4)
    table = ActionTable(g.cfg.max_tableau, g.cfg.max_hand)
    for _ in range(60):
        before = g.to_json()
        legal = set(g.legal_decisions())
        illegal = [d for d in table.decisions if d not in legal]
        for d in rng.sample(illegal, 5):
            with pytest.raises(IllegalDecision, match="is not legal for"):
                g.step(d)
            assert g.to_json() == before
        for junk in ("x", (1,), None):
            with pytest.raises(IllegalDecision):
                g.step(junk)
            assert g.to_json() == before
        g.step(rng.choice(g.legal_decisions()))


def test_no_decision_after_the_end():
    g = _play(7, _decisions(7))
    assert g.is_over and g.legal_decisions() == [] and g.acting_seat == -1
    before = g.to_json()
    with pytest.raises(IllegalDecision, match="game is over"):
        g.step(Decision(Kind.PASS, 0))
    assert g.to_json() == before


# ------------------------------------------------------------ malformed input
def test_out_of_range_arg_is_an_illegal_decision():
    with pytest.raises(IllegalDecision):
        Game(0).step((int(Kind.WAR), -5))


def test_config_value_of_the_wrong_type(saved):
    def change(d):
        d["config"]["first_round_income"] = "3"
    with pytest.raises(SaveFormatError):
        Game.load_replay(_tamper(saved, change))


@pytest.mark.parametrize("load", BOTH)
def test_the_environment_keys_of_a_saved_config_are_written_fixed_and_read_as_nothing(
        saved, load):
    """A save's config carries reward_mode, max_decisions and extra beside the rules
    (the format's keys): always written as win/0/{}, and a save holding other values
    (an environment's settings) loads as the same game."""
    assert {k: json.loads(saved)["config"][k] for k in ("reward_mode", "max_decisions",
                                                          "extra")} == \
        {"reward_mode": "win", "max_decisions": 0, "extra": {}}

    def change(d):
        d["config"].update(reward_mode="faction", max_decisions=500, extra={"a": [[1]]})
    assert load(_tamper(saved, change)).to_json() == Game.from_json(saved).to_json()
    with pytest.raises(SaveFormatError, match="unknown rules config keys: \\['max_steps'\\]"):
        load(_tamper(saved, lambda d: d["config"].update(max_steps=5)))


def test_a_fight_question_asked_twice_of_one_seat_is_refused():
    """A save whose stack asks one seat the same War question twice would lose the
    committed card: the loader refuses it (both engines load through it)."""
    for seed in range(40):
        game, pick = Game(seed, keep_text_log=False), random.Random(seed)
        while not game.is_over and not any(f.kind == "war_commit" for f in game.s.stack):
            game.step(pick.choice(game.legal_decisions()))
        if not game.is_over:
            break
    data = json.loads(game.to_json())
    frames = data["state"]["stack"]
    at = next(i for i, f in enumerate(frames) if f["kind"] == "war_commit")
    frames.insert(at, json.loads(json.dumps(frames[at])))
    with pytest.raises(SaveFormatError, match="asks seat .* the war_commit question twice"):
        Game.from_json(json.dumps(data))
