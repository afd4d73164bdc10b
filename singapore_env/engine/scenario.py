"""Build game situations by hand: for rule tests, card design and bug reports.

    g = Game(seed=0)
    give_tableau(g, 2, "sports_day", link=True)
    script_dice(g, [2, 1])          # the next dice show 2 then 1
    run_frame(g, Frame("influence", 2, n=4, pos=-1, asking=0, store_asked=0))

Every helper moves cards from wherever they are, so each card stays in exactly one
place (the engine's invariants keep holding).
"""

from __future__ import annotations

import numpy as np

from .state import Frame, Slot


def card_id(g, key: str, copy: int = 0) -> int:
    """The id of copy ``copy`` of the card with this key."""
    try:
        return g.c.by_key[key][copy]
    except (KeyError, IndexError):
        raise KeyError(f"no card {key!r} (copy {copy}) in the content") from None


def take(g, cid: int) -> int:
    """Remove a card from wherever it is (piles, hands, tableaux, attached)."""
    s = g.s
    piles = [s.market_deck, s.market_discard, s.population_deck, s.population_discard,
             s.event_deck, s.event_discard, *s.hands, *s.revealed, *s.battle_deck,
             *s.battle_discard, s.put_away, s.folk_deck, s.folk_discard, *s.folk_hands]
    for pile in piles:
        if cid in pile:
            pile.remove(cid)
            return cid
    if cid in s.market:
        s.market[s.market.index(cid)] = -1
        return cid
    if s.current_event == cid:
        s.current_event = -1
        return cid
    for row in s.tableau:
        for i, slot in enumerate(row):
            if cid in slot.pops:
                slot.pops.remove(cid)
                return cid
            if slot.card == cid:
                if i > 0 and row[i - 1].link:
                    row[i - 1].link = False
                del row[i]
                return cid
    return cid


def give_tableau(g, seat: int, key: str, link: bool = False, pops=(), copy: int = 0,
                 up: bool = True) -> Slot:
    """Append a card to a tableau (``link`` joins it to the next card appended)."""
    cid = take(g, card_id(g, key, copy))
    slot = Slot(cid, up=up, link=link, down="" if up else "closed")
    for p in pops:
        pkey, pcopy = (p, 0) if isinstance(p, str) else p
        slot.pops.append(take(g, card_id(g, pkey, pcopy)))
    g.s.tableau[seat].append(slot)
    return slot


def give_hand(g, seat: int, key: str, copy: int = 0) -> int:
    cid = take(g, card_id(g, key, copy))
    g.s.hands[seat].append(cid)
    return cid


def give_revealed(g, seat: int, key: str, copy: int = 0) -> int:
    cid = take(g, card_id(g, key, copy))
    g.s.revealed[seat].append(cid)
    return cid


def give_folk(g, seat: int, key: str) -> int:
    """Put a Folk Hero card (Simulation Mode) in a seat's Folk Hero hand."""
    cid = take(g, card_id(g, key))
    g.s.folk_hands[seat].append(cid)
    return cid


def put_on_top(g, pile: list, key: str, copy: int = 0) -> int:
    """Put a card on top of a deck (decks draw from the end of the list)."""
    cid = take(g, card_id(g, key, copy))
    pile.append(cid)
    return cid


def run_frame(g, frame: Frame) -> None:
    """Make ``frame`` the next thing that happens and run to the next decision."""
    g.s.stack.append(frame)
    g._run()


class ScriptedDice:
    """Stands in for the game's RNG: dice show the scripted faces (0, 1 or 2) in order,
    D4s (first edition) the scripted ``d4`` faces (1..4); shuffles still use the real
    generator."""

    def __init__(self, rng: np.random.Generator, faces: list[int], d4=()):
        self._rng = rng
        self.faces = list(faces)
        self.d4 = list(d4)

    def integers(self, low, high=None, size=None):
        """A die (the rules draw one at a time: ``integers(0, 6)`` for an 1819 die,
        ``integers(1, 5)`` for a D4) shows the next scripted face; any other draw
        goes to the real generator."""
        if (low, high, size) in ((0, 6, None), (1, 5, None)):
            script, unit = (self.faces, 2) if high == 6 else (self.d4, 1)
            if not script:
                raise AssertionError("the scenario ran out of scripted dice")
            return script.pop(0) * unit
        return self._rng.integers(low, high, size=size)

    def permutation(self, n):
        return self._rng.permutation(n)

    @property
    def bit_generator(self):
        return self._rng.bit_generator


def script_dice(g, faces: list[int], d4=()) -> ScriptedDice:
    """Script the next dice of ``g`` (1819 dice ``faces``, D4s ``d4``); returns the
    stand-in (check ``.faces`` and ``.d4`` are empty)."""
    stub = ScriptedDice(g.rng if not isinstance(g.rng, ScriptedDice) else g.rng._rng, faces,
                        d4)
    g.rng = stub
    return stub
