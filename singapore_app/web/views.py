"""What one seat may see, as JSON: the board, its own hand, the pending question and
its legal answers in words.

Every view is built for one viewer (a seat, or ``None`` for a spectator) from that
viewer's perspective only: other seats' hands and Folk Hero hands are counts, a hidden
Role stays hidden (:func:`singapore_env.render.role_text`), face-down War and Conflict
commitments are not read, and only the acting seat is given the legal answers. The
words come from :mod:`singapore_env.words` (card text, places, questions, answers);
legality is the engine's.
"""

from __future__ import annotations

from singapore_env.engine.content import FACTIONS, SEAT_NAMES
from singapore_env.engine.decisions import Kind
from singapore_env.engine.state import VP_SOURCES
from singapore_env.render import role_text

from singapore_env.words import (card_words, decision_words, leader_space_name,
                                 question_words, round_rule_words, seat_words, space_name)

#: Frames that are a War, a Conflict or a Raid in progress (their public parts shown).
_IN_PROGRESS = {"war": "War", "war_fe": "War", "conflict": "Conflict", "raid": "Raid",
                "raid_fe": "Raid"}


def card(g, cid: int) -> dict | None:
    """A card as name and text (None for no card)."""
    if cid < 0:
        return None
    cdef = g.c.defs[cid]
    return {"name": cdef.name, "text": card_words(cdef)}


def board(g, viewer: int | None) -> dict:
    """The board as ``viewer`` may see it (``None``: a spectator, no hand shown)."""
    from singapore_env.engine.query import district_open, market_price, multiplier, tax_totals

    s, c, b = g.s, g.c, g.c.board
    tax, neutral = tax_totals(g)
    loop = []
    for sp, name in enumerate(b.loop_ids):
        district = b.loop_kind[sp] != "storehouse"
        loop.append({"name": name, "kind": b.loop_kind[sp], "title": space_name(g, sp),
                     "faction": FACTIONS[b.loop_faction[sp]],
                     "open": district and district_open(g, sp),
                     "tokens": s.districts[sp * 4: sp * 4 + 4] if district else None})
    market = []
    for slot, cid in enumerate(s.market):
        entry = card(g, cid)
        if entry is not None:
            mine = viewer is not None and not g.is_over
            # a seat sees its own price; a spectator the printed (British, Malay) prices
            entry["price"] = (market_price(g, viewer, cid)[0] if mine
                              else dict(zip(FACTIONS, c.defs[cid].price)))
            entry["slot"] = slot
        market.append(entry)
    return {
        "round": s.round, "rounds": g.cfg.event_i_cards + g.cfg.event_ii_cards + 1,
        "first_player": SEAT_NAMES[s.first_player], "ships": s.ships,
        "treaty": "Anglo-Dutch" if s.anglo_dutch else "Singapore",
        "event": card(g, s.current_event), "events_left": len(s.event_deck),
        "modifiers": [round_rule_words(kind, n) for kind, n in s.modifiers],
        "multiplier": multiplier(g), "tax": tax, "neutral_tax": neutral,
        "public_works": [SEAT_NAMES[p] for p in s.pw_track],
        "storehouse": dict(zip(FACTIONS, s.storehouse)),
        "population": dict(zip(FACTIONS, s.population)),
        "loop": loop,
        "vices": [{"name": v, "outlawed_by": SEAT_NAMES[s.outlawed[i]] if s.outlawed[i] >= 0
                   else None} for i, v in enumerate(b.vices)],
        "market": market,
        "decks": {"market": len(s.market_deck), "population": len(s.population_deck),
                  "battle": dict(zip(FACTIONS, map(len, s.battle_deck)))},
        "players": [_player(g, p, viewer) for p in range(4)],
        "in_progress": in_progress(g),
        "pending": ({"kind": g.pending.kind, "seat": SEAT_NAMES[g.pending.seat]}
                    if g.pending is not None else None),
        "leader_spaces": [{"name": leader_space_name(g, i), "action": action,
                           "leader": SEAT_NAMES[s.leader_space[i]] if s.leader_space[i] >= 0
                           else None} for i, action in enumerate(b.leader_spaces)],
        "influence": influence_marker(g),
        "final_vp": list(s.final_vp), "winners": [SEAT_NAMES[p] for p in g.winners],
        "final": final_scores(g),
    }


def influence_marker(g) -> dict | None:
    """Where an Influence placement in progress stands: the loop space of the marker
    (None before the start is chosen), its seat and the tokens still to place."""
    for f in reversed(g.s.stack):
        if f.kind == "influence":
            return {"space": f.d.pos if f.d.pos >= 0 else None, "seat": SEAT_NAMES[f.seat],
                    "left": f.d.n}
    return None


