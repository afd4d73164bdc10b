"""The game engine: a seat to act, its legal decisions, and a step that applies one.

    game = Game(seed=1)
    while not game.is_over:
        game.step(game.legal_decisions()[0])
    game.final_scores

Rules live in :mod:`singapore_env.engine.rules` (one module per phase or action family);
this module only runs the frame stack, validates decisions and saves/loads games.
A rejected decision raises :class:`IllegalDecision` and leaves the game untouched.
Decisions with a single legal option are applied automatically (they are forced).
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Mapping

import numpy as np

from . import rules  # noqa: F401  (registers every frame handler)
from .config import ConfigError, RulesConfig
from .content import SEAT_NAMES, Content, default_content
from .decisions import Decision, Kind, arg_sizes, is_decision
from .invariants import InvariantError, check_invariants
from .rules.base import APPLY, AUTO, CLOCKWISE, LEGAL, clockwise_from, shuffle
from .rules.market import fill_market
from .rulesets import Ruleset, ruleset_of
from .save_validation import (FORMAT_NAME, FORMAT_VERSION, SaveFormatError, check_header,
                              env_settings_in_saves, parse_json, rng_state, state_from_dict)
from .state import Frame, GameState, Slot

# Kinds a Decision made by the rules or the action table holds (step's fast path).
_KIND_TYPES = (int, Kind)
# The configuration of a Game made without one (configs are frozen: one serves all).
_STANDARD = RulesConfig.standard()


class IllegalDecision(ValueError):
    """A decision that is not legal now. The message names the legal ones."""


def check_seed(seed) -> int:
    """``seed`` as a game's seed: a non-negative int (or numpy integer; never a bool, a
    float or a text), else ValueError. Every entry that takes a seed checks it so:
    ``Game``, the native engine, the env's ``reset`` and ``VectorEnv``."""
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, (bool, np.bool_)) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    return int(seed)


