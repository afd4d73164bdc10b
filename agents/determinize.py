"""Determinization: a copy of a game in which everything ``seat`` cannot see is resampled.

    rng = numpy.random.default_rng(7)
    world = determinize(game, seat, rng)   # a plausible world consistent with seat's view

Used by agents that simulate on a clone (search, rollouts): simulating on a plain
:meth:`Game.clone` would read the real hidden cards and the real future dice.

What is hidden from ``seat`` and how it is resampled:

* the game's RNG (future dice and shuffles): re-seeded from ``rng``;
* the Market and Population decks: shuffled (their contents are public: every other
  Market / Population card is visible somewhere);
* the Event deck: its remaining Event I and Event II slots are refilled from the
  Event I / Event II cards not yet revealed (which cards were put in the deck at setup
  is hidden too); the Event I cards stay on top, as at setup;
* each faction's Battle deck, the hands of the other players, and the hidden parts of
  pending frames: another seat's pending ``keep_battle`` cards, the War commits of the
  other seats before the roll (first edition: the cards committed to a War or an
  Intervention until they are shown), and the other seats' Conflict contributions
  (cards, and the dollars and once-per-round counter boosts spent by seats that have
  already contributed). All those cards of one faction form that faction's *unseen
  pool*; it is shuffled and dealt back to the same places, so every hand / commit keeps
  its size and every card keeps its faction. Committed
  cards respect the ★ restriction in force when possible. (A first-edition commit of
  several identical copies is resampled card by card, so the copies may differ in the
  sampled world.)

Public and kept as is: the board, tableaux, VP, wealth, revealed Battle cards, all
discard piles (a discarded card was shown), the current Event, the observer's own hand
and own pending cards. Committed cards that came from the revealed row (public) are
resampled like hand cards: the observer loses that bit of information, it never gains
any.

Simulation Mode adds: the Folk Hero deck and the other seats' Folk Hero hands (one pool,
dealt back, hand sizes kept), and another Raja's declared Role while the Roles are not
revealed yet (drawn at random).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import numpy as np

from singapore_env.engine.content import SEAT_FACTION
from singapore_env.engine.frames import ConflictPhase, WarPhase
from singapore_env.engine.query import (COMMIT_FRAMES, spendable_boosts, star_allowed_in_conflict,
                                        star_allowed_in_war)

if TYPE_CHECKING:  # pragma: no cover
    from singapore_env.engine import Game


def _shuffle(rng: np.random.Generator, cards: list[int]) -> None:
    """Shuffle in place from a sorted start, so the result depends on the cards and
    ``rng`` only, never on the hidden order they had (a search seeded alike samples
    the same worlds whatever the real hidden order is)."""
    cards.sort()
    if len(cards) > 1:
        order = rng.permutation(len(cards))
        cards[:] = [cards[i] for i in order]


def _war_commits_hidden(f) -> bool:
    """War commits are face down until the totals are computed (phase SPOILS)."""
    return f.kind == "war" and f.d.phase < WarPhase.SPOILS


def _conflict_contributors(g, stack_index: int) -> set[int]:
    """Seats that have decided (or are deciding) their Conflict contribution: every seat
    but those whose ``contribute`` question is still waiting below the top frame."""
    above = g.s.stack[stack_index + 1:]
    waiting = {f.seat for f in above if f.kind == "contribute"}
    if above and above[-1].kind == "contribute":
        waiting.discard(above[-1].seat)  # the seat deciding now may have put some in
    return {p for p in range(4) if p not in waiting}


def determinize(game: "Game", seat: int, rng: np.random.Generator) -> "Game":
    """A clone of ``game`` with everything hidden from ``seat`` resampled from ``rng``
    (a :class:`~singapore_env.native.NativeGame` gives a native world, resampled in C++
    with the same draws: the same world, save for save, from the same state of ``rng``)."""
    if not 0 <= seat < 4:
        raise ValueError(f"seat must be 0..3, got {seat}")
    native = sys.modules.get("singapore_env.native")  # not imported: no native game exists
    if native is not None and isinstance(game, native.NativeGame):
        return native.determinize(game, seat, rng)
    g = game.clone()
    s, c = g.s, g.c
    g.rng = np.random.Generator(np.random.PCG64(int(rng.integers(0, 2**63 - 1))))

    _shuffle(rng, s.market_deck)
    _shuffle(rng, s.population_deck)
    _resample_events(g, rng)

    # --- Battle cards: collect every hidden slot per faction, then deal the pool back.
    # A "hole" is (faction, setter, star_ok); setter(card) puts a card back in place.
    pools: list[list[int]] = [list(s.battle_deck[0]), list(s.battle_deck[1])]
    holes: list[tuple[int, object, bool]] = []
    money_holes = []  # (conflict frame, seat) whose dollars are hidden

    conflict = next((f for f in s.stack
                     if f.kind == "conflict" and f.d.phase == ConflictPhase.REVEAL), None)
    conflict_star = star_allowed_in_conflict(g)
    marked_in_hand: dict[int, list[int]] = {}  # seat -> hand indices of hidden contributions
    if conflict is not None:
        decided = _conflict_contributors(g, s.stack.index(conflict))
        for p in range(4):
            if p != seat:
                hand = s.hands[p]
                marked_in_hand[p] = [hand.index(x) for x in conflict.d.cards[p] if x in hand]
                if p in decided:
                    money_holes.append((conflict, p))

    for p in range(4):
        if p == seat:
            continue
        fac = SEAT_FACTION[p]
        hand = s.hands[p]
        pools[fac].extend(hand)
        marked = set(marked_in_hand.get(p, ()))
        for i in range(len(hand)):
            holes.append((fac, _list_setter(hand, i), conflict_star if i in marked else True))

    war_star = star_allowed_in_war(g)
    for f in s.stack:
        if f.kind == "keep_battle" and f.seat != seat:
            fac = SEAT_FACTION[f.seat]
            cards = f.d.cards
            for i, card in enumerate(cards):
                if card >= 0:
                    pools[fac].append(card)
                    holes.append((fac, _list_setter(cards, i), True))
        elif _war_commits_hidden(f):
            commits = f.d.commits
            for p, card in enumerate(commits):
                if p != seat and card >= 0:
                    fac = SEAT_FACTION[p]
                    pools[fac].append(card)
                    holes.append((fac, _list_setter(commits, p), war_star))
        elif f.kind in COMMIT_FRAMES and not f.d.shown:
            star_ok = war_star or f.kind != "war_fe"
            for p, cards in enumerate(f.d.commits):
                if p != seat:
                    pools[SEAT_FACTION[p]].extend(cards)
                    holes += [(SEAT_FACTION[p], _list_setter(cards, i), star_ok)
                              for i in range(len(cards))]

    for fac in (0, 1):
        _shuffle(rng, pools[fac])
    # Deal the star-restricted holes first so they can get non-star cards.
    holes.sort(key=lambda h: h[2])
    for fac, setter, star_ok in holes:
        pool = pools[fac]
        pick = len(pool) - 1
        if not star_ok:
            for j in range(len(pool) - 1, -1, -1):
                if not c.defs[pool[j]].star:
                    pick = j
                    break
        setter(pool.pop(pick))
    for fac in (0, 1):
        s.battle_deck[fac] = pools[fac]
    # Hidden contributions stay in the hand: they follow the cards dealt to their slots
    # (a contributed revealed card is public, so it keeps its mark).
    for p, indices in marked_in_hand.items():
        cards = conflict.d.cards[p]
        from_revealed = [x for x in cards if x in s.revealed[p]]
        cards[:] = [s.hands[p][i] for i in indices] + from_revealed
    # The dollars a seat put into a Conflict are hidden too: any amount it could afford
    # within the cap (a contribution stops once it reaches the event's strength).
    for f, p in money_holes:
        room = f.d.strength - sum(c.defs[x].strength for x in f.d.cards[p])
        top = max(0, min(s.wealth[p], room))
        f.d.money[p] = int(rng.integers(0, top + 1)) if top > 0 else 0
        # so is the choice to spend a once-per-round counter boost (HMS Andromache)
        f.d.boosts[p] = []
        f.d.boosts[p] = [x for x in spendable_boosts(g, f, p) if rng.integers(0, 2)]
    _resample_roles(g, seat, rng)
    # Re-derive the legal decisions of the acting seat in this world (its hand or its
    # Conflict contribution may differ); a question that became forced is answered,
    # as the engine always does.
    g._run()
    return g


def _list_setter(lst: list[int], i: int):
    def put(card: int) -> None:
        lst[i] = card
    return put


def _resample_events(g, rng: np.random.Generator) -> None:
    s, c = g.s, g.c
    ids_i = set(c.event_ids["I"])
    seen = set(s.event_discard)
    if s.current_event >= 0:
        seen.add(s.current_event)
    n_i = sum(1 for e in s.event_deck if e in ids_i)
    n_ii = len(s.event_deck) - n_i
    unseen_i = [e for e in c.event_ids["I"] if e not in seen]
    unseen_ii = [e for e in c.event_ids["II"] if e not in seen]
    _shuffle(rng, unseen_i)
    _shuffle(rng, unseen_ii)
    # bottom: Event II cards, top (end of list): Event I cards
    s.event_deck = unseen_ii[:n_ii] + unseen_i[:n_i]


def _resample_roles(g, seat: int, rng: np.random.Generator) -> None:
    """Simulation Mode: deal the unseen Folk Hero cards back at random and redraw
    another Raja's still-hidden Role."""
    s = g.s
    pool = list(s.folk_deck)
    for p in range(4):
        if p != seat:
            pool += s.folk_hands[p]
    _shuffle(rng, pool)
    for p in range(4):
        if p != seat:
            n = len(s.folk_hands[p])
            s.folk_hands[p] = [pool.pop() for _ in range(n)]
    s.folk_deck = pool
    if not s.roles_public:
        for p in range(4):
            if p != seat and s.roles[p] >= 0:
                s.roles[p] = int(rng.integers(2))


