"""An agent that thinks on a native copy of a Python game: where a game must stay on
the Python engine (the web app, ``play``), a player that looks ahead and has a native
twin decides at compiled speed, with the decision it makes on the Python game.

    agent = on_native_copy(make_agent("learned:zero"))    # the same decisions, faster

:class:`NativeCopy` hands its agent :meth:`NativeGame.from_game
<singapore_env.native.NativeGame.from_game>` of the position: the whole position as the
Python game holds it (state, random generator, decisions), so the seat sees exactly
what it sees on the Python game, and the agent, which reads no more than its seat's view
(its worlds are resampled from that view, :func:`agents.determinize.determinize`, bit
for bit on both engines), makes the same decision and leaves its random stream in the
same state. The copy costs a fraction of a millisecond; :func:`on_native_copy` wraps
only the agents it speeds up (docs/native.md gives the figures).
"""

from __future__ import annotations

from .base import Agent


class NativeCopy(Agent):
    """``agent`` deciding on a native copy of every Python game it is asked about (a
    native game as it is; a game the native engine cannot hold on the Python engine)."""

    def __init__(self, agent: Agent):
        self.agent = agent
        self.name = agent.name

    # The wrapper is transparent: what the agent has and the wrapper not (its statistics,
    # ``last_scores``, a search's ``time_cap``) is read from it and set on it.
    def __getattr__(self, name: str):
        if name == "agent":  # (not set yet: a copy being built)
            raise AttributeError(name)
        return getattr(self.agent, name)

    def __setattr__(self, name: str, value) -> None:
        if name not in ("agent", "name") and hasattr(self.agent, name):
            setattr(self.agent, name, value)
        else:
            object.__setattr__(self, name, value)

    @property
    def plays_native(self) -> bool:
        return True

    @property
    def looks_ahead(self) -> bool:
        return self.agent.looks_ahead

    def networks(self) -> list:
        return self.agent.networks()

    def reset(self, seed: int | None = None) -> None:
        self.agent.reset(seed)

    def act(self, observation, mask) -> int:
        return self.agent.act(observation, mask)

    def choose(self, game, seat: int):
        from singapore_env.engine import Game, SaveFormatError
        from singapore_env.native import NativeGame, plays

        if isinstance(game, Game) and plays(game.cfg):
            try:
                game = NativeGame.from_game(game)
            except SaveFormatError:  # past the room of the native state: think on Python
                pass
        return self.agent.choose(game, seat)


def on_native_copy(agent: Agent) -> Agent:
    """``agent`` thinking on native copies (:class:`NativeCopy`) where that is faster: an
    agent that looks ahead (:attr:`Agent.looks_ahead`) and plays native games, with the
    native module built; else ``agent`` itself."""
    from singapore_env import native

    if agent.looks_ahead and agent.plays_native and native.available():
        return NativeCopy(agent)
    return agent
