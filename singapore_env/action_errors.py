"""The errors of an action the environment does not take (the env's state is unchanged)."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action outside the current action mask (the message names the legal ones)."""


class ActionOutOfBounds(IllegalActionError, AssertionError):
    """An integer action outside the action space, however large or negative (a numpy
    integer too): the env's illegal-action error, and the ``AssertionError`` PettingZoo's
    out-of-bounds wrapper raises for an action outside the space."""
