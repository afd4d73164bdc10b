"""PettingZoo's standard wrapper chain for :func:`singapore_env.env`, with its checks and
without most of its cost.

``env()`` is ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(raw_env))``, as PettingZoo's
classic games are. The stock wrappers reach every attribute through two
``BaseWrapper.__getattr__`` calls and check every action with ``Discrete.contains``;
an env step reads ~17 attributes, so the chain cost as much as the game. The two
subclasses here keep the stock classes, checks, errors and warnings, and add fast paths:

* :class:`CheckedActions`: a plain ``int`` inside the action range goes straight to the
  env; an integer outside it (Python or numpy, however large: the stock check overflows
  on ``10**30``) raises :class:`~singapore_env.action_errors.ActionOutOfBounds`, the env's
  illegal-action error and an ``AssertionError`` with the stock message; anything else
  (numpy ints in range, ``None``, floats) takes the stock check;
* :class:`EnforcedOrder`: once the env has been reset, the attributes and calls an agent
  loop uses (``agent_selection``, ``agents``, ``terminations``, ``truncations``,
  ``rewards``, ``infos``, ``observe``, ``last``, ``step`` and the ``agent_iter`` iterator,
  which keeps the stock step-before-next assertion) go straight to the unwrapped env;
  before ``reset()`` the stock errors are raised.

Both only forward what the wrappers between them and the unwrapped env do not change
(``CheckedActions`` changes nothing but ``step``).
"""

from __future__ import annotations

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers.order_enforcing import (AECOrderEnforcingIterable,
                                                       AECOrderEnforcingIterator)

from .action_errors import ActionOutOfBounds
from .engine.decisions import is_int


class CheckedActions(wrappers.AssertOutOfBoundsWrapper):
    """``AssertOutOfBoundsWrapper`` with a fast path for plain in-range ints."""

    def __init__(self, env: AECEnv):
        super().__init__(env)
        self._n_actions = env.action_space(env.possible_agents[0]).n

    def step(self, action) -> None:
        if type(action) is int and 0 <= action < self._n_actions:
            self.env.step(action)
        elif is_int(action) and not 0 <= action < self._n_actions:
            raw = self.env.unwrapped
            legal = raw.encoder.legal_indices(raw.game) if raw.agents else []
            raise ActionOutOfBounds(f"action is not in action space: {action!r} (action "
                                    f"indices are 0..{self._n_actions - 1}); legal "
                                    f"actions now: {legal}")
        else:
            super().step(action)


def _forwarded(name: str) -> property:
    def get(self):
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    return property(get, doc=f"The unwrapped env's ``{name}`` (after reset).")


class EnforcedOrder(wrappers.OrderEnforcingWrapper):
    """``OrderEnforcingWrapper`` reading the hot attributes without ``__getattr__``."""

    def __init__(self, env: AECEnv):
        super().__init__(env)
        self._raw = env.unwrapped

    agent_selection = _forwarded("agent_selection")
    agents = _forwarded("agents")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    rewards = _forwarded("rewards")
    infos = _forwarded("infos")

    @property
    def _cumulative_rewards(self):
        return self._raw._cumulative_rewards

    def observe(self, agent):
        if not self._has_reset:
            return super().observe(agent)
        return self._raw.observe(agent)

    def step(self, action) -> None:
        if self._has_reset and self._raw.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def last(self, observe: bool = True):
        if not self._has_reset:
            return super().last(observe)    # the stock error
        return self._raw.last(observe)

    def agent_iter(self, max_iter: int = 2**63):
        if not self._has_reset:
            return super().agent_iter(max_iter)   # the stock error
        return _EnforcedOrderIterable(self, max_iter)


class _EnforcedOrderIterable(AECOrderEnforcingIterable):
    def __iter__(self):
        return _EnforcedOrderIterator(self.env, self.max_iter)


class _EnforcedOrderIterator(AECOrderEnforcingIterator):
    """The stock iterator (same checks and assertion), reading the unwrapped env's
    ``agents`` and ``agent_selection`` directly."""

    def __next__(self):
        raw = self.env._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert self.env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        self.env._has_updated = False
        return raw.agent_selection


def standard_chain(raw: AECEnv) -> AECEnv:
    """``raw`` in PettingZoo's standard chain: order enforcing over out-of-bounds checks."""
    return EnforcedOrder(CheckedActions(raw))