class Game:
    """One game of 1819 Singapore."""

    def __init__(self, seed: int = 0, config: RulesConfig | None = None,
                 content: Content | None = None, keep_text_log: bool = True,
                 _empty: bool = False):
        self.seed = check_seed(seed)
        self.cfg = config if config is not None else _STANDARD
        self.c = content if content is not None else default_content(self.cfg.slavery)
        self.keep_text_log = keep_text_log
        # An empty game (from_dict) gets its state and generator state from the save.
        self._rng: np.random.Generator | None = None
        self._rng_state: Mapping[str, Any] | None = None
        self.history: list[Decision] = []
        self._legal: list[Decision] = []
        if not _empty:
            self._rng = np.random.Generator(np.random.PCG64(self.seed))
            self.s = GameState()
            self._setup()
            self._run()

    # ------------------------------------------------------------ setup
    def _setup(self) -> None:
        s, c, cfg = self.s, self.c, self.cfg
        s.first_player = CLOCKWISE[int(self.rng.integers(4))]
        s.tableau = [[Slot(c.leader_ids[seat])] for seat in range(4)]
        s.market_deck = list(c.market_ids)
        shuffle(self, s.market_deck)
        s.population_deck = list(c.population_ids)
        shuffle(self, s.population_deck)
        s.battle_deck = [list(c.battle_ids[0]), list(c.battle_ids[1])]
        for deck in s.battle_deck:
            shuffle(self, deck)
        if self.ruleset.setup is not None:
            self.ruleset.setup(self)
        events_ii = list(c.event_ids["II"])
        events_i = list(c.event_ids["I"])
        shuffle(self, events_ii)
        shuffle(self, events_i)
        if len(events_i) < cfg.event_i_cards or len(events_ii) < cfg.event_ii_cards:
            raise ConfigError("not enough Event cards in the content for this configuration")
        s.event_deck = events_ii[:cfg.event_ii_cards] + events_i[:cfg.event_i_cards]
        s.districts = [0] * (len(c.board.loop_ids) * 4)
        s.outlawed = [-1] * len(c.board.vices)
        s.leader_space = [-1] * len(c.board.leader_spaces)
        s.market = [-1] * cfg.market_slots
        fill_market(self)
        from .rules.effects import draw_to_hand
        for seat in clockwise_from(s.first_player):
            draw_to_hand(self, seat, 1)
        s.stack = [Frame("round")]

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset the game plays (named by its configuration)."""
        return ruleset_of(self.cfg)

    @property
    def rng(self) -> np.random.Generator:
        """The game's random generator (a clone builds its copy on first use)."""
        if self._rng is None:
            self._rng = np.random.Generator(np.random.PCG64())
            assert self._rng_state is not None  # (a game holds its generator or its state)
            self._rng.bit_generator.state = self._rng_state
            self._rng_state = None
        return self._rng

    @rng.setter
    def rng(self, value) -> None:
        self._rng, self._rng_state = value, None

    # ------------------------------------------------------------ running
    def _run(self) -> None:
        """Run automatic frames and forced decisions until a real choice is needed."""
        stack = self.s.stack
        while stack:
            f = stack[-1]
            handler = AUTO.get(f.kind)
            if handler is not None:
                handler(self, f)
                continue
            legal = LEGAL[f.kind](self, f)
            if not legal:
                stack.pop()
            elif len(legal) == 1:
                APPLY[f.kind](self, f, legal[0])
            else:
                self._legal = legal
                return
        self._legal = []

    @property
    def is_over(self) -> bool:
        return bool(self.s.game_over)

    @property
    def acting_seat(self) -> int:
        """The seat that decides now (-1 once the game is over)."""
        return self.s.stack[-1].seat if self.s.stack and not self.s.game_over else -1

    @property
    def pending(self) -> Frame | None:
        """The frame asking the current question (its kind names the decision)."""
        return self.s.stack[-1] if self.s.stack and not self.s.game_over else None

    def legal_decisions(self) -> list[Decision]:
        """Every legal decision of the acting seat (empty once the game is over)."""
        return list(self._legal)

    def step(self, decision: Decision | tuple[int, int]) -> None:
        """Apply one decision of the acting seat; raise IllegalDecision if not legal."""
        if not (type(decision) is Decision and type(decision.arg) is int
                and type(decision.kind) in _KIND_TYPES and decision in self._legal):
            decision = self._checked(decision)  # the rare case: raises unless legal
        f = self.s.stack[-1]
        APPLY[f.kind](self, f, decision)
        self.history.append(decision)
        self.s.decisions += 1
        self._run()

    def _checked(self, decision) -> Decision:
        """``decision`` as a Decision of ints if it is legal now; else IllegalDecision
        naming what is wrong (not a decision, an unknown kind, an arg out of range, not
        legal now)."""
        if self.s.game_over:
            raise IllegalDecision("the game is over; no decision is legal")
        if not is_decision(decision):
            raise IllegalDecision(f"{decision!r} is not a decision: give Decision(kind, arg) "
                                  f"or a (kind, arg) pair of ints; legal: {self._listing()}")
        d = Decision(int(decision[0]), int(decision[1]))
        size = arg_sizes(self.cfg.max_tableau, self.cfg.max_hand).get(d.kind)
        if size is None:
            raise IllegalDecision(f"unknown decision kind {d.kind}; kinds are "
                                  f"{', '.join(f'{int(k)}={k.name}' for k in Kind)}")
        if not 0 <= d.arg < size:
            raise IllegalDecision(f"{Kind(d.kind).name} takes an arg in 0..{size - 1}, "
                                  f"got {d.arg}")
        if d not in self._legal:
            from .describe import describe
            f = self.s.stack[-1]
            raise IllegalDecision(
                f"{describe(self, d)} is not legal for {SEAT_NAMES[f.seat]} now "
                f"(pending: {f.kind}); legal: {self._listing()}")
        return d

    def _listing(self, most: int = 40) -> str:
        """The legal decisions in words (at most ``most``), for error messages."""
        from .describe import describe

        shown = ", ".join(f"{describe(self, x)} {tuple(x)}" for x in self._legal[:most])
        more = f" (+{len(self._legal) - most} more)" if len(self._legal) > most else ""
        return shown + more

    # ------------------------------------------------------------ results
    @property
    def final_scores(self) -> list[int]:
        """Final VP per seat (track + Legacies + End Game bonuses); [] before the end."""
        return list(self.s.final_vp)

    @property
    def winners(self) -> list[int]:
        """Seats with the highest final VP (ties share); [] before the end."""
        if not self.s.final_vp:
            return []
        best = max(self.s.final_vp)
        return [p for p, v in enumerate(self.s.final_vp) if v == best]

    # ------------------------------------------------------------ copies and files
    def clone(self) -> "Game":
        """An independent copy (state, RNG and history)."""
        g = Game.__new__(Game)
        g.cfg, g.c, g.seed, g.keep_text_log = self.cfg, self.c, self.seed, self.keep_text_log
        # The generator is rebuilt only if the copy draws (search often does not):
        # a generator costs ~10 us, its state ~1 us.
        g._rng = None
        g._rng_state = (self._rng.bit_generator.state if self._rng is not None
                        else self._rng_state)
        g.s = self.s.copy()
        g.history = list(self.history)
        g._legal = self._legal  # replaced, never changed in place
        return g

    def to_dict(self) -> dict:
        return {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "content": self.c.digest,
            "seed": self.seed,
            "keep_text_log": self.keep_text_log,
            "config": {**self.cfg.to_dict(), **env_settings_in_saves()},
            "history": [[d.kind, d.arg] for d in self.history],
            "rng": _rng_state_to_json(self.rng.bit_generator.state),
            "state": self.s.to_dict(),
        }

    def to_json(self) -> str:
        """The full state and the decision log as canonical JSON (byte-for-byte stable)."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, content: Content | None = None) -> "Game":
        """Load a snapshot saved by :meth:`to_json`; raise SaveFormatError if it is bad."""
        return cls.from_dict(parse_json(text), content, _parsed=True)

    @classmethod
    def from_dict(cls, data: dict, content: Content | None = None, *,
                  _parsed: bool = False) -> "Game":
        """Load a snapshot from :meth:`to_dict` data, validated in full
        (:mod:`singapore_env.engine.save_validation`); raise SaveFormatError if it is bad.
        ``_parsed``: ``data`` comes straight from ``json.loads`` and is this call's own
        (the loaded state may hold its lists)."""
        cfg, seed, history = check_header(data, _parsed)
        try:
            g = cls(seed, cfg, content, keep_text_log=data.get("keep_text_log", True),
                    _empty=True)
        except (ConfigError, ValueError) as exc:
            raise SaveFormatError(f"cannot build the game: {exc}") from None
        if data.get("content") != g.c.digest:
            raise SaveFormatError(f"saved with content {str(data.get('content'))[:40]!r}, "
                                  f"this engine has {g.c.digest!r}")
        g.s = state_from_dict(data["state"], g, copy=not _parsed)
        g._rng_state = rng_state(data["rng"])  # the generator is built on first use
        if len(history) != g.s.decisions:
            raise SaveFormatError(f"the log has {len(history)} decisions but the state says "
                                  f"{g.s.decisions}")
        g.history = history
        try:
            check_invariants(g, validated=True)
            g._run()
        except InvariantError as exc:
            raise SaveFormatError(f"inconsistent state: {exc}") from None
        except (KeyError, TypeError, ValueError, IndexError, AttributeError,
                LookupError) as exc:
            raise SaveFormatError(f"state cannot be continued: {exc!r}") from None
        if not g.s.game_over and not g._legal:
            raise SaveFormatError("state cannot be continued: no decision is pending")
        return g

    @classmethod
    def replay(cls, seed: int, decisions: Iterable, config: RulesConfig | None = None,
               content: Content | None = None, keep_text_log: bool = True) -> "Game":
        """Rebuild a game from its seed and decision log."""
        g = cls(seed, config, content, keep_text_log=keep_text_log)
        for i, d in enumerate(decisions):
            try:
                g.step(d)
            except IllegalDecision as exc:
                raise IllegalDecision(f"decision #{i} of the log: {exc}") from None
        return g

    @classmethod
    def load_replay(cls, text: str, content: Content | None = None) -> "Game":
        """Rebuild a saved game by replaying its seed and log (ignores the snapshot);
        a bad file or a logged decision that is not legal raises SaveFormatError."""
        data = parse_json(text)
        cfg, seed, history = check_header(data, parsed=True)
        try:
            return cls.replay(seed, history, cfg, content,
                              keep_text_log=data.get("keep_text_log", True))
        except ConfigError as exc:
            raise SaveFormatError(f"cannot build the game: {exc}") from None
        except IllegalDecision as exc:
            raise SaveFormatError(str(exc)) from None


def _rng_state_to_json(state: Mapping[str, Any]) -> dict:
    return {"bit_generator": state["bit_generator"], "state": dict(state["state"]),
            "has_uint32": state["has_uint32"], "uinteger": state["uinteger"]}
