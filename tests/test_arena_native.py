"""The arena's games on the native engine (``--engine native``): the same records as on
the Python engine for the players that read the observation alone, and a refusal,
before any game, of every other player."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from agents.heuristic import HeuristicAgent
from agents.learned import NumpyPolicy
from agents.random_agent import RandomAgent
from agents.registry import make_agent
from arena.runner import Table, play_tables
from arena.simulate import check_engine, play_game
from singapore_app.cli import main
from singapore_env import native
from singapore_env.encoding import encoder_for
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import default_content

#: A third-party bot: a Python-only player.
BOT = "examples/my_bot.py:MyBot"
needs_native = pytest.mark.skipif(not native.available(),
                                  reason="the native engine is not built here")


@pytest.fixture(scope="module")
def flat_actor(tmp_path_factory) -> str:
    """A small flat actor (random weights) over the standard observation."""
    enc = encoder_for(default_content(True), RulesConfig.standard())
    rng = np.random.default_rng(7)
    policy = NumpyPolicy([(rng.normal(0, 0.1, (enc.size, 16)), np.zeros(16))],
                         (rng.normal(0, 1, (16, enc.n_actions)), np.zeros(enc.n_actions)))
    path = tmp_path_factory.mktemp("actor") / "actor.npz"
    policy.save(path)
    return str(path)


def both(players, n_games: int, seed: int, swap: bool = True, **kwargs) -> list[list[dict]]:
    return [play_tables([Table(tuple(players), **kwargs)], n_games, seed, swap=swap,
                        engine=engine) for engine in ("python", "native")]


@needs_native
@pytest.mark.parametrize("ruleset", ["standard", "simulation"])
def test_random_players_play_the_same_games(ruleset):
    python, ours = both(["random"] * 4, 3, 11, config=RulesConfig.named(ruleset))
    assert len(ours) == 6 and ours == python
    assert len({r["vp_sultan"] for r in ours}) > 1  # different games, not one repeated


@needs_native
def test_learned_players_play_the_same_games(flat_actor):
    players = [f"learned:{flat_actor}", "random", f"learned-sample:{flat_actor}", "random"]
    python, ours = both(players, 3, 5)
    assert ours == python


@needs_native
def test_play_game_on_the_native_engine(flat_actor):
    agents = [make_agent(f"learned:{flat_actor}"), RandomAgent(), RandomAgent(),
              make_agent(f"learned-sample:{flat_actor}")]
    python = play_game(9, agents)
    ours = play_game(9, agents, engine="native", keep_game=True)
    assert type(ours.game) is native.NativeGame and ours.game.is_over
    assert (ours.final_scores, ours.winners, ours.decisions, ours.round) == \
        (python.final_scores, python.winners, python.decisions, python.round)
    with pytest.raises(ValueError, match="keeps no text log"):
        play_game(9, agents, engine="native", keep_text_log=True)


@needs_native
def test_a_pointer_policy_without_a_prior_plays_the_same_games():
    python, ours = both(["learned:zero-policy", "random", "learned:zero-policy", "random"], 1, 4)
    assert len(ours) == 2 and ours == python


@needs_native
def test_the_lookahead_plays_the_same_games():
    # Its worlds are determinized in C++ with the Python engine's draws.
    python, ours = both(["learned:zero", "random", "random", "learned:zero"], 1, 6, swap=False)
    assert len(ours) == 1 and ours == python


@needs_native
def test_the_search_plays_the_same_games():
    # Its whole search runs in C++ with the Python search's draws (native/mcts.hpp).
    players = ["mcts:iters=4:topk=2:horizon=1", "heuristic", "mcts:iters=6:topk=3:horizon=1",
               "random"]
    python, ours = both(players, 1, 8, swap=False)
    assert len(ours) == 1 and ours == python


def test_who_reads_the_observation_alone(flat_actor, zero_copy):
    assert RandomAgent().plays_native
    assert make_agent(f"learned-sample:{flat_actor}").plays_native
    assert make_agent("learned:zero-policy").plays_native  # candidate keys, no prior
    assert make_agent("learned:zero").plays_native
    assert make_agent("heuristic").plays_native == native.available()  # its native twin
    assert make_agent("mcts:iters=2").plays_native == native.available()  # its native twin
    # the prior's columns and the candidates: the heuristic's twin scores them
    prior_reading = zero_copy(candidate_prior="heuristic")
    assert make_agent(f"learned:{prior_reading}/british.npz").plays_native
    assert make_agent(f"rerank:net={prior_reading}").plays_native == native.available()
    assert make_agent("rerank:net=zero").plays_native == native.available()
    assert not make_agent("examples/my_bot.py:MyBot").plays_native


def test_function_agents_declare_what_they_read():
    from agents.registry import as_agent

    class EngineLevel:
        def choose(self, game, seat):
            return game.legal_decisions()[0]

    assert as_agent(lambda observation, mask: int(np.flatnonzero(mask)[0])).plays_native
    assert not as_agent(EngineLevel()).plays_native


@needs_native
def test_other_players_are_refused_by_name():
    with pytest.raises(ValueError) as info:
        play_tables([Table(("random", "heuristic", BOT, "rerank"))], 2, 1, engine="native")
    text = str(info.value)
    assert f"cannot sit: {BOT} (play" in text
    assert "heuristic, random, rerank, learned:PATH" in text
    with pytest.raises(ValueError, match=f"cannot sit: {BOT} "):
        play_game(1, [make_agent(BOT), HeuristicAgent(), RandomAgent(), RandomAgent()],
                  engine="native")
    with pytest.raises(ValueError, match="unknown engine 'rust'; known: python, native"):
        check_engine(["random"] * 4, "rust")


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@needs_native
def test_simulate_writes_the_same_records_and_summary(tmp_path, flat_actor):
    players = f"random,learned:{flat_actor},random,random"
    for engine in ("python", "native"):
        result = _run("simulate", "--players", players, "--games", 2, "--seed", 2, "--swap",
                      "--engine", engine, "--no-progress", "--records", tmp_path / f"{engine}.csv",
                      "--json", tmp_path / f"{engine}.json")
        assert result.exit_code == 0, result.output
    assert (tmp_path / "python.csv").read_text() == (tmp_path / "native.csv").read_text()
    summaries = [json.loads((tmp_path / f"{e}.json").read_text()) for e in ("python", "native")]
    for summary, engine in zip(summaries, ("python", "native")):
        summary.pop("games_per_second"), summary.pop("seconds")
        assert summary.pop("engine") == engine  # which engine played, said
    assert summaries[0] == summaries[1]


@needs_native
@pytest.mark.parametrize("command, refused", [
    (["simulate", "--players", f"random,heuristic,{BOT},rerank"], BOT),
    (["evaluate", "--british", BOT, "--malay", "learned:zero"], BOT),
])
def test_the_cli_refuses_other_players_with_exit_2(command, refused):
    result = _run(*command, "--games", 1, "--engine", "native", "--no-progress")
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Usage:")  # refused before any game
    assert "Invalid value for '--engine'" in result.output
    assert "seats only players with a native twin or that read the observation" in result.output
    assert f"cannot sit: {refused} (play them on the python engine)" in result.output


def test_a_missing_native_module_is_a_usage_error(monkeypatch):
    monkeypatch.setattr(native.loading, "_native", None)
    monkeypatch.setattr(native.loading, "_MISSING", "ImportError: no module named _native")
    result = _run("simulate", "--games", 1, "--engine", "native", "--no-progress")
    assert result.exit_code == 2, result.output
    assert "the native engine (engine=\"native\") is not built here" in result.output
    assert "pip install -e ." in result.output


@needs_native
def test_the_native_engine_hands_out_decisions_whose_kind_is_a_kind():
    """Both engines share one Decision per (kind, arg); one the native engine asks for
    first still carries a Kind, so Python games played after it read ``d.kind.name``."""
    from singapore_env.engine.decisions import DECISION, Kind

    game, rng = native.NativeGame(23), np.random.default_rng(0)
    while not game.is_over:
        legal = game.legal_decisions()
        assert all(isinstance(d.kind, Kind) for d in legal)
        game.step(legal[rng.integers(len(legal))])
    assert all(isinstance(d.kind, Kind) for d in DECISION.values())
