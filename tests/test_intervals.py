"""Intervals count seeds, not games: the games of one seed are one cluster, so the two
seatings of a seed that are the same game do not narrow an interval, and a difference
from the mirror is paired by seed."""

import pytest

from arena.runner import Table, play_tables
from arena.summary import (clustered_rate, faction_wins, paired_by_seed, summarize,
                           wilson_interval)
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import SEAT_NAMES


def _width(interval):
    return interval[1] - interval[0]


def _record(seed, british_win, layout=0):
    """A game's record, as far as a faction's win share reads it."""
    british, malay = SEAT_NAMES[0], SEAT_NAMES[2]
    return {"seed": seed, "game": seed, "layout": layout, f"win_{british}": british_win,
            f"win_{SEAT_NAMES[1]}": 0.0, f"win_{malay}": 1.0 - british_win,
            f"win_{SEAT_NAMES[3]}": 0.0}


def test_a_duplicated_game_does_not_narrow_the_interval():
    """Twenty seeds, each played twice as the very same game: the interval over the 40
    games is the one over the 20 seeds (games counted as independent, it would be ~√2
    narrower)."""
    wins = [1.0 if s % 3 == 0 else 0.0 for s in range(20)]
    once = [[w] for w in wins]
    twice = [[w, w] for w in wins]
    assert clustered_rate(twice)["ci95"] == pytest.approx(clustered_rate(once)["ci95"])
    assert clustered_rate(twice)["seeds"] == 20 and clustered_rate(twice)["games"] == 40
    as_games = wilson_interval(2 * sum(wins), 40)
    assert _width(as_games) < 0.8 * _width(clustered_rate(twice)["ci95"])


def test_the_mirrors_interval_on_seat_swapped_games_is_not_narrower_than_per_seed():
    """Four heuristics, each seed seat-swapped: many seeds' two games are the same game.
    The summary's interval over all games is at least as wide as the interval with one
    unit per seed (the seed's mean win share)."""
    cfg = RulesConfig.standard()
    records = play_tables([Table(("heuristic",) * 4, cfg)], 12, seed=3, swap=True)
    by_seed = {}
    for r in records:
        by_seed.setdefault(r["seed"], []).append(r)
    same = sum(all(a[f"vp_{s}"] == b[f"vp_{s}"] for s in SEAT_NAMES)
               for a, b in by_seed.values())
    assert same >= 3  # the seat swap replays the same game on several seeds
    rate = summarize(records)["win_rate_by_faction"]["british"]
    per_seed = clustered_rate([[sum(faction_wins(r, "british") for r in games) / 2]
                               for games in by_seed.values()])
    assert rate["rate"] == pytest.approx(per_seed["rate"]) and rate["seeds"] == 12
    assert _width(rate["ci95"]) >= _width(per_seed["ci95"]) - 1e-12


def test_a_difference_from_the_mirror_is_paired_by_seed():
    mirror = [_record(s, w, layout) for s, w in enumerate([1, 0, 0, 1, 0, 0])
              for layout in (0, 1)]
    agent = [_record(s, w, layout) for s, w in enumerate([1, 1, 0, 1, 0, 1])
             for layout in (0, 1)]
    paired = paired_by_seed(agent, mirror, lambda r: faction_wins(r, "british"))
    assert paired["seeds"] == 6 and paired["difference"] == pytest.approx(2 / 6)
    low, high = paired["ci95"]
    assert low < 2 / 6 < high
    with pytest.raises(ValueError, match="no seed"):
        paired_by_seed(agent, [_record(99, 1)], lambda r: faction_wins(r, "british"))
