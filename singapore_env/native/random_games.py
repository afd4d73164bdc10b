"""Random games on the native engine: played on both engines step for step and compared
(:func:`compare_random_game`, :func:`differences`: the check that keeps the two engines
equal), or played whole in C++ with no Python in the loop (:func:`play_random`).
"""

from __future__ import annotations

import json
import random

from ..engine.config import RulesConfig
from ..engine.content import Content, default_content
from ..engine.game import Game
from .game import NativeGame
from .loading import require
from .random_stream import seed_words
from .records import _config, _content


def differences(python: Game, ours: NativeGame) -> list[str]:
    """What differs now between a Python game and a native one ([] when nothing does):
    the saves (each top-level entry and state field that differs; the Python game made
    with ``keep_text_log=False``) and the legal decisions."""
    bad = []
    if python.to_json() != ours.to_json():
        theirs, mine = python.to_dict(), json.loads(ours.to_json())
        bad += [k for k in theirs if json.dumps(theirs[k]) != json.dumps(mine[k])]
        bad += [f"state.{k}" for k in theirs["state"]
                if json.dumps(theirs["state"][k]) != json.dumps(mine["state"][k])]
    if python.legal_decisions() != ours.legal_decisions():
        bad.append("legal decisions")
    return bad


def compare_random_game(seed: int, config: RulesConfig | None = None,
                        content: Content | None = None, save_every: int = 25) -> tuple[int, str]:
    """Play one random game (decisions drawn with ``random.Random(seed)``) on both
    engines, comparing the legal decisions after every step and the saves after every
    ``save_every``-th step and at the end. Returns (decisions played, "" or where and
    what first differed)."""
    python = Game(seed, config, content, keep_text_log=False)
    ours = NativeGame(seed, config, content)
    pick = random.Random(seed)
    while True:
        step = python.s.decisions
        if step % save_every == 0 or python.is_over:
            bad = differences(python, ours)
        else:
            bad = [] if python.legal_decisions() == ours.legal_decisions() else ["legal decisions"]
        if not bad and python.is_over and (ours.final_scores != python.final_scores
                                           or not ours.is_over):
            bad = ["final scores"]
        if bad:
            return step, f"seed {seed}, decision {step}: {', '.join(bad)} differ"
        if python.is_over:
            return step, ""
        decision = pick.choice(python.legal_decisions())
        python.step(decision)
        ours.step(decision)


def play_random(seeds, ruleset: str = "standard", config: RulesConfig | None = None,
                content: Content | None = None) -> dict:
    """Play whole games on the native engine, one per seed, every decision drawn
    uniformly from the legal ones (by a PCG64 seeded with the game's seed), with no
    Python in the loop and the GIL released. ``config`` (default: the ruleset's) names
    the ruleset itself when given. Returns ``{"games", "decisions"`` (their sum),
    ``"decisions_per_game", "final_scores"}``."""
    cfg = config if config is not None else RulesConfig.named(ruleset)
    NativeGame(0, cfg, content)  # the same checks and errors as a single game
    words = [seed_words(seed) for seed in seeds]  # (a seed as a Game takes it)
    c = content if content is not None else default_content(cfg.slavery)
    per_game, scores = require().play_random(_content(c), _config(cfg), words)
    return {"games": len(words), "decisions": sum(per_game), "decisions_per_game": per_game,
            "final_scores": scores}
