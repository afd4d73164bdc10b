"""PettingZoo / Gymnasium API conformance of the environment layer."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import singapore_env  # noqa: E402
from singapore_env import encoding  # noqa: E402
from singapore_env.env import AGENTS, IllegalActionError, env, raw_env  # noqa: E402
from singapore_env.rewards import rewards  # noqa: E402
from arena.faction_env import FactionEnv  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def random_action(obs: dict, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.integers(legal.size)])


def play(e, seed: int, steps: int, rng_seed: int = 0):
    """Random masked play from reset(seed); returns the observations seen."""
    rng = np.random.default_rng(rng_seed)
    e.reset(seed=seed)
    seen = []
    for _ in range(steps):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            break
        seen.append((e.agent_selection, obs["observation"].copy(), obs["action_mask"].copy()))
        e.step(random_action(obs, rng))
    return seen


# ---------------------------------------------------------------- PettingZoo tests
def test_api_test():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(), num_cycles=300)


def test_api_test_penalize_mode():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(illegal_action="penalize", reward_mode="faction"), num_cycles=100)


def test_seed_test():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(env, num_cycles=300)


def test_metadata_and_factories():
    e = env()
    assert e.metadata["name"] == "singapore_1819_v0"
    assert e.metadata["render_modes"] == ["ansi", "human"]
    assert e.metadata["is_parallelizable"] is False
    assert e.possible_agents == ["lieutenant_governor", "resident", "temenggong", "sultan"]
    assert isinstance(e.unwrapped, raw_env)
    # both spellings of the package-level factory work
    assert isinstance(singapore_env.env().unwrapped, raw_env)
    assert isinstance(singapore_env.raw_env(), raw_env)
    space = e.action_space("sultan")
    assert space is e.action_space("resident") and space.n == len(e.unwrapped.table)
    obs_space = e.observation_space("sultan")
    assert obs_space["observation"].shape == (e.unwrapped.encoder.size,)
    assert obs_space["observation"].dtype == np.float32
    assert obs_space["action_mask"].dtype == np.int8


def test_import_does_not_load_pettingzoo():
    code = ("import sys, singapore_env, singapore_env.engine, singapore_env.encoding; "
            "assert 'pettingzoo' not in sys.modules and 'gymnasium' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_reset_seed_reproducible():
    a = play(env(), seed=11, steps=400)
    b = play(env(), seed=11, steps=400)
    assert len(a) == len(b) > 100
    for (ag1, o1, m1), (ag2, o2, m2) in zip(a, b):
        assert ag1 == ag2 and np.array_equal(o1, o2) and np.array_equal(m1, m2)
    # a seeded reset plays engine game Game(seed)
    e = env()
    e.reset(seed=11)
    assert e.unwrapped.game.seed == 11
    # later unseeded resets are drawn from the seeded generator: reproducible too
    e1, e2 = env(), env()
    e1.reset(seed=5)
    e2.reset(seed=5)
    e1.reset()
    e2.reset()
    assert e1.unwrapped.game.seed == e2.unwrapped.game.seed
    # the constructor seed is used by the first reset without a seed
    e3 = env(seed=11)
    e3.reset()
    assert e3.unwrapped.game.seed == 11


def test_full_game_rewards_terminations_infos():
    e = env(seed=3)
    e.reset()
    rng = np.random.default_rng(0)
    total = dict.fromkeys(AGENTS, 0.0)
    finished = []
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        if term or trunc:
            assert term and not trunc
            assert set(info) >= {"final_vp", "final_scores", "winners"}
            assert not obs["action_mask"].any()
            finished.append(agent)
            e.step(None)
        else:
            e.step(random_action(obs, rng))
    assert sorted(finished) == sorted(AGENTS)
    game = e.unwrapped.game
    assert game.is_over
    expected = rewards(game.final_scores, "win")
    assert [total[a] for a in AGENTS] == pytest.approx(expected)
    assert sum(total.values()) == pytest.approx(1.0)


def test_truncation_at_max_steps():
    e = env(max_steps=40)
    e.reset(seed=2)
    rng = np.random.default_rng(0)
    steps = 0
    while True:
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            break
        e.step(random_action(obs, rng))
        steps += 1
    assert steps == 40
    assert all(e.truncations.values()) and not any(e.terminations.values())


# ---------------------------------------------------------------- illegal actions
def test_masked_out_action_raises_and_changes_nothing():
    e = env()
    e.reset(seed=4)
    obs, *_ = e.last()
    agent = e.agent_selection
    before = e.unwrapped.save()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="legal actions"):
        e.step(illegal)
    assert e.unwrapped.save() == before
    assert e.agent_selection == agent
    obs2, *_ = e.last()
    assert np.array_equal(obs["observation"], obs2["observation"])
    assert np.array_equal(obs["action_mask"], obs2["action_mask"])
    # the game goes on normally afterwards
    e.step(random_action(obs2, np.random.default_rng(0)))


def test_out_of_range_action_is_rejected():
    e = env()
    e.reset(seed=4)
    with pytest.raises(AssertionError):
        e.step(len(e.unwrapped.table))
    r = raw_env()
    r.reset(seed=4)
    with pytest.raises(IllegalActionError):
        r.step(-1)


def test_penalize_mode_ends_game_with_penalty():
    e = env(illegal_action="penalize")
    e.reset(seed=4)
    for _ in range(5):
        obs, *_ = e.last()
        e.step(random_action(obs, np.random.default_rng(1)))
    offender = e.agent_selection
    obs, *_ = e.last()
    e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(e.terminations.values())
    assert e.rewards[offender] == -1.0
    assert all(r == 0.0 for a, r in e.rewards.items() if a != offender)
    assert "illegal_action" in e.infos[offender]
    seen = {}
    for agent in e.agent_iter():
        _, reward, term, _, _ = e.last()
        assert term
        seen[agent] = reward
        e.step(None)
    assert seen[offender] == -1.0 and sorted(seen) == sorted(AGENTS)
    assert e.agents == []


# ---------------------------------------------------------------- render, clone, save
def test_render_ansi():
    e = env(render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and "Round" in text and "Market" in text
    e.close()


def test_clone_save_load():
    e = env()
    e.reset(seed=8)
    rng = np.random.default_rng(0)
    for _ in range(60):
        obs, *_ = e.last()
        e.step(random_action(obs, rng))
    raw = e.unwrapped
    twin = raw.clone()
    text = raw.save()
    assert json.loads(text)["seed"] == 8
    obs, *_ = e.last()
    obs_twin = twin.observe(twin.agent_selection)
    assert np.array_equal(obs["observation"], obs_twin["observation"])
    # stepping the clone leaves the original untouched
    twin.step(random_action(obs_twin, rng))
    assert raw.save() == text
    # loading the snapshot elsewhere gives the same observations
    other = raw_env()
    other.reset(seed=99)
    other.load(text)
    assert other.agent_selection == e.agent_selection
    o2 = other.observe(other.agent_selection)
    assert np.array_equal(obs["observation"], o2["observation"])
    assert np.array_equal(obs["action_mask"], o2["action_mask"])


# ---------------------------------------------------------------- rewards
def test_reward_modes():
    assert rewards([10, 20, 5, 20], "win") == [0.0, 0.5, 0.0, 0.5]
    assert rewards([10, 30, 5, 20], "win") == [0.0, 1.0, 0.0, 0.0]
    assert rewards([10, 30, 5, 20], "vp_margin") == [-20.0, 10.0, -25.0, -10.0]
    assert rewards([10, 30, 5, 20], "faction") == [1.0, 1.0, 0.0, 0.0]
    assert rewards([10, 20, 5, 20], "faction") == [0.5, 0.5, 0.5, 0.5]
    with pytest.raises(ValueError):
        rewards([1, 2, 3, 4], "money")


def test_reward_mode_option():
    e = env(reward_mode="vp_margin", seed=3)
    e.reset()
    rng = np.random.default_rng(0)
    while not e.unwrapped.game.is_over:
        obs, *_ = e.last()
        e.step(random_action(obs, rng))
    final = e.unwrapped.game.final_scores
    assert [e.rewards[a] for a in AGENTS] == rewards(final, "vp_margin")


@pytest.mark.parametrize("kwargs, message", [
    ({"reward_mode": "money"}, "reward_mode must be one of"),
    ({"max_steps": -1}, "max_steps must be an int"),
    ({"max_steps": 2.5}, "max_steps must be an int"),
])
def test_env_settings_are_env_arguments_checked_by_the_env(kwargs, message):
    """How the env rewards and truncates are its own arguments, not rules settings."""
    with pytest.raises(ValueError, match=message):
        env(**kwargs)
    e = raw_env(reward_mode="faction", max_steps=7)
    assert (e.reward_mode, e.max_steps) == ("faction", 7)
    assert "reward_mode" not in e.cfg.to_dict() and "max_decisions" not in e.cfg.to_dict()


# ---------------------------------------------------------------- faction wrapper
@pytest.mark.parametrize("faction", ["british", "malay"])
@pytest.mark.parametrize("seats", ["one", "both"])
def test_check_env_faction(faction, seats):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(FactionEnv(faction=faction, seats=seats), skip_render_check=True)


def _play_faction(fe: FactionEnv, seed: int | None):
    rng = np.random.default_rng(0)
    fe.reset(seed=seed) if seed is not None else fe.reset()
    while True:
        legal = np.flatnonzero(fe.action_masks())
        obs, reward, term, trunc, info = fe.step(int(legal[rng.integers(legal.size)]))
        if term or trunc:
            return reward, info


def test_faction_one_seat_gets_its_own_reward_and_alternates():
    fe = FactionEnv(faction="malay", seats="one", reward_mode="vp_margin")
    seats = []
    for episode in range(2):
        reward, info = _play_faction(fe, 7 if episode == 0 else None)
        (seat,) = fe.learning_seats
        seats.append(seat)
        final = fe.game.final_scores
        assert reward == rewards(final, "vp_margin")[seat]
        assert info["seat_rewards"] == {AGENTS[seat]: reward}
    assert seats == [2, 3]


def test_faction_both_seats_team_reward():
    fe = FactionEnv(faction="british", seats="both", reward_mode="vp_margin", seed=5)
    reward, info = _play_faction(fe, None)
    own = rewards(fe.game.final_scores, "vp_margin")
    assert info["seat_rewards"] == {"lieutenant_governor": own[0], "resident": own[1]}
    assert reward == own[0] + own[1]


def test_faction_opponents_agents_are_used():
    calls = []

    class Fixed:
        def act(self, observation, mask):
            calls.append(observation["observation"].shape)
            return int(np.flatnonzero(mask)[0])

    fe = FactionEnv(faction="british", seats="resident", opponents=Fixed(),
                    partner=lambda obs, mask: int(np.flatnonzero(mask)[-1]))
    obs, info = fe.reset(seed=1)
    assert fe.learning_seats == (1,) and info["seat"] == "resident"
    assert obs.shape == fe.observation_space.shape
    assert fe.action_masks().dtype == bool
    _play_faction(fe, None)
    assert calls


def test_faction_engine_level_agents():
    """An agent that only implements choose(game, seat) plays through the engine."""
    class EngineOnly:
        def __init__(self):
            self.calls = 0

        def act(self, observation, mask):
            raise NotImplementedError

        def choose(self, game, seat):
            self.calls += 1
            return game.legal_decisions()[0]

    opp = EngineOnly()
    fe = FactionEnv(faction="malay", opponents=opp, seed=4)
    _play_faction(fe, None)
    assert opp.calls > 10 and fe.game.is_over


def test_faction_illegal_action_modes():
    fe = FactionEnv(seed=2)
    fe.reset()
    bad = int(np.flatnonzero(~fe.action_masks())[0])
    _, reward, term, trunc, info = fe.step(bad)
    assert term and not trunc and reward == -1.0 and "illegal_action" in info
    strict = FactionEnv(seed=2, illegal_action="raise")
    strict.reset()
    with pytest.raises(IllegalActionError):
        strict.step(bad)


# ---------------------------------------------------------------- documentation
def test_documented_tables_are_current():
    from singapore_env.encoding import docs as encoding_docs
    from singapore_env import env as env_module
    enc = encoding.ObservationEncoder()
    for text in (env_module.__doc__, (ROOT / "docs" / "observation.md").read_text()):
        assert f"D = {enc.size}" in text and "D = " in text
        assert f"N = {len(enc.table)}" in text or "N = " not in text
    doc = (ROOT / "docs" / "observation.md").read_text()
    for table in (encoding_docs.action_table_markdown(enc.table),
                  encoding_docs.observation_markdown(enc)):
        assert table in doc, "regenerate with python -m singapore_env.encoding.docs --update-docs"
