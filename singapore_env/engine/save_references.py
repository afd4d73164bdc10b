"""The references of a saved game's pending frames, checked against its state.

:mod:`~singapore_env.engine.save_validation` checks each frame's shape (its kind, seat
and the type and range of its data); this module checks what a frame refers to, in the
rule's own terms: the card a ``connect`` frame connects is in that seat's tableau (or
placed by the ``place_card`` frame right above it), a ``reroll`` frame's card is the
seat's own and has a re-roll boost, a seat asked a ``hinder`` question holds an unused
raid-hinder boost, an Event's effects are no seat's and a card's are its owner's, a
War's victor, loser and allies are its fighters and their mates (and its spoils are
asked once it has a victor), a ``fund_close`` token is on the Public Works track and
the seat's, a Leader space, a vice or a loop space is on the board, a searched card is
in the Market deck (``docs/state-format.md`` lists them all). Both engines load
through these checks, so neither follows a reference that leads nowhere.
"""

from __future__ import annotations

from types import SimpleNamespace

from .rules.base import mate
from .rules.influence import N_LOOP
from .rules.raid import once_per_round_boost


def frame_reference_problem(s, c, cfg) -> str | None:
    """What a pending frame of state ``s`` (content ``c``, config ``cfg``) refers to
    that is not there, naming the frame and its field (None if nothing)."""
    table = SimpleNamespace(s=s, c=c, cfg=cfg)  # what the rules' helpers read of a game
    stack = s.stack
    for i, f in enumerate(stack):
        check = _CHECKS.get(f.kind)
        if check is None:
            continue
        problem = check(table, stack, i, f)
        if problem:
            return f"stack[{i}] {f.kind}.{problem}"
    return None


def _name(c, card: int) -> str:
    return c.defs[card].name


def _place_card(g, stack, i, f) -> str | None:
    below = stack[i - 1] if i else None
    if below is None or below.kind != "connect" or below.seat != f.seat \
            or below.d.card != f.d.card:
        return (f"d.card: {_name(g.c, f.d.card)} is placed without its connect frame "
                f"(seat {f.seat}, the same card) right below")
    return None


def _connect(g, stack, i, f) -> str | None:
    above = stack[i + 1] if i + 1 < len(stack) else None
    if above is not None and above.kind == "place_card":
        return None  # (checked from the place_card frame)
    if all(slot.card != f.d.card for slot in g.s.tableau[f.seat]):
        return (f"d.card: {_name(g.c, f.d.card)} is not in seat {f.seat}'s tableau (nor "
                f"placed by a place_card frame right above)")
    return None


def _effects(g, stack, i, f) -> str | None:
    event = g.c.defs[f.d.card].category == "event"
    if event != (f.seat < 0):
        return (f"seat {f.seat}: an Event's effects are no seat's (-1), a card's are its "
                f"owner's ({_name(g.c, f.d.card)})")
    return None


def _search_pick(g, stack, i, f) -> str | None:
    options = f.d.options
    if sum(p.kind == "search_pick" for p in stack) > 1:
        return "kind: one search is chosen at a time"
    if len(set(options)) != len(options) or not set(options) <= set(g.s.market_deck):
        return "d.options: the searched cards are distinct cards of the Market deck"
    return None


def _influence(g, stack, i, f) -> str | None:
    if not -1 <= f.d.pos < N_LOOP:
        return f"d.pos {f.d.pos}: the loop has spaces 0..{N_LOOP - 1} (-1 before the start)"
    if f.d.asking and (f.d.pos < 0 or g.c.board.loop_kind[f.d.pos] != "storehouse"
                       or f.d.n < 1):
        return (f"d.asking: a seat is asked to drop a token ({f.d.n} left) only on a "
                f"Storehouse space (d.pos {f.d.pos})")
    return None


def _fund_close(g, stack, i, f) -> str | None:
    track = g.s.pw_track
    if f.d.index >= len(track):
        return (f"d.index {f.d.index}: past the Public Works track "
                f"({len(track)} tokens)")
    if track[f.d.index] != f.seat:
        return (f"d.index {f.d.index}: that Public Works token is seat "
                f"{track[f.d.index]}'s, not seat {f.seat}'s")
    below = next((p for p in reversed(stack[:i]) if p.kind == "fund_close"), None)
    if below is not None and below.d.index >= f.d.index:
        return (f"d.index {f.d.index}: the tokens are settled newest first (the frame below "
                f"settles index {below.d.index})")
    return None


