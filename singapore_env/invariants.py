"""Consistency checks on a game state (used by tests and when loading a saved game)."""

from __future__ import annotations

from collections import Counter

from .rules.raid_first_edition import COMMIT_FRAMES
from .state import FINAL_ONLY_SOURCES, VP_SOURCES


class InvariantError(AssertionError):
    """The state breaks a rule that always holds."""


def _limbo_cards(s) -> list[int]:
    """Cards held by pending frames (drawn but not yet placed, committed to a War...)."""
    out = []
    for f in s.stack:
        d = f.d
        if f.kind in ("attach_pop", "place_card"):
            out.append(d["card"])
        elif f.kind == "keep_battle":
            out.extend(d["cards"])
        elif f.kind == "war":
            out.extend(c for c in d["commits"] if c >= 0)
        elif f.kind in COMMIT_FRAMES:  # first edition: committed cards per seat
            for cards in d["commits"]:
                out.extend(cards)
    return out


def card_locations(g) -> Counter:
    s = g.s
    seen: Counter = Counter()
    for pile in (s.market, s.market_deck, s.market_discard, s.population_deck,
                 s.population_discard, s.event_deck, s.event_discard, *s.hands, *s.revealed,
                 *s.battle_deck, *s.battle_discard, _limbo_cards(s), s.put_away, s.folk_deck,
                 s.folk_discard, *s.folk_hands):
        seen.update(c for c in pile if c >= 0)
    if s.current_event >= 0:
        seen[s.current_event] += 1
    for row in s.tableau:
        for slot in row:
            seen[slot.card] += 1
            seen.update(slot.pops)
    return seen


def check_invariants(g) -> None:
    """Raise InvariantError naming the first broken invariant."""
    s, c = g.s, g.c

    def need(ok: bool, what: str) -> None:
        if not ok:
            raise InvariantError(what)

    need(len(s.wealth) == 4 and all(w >= 0 for w in s.wealth), f"wealth {s.wealth}")
    need(len(s.vp) == 4, "vp has 4 seats")
    need(len(s.vp_sources) == 4 and all(len(row) == len(VP_SOURCES) for row in s.vp_sources),
         f"vp_sources has 4 seats of {len(VP_SOURCES)} sources")
    track = [sum(v for name, v in zip(VP_SOURCES, row) if name not in FINAL_ONLY_SOURCES)
             for row in s.vp_sources]
    need(track == s.vp, f"the VP track {s.vp} is not the sum of its sources {track}")
    need(not s.final_vp or [sum(row) for row in s.vp_sources] == s.final_vp,
         f"final VP {s.final_vp} is not the sum of the VP sources")
    need(len(s.storehouse) == 2 and all(x >= 0 for x in s.storehouse),
         f"storehouses {s.storehouse}")
    need(all(0 <= p <= c.board.max_population for p in s.population),
         f"population {s.population}")
    need(0 <= s.ships <= c.board.max_ships, f"ships {s.ships}")
    need(len(s.districts) == 4 * len(c.board.loop_ids) and all(x >= 0 for x in s.districts),
         "district tokens")
    need(all(0 <= p < 4 for p in s.pw_track), "public works owners")
    need(all(-1 <= p < 4 for p in s.leader_space), "leader spaces")
    need(len(s.outlawed) == len(c.board.vices) and all(-1 <= p < 4 for p in s.outlawed),
         "outlawed vices")
    need(len(s.market) == g.cfg.market_slots, "market slots")
    need(len(s.tableau) == 4 and len(s.hands) == 4 and len(s.revealed) == 4, "seat lists")
    n = len(c.defs)
    seen = card_locations(g)
    need(all(0 <= cid < n for cid in seen), "card ids in range")
    dupes = [c.defs[cid].key for cid, k in seen.items() if k > 1]
    need(not dupes, f"cards in two places: {dupes}")
    expected = set(c.market_ids) | set(c.leader_ids) | set(c.battle_ids[0]) \
        | set(c.battle_ids[1]) | set(c.population_ids)
    if g.cfg.ruleset == "simulation":
        expected |= set(c.folk_ids)
    missing = [c.defs[cid].key for cid in expected if cid not in seen]
    need(not missing, f"cards lost: {missing}")
    events = set(c.event_ids["I"]) | set(c.event_ids["II"])
    need(all(cid in expected or cid in events for cid in seen), "unknown card in play")
    for seat, row in enumerate(s.tableau):
        for slot in row:
            cdef = c.defs[slot.card]
            need(cdef.category in ("market", "leader"), f"{cdef.key} cannot be in a tableau")
            need(len(slot.pops) <= cdef.pop_slots, f"{cdef.key} holds too many Population")
            need(all(c.defs[p].category == "population" for p in slot.pops),
                 "non-population card attached")
        for cid in s.hands[seat] + s.revealed[seat]:
            need(c.defs[cid].category == "battle", "non-battle card in hand")
        need(all(c.defs[cid].category == "folk_hero" for cid in s.folk_hands[seat]),
             "non-Folk-Hero card in a Folk Hero hand")
    _check_roles(g, need)
    for f in s.stack:
        if f.kind == "conflict":
            for seat, cards in enumerate(f.d["cards"]):
                held = s.hands[seat] + s.revealed[seat]
                need(all(card in held for card in cards) and len(set(cards)) == len(cards),
                     "a Conflict contribution is not a card its player holds")
    if not s.game_over:
        need(bool(s.stack), "a running game has pending work")
        need(0 <= s.stack[-1].seat < 4, "the pending decision has a seat")


def _check_roles(g, need) -> None:
    """Simulation Mode: Roles only after the Anglo-Dutch Treaty, Rajas Ally or Leader,
    Agents Rulers once revealed, a veto only on a Colonial Ally."""
    s = g.s
    need(len(s.roles) == 4 and len(s.vetoed) == 4 and len(s.folk_hands) == 4,
         "role lists have 4 seats")
    need(all(r in (-1, 0, 1, 2) for r in s.roles), f"roles {s.roles}")
    need(s.anglo_dutch or s.roles == [-1] * 4, "roles declared before the Anglo-Dutch Treaty")
    if s.roles_public:
        need(s.roles[:2] == [2, 2] and all(r in (0, 1) for r in s.roles[2:]),
             f"revealed roles {s.roles}")
    else:
        need(s.roles[:2] == [-1, -1], "Colonial Rulers before the Roles are revealed")
    need(all(not v or s.roles[p] == 0 for p, v in enumerate(s.vetoed)),
         f"a veto on a seat that is not a Colonial Ally: {s.vetoed}")
