"""The native engine's binding refuses what the Python engine refuses, in its words,
before anything reaches C++ (docs/native.md): content numbers past the limit, seeds
(any non-negative int is a seed, as for ``Game``), non-integer seeds of
``play_random``; a ``NativeGame`` pickles and copies without sharing its C++ game; the
native copies of contents are kept for a few contents only."""

import copy
import dataclasses
import pickle
import shutil

import numpy as np
import pytest

from singapore_env import native
from singapore_env.engine.config import ConfigError, RulesConfig
from singapore_env.engine.content import (DATA_DIR, ContentError, default_content,
                                          load_content)
from singapore_env.engine.game import Game
from singapore_env.vector import VectorEnv

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="the native engine is not built here")


@pytest.mark.parametrize("number", [2**31, -(2**40), 10**6 + 1])
def test_content_numbers_past_the_limit_are_refused_by_the_loader(tmp_path, number):
    shutil.copytree(DATA_DIR, tmp_path / "data")
    cards = tmp_path / "data" / "cards.toml"
    text = cards.read_text()
    assert "count = 2" in text
    cards.write_text(text.replace("count = 2", f"count = {number}", 1))
    with pytest.raises(ContentError, match=r"cards.toml: .*count: .* is past the limit of a "
                                           r"content number \(-1000000..1000000\)"):
        load_content(tmp_path / "data")


def test_a_content_built_by_hand_past_the_limit_is_a_content_error():
    c = default_content()
    big = dataclasses.replace(c, board=dataclasses.replace(c.board, max_ships=2**31),
                              digest="hand-built")
    with pytest.raises(ContentError, match=r"content: board.max_ships: 2147483648 is past"):
        native.NativeGame(0, content=big)


def test_spoils_shares_past_the_limit_are_a_config_error():
    with pytest.raises(ConfigError, match="denominators up to 1000000"):
        RulesConfig.standard(spoils_shares=((1, 2**40),))


@pytest.mark.parametrize("seed", [2**64, 2**64 + 7, 2**100])
def test_seeds_past_64_bits_play_the_python_engine_game(seed):
    game, python = native.NativeGame(seed), Game(seed, keep_text_log=False)
    assert not native.differences(python, game)
    assert native.play_random([seed])["games"] == 1


def test_the_native_vector_env_takes_the_seeds_the_python_one_takes():
    envs = [VectorEnv(2, seed=2**64 + 3, engine=engine) for engine in ("python", "native")]
    rows = [e.reset() for e in envs]
    for field in range(3):
        assert rows[0][field].tobytes() == rows[1][field].tobytes()
    for engine in ("python", "native"):
        with pytest.raises(ValueError, match=r"seed must be a non-negative int, got -1"):
            VectorEnv(2, seed=-1, engine=engine)


@pytest.mark.parametrize("seed", [-1, 1.5, "7", True, None, np.float64(2.0)])
def test_play_random_refuses_what_a_game_refuses(seed):
    with pytest.raises(ValueError) as ours:
        native.play_random([0, seed])
    with pytest.raises(ValueError) as theirs:
        Game(seed)
    assert str(ours.value) == str(theirs.value) == f"seed must be a non-negative int, got {seed!r}"


def test_play_random_takes_numpy_ints():
    assert native.play_random(np.arange(2)) == native.play_random([0, 1])


def test_a_native_game_pickles_and_copies_without_sharing():
    game = native.NativeGame(4, RulesConfig.named("simulation"))
    for decision in (game.legal_decisions()[0] for _ in range(30)):
        game.step(decision)
    for twin in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game), copy.copy(game)):
        assert twin.to_json() == game.to_json() and twin._game is not game._game
        before = game.to_json()
        twin.step(twin.legal_decisions()[-1])
        assert game.to_json() == before  # stepping the copy leaves the original
        again = game.clone()
        again.step(again.legal_decisions()[-1])
        assert again.to_json() == twin.to_json()  # the copy plays on as the game would


def test_a_game_of_edited_content_says_how_to_keep_it():
    c = default_content()
    edited = dataclasses.replace(c, digest="edited")
    with pytest.raises(TypeError, match="to_json"):
        pickle.dumps(native.NativeGame(0, content=edited))


def test_the_native_content_copies_are_few_and_keyed_by_digest():
    c = default_content()
    contents = [dataclasses.replace(c, digest=f"copy {i}") for i in range(native._NATIVE_CONTENT_KEPT + 3)]
    for content in contents:
        native.NativeGame(1, content=content)
    assert len(native._NATIVE_CONTENT) == native._NATIVE_CONTENT_KEPT
    again = dataclasses.replace(c, digest=contents[-1].digest)
    assert native._content(again) is native._content(contents[-1])  # one copy per digest
    assert native._content(c) is native._content(default_content())
