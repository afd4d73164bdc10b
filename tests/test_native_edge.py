"""The native edge: what the native engine cannot hold is refused at load by both
loaders, the native engine's own loader checks what it narrows, content numbers and
seeds are refused alike by both engines, a loaded game has the room play needs, and an
mcts agent decides one game at a time."""

from __future__ import annotations

import dataclasses
import json
import random
import threading

import pytest

from singapore_env import native
from singapore_env.engine import Game, SaveFormatError
from singapore_env.engine.content import ContentError, default_content, load_content
from singapore_env.engine.save_shapes import BIG, PW_TRACK_MOST

needs_native = pytest.mark.skipif(not native.available(), reason="the native engine is not built")


def _save(edit, seed: int = 4, steps: int = 30) -> str:
    """A save of a game ``steps`` random decisions in, its state edited by ``edit``."""
    game, pick = Game(seed, keep_text_log=False), random.Random(seed)
    for _ in range(steps):
        game.step(pick.choice(game.legal_decisions()))
    data = json.loads(game.to_json())
    edit(data["state"])
    return json.dumps(data)


def _track(n: int):
    return lambda state: state.__setitem__("pw_track", [1] * n)


@pytest.mark.parametrize("n", [PW_TRACK_MOST + 1, 33, 40, 64])
def test_a_long_public_works_track_is_refused_at_load_by_both_loaders(n):
    text = _save(_track(n))
    with pytest.raises(SaveFormatError, match=f"pw_track.*at most {PW_TRACK_MOST} entries"):
        Game.from_json(text)
    if native.available():
        with pytest.raises(SaveFormatError, match=f"pw_track.*at most {PW_TRACK_MOST}"):
            native.NativeGame.from_json(text)


@needs_native
def test_the_longest_track_loaded_plays_to_the_end_on_both_engines():
    text = _save(_track(PW_TRACK_MOST))
    python, ours, pick = Game.from_json(text), native.NativeGame.from_json(text), random.Random(1)
    while not python.is_over:
        decision = pick.choice(python.legal_decisions())
        python.step(decision)
        ours.step(decision)
    assert ours.is_over and ours.final_scores == python.final_scores


def test_a_loaded_game_has_the_room_play_needs():
    text = _save(lambda s: s["districts"].__setitem__(0, 10**9))
    with pytest.raises(SaveFormatError, match=f"must be an int in 0..{BIG}"):
        Game.from_json(text)
    if native.available():
        with pytest.raises(SaveFormatError, match=f"0..{BIG}"):
            native.NativeGame.from_json(text)
    game, pick = Game.from_json(_save(lambda s: s["districts"].__setitem__(0, BIG))), \
        random.Random(2)
    while not game.is_over:  # (no OverflowError: a whole game adds far less than the room)
        game.step(pick.choice(game.legal_decisions()))


# ---------------------------------------------------------------- the native engine's loader
def _raw_load(edit):
    """The native engine's own loader on a state edited by ``edit`` (past the Python
    validator)."""
    python = native.NativeGame(4)
    for _ in range(30):
        python.step(python.legal_decisions()[0])
    state = Game.from_json(python.to_json()).s.to_dict()
    edit(state, python.c)
    return native.require().load(native._content(python.c), native._config(python.cfg),
                                 state, native._halves_of(python.to_dict()["rng"]), [])


def _first(content, category: str) -> int:
    return next(i for i, d in enumerate(content.defs) if d.category == category)


@needs_native
@pytest.mark.parametrize("edit, words", [
    # an id that narrows to a valid one (65536 + a market card) is refused before narrowing
    (lambda s, c: s["market_deck"].append(65536 + s["market_deck"][0]), "past its 16-bit"),
    (lambda s, c: s["market_deck"].append(-65536 + s["market_deck"][0]), "past its 16-bit"),
    (lambda s, c: s["tableau"][0].__setitem__(0, (65536, *s["tableau"][0][0][1:])),
     "past 16-bit card ids"),
    (lambda s, c: s["market_deck"].append(_first(c, "event")), "market_deck card"),
    (lambda s, c: s["hands"][0].append(_first(c, "market")), "hands card"),
    (lambda s, c: s["event_deck"].append(_first(c, "battle")), "event_deck card"),
    (lambda s, c: s["population_deck"].append(_first(c, "leader")), "population_deck card"),
    (lambda s, c: s.__setitem__("game_over", 2), "game_over 2 is not in 0..1"),
    (lambda s, c: s.__setitem__("anglo_dutch", -1), "anglo_dutch -1 is not in 0..1"),
    (lambda s, c: s.__setitem__("pw_track", [0] * 40), "Public Works track's length 40"),
])
def test_the_native_loader_checks_before_it_narrows(edit, words):
    with pytest.raises(ValueError, match=words):
        _raw_load(edit)