def final_scores(g) -> list[dict] | None:
    """After final scoring, each seat's VP track, Legacies, End Game bonuses and total
    (None before the game is over)."""
    if not g.is_over:
        return None
    from singapore_env.engine.query import legacy_vp

    out = []
    for p in range(4):
        track, legacy, total = g.s.vp[p], legacy_vp(g, p), g.s.final_vp[p]
        out.append({"seat": SEAT_NAMES[p], "track": track, "legacies": legacy,
                    "end_game": total - track - legacy, "total": total,
                    "won": p in g.winners})
    return out


def _player(g, p: int, viewer: int | None) -> dict:
    s, c = g.s, g.c
    tableau = []
    for i, slot in enumerate(s.tableau[p]):
        entry = card(g, slot.card) | {
            "pos": i, "up": slot.up, "down": slot.down, "link": slot.link,
            "stored": slot.stored, "pops": [c.defs[x].name for x in slot.pops]}
        tableau.append(entry)
    own = viewer == p
    return {"seat": SEAT_NAMES[p], "faction": FACTIONS[p // 2], "vp": s.vp[p],
            "wealth": s.wealth[p], "hand_count": len(s.hands[p]),
            "hand": [card(g, x) for x in s.hands[p]] if own else None,
            "revealed": [card(g, x) for x in s.revealed[p]], "tableau": tableau,
            "role": role_text(g, p, -1 if viewer is None else viewer).strip(),
            "wars_won": s.wars_won[p],
            "vp_sources": dict(zip(VP_SOURCES, s.vp_sources[p]))}


def in_progress(g) -> list[str]:
    """A War, Conflict or Raid in progress, in public words (who against whom)."""
    out = []
    for f in g.s.stack:
        name = _IN_PROGRESS.get(f.kind)
        if name is None:
            continue
        who = seat_words(f.seat) if 0 <= f.seat < 4 else "all players"
        defender = getattr(f.d, "defender", -1)
        against = f" against {seat_words(defender)}" if 0 <= defender < 4 else ""
        out.append(f"{name} in progress: {who}{against}")
    return out


def answers(g) -> list[dict]:
    """The acting seat's legal answers: index, words, the decision, and the card it
    names (if any)."""
    return [{"index": i, "text": decision_words(g, d), "decision": [int(d.kind), int(d.arg)],
             "card": answer_card(g, d)} for i, d in enumerate(g.legal_decisions())]


def answer_card(g, d) -> dict | None:
    """The card a decision of the acting seat names (bought, kept, committed...)."""
    f, s = g.pending, g.s
    k, a = d.kind, d.arg
    try:
        if k == Kind.BUY_MARKET:
            return card(g, s.market[a])
        if k == Kind.KEEP_BATTLE and f.kind == "keep_battle":
            return card(g, f.d.cards[a])
        if k == Kind.CHOOSE and f.kind == "search_pick":
            return card(g, f.d.options[a])
        if k in (Kind.REVEAL, Kind.COMMIT) and a < len(s.hands[f.seat]):
            return card(g, s.hands[f.seat][a])
        if k == Kind.FOLK_HERO:
            return card(g, s.folk_hands[f.seat][a])
        if k in (Kind.ACTIVATE, Kind.REBUILD, Kind.SEARCH, Kind.CLOSE, Kind.ATTACH_POP,
                 Kind.DISCARD_POP) or (k == Kind.DISCARD_CARD and f.kind != "fe_plunder"):
            return card(g, s.tableau[f.seat][a].card)
    except (IndexError, KeyError, TypeError, AttributeError):
        return None
    return None


def question(g, seat: int) -> dict | None:
    """The pending question if ``seat`` is to answer it (else None)."""
    if g.is_over or g.acting_seat != seat:
        return None
    return {"kind": g.pending.kind, "text": question_words(g), "answers": answers(g)}


def winners_words(g) -> str:
    """Who won, in words: "the Temenggong won", "the Resident and the Sultan won"."""
    return " and ".join(f"the {seat_words(p)}" for p in g.winners) + " won"


def headline(table) -> str:
    """One line on where a table's game stands, for lists and the page's header."""
    g = table.game
    if g.is_over:
        return f"game over: {winners_words(g)}"
    if table.stopped:
        return f"stopped by its creator in round {g.s.round}"
    if table.error:
        return f"stopped in round {g.s.round}: an agent failed"
    return f"round {g.s.round}, the {seat_words(g.acting_seat)} to decide"


def agent_failed(table, seat: int, exc: BaseException) -> str:
    """Why a table's agents stopped, in the players' words: whose agent, which one, and
    the failure's own words (never a traceback)."""
    said = str(exc).strip() or type(exc).__name__
    return (f"the {seat_words(seat)}'s agent ({table.seats[seat]}) failed: {said[:200]}. "
            f"The game cannot go on; its creator can stop or delete it")

