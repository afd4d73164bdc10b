"""The board as text, whole or as one seat may see it (replay, the env's render, the human
seat). Decisions in words are :mod:`singapore_env.engine.describe`."""

from __future__ import annotations

from .engine.content import FACTIONS, SEAT_NAMES
from .engine.describe import card_name


#: Short seat labels for per-seat lists (lieutenant_governor, resident, temenggong, sultan).
SEAT_LABELS = ("LG", "Res", "Tem", "Sul")


def per_seat(values) -> str:
    """Four per-seat numbers, labelled: ``LG 0 Res 1 Tem 0 Sul 2``."""
    return " ".join(f"{label} {v}" for label, v in zip(SEAT_LABELS, values))


def render_text(g, seat: int | None = None) -> str:
    """The board as text. With ``seat``, only what that seat may see (own hand)."""
    s, c, b = g.s, g.c, g.c.board
    rounds = g.cfg.event_i_cards + g.cfg.event_ii_cards + 1
    lines = [f"Round {s.round}/{rounds}  first player: {SEAT_NAMES[s.first_player]}  ships: {s.ships}"
             f"  treaty: {'Anglo-Dutch' if s.anglo_dutch else 'Singapore'}"
             f"  event: {card_name(g, s.current_event)}"]
    from .engine.query import multiplier, tax_totals
    tax, neutral = tax_totals(g)
    lines.append(f"Multiplier x{multiplier(g)}  Tax [{per_seat(tax)}] (+{neutral} neutral)  "
                 f"Public Works {len(s.pw_track)}  Storehouses B{s.storehouse[0]} "
                 f"M{s.storehouse[1]}  Population B{s.population[0]} M{s.population[1]}")
    cells = []
    for sp, name in enumerate(b.loop_ids):
        if b.loop_kind[sp] == "storehouse":
            cells.append(f"[{name}]")
        else:
            from .engine.query import district_open
            toks = s.districts[sp * 4: sp * 4 + 4]
            cells.append(f"{name}{'' if district_open(g, sp) else '(closed)'}:[{per_seat(toks)}]")
    lines.append("Loop: " + " -> ".join(cells))
    vices = [f"{v}{'*' if s.outlawed[i] >= 0 else ''}" for i, v in enumerate(b.vices)]
    lines.append("Vices (outlawed*): " + " ".join(vices))
    lines.append("Market: " + " | ".join(card_name(g, m) for m in s.market))
    for p in range(4):
        fac = FACTIONS[p // 2]
        row = s.tableau[p]
        parts = []
        for slot in row:
            name = c.defs[slot.card].name + ("" if slot.up else "(down)")
            if slot.pops:
                name += "+" + "+".join(c.defs[x].name for x in slot.pops)
            parts.append(name + (" =" if slot.link else " "))
        hand = (", ".join(c.defs[x].name for x in s.hands[p])
                if seat is None or seat == p else f"{len(s.hands[p])} cards")
        lines.append(f"{SEAT_NAMES[p]} ({fac}) VP {s.vp[p]} ${s.wealth[p]} hand: {hand}"
                     f" revealed: {[c.defs[x].name for x in s.revealed[p]]}"
                     + role_text(g, p, seat))
        lines.append("    tableau: " + " ".join(parts))
    if s.game_over:
        lines.append(f"Final VP: {s.final_vp}")
    elif s.stack:
        lines.append(f"Pending: {s.stack[-1].kind} by {SEAT_NAMES[s.stack[-1].seat]}")
    return "\n".join(lines)


def role_text(g, p: int, seat: int | None) -> str:
    """A ruleset with Roles (Simulation Mode): the seat's Role (another Raja's stays
    hidden until both are revealed), the veto, and its Folk Hero hand (hidden from the
    other seats)."""
    s, c = g.s, g.c
    if not g.ruleset.has_roles:
        return ""
    from .engine.query import ROLE_NAMES
    role = s.roles[p]
    if role < 0:
        text = ""
    elif s.roles_public or seat is None or seat == p:
        text = f" role: {ROLE_NAMES[role]}" + (" (Storehouse vetoed)" if s.vetoed[p] else "")
    else:
        text = " role: declared (hidden)"
    folk = s.folk_hands[p]
    if folk:
        shown = (", ".join(c.defs[x].name for x in folk) if seat is None or seat == p
                 else f"{len(folk)} cards")
        text += f" folk heroes: {shown}"
    return text
