"""Mutated saved games (hypothesis): a load either raises SaveFormatError or gives a
state whose observations lie in the env's spaces and that plays on to the end with
random decisions. Nothing else, ever."""

import json
import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from singapore_env import env as make_env
from singapore_env.engine.config import RulesConfig
from singapore_env.engine import Game, SaveFormatError


def _saves() -> list[dict]:
    """Real saves of every ruleset, taken at several points of random games."""
    out = []
    for ruleset, seed in (("standard", 3), ("first-edition", 4), ("simulation", 5)):
        g, rng = Game(seed, RulesConfig.named(ruleset)), random.Random(seed)
        step = 0
        while not g.is_over:
            if step % 37 == 5 or any(f.kind in ("war", "war_fe", "raid_fe", "conflict")
                                     for f in g.s.stack) and step % 3 == 0:
                out.append(json.loads(g.to_json()))
            g.step(rng.choice(g.legal_decisions()))
            step += 1
        out.append(json.loads(g.to_json()))
    return out


SAVES = _saves()
WRONG = [None, True, 1.5, "x", [], {}, [[]], -1, -7, 2**31, 10**30, 10**300, 3, 0, 1]


def _paths(x, prefix=()):
    yield prefix
    if isinstance(x, dict):
        for k, v in x.items():
            if k != "log_text":
                yield from _paths(v, prefix + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x[:12]):
            yield from _paths(v, prefix + (i,))


PATHS = [list(_paths(save)) for save in SAVES]


def _mutate(data, path, how, value):
    """Apply one mutation at ``path`` (in place) and return the JSON text."""
    if not path:
        return json.dumps(value)
    *head, last = path
    parent = data
    for key in head:
        parent = parent[key]
    if how == "set":
        parent[last] = value
    elif how == "drop":
        del parent[last]
    elif how == "duplicate" and isinstance(parent, list):
        parent.insert(last, parent[last])
    elif how == "duplicate":
        parent[f"{last}_"] = parent[last]
    elif how == "nest" and value:  # deeper than the JSON parser can go
        parent[last] = "@deep@"
        return json.dumps(data).replace('"@deep@"', "[" * 5000 + "0" + "]" * 5000)
    elif how == "nest":
        parent[last] = [[parent[last]]]
    elif how == "shift" and isinstance(parent[last], int):
        parent[last] += value if isinstance(value, int) else 1
    return json.dumps(data)


_ENVS: dict = {}


def _observations_in_bounds(g: Game) -> None:
    """Every seat's observation of the loaded state lies in the env's declared space."""
    ruleset = g.cfg.ruleset
    env = _ENVS.get(ruleset) or _ENVS.setdefault(ruleset, make_env(ruleset=ruleset).unwrapped)
    env.load(g.to_json())
    for agent in env.possible_agents:
        assert env.observation_space(agent)["observation"].contains(
            env.observe(agent)["observation"]), agent


def _plays_to_the_end(g: Game, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(20000):
        if g.is_over:
            assert len(g.final_scores) == 4
            return
        legal = g.legal_decisions()
        assert legal, "a running game offers a decision"
        g.step(rng.choice(legal))
    pytest.fail("the game did not end within 20000 decisions")


@pytest.mark.parametrize("load", [Game.from_json, Game.load_replay,
                                  lambda text: make_env().load(text)])
def test_deep_nesting_and_huge_numbers_are_save_format_errors(load):
    for text in ("[" * 100000 + "]" * 100000, '{"a":' * 5000 + "1" + "}" * 5000,
                 "1" * 5000, json.dumps({**SAVES[0], "seed": 10**300})):
        with pytest.raises(SaveFormatError):
            load(text)


@pytest.mark.parametrize("change, field", [
    (lambda s: s["config"].__setitem__("market_slots", 10**10), "market_slots"),
    (lambda s: s["config"].__setitem__("war_dice", 10**9), "war_dice"),
    (lambda s: s["state"].__setitem__("first_player", 7), "first_player"),
    (lambda s: s["state"].__setitem__("turn_seat", 9), "turn_seat"),
    (lambda s: s["state"].__setitem__("used_cards", [1000000]), "used_cards"),
    (lambda s: s["state"].__setitem__("modifiers", [["no_such_thing", 1]]), "modifiers"),
    (lambda s: s["state"]["market_deck"].__setitem__(0, -4), "market_deck"),
    (lambda s: s["state"].__setitem__("game_over", 1), "final_vp"),
    (lambda s: s["state"].__setitem__("leader_space", [-1] * 6), "leader_space"),
    (lambda s: s["state"].__setitem__("wars_won", [-5, 0, 0, 0]), "wars_won"),
    (lambda s: s["state"].__setitem__("round", -3), "round"),
    (lambda s: s["state"]["stack"][0].__setitem__("kind", "nonsense"), "stack"),
    (lambda s: s["state"]["stack"][0].__setitem__("seat", 11), "stack"),
])
def test_each_reported_bad_save_names_its_field(change, field):
    data = json.loads(json.dumps(SAVES[1]))
    change(data)
    with pytest.raises(SaveFormatError, match=field):
        Game.from_json(json.dumps(data))


def test_market_card_as_current_event_and_battle_card_in_market_are_refused():
    data = json.loads(json.dumps(SAVES[3]))
    s = data["state"]
    s["current_event"], s["market"][0] = s["market_deck"][0], s["battle_deck"][0][0]
    with pytest.raises(SaveFormatError, match="current_event .* expected event"):
        Game.from_json(json.dumps(data))
    s["current_event"] = -1
    with pytest.raises(SaveFormatError, match="market .* expected market"):
        Game.from_json(json.dumps(data))


def test_a_question_frame_without_its_war_is_refused():
    data = next(s for s in SAVES if any(f["kind"] == "war_commit" for f in s["state"]["stack"]))
    data = json.loads(json.dumps(data))
    data["state"]["stack"] = [f for f in data["state"]["stack"] if f["kind"] != "war"]
    with pytest.raises(SaveFormatError, match="no war frame below"):
        Game.from_json(json.dumps(data))


HEADER_PATHS = [[p for p in paths if p and p[0] in ("seed", "config", "history",
                                                    "keep_text_log", "format")]
                for paths in PATHS]


@pytest.mark.slow
@pytest.mark.parametrize("load, paths", [(Game.from_json, PATHS),
                                         (Game.load_replay, HEADER_PATHS)],
                         ids=["snapshot", "replay"])
@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(which=st.integers(0, len(SAVES) - 1), where=st.integers(0, 10**6),
       how=st.sampled_from(["set", "set", "set", "drop", "duplicate", "nest", "shift"]),
       value=st.one_of(st.sampled_from(WRONG), st.integers(-2, 12)))
def test_a_mutated_save_is_refused_or_plays_on(load, paths, which, where, how, value):
    data = json.loads(json.dumps(SAVES[which]))
    text = _mutate(data, paths[which][where % len(paths[which])], how, value)
    try:
        g = load(text)
    except SaveFormatError:
        event("refused")
        return
    event("accepted")
    if g.cfg == RulesConfig.named(g.cfg.ruleset):  # a config the env's spaces fit
        _observations_in_bounds(g)
    _plays_to_the_end(g, where)


def test_env_load_refuses_a_save_that_does_not_fit_its_spaces():
    data = json.loads(json.dumps(SAVES[0]))
    data["config"]["market_slots"] = 6
    data["state"]["market"].append(-1)
    env = make_env()
    env.reset(seed=1)
    before = env.save()
    with pytest.raises(SaveFormatError, match="market_slots"):
        env.load(json.dumps(data))
    assert env.save() == before
