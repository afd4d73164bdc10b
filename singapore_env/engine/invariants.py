"""Consistency checks on a game state (used by tests and when loading a saved game).

Loading a save runs them on every load, so they test whole lists at once (min/max, set
inclusion) and build a message only for the invariant that is broken.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from itertools import chain
from operator import attrgetter, itemgetter, le

from .rules.raid_first_edition import COMMIT_FRAMES
from .state import FINAL_ONLY_SOURCES, VP_SOURCES

#: The VP of a row of ``vp_sources`` that are on the VP track (not end-of-game ones).
_ON_TRACK = itemgetter(*[i for i, name in enumerate(VP_SOURCES)
                         if name not in FINAL_ONLY_SOURCES])


class InvariantError(AssertionError):
    """The state breaks a rule that always holds."""


def _limbo_cards(s) -> list[int]:
    """Cards held by pending frames (drawn but not yet placed, committed to a War...)."""
    out = []
    for f in s.stack:
        d = f.d
        if f.kind in ("attach_pop", "place_card"):
            out.append(d.card)
        elif f.kind == "keep_battle":
            out.extend(d.cards)
        elif f.kind == "war":
            out.extend(c for c in d.commits if c >= 0)
        elif f.kind in COMMIT_FRAMES:  # first edition: committed cards per seat
            for cards in d.commits:
                out.extend(cards)
    return out


def _held_cards(s) -> list[int]:
    """Every card in play, once per place it is in: the piles (without their -1 empty
    slots), the current Event, then each tableau card followed by its Population."""
    held = [*s.market, *s.market_deck, *s.market_discard, *s.population_deck,
            *s.population_discard, *s.event_deck, *s.event_discard]
    for piles in (s.hands, s.revealed, s.battle_deck, s.battle_discard):
        for pile in piles:
            held += pile
    held += _limbo_cards(s)
    held += s.put_away
    held += s.folk_deck
    held += s.folk_discard
    for pile in s.folk_hands:
        held += pile
    if held and min(held) < 0:
        held = [c for c in held if c >= 0]
    if s.current_event >= 0:
        held.append(s.current_event)
    for row in s.tableau:
        for slot in row:
            held.append(slot.card)
            held += slot.pops
    return held


def _within(xs: Collection[int], lo: int, hi: int) -> bool:
    """Whether every entry of ``xs`` is in ``lo..hi``."""
    return not xs or (lo <= min(xs) and max(xs) <= hi)


def check_invariants(g, validated: bool = False) -> None:
    """Raise InvariantError naming the first broken invariant. ``validated``: the state
    passed save validation (:func:`singapore_env.engine.save_validation.state_from_dict`), which
    checks the size and range of every field and the kind of every card in each place,
    so only what it does not check is tested."""
    _check_counters(g, validated)
    _check_cards(g, validated)
    _check_roles(g)
    _check_stack(g)


def _need(ok: bool, what: str) -> None:
    """Raise InvariantError(what) unless ``ok`` (a message that shows values is built
    only once a check has failed, by the caller)."""
    if not ok:
        raise InvariantError(what)


def _check_counters(g, validated: bool) -> None:
    """Money, VP, tokens, ships and the board's lists have their sizes and ranges
    (unless ``validated``), and the VP add up to their sources."""
    s = g.s
    if not validated:
        if not (len(s.wealth) == 4 and min(s.wealth) >= 0):
            raise InvariantError(f"wealth {s.wealth}")
        _need(len(s.vp) == 4, "vp has 4 seats")
        _need(len(s.vp_sources) == 4
              and all(len(row) == len(VP_SOURCES) for row in s.vp_sources),
              f"vp_sources has 4 seats of {len(VP_SOURCES)} sources")
    track = [sum(_ON_TRACK(row)) for row in s.vp_sources]
    if track != s.vp:
        raise InvariantError(f"the VP track {s.vp} is not the sum of its sources {track}")
    if s.final_vp and [sum(row) for row in s.vp_sources] != s.final_vp:
        raise InvariantError(f"final VP {s.final_vp} is not the sum of the VP sources")
    if not validated:
        _check_board_counters(g)


def _check_board_counters(g) -> None:
    """Storehouses, Population, ships, tokens and the board's lists are in range."""
    s, board, need = g.s, g.c.board, _need
    if not (len(s.storehouse) == 2 and min(s.storehouse) >= 0):
        raise InvariantError(f"storehouses {s.storehouse}")
    if not _within(s.population, 0, board.max_population):
        raise InvariantError(f"population {s.population}")
    if not 0 <= s.ships <= board.max_ships:
        raise InvariantError(f"ships {s.ships}")
    need(len(s.districts) == 4 * len(board.loop_ids) and min(s.districts, default=0) >= 0,
         "district tokens")
    need(_within(s.pw_track, 0, 3), "public works owners")
    need(_within(s.leader_space, -1, 3), "leader spaces")
    need(len(s.outlawed) == len(board.vices) and _within(s.outlawed, -1, 3), "outlawed vices")
    need(len(s.market) == g.cfg.market_slots, "market slots")
    need(len(s.tableau) == 4 and len(s.hands) == 4 and len(s.revealed) == 4, "seat lists")