@needs_native
def test_the_native_loader_takes_an_unedited_state():
    _raw_load(lambda s, c: None)


# ---------------------------------------------------------------- content numbers alike
@pytest.mark.parametrize("pop_slots", [-1, 9])
def test_pop_slots_outside_what_the_native_state_holds_are_refused(tmp_path, cheap_cards,
                                                                   pop_slots):
    file = cheap_cards / "cards.toml"
    text = file.read_text()
    assert "\npop_slots = " in text
    file.write_text(text.replace("\npop_slots = ", f"\npop_slots = {pop_slots}\n# ", 1))
    with pytest.raises(ContentError, match=r"pop_slots.*must be in 0\.\.8"):
        load_content(cheap_cards)


@needs_native
def test_a_hand_built_card_with_negative_pop_slots_is_refused_by_the_native_engine():
    c = default_content()
    i = next(k for k, d in enumerate(c.defs) if d.pop_slots)
    defs = list(c.defs)
    defs[i] = dataclasses.replace(defs[i], pop_slots=-1)
    bad = dataclasses.replace(c, defs=tuple(defs), digest="hand-built pop_slots")
    with pytest.raises(ValueError, match=r"Population slots must be 0\.\.8 \(the content has -1\)"):
        native.NativeGame(0, content=bad)


# ---------------------------------------------------------------- seeds alike
@pytest.mark.parametrize("seed", [1.5, "7", True, -1])
def test_every_entry_refuses_the_seeds_game_refuses(seed):
    from singapore_env.env import env
    from singapore_env.vector import VectorEnv

    with pytest.raises(ValueError, match="seed must be a non-negative int"):
        Game(seed)
    with pytest.raises(ValueError, match="seed must be a non-negative int"):
        VectorEnv(2, seed=seed)
    pytest.importorskip("gymnasium")
    from arena.faction_env import FactionEnv

    with pytest.raises(ValueError, match="seed must be a non-negative int"):
        FactionEnv("british", seed=seed)
    with pytest.raises(ValueError, match="seed must be a non-negative int"):
        FactionEnv("british").reset(seed=seed)
    engines = ["python"] + (["native"] if native.available() else [])
    for engine in engines:
        e = env(engine=engine)
        with pytest.raises(ValueError, match="seed must be a non-negative int"):
            e.reset(seed=seed)
    if native.available():
        with pytest.raises(ValueError, match="seed must be a non-negative int"):
            native.NativeGame(seed)
        with pytest.raises(ValueError, match="seed must be a non-negative int"):
            VectorEnv(2, seed=seed, engine="native")


# ---------------------------------------------------------------- one search at a time
def test_an_mcts_agent_decides_one_game_at_a_time(monkeypatch):
    from agents import mcts
    from agents.registry import make_agent

    agent = make_agent("mcts:iters=2", seed=1)
    inside, release = threading.Event(), threading.Event()

    def slow(game, seat):
        inside.set()
        release.wait(10)
        return game.legal_decisions()[0]

    monkeypatch.setattr(agent, "_choose", slow)
    game = Game(3)
    first = threading.Thread(target=agent.choose, args=(game, game.acting_seat))
    first.start()
    assert inside.wait(10)
    with pytest.raises(RuntimeError, match="decides one game at a time"):
        agent.choose(game, game.acting_seat)
    release.set()
    first.join()
    agent.choose(game, game.acting_seat)  # (free again)
    import copy
    twin = copy.deepcopy(mcts.MctsAgent(seed=1, iters=2))  # a copy has its own lock
    assert twin._deciding is not None
