"""Bring your own agent (a file, a module, an installed plugin) and your own cards and
rules (``content=`` and ``config=`` everywhere)."""

import json
import textwrap
from importlib import metadata

import pytest

from agents import Agent, RandomAgent
from agents.registry import make_agent
from singapore_env import env as make_env
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import ContentError, resolve_content
from singapore_env.engine import Game
from arena.runner import run_tournament
from arena.faction_env import FactionEnv

BOT = textwrap.dedent('''
    from agents import Agent

    class FirstBot(Agent):
        """Always the first legal decision, or the pick-th one."""
        name = "first"

        def __init__(self, seed=None, pick: int = 0):
            self.pick = pick

        def choose(self, game, seat):
            legal = game.legal_decisions()
            return legal[min(self.pick, len(legal) - 1)]

    class NotAnAgent:
        pass
''')


@pytest.fixture
def bot_file(tmp_path):
    path = tmp_path / "my_bot.py"
    path.write_text(BOT)
    return path


def test_an_agent_from_a_file_with_parameters(bot_file):
    agent = make_agent(f"{bot_file}:FirstBot:pick=2")
    assert isinstance(agent, Agent) and agent.pick == 2
    assert agent.name == f"{bot_file}:FirstBot:pick=2"
    summary = run_tournament(2, [f"{bot_file}:FirstBot"] + ["random"] * 3, seed=1)
    assert summary["players"][0] == f"{bot_file}:FirstBot"


@pytest.mark.parametrize("tail,message", [
    (":Missing", "has no agent class or function 'Missing'; it defines: FirstBot, NotAnAgent"),
    (":NotAnAgent", "NotAnAgent has no choose(game, seat) or act(observation, mask) method"),
    (":FirstBot:depth=3", "unknown parameter(s) depth; allowed: pick, seed"),
    (":FirstBot:pick=x", "parameter pick expects an integer"),
    ("", "name the agent class in the file after a colon"),
])
def test_a_bad_file_agent_names_the_problem(bot_file, tail, message):
    with pytest.raises(ValueError) as exc:
        make_agent(f"{bot_file}{tail}")
    assert message in str(exc.value)


def test_a_missing_file_or_module():
    with pytest.raises(ValueError, match="agent file 'nope.py' does not exist"):
        make_agent("nope.py:Bot")
    with pytest.raises(ValueError, match="cannot import agent module 'agents.nope'"):
        make_agent("agents.nope:Bot")


def test_an_agent_from_a_module():
    agent = make_agent("agents.random_agent:RandomAgent:seed=3")
    assert isinstance(agent, RandomAgent) and agent.name == "agents.random_agent:RandomAgent:seed=3"


def test_an_installed_plugin_by_entry_point(monkeypatch):
    plugin = metadata.EntryPoint(name="myrandom", value="agents.random_agent:RandomAgent",
                                 group="singapore_1819.agents")

    def entry_points(group=None):
        return [plugin] if group == "singapore_1819.agents" else []

    monkeypatch.setattr("agents.plugins.metadata.entry_points", entry_points)
    assert isinstance(make_agent("myrandom:seed=2"), RandomAgent)
    with pytest.raises(ValueError, match="known agents: heuristic, mcts, random, rerank, myrandom"):
        make_agent("chess")


def test_edited_content_reaches_env_wrapper_and_tournament(cheap_cards):
    edited = resolve_content(cheap_cards)
    assert edited.digest != resolve_content(None).digest
    prices = {edited.defs[c].price for c in edited.market_ids if not edited.defs[c].dual_price}
    assert prices == {(1, 1)}
    e = make_env(content=str(cheap_cards), config=RulesConfig.standard(war_cost=3))
    e.reset(seed=1)
    assert e.unwrapped.game.c.digest == edited.digest and e.unwrapped.game.cfg.war_cost == 3
    fe = FactionEnv("malay", content=str(cheap_cards))
    fe.reset(seed=1)
    assert fe.raw.game.c.digest == edited.digest
    cheap = run_tournament(3, ["random"] * 4, seed=1, content=str(cheap_cards))
    shipped = run_tournament(3, ["random"] * 4, seed=1)
    assert cheap["data"] == str(cheap_cards) and cheap["facts"] != shipped["facts"]


def test_a_bad_content_folder_is_a_clear_error(tmp_path):
    with pytest.raises(ContentError, match="does not exist"):
        resolve_content(tmp_path / "nope")
    with pytest.raises(ContentError, match="file not found"):
        resolve_content(tmp_path)


def test_a_game_saved_with_edited_content_loads_only_with_it(cheap_cards):
    g = Game(3, content=resolve_content(cheap_cards))
    assert Game.from_json(g.to_json(), resolve_content(cheap_cards)).s.market == g.s.market
    with pytest.raises(ValueError, match="saved with content"):
        Game.from_json(g.to_json())


PETTINGZOO_BOT = textwrap.dedent('''
    import numpy as np

    class FirstLegal:
        """A PettingZoo-level bot: no Agent base class, only act(observation, mask)."""

        def act(self, observation, mask):
            return int(np.flatnonzero(mask)[0])
''')


def test_an_act_only_bot_plays_from_the_command_line(tmp_path):
    """A bot with only ``act(observation, mask)`` plays when named on the CLI, in a
    tournament (simulate) and in the balance lab, as it does through ``as_agent``."""
    from click.testing import CliRunner

    from singapore_app.cli import main

    path = tmp_path / "my_bot.py"
    path.write_text(PETTINGZOO_BOT)
    bot = f"{path}:FirstLegal"
    agent = make_agent(bot)
    assert isinstance(agent, Agent) and agent.name == bot
    players = ",".join([bot, "random", "random", "random"])
    for args in (["simulate", "--games", "1", "--json", tmp_path / "s.json"],
                 ["balance", "--games", "1", "--no-swap", "--no-progress",
                  "--out", tmp_path / "lab"]):
        result = CliRunner().invoke(main, [str(a) for a in args] + ["--players", players])
        assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "s.json").read_text())["players"][0] == bot