def _leader_action(g, stack, i, f) -> str | None:
    if f.d.space >= len(g.c.board.leader_spaces):
        return (f"d.space {f.d.space}: the board has Leader spaces "
                f"0..{len(g.c.board.leader_spaces) - 1}")
    return None


def _vice(g, stack, i, f) -> str | None:
    if f.d.vice >= len(g.c.board.vices):
        return f"d.vice {f.d.vice}: the board has vices 0..{len(g.c.board.vices) - 1}"
    if f.kind == "veto":
        decree = next((p for p in reversed(stack[:i]) if p.kind == "decree"), None)
        if decree is not None and decree.d.vice != f.d.vice:
            return f"d.vice {f.d.vice}: the Decree below is on vice {decree.d.vice}"
    return None


def _hinder(g, stack, i, f) -> str | None:
    parent = "raid" if f.kind == "hinder" else "raid_fe"
    raid = next((p for p in reversed(stack[:i]) if p.kind == parent), None)
    if raid is not None and raid.seat == f.seat:
        return f"seat {f.seat}: the raider is not asked to hinder its own Raid"
    if sum(p.kind == f.kind and p.seat == f.seat for p in stack) > 1:
        return f"seat {f.seat}: a seat is asked to hinder a Raid once"
    if once_per_round_boost(g, f.seat, "raid_hinder")[0] is None:
        return f"seat {f.seat}: the seat holds no unused raid-hinder boost"
    return None


def _reroll(g, stack, i, f) -> str | None:
    card = f.d.card
    if g.c.defs[card].boost("reroll") is None:
        return f"d.card: {_name(g.c, card)} has no re-roll boost"
    held = card in g.s.revealed[f.seat] or any(
        slot.card == card and slot.up for slot in g.s.tableau[f.seat])
    if not held:
        return (f"d.card: {_name(g.c, card)} is neither face up in seat {f.seat}'s "
                f"tableau nor among its revealed cards")
    return None


def _war(g, stack, i, f) -> str | None:
    d, fighters = f.d, (f.seat, f.d.defender)
    if d.victor >= 0 and {d.victor, d.loser} != set(fighters):
        return (f"d.victor {d.victor}, d.loser {d.loser}: the victor and the loser are the "
                f"attacker (seat {f.seat}) and the defender (seat {d.defender})")
    allies = getattr(d, "allies", ())
    for side, ally in enumerate(allies):
        if ally >= 0 and (ally != mate(fighters[side]) or ally in fighters):
            return (f"d.allies[{side}] {ally}: an ally is the mate of its side's fighter "
                    f"(seat {fighters[side]}) and no fighter")
    if getattr(d, "share", -1) >= 0 and (d.victor < 0 or allies[fighters.index(d.victor)] < 0):
        return "d.share: a share of the spoils goes to the victor's ally, once there is one"
    return None


def _keep_battle(g, stack, i, f) -> str | None:
    if len(f.d.cards) != 2:
        return f"d.cards: two Battle cards are drawn to keep one, got {len(f.d.cards)}"
    return None


def _conflict(g, stack, i, f) -> str | None:
    for seat, cards in enumerate(f.d.boosts):
        for card in cards:
            if g.c.defs[card].boost("counter_bonus") is None:
                return f"d.boosts[{seat}]: {_name(g.c, card)} has no counter boost"
    return None


def _after_the_battle(g, stack, i, f) -> str | None:
    parent = "war_fe" if f.kind.startswith("fe_") else "war"
    war = next((p for p in reversed(stack[:i]) if p.kind == parent), None)
    if war is not None and war.d.victor < 0:
        return f"kind: the {parent} frame below has no victor yet"
    return None


#: Frame kind -> the check of what its frames refer to: (game-like table, stack, index,
#: frame) -> the field and what is wrong with it, or None.
_CHECKS = {"place_card": _place_card, "connect": _connect, "search_pick": _search_pick,
           "influence": _influence, "fund_close": _fund_close,
           "leader_action": _leader_action, "decree": _vice, "veto": _vice,
           "hinder": _hinder, "fe_hinder": _hinder, "reroll": _reroll,
           "effects": _effects, "war": _war, "war_fe": _war, "keep_battle": _keep_battle,
           "conflict": _conflict, "spoils": _after_the_battle, "ally_pay": _after_the_battle,
           "share": _after_the_battle, "fe_donate": _after_the_battle,
           "fe_plunder": _after_the_battle}
