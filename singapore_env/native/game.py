"""A game on the native rules: :class:`NativeGame`, with the play surface of the Python
engine's :class:`~singapore_env.engine.game.Game` (the same legal decisions in the same
order, the same scores and saves, for the same seed, configuration and content), its C++
game held as a capsule of the compiled module.
"""

from __future__ import annotations

import json
from typing import NamedTuple

from ..engine.config import ConfigError, RulesConfig
from ..engine.content import Content, default_content
from ..engine.decisions import Decision, Kind, is_decision
from ..engine.game import Game, SaveFormatError
from ..engine.save_validation import FORMAT_NAME, FORMAT_VERSION, env_settings_in_saves
from .loading import _native, require
from .random_stream import _halves_of, _rng_dict, seed_words
from .records import NATIVE_RULESETS, _config, _content, _decision_table, plays

_INT32_MIN, _INT32_MAX = -(1 << 31), (1 << 31) - 1

#: A NativeGame without running its ``__init__`` (clone, from_json).
_new = object.__new__


class PendingQuestion(NamedTuple):
    """The question a native game asks now, as far as the players read it: the ``kind``
    of the frame asking it (the Python engine's ``game.pending.kind``)."""

    kind: str


class NativeGame:
    """A game on the native rules, with the play surface of
    :class:`~singapore_env.engine.game.Game`: the same legal decisions in the same order,
    the same scores, for the same seed, configuration and content."""

    # _meta: (config, content, seed, decision table), shared by the clones; _game: the C++
    # game (a capsule the functions of the compiled module take)
    __slots__ = ("_meta", "_game")

    def __init__(self, seed: int = 0, config: RulesConfig | None = None,
                 content: Content | None = None):
        words = seed_words(seed)
        cfg = config if config is not None else RulesConfig.standard()
        _check_ruleset(cfg)
        c = content if content is not None else default_content(cfg.slavery)
        native, loaded = require(), _content(c)
        try:  # (the content or configuration asks for more than the other has)
            self._game = native.new_game(loaded, _config(cfg), words)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        self._meta = (cfg, c, int(seed), _decision_table(cfg))

    @property
    def cfg(self) -> RulesConfig:
        """The rules configuration."""
        return self._meta[0]

    @property
    def c(self) -> Content:
        """The content (cards and board)."""
        return self._meta[1]

    @property
    def seed(self) -> int:
        """The seed the game started from."""
        return self._meta[2]

    @property
    def is_over(self) -> bool:
        return _native.is_over(self._game)

    @property
    def acting_seat(self) -> int:
        """The seat that decides now (-1 once the game is over)."""
        return _native.acting_seat(self._game)

    @property
    def pending(self) -> PendingQuestion | None:
        """The current question's kind, as :attr:`Game.pending
        <singapore_env.engine.game.Game.pending>` names it (None once the game is over);
        the rest of the frame stays in C++."""
        kind = _native.question(self._game)
        return None if kind is None else PendingQuestion(kind)

    def legal_decisions(self) -> list:
        """Every legal decision of the acting seat (empty once the game is over)."""
        return _native.legal_in(self._game, self._meta[3])

    def step(self, decision) -> None:
        """Apply one decision of the acting seat; raise IllegalDecision if not legal,
        with the Python engine's words (and the game unchanged)."""
        if (type(decision) is Decision and type(decision[0]) is Kind  # the tables' own
                and type(decision[1]) is int) or is_decision(decision):
            kind, arg = int(decision[0]), int(decision[1])
            if _INT32_MIN <= min(kind, arg) and max(kind, arg) <= _INT32_MAX \
                    and _native.step(self._game, kind, arg):
                return
        # The rare path: the Python engine, on a copy of this game, words the refusal.
        Game.from_json(self.to_json(), self.c).step(decision)
        raise RuntimeError(f"the engines disagree: the Python engine takes {decision!r}, "
                           f"the native engine does not (seed {self.seed})")

    @property
    def decisions(self) -> int:
        """Decisions made so far (the Python engine's ``s.decisions``)."""
        return _native.decisions(self._game)

    @property
    def final_scores(self) -> list[int]:
        """Final VP per seat; [] before the end."""
        return _native.final_vp(self._game)

    @property
    def winners(self) -> list[int]:
        """Seats with the highest final VP (ties share); [] before the end."""
        scores = self.final_scores
        return [p for p, v in enumerate(scores) if v == max(scores)] if scores else []

    def clone(self) -> "NativeGame":
        """An independent copy (state and random generator)."""
        g = _new(NativeGame)
        g._meta = self._meta
        g._game = _native.clone(self._game)
        return g

    # copy.copy and copy.deepcopy give clones (never two games sharing one C++ game);
    # pickle goes through the save.
    def __copy__(self) -> "NativeGame":
        return self.clone()

    def __deepcopy__(self, memo) -> "NativeGame":
        return self.clone()

    def __reduce__(self):
        if self.c.digest != default_content(self.cfg.slavery).digest:
            raise TypeError("a NativeGame pickles with the shipped content only (a Content "
                            "does not pickle): save it with to_json() and continue it with "
                            "NativeGame.from_json(text, content)")
        return NativeGame.from_json, (self.to_json(),)

    def broken_invariants(self) -> str:
        """"" if the game holds its invariants (every card in exactly one place, counts
        and scores in bounds, a valid acting seat and question: ``native/invariants.hpp``),
        else the first one broken. The debug build checks them after every step."""
        return _native.broken_invariants(self._game)

    def to_dict(self) -> dict:
        """The game as :meth:`Game.to_dict <singapore_env.engine.game.Game.to_dict>` saves
        it (the native engine keeps no text log: ``keep_text_log`` is false)."""
        return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "content": self.c.digest,
                "seed": self.seed, "keep_text_log": False,
                "config": {**self.cfg.to_dict(), **env_settings_in_saves()},
                "history": [list(d) for d in _native.history(self._game)],
                "rng": _rng_dict(_native.rng(self._game)), "state": _native.state(self._game)}

    def to_json(self) -> str:
        """The save as canonical JSON: the Python engine's save of the same game (made
        with ``keep_text_log=False``), byte for byte; ``Game.from_json`` loads it."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, content: Content | None = None) -> "NativeGame":
        """Continue a saved game (a Python or native save) on the native engine. The save
        is read and validated by the Python engine's loader (the same SaveFormatError
        for a bad file); its text log is not kept. A save the Python engine takes but
        the native one cannot hold (a logged decision past 32-bit ints, a list past the
        room of the native state) is a SaveFormatError saying so."""
        return cls.from_game(Game.from_json(text, content))

    @classmethod
    def from_game(cls, python: Game) -> "NativeGame":
        """A native copy of a Python game as it stands: the same state, random generator
        and decisions (its text log not kept), so the same play from here on. A game the
        native engine cannot hold is a SaveFormatError saying so, as in :meth:`from_json`."""
        _check_ruleset(python.cfg)
        for i, (kind, arg) in enumerate(python.history):
            if not (_INT32_MIN <= kind <= _INT32_MAX and _INT32_MIN <= arg <= _INT32_MAX):
                raise SaveFormatError(f"the native engine cannot hold this save: history[{i}] "
                                      f"({kind}, {arg}) is past 32-bit ints")
        g = _new(cls)
        try:
            g._game = require().load(_content(python.c), _config(python.cfg),
                                     python.s.to_dict(),
                                     _halves_of(python.rng.bit_generator.state),
                                     [tuple(d) for d in python.history])
        except (ValueError, RuntimeError) as exc:  # past the room or the ints of the state
            raise SaveFormatError(f"the native engine cannot hold this save: {exc}") from None
        g._meta = (python.cfg, python.c, python.seed, _decision_table(python.cfg))
        return g


def _wrap(game, cfg: RulesConfig, content: Content, seed: int) -> NativeGame:
    """A NativeGame around a C++ game (a capsule of the compiled module)."""
    g = _new(NativeGame)
    g._game, g._meta = game, (cfg, content, seed, _decision_table(cfg))
    return g


def _check_ruleset(cfg: RulesConfig) -> None:
    if not plays(cfg):
        raise ConfigError(f"the native engine does not play the {cfg.ruleset!r} "
                          f"ruleset yet (it plays: {', '.join(NATIVE_RULESETS)})")