def hidden_kinds(game: "Game", seat: int) -> set[str]:
    """What of ``game`` hides cards or choices from ``seat`` besides the other hands and
    the decks (the parts a determinization resamples): ``keep_battle`` (another seat's
    drawn cards), ``war_commits``, ``conflict_contributions``, ``counter_boosts``,
    ``first_edition_commits``, ``folk_heroes``, ``roles``."""
    s, found = game.s, set()
    others = [p for p in range(4) if p != seat]
    for f in s.stack:
        if f.kind == "keep_battle" and f.seat != seat:
            found.add("keep_battle")
        elif _war_commits_hidden(f) and any(f.d.commits[p] >= 0 for p in others):
            found.add("war_commits")
        elif f.kind in COMMIT_FRAMES and not f.d.shown and any(f.d.commits[p] for p in others):
            found.add("first_edition_commits")
        elif f.kind == "conflict" and f.d.phase == ConflictPhase.REVEAL:
            if any(f.d.cards[p] or f.d.money[p] for p in others):
                found.add("conflict_contributions")
            if any(f.d.boosts[p] for p in others):
                found.add("counter_boosts")
    if any(s.folk_hands[p] for p in others):
        found.add("folk_heroes")
    if not s.roles_public and any(s.roles[p] >= 0 for p in others):
        found.add("roles")
    return found