def _check_cards(g, validated: bool) -> None:
    """Every card of the game is in exactly one place, and each place holds its kind
    (that and the card ids' range are not tested again if ``validated``)."""
    s, c = g.s, g.c
    held = _held_cards(s)
    seen = set(held)
    _need(validated or _within(seen, 0, len(c.defs) - 1), "card ids in range")
    if len(seen) != len(held):
        dupes = [c.defs[cid].key for cid, k in Counter(held).items() if k > 1]
        raise InvariantError(f"cards in two places: {dupes}")
    ids = _card_ids(c, g.ruleset.has_roles)
    if not seen >= ids["expected"]:
        missing = [c.defs[cid].key for cid in ids["expected"] if cid not in seen]
        raise InvariantError(f"cards lost: {missing}")
    _need(seen <= ids["known"], "unknown card in play")
    if not (validated or _places_fit(s, ids, c.pop_slots)):
        _check_places(g, ids)


def _places_fit(s, ids: dict, pop_slots: tuple[int, ...]) -> bool:
    """Whether the tableaux hold Market and Leader cards with the Population they take
    (``pop_slots`` by card id), and the hands their kind of card (tested over every seat
    at once)."""
    slots = [*chain.from_iterable(s.tableau)]
    cards = [*map(attrgetter("card"), slots)]
    pops = [*map(attrgetter("pops"), slots)]
    return (ids["tableau"].issuperset(cards)
            and all(map(le, map(len, pops), map(pop_slots.__getitem__, cards)))
            and ids["population"].issuperset(chain.from_iterable(pops))
            and ids["battle"].issuperset(chain(*s.hands, *s.revealed))
            and len(s.folk_hands) >= len(s.tableau)
            and ids["folk_hero"].issuperset(chain.from_iterable(s.folk_hands)))


def _check_places(g, ids: dict) -> None:
    """Raise InvariantError naming the first seat whose tableau or hands hold a card
    that does not belong there (:func:`_places_fit` failed)."""
    s, c = g.s, g.c
    for seat, row in enumerate(s.tableau):
        for slot in row:
            cdef = c.defs[slot.card]
            if slot.card not in ids["tableau"]:
                raise InvariantError(f"{cdef.key} cannot be in a tableau")
            if len(slot.pops) > cdef.pop_slots:
                raise InvariantError(f"{cdef.key} holds too many Population")
            _need(ids["population"].issuperset(slot.pops), "non-population card attached")
        _need(ids["battle"].issuperset(s.hands[seat] + s.revealed[seat]),
              "non-battle card in hand")
        _need(ids["folk_hero"].issuperset(s.folk_hands[seat]),
              "non-Folk-Hero card in a Folk Hero hand")


#: (id of a content, Folk Heroes in play?) -> (the content, its card-id sets).
_CARD_IDS: dict[tuple[int, bool], tuple] = {}


def _card_ids(c, folk_heroes: bool) -> dict:
    """Card ids of content ``c`` by role, computed once per content and ruleset:
    ``expected`` (every card that is always in play: the Folk Heroes too in a ruleset
    with Roles), ``known`` (those and the Events), ``tableau`` (Market and Leader
    cards) and the content's set of each category."""
    hit = _CARD_IDS.get((id(c), folk_heroes))
    if hit is None:
        if len(_CARD_IDS) >= 16:
            _CARD_IDS.clear()
        expected = set(c.market_ids) | set(c.leader_ids) | set(c.battle_ids[0]) \
            | set(c.battle_ids[1]) | set(c.population_ids)
        if folk_heroes:
            expected |= set(c.folk_ids)
        by_category = c.category_ids
        ids = {"expected": expected,
               "known": expected | set(c.event_ids["I"]) | set(c.event_ids["II"]),
               "tableau": by_category["market"] | by_category["leader"], **by_category}
        hit = _CARD_IDS[id(c), folk_heroes] = (c, ids)  # (holding c keeps its id its own)
    return hit[1]


def _check_roles(g) -> None:
    """Simulation Mode: Roles only after the Anglo-Dutch Treaty, Rajas Ally or Leader,
    Agents Rulers once revealed, a veto only on a Colonial Ally."""
    s = g.s
    _need(len(s.roles) == 4 and len(s.vetoed) == 4 and len(s.folk_hands) == 4,
          "role lists have 4 seats")
    if not all(r in (-1, 0, 1, 2) for r in s.roles):
        raise InvariantError(f"roles {s.roles}")
    _need(s.anglo_dutch or s.roles == [-1] * 4, "roles declared before the Anglo-Dutch Treaty")
    if s.roles_public:
        if not (s.roles[:2] == [2, 2] and all(r in (0, 1) for r in s.roles[2:])):
            raise InvariantError(f"revealed roles {s.roles}")
    else:
        _need(s.roles[:2] == [-1, -1], "Colonial Rulers before the Roles are revealed")
    if not all(not v or s.roles[p] == 0 for p, v in enumerate(s.vetoed)):
        raise InvariantError(f"a veto on a seat that is not a Colonial Ally: {s.vetoed}")


def _check_stack(g) -> None:
    """Conflict contributions are held cards; a running game has a decision pending."""
    s = g.s
    for f in s.stack:
        if f.kind == "conflict":
            for seat, cards in enumerate(f.d.cards):
                held = s.hands[seat] + s.revealed[seat]
                _need(all(card in held for card in cards) and len(set(cards)) == len(cards),
                      "a Conflict contribution is not a card its player holds")
    if not s.game_over:
        _need(bool(s.stack), "a running game has pending work")
        _need(0 <= s.stack[-1].seat < 4, "the pending decision has a seat")
