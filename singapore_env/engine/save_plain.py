"""The plain fields of a saved state, tested all at once.

Most fields of a state are ints, lists of ints or lists of such lists, every int with a
range or a card category (the checkers of :mod:`singapore_env.engine.save_shapes`).
:class:`PlainFields` tests all of them together: one type set over every int, then set
inclusions and min/max, list by list, in a few C-level passes. A good save thus needs no
checker call per field; a save that fails the test goes through the field checkers one
by one, which name what is wrong.
"""

from __future__ import annotations

from itertools import chain
from operator import le
from typing import Any

from .save_shapes import INT_ONLY

_SET_RANGE = 64  # an int range at most this wide is tested as a set of its values


def _entry_test(item) -> frozenset | tuple[int, int] | None:
    """How the entries ``item`` checks are tested in bulk: the set of values it accepts
    (card ids, a small range) or its (lo, hi) range; None if ``item`` is not plain."""
    if hasattr(item, "ids"):
        return item.ids
    if not hasattr(item, "range"):
        return None
    lo, hi = item.range
    return frozenset(range(lo, hi + 1)) if hi - lo <= _SET_RANGE else (lo, hi)


class PlainFields:
    """The plain fields among field checkers, and their test."""

    def __init__(self, checks: dict):
        """``checks``: field name -> checker; the plain fields are the int ones, the
        lists of ints and the lists of a fixed number of lists of ints."""
        self.scalars, self.lists, self.nested, self.outer = [], [], [], []
        segments = []  # one per list of ints: (its least and most entries, entry test)
        for name, check in checks.items():
            shape = getattr(check, "shape", None)
            inner = getattr(shape[0], "shape", None) if shape else None
            if hasattr(check, "range"):
                self.scalars.append(name)
            elif shape and _entry_test(shape[0]) is not None:
                self.lists.append(name)
                segments.append(shape)
            elif inner and shape and shape[1] is not None and _entry_test(inner[0]) is not None:
                self.nested.append((name, shape[1]))
        for name, outer in self.nested:
            segments += [checks[name].shape[0].shape] * outer
            self.outer.append(outer)
        self.names = (*self.scalars, *self.lists, *(name for name, _ in self.nested))
        self.lows = [checks[name].range[0] for name in self.scalars]
        self.highs = [checks[name].range[1] for name in self.scalars]
        # A list must have `length` entries (if set) and at most `most`.
        self.least = [0 if length is None else length for _, length, _ in segments]
        self.most = [most if length is None else min(length, most)
                     for _, length, most in segments]
        tests = [_entry_test(item) for item, _, _ in segments]
        self.set_at = [i for i, test in enumerate(tests) if isinstance(test, frozenset)]
        self.sets = [test for test in tests if isinstance(test, frozenset)]
        self.range_at = [i for i, test in enumerate(tests) if isinstance(test, tuple)]
        self.ranges = [test for test in tests if isinstance(test, tuple)]

    def values(self, d: dict, copy: bool = True) -> list | None:
        """The values of the plain fields of state data ``d`` (lists copied unless not
        ``copy``), in the order of :attr:`names`, if every one of them is right; else
        None."""
        scalars: list[Any] = [*map(d.get, self.scalars)]  # (any JSON: tested below)
        if not ({*map(type, scalars)} <= INT_ONLY and all(map(le, self.lows, scalars))
                and all(map(le, scalars, self.highs))):
            return None
        lists: list[Any] = [*map(d.get, self.lists)]
        nested: list[Any] = [d.get(name) for name, _ in self.nested]
        if not ({*map(type, lists), *map(type, nested)} <= {list}
                and [*map(len, nested)] == self.outer
                and self._fit([*lists, *chain.from_iterable(nested)])):
            return None
        if not copy:
            return [*scalars, *lists, *nested]
        return [*scalars, *map(list.copy, lists), *([y[:] for y in x] for x in nested)]

    def _fit(self, segments: list) -> bool:
        """Whether each list of ``segments`` has its size and its entries pass."""
        if not {*map(type, segments)} <= {list}:
            return False
        sizes = [*map(len, segments)]
        if not (all(map(le, self.least, sizes)) and all(map(le, sizes, self.most))
                and {*map(type, chain.from_iterable(segments))} <= INT_ONLY
                and all(map(frozenset.issuperset, self.sets,
                            [segments[i] for i in self.set_at]))):
            return False
        return all(not seg or (lo <= min(seg) and max(seg) <= hi)
                   for seg, (lo, hi) in zip([segments[i] for i in self.range_at],
                                            self.ranges))