def compare_determinizations(seed: int, config=None, every: int = 10) -> tuple[dict, list[str]]:
    """The native determinization against this one: play a random game (decisions drawn
    with ``random.Random(seed)``) on both engines and determinize it for every seat on
    both, from generators in the same state (half of them holding a buffered 32-bit
    half), at every ``every``-th decision and wherever a pending frame or a Role hides
    something. Returns (positions compared: ``"all"`` and per :func:`hidden_kinds`,
    the differences: the saves, legal decisions, generator states after, broken native
    invariants, each with its seed, decision and seat)."""
    import random

    from singapore_env.engine import Game
    from singapore_env.native import NativeGame, differences

    python, compiled = Game(seed, config, keep_text_log=False), NativeGame(seed, config)
    pick = random.Random(seed)
    counts: dict[str, int] = {"all": 0}
    bad = []
    while not python.is_over:
        step = python.s.decisions
        kinds = [hidden_kinds(python, seat) for seat in range(4)]
        if step % every == 0 or any(kinds[seat] - {"folk_heroes"} for seat in range(4)):
            for seat in range(4):
                gens = [np.random.default_rng([seed, step, seat]) for _ in range(2)]
                if step % 2:  # generators holding a buffered 32-bit half
                    for gen in gens:
                        gen.integers(6)
                world = determinize(compiled, seat, gens[1])
                why = differences(determinize(python, seat, gens[0]), world)
                if gens[0].bit_generator.state != gens[1].bit_generator.state:
                    why.append("generator state")
                if why:
                    bad.append(f"seed {seed}, decision {step}, seat {seat}: {', '.join(why)} differ")
                if world.broken_invariants():
                    bad.append(f"seed {seed}, decision {step}, seat {seat}: the native world "
                               f"breaks an invariant: {world.broken_invariants()}")
                counts["all"] += 1
                for kind in kinds[seat]:
                    counts[kind] = counts.get(kind, 0) + 1
        decision = pick.choice(python.legal_decisions())
        python.step(decision)
        compiled.step(decision)
    return counts, bad
