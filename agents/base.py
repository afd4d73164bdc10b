"""The one agent interface of the project.

An agent plays at one of two levels:

* **env level** -- :meth:`Agent.act` receives the observation dict of the PettingZoo
  environment and the ``int8`` legal-action mask and returns an action index into the
  fixed action table (:class:`singapore_env.engine.decisions.ActionTable`);
* **engine level** -- :meth:`Agent.choose` receives the :class:`~singapore_env.engine.Game`
  itself and the seat that must decide and returns one of ``game.legal_decisions()``.

The simulator, the tournament runner and the CLI use the engine level; training and
evaluation in the RL environment use the env level. An agent that only implements
:meth:`act` plays at engine level too: the default :meth:`choose` builds the seat's
observation and mask with :mod:`singapore_env.encoding` (the same ones the env gives).

An agent that plays a :class:`~singapore_env.native.NativeGame` too declares it with
:attr:`Agent.plays_native`: one whose :meth:`choose` reads nothing of the game but
``legal_decisions()`` and the seat's observation and mask (through
:func:`_encoder_for`, which the native encoder writes), or one with a native twin.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from singapore_env.engine.decisions import Decision
    from singapore_env.engine import Game


class Agent:
    """Base class of every agent (random, heuristic, learned)."""

    #: Short name used in tournament summaries and by :func:`agents.registry.make_agent`.
    name: str = "agent"
    #: Whether the agent plays positions forward to decide (a lookahead, a search): the
    #: costly thinkers, which think faster on a native copy of a Python game when they
    #: play native games (:func:`agents.native_copy.on_native_copy`).
    looks_ahead: bool = False

    @property
    def plays_native(self) -> bool:
        """Whether the agent plays a native game as well, with the decisions it makes on
        the Python engine: true for an agent that plays through :meth:`act` alone (it
        reads nothing of a game but its legal decisions and the seat's observation and
        mask) and for one with a native twin."""
        return type(self).choose is Agent.choose

    def networks(self) -> list:
        """The trained networks the agent reads (numpy actors: its policies, its value
        networks), each of which reads the observation layout it was trained on
        (:func:`agents.net_layout.check_agent` compares them with a table's); none for
        an agent that reads no network."""
        return []

    def reset(self, seed: int | None = None) -> None:
        """Prepare for a new game; with ``seed``, make the agent's choices reproducible.

        The base implementation does nothing (a deterministic, stateless agent).
        """

    def act(self, observation: dict, mask: np.ndarray) -> int:
        """Env level: pick an action index given an observation dict and its action mask.

        ``mask`` is a 1-D ``int8`` array over the whole action table; the returned index
        must satisfy ``mask[index] == 1``.
        """
        raise NotImplementedError(f"{type(self).__name__} does not implement act()")

    def choose(self, game: "Game", seat: int) -> "Decision":
        """Engine level: pick one of ``game.legal_decisions()`` for ``seat`` (the acting seat).

        The default encodes the seat's observation and mask (as the env does) and asks
        :meth:`act`.
        """
        encoder = _encoder_for(game)
        mask = encoder.legal_mask(game, seat)
        observation = {"observation": encoder.encode(game, seat), "action_mask": mask}
        return encoder.table.decision(int(self.act(observation, mask)))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


def _encoder_for(game):
    """The observation encoder of ``game`` (the one the env of that game uses), shared
    (:func:`singapore_env.encoding.encoder_for`; for a native game the native encoder
    of the same content and rules, with the same action table)."""
    native = sys.modules.get("singapore_env.native")  # not imported: no native game exists
    if native is not None and isinstance(game, native.NativeGame):
        from singapore_env.native.encoding import native_encoder_for

        return native_encoder_for(game.c, game.cfg)
    from singapore_env.encoding import encoder_for

    return encoder_for(game.c, game.cfg)
