"""The rules engine: content, state, rules, saves. Pure Python + numpy; it imports
nothing of the environment, the agents or the applications above it.

    from singapore_env.engine import Game
    game = Game(seed=7)
    while not game.is_over:
        game.step(game.legal_decisions()[0])

Modules: :mod:`~singapore_env.engine.game` (the :class:`Game`: legal decisions, step,
save/load), :mod:`~singapore_env.engine.rules` (one module per phase or action family),
:mod:`~singapore_env.engine.query` (the read-only questions code above the engine asks
the rules: the only way it reads them), :mod:`~singapore_env.engine.content` (cards and
board from ``data/*.toml``; the definitions in ``content_defs``),
:mod:`~singapore_env.engine.state` (plain data), :mod:`~singapore_env.engine.decisions`,
:mod:`~singapore_env.engine.config` (every tunable rule), :mod:`~singapore_env.engine.describe`
(decisions in words), the saved-game checks (``save_validation``, ``save_shapes``,
``save_plain``, ``invariants``) and :mod:`~singapore_env.engine.scenario` (set-up
positions for tests and examples).
"""

from .config import RULESETS, ConfigError, RulesConfig
from .content import Content, ContentError, default_content
from .decisions import Decision, Kind
from .game import Game, IllegalDecision
from .save_validation import SaveFormatError

__all__ = ["Game", "IllegalDecision", "SaveFormatError", "RulesConfig", "RULESETS",
           "ConfigError", "Content", "ContentError", "default_content", "Decision", "Kind"]
