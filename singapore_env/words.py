"""The game in words for people: card text written from the content data's effect
records (as a rulebook puts it), places on the board by name, and the pending question
naming the place it is about (a district, a Storehouse, a Leader space, a card, a War).

Shared by every human interface (the terminal seat, the web app); it reads the engine
only. Decisions are the engine's :func:`singapore_env.engine.describe.describe`, with
their place named and their cards by name, Market slots counted from 1
(:func:`decision_words`).

    card_words(game.c.defs[cid])     # "Instant: 2 Influence. End of game: 2 VP."
    question_words(game)             # "Drop an Influence token on the British Storehouse?"
"""

from __future__ import annotations

import re
from types import MappingProxyType

from singapore_env.engine.content import FACTIONS, SEAT_NAMES
from singapore_env.engine.content_defs import Effect
from singapore_env.engine.decisions import Kind
from singapore_env.engine.describe import HIDDEN_ANSWERS, describe

_FACTION = {"british": "British", "malay": "Malay"}


#: The seats as players name them (``SEAT_NAMES`` are the identifiers).
SEAT_WORDS = ("Lieutenant-Governor", "Resident", "Temenggong", "Sultan")


_SEAT_ID = re.compile(r"\b(" + "|".join(SEAT_NAMES) + r")\b")


def seat_words(p: int) -> str:
    """Seat ``p`` as players name it (``Lieutenant-Governor``)."""
    return SEAT_WORDS[p]


def _n(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1 (``2 Battle cards``)."""
    n = abs(n)
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _more(n: int, what: str, unit: str = "") -> str:
    return f"{what} {unit}{abs(n)} {'more' if n >= 0 else 'less'}"


def _amount(n: int, per_pop: int, dice: int = 0, unit: str = "$") -> str:
    """``n + dice x 1D + per_pop x attached Population cards`` in words."""
    def money(k: int) -> str:
        return f"${k}" if unit == "$" else f"{k} {unit}"
    terms = [money(n)] if n else []
    if dice:
        terms.append(f"{dice}D" + (" dollars" if unit == "$" else f" {unit}"))
    if per_pop:
        terms.append(f"{money(per_pop)} per Population card attached")
    return " + ".join(terms) or money(0)


def _wealth(e) -> str:
    n, per, dice = e["n"], e["per_pop"], e["dice"]
    if n < 0 and not dice and not per:
        return f"pay ${-n}"
    if per < 0 and not n and not dice:
        return f"pay ${-per} per Population card attached"
    return "gain " + _amount(n, per, dice)


def _influence(e) -> str:
    return _amount(e["n"], e["per_pop"], unit="Influence")


def _discount(e) -> str:
    what = {"all": "Market cards", "dual_price": "two-price Market cards",
            "public_works": "Public Works cards"}.get(e["applies"], e["applies"])
    when = " while your Leader is on a Market space" if e["when"] != "always" else ""
    once = " (once per turn)" if e["once_per_turn"] else ""
    return f"{what} cost ${e['n']} less{when}{once}; Rebuilds too"


def _once(e) -> str:
    return " (once per round)" if e.args.get("once_per_round") else ""


#: Effect type -> its words (instant and Action effects, boosts, end-game and Event
#: round modifiers), from the records of ``engine/data/*.toml`` (docs/content-format.md).
EFFECT_WORDS = {
    "influence": _influence,
    "wealth": _wealth,
    "storehouse": lambda e: _n(e["n"], "token") + " to your Storehouse",
    "public_works": lambda e: "a token on the Public Works track",
    "tax": lambda e: ", ".join(x for x in (
        _n(e["player"], "own Tax token") if e["player"] else "",
        _n(e["neutral"], "neutral Tax token") if e["neutral"] else "") if x) + " on the Tax track",
    "population": lambda e: _n(e["n"], "Population cube") + " to your faction",
    "ships": lambda e: ("add " if e["n"] >= 0 else "remove ") + _n(e["n"], "ship"),
    "move": lambda e: "up to " + _n(e["n"], "card move") + " in "
                      + ("your tableau" if e["scope"] == "own" else "any tableau"),
    "battle_draw": lambda e: "draw " + _n(e["n"], "Battle card"),
    "storehouse_all": lambda e: "every Storehouse " + ("gains " if e["n"] >= 0 else "loses ")
                                + _n(e["n"], "token"),
    "wealth_all": lambda e: "every player " + ("gains" if e["n"] >= 0 else "loses")
                            + f" ${abs(e['n'])}",
    "battle_draw_all": lambda e: "every player draws " + _n(e["n"], "Battle card"),
    "population_all": lambda e: "every faction " + ("gains" if e["n"] >= 0 else "loses")
                                + " " + _n(e["n"], "Population cube"),
    "market_pick_all": lambda e: f"each player takes a free Market card (not the most "
                                 f"expensive) or ${e['n']}",
    "conflict": lambda e: f"Conflict of strength {e['dice']}D+{e['plus']}",
    "lose_population_card": lambda e: "each player discards " + _n(e["n"], "Population card"),
    "remove_influence": lambda e: "each player removes " + _n(e["n"], "Influence token"),
    "price_discount": _discount,
    "raid_bonus": lambda e: f"+{e['n']} to your Raids",
    "decree_discount": lambda e: "Decrees cost you " + _n(e["n"], "token") + " less",
    "counter_bonus": lambda e: f"+{e['n']} against Conflicts" + _once(e),
    "raid_hinder": lambda e: f"may give -{e['n']} to another player's Raid" + _once(e),
    "war_bonus": lambda e: f"+{e['n']} strength in your Wars",
    "discard_for_war": lambda e: f"discard it in a War for +{e['n']} strength",
    "upkeep_ignore": lambda e: f"{e['n']} excess Public Works need no Upkeep payment",
    "population_watch": lambda e: "a token here whenever anyone draws a Population card",
    "store_influence": lambda e: f"may store up to {e['n']} Influence here",
    "search": lambda e: "Search: an Action buys a named card from the Market deck"
                        + (" (once per game)" if e["once_per_game"] else ""),
    "veto_decree": lambda e: f"veto a Decree for {e['cost']} Storehouse tokens "
                             f"(Slavery: {e['slavery_cost']})",
    "reroll": lambda e: f"re-roll up to {e['dice']} dice of your Raid or War" + _once(e),
    "ships_on_reveal": lambda e: "add " + _n(e["n"], "ship") + " when revealed",
    "tax_if_public_works_connected": lambda e: f"+{e['neutral']} neutral Tax while "
                                               f"connected to a Public Works card",
    "vp": lambda e: f"{e['n']} VP",
    "vp_dice": lambda e: f"{e['dice']}D+{e['plus']} VP",
    "vp_per_pop": lambda e: f"{e['n']} VP per Population card attached",
    "vp_per_stored_tokens": lambda e: f"1 VP per {e['per']} tokens stored here",
}

#: Event round modifiers -> their words (``raid_bonus`` here is for everyone's Raids).
MODIFIER_WORDS = {
    "commerce_half": lambda e: "Commerce cards give half their dollars (rounded up)",
    "market_price": lambda e: _more(e["n"], "Market cards cost", "$"),
    "raid_bonus": lambda e: f"Raid results {e['n']:+d}",
    "war_cost": lambda e: _more(e["n"], "Wars cost", "$"),
    "decree_cost": lambda e: _more(e["n"], "Decrees cost"),
    "populate_influence": lambda e: f"Populate gives {_n(e['n'], 'Influence token')}",
}


def round_rule_words(kind: str, n: int) -> str:
    """A round modifier in play (the state's ``[type, n]``) in words."""
    return effect_words(Effect(kind, MappingProxyType({"n": n})), MODIFIER_WORDS)


def effect_words(e, vocabulary: dict = EFFECT_WORDS) -> str:
    """One effect record in words (its type, readable, if the vocabulary lacks it)."""
    words = vocabulary.get(e.type)
    return words(e) if words else e.type.replace("_", " ")


def card_words(cdef) -> str:
    """A card's text in words: what it does when played, its Action, its boosts, its
    end-of-game VP, an Event's round rules, a Battle card's strength, a Leader's
    Legacies."""
    parts = []
    for label, effects in (("Instant", cdef.instant), ("Action", cdef.action),
                           ("Boost", cdef.boosts), ("End of game", cdef.end_game),
                           ("This round", cdef.modifiers)):
        if effects:
            vocabulary = MODIFIER_WORDS if label == "This round" else EFFECT_WORDS
            text = "; ".join(effect_words(e, vocabulary) for e in effects)
            parts.append(f"{label}: {text}.")
    if cdef.category == "battle":
        parts.insert(0, f"Strength {cdef.strength}" + (" (star)." if cdef.star else "."))
    if cdef.legacies:
        parts.append("Legacies: " + ", ".join(x.name for x in cdef.legacies) + ".")
    return " ".join(parts)


# ---------------------------------------------------------------- places
def space_name(g, space: int) -> str:
    """A space of the Influence loop by name: ``district B1 (British)`` or ``the
    British Storehouse``."""
    b = g.c.board
    faction = _FACTION[FACTIONS[b.loop_faction[space]]]
    if b.loop_kind[space] == "storehouse":
        return f"the {faction} Storehouse"
    return f"district {b.loop_ids[space]} ({faction})"


def leader_space_name(g, space: int) -> str:
    """A Leader space by its action: ``the Market Leader space (1)``."""
    spaces = g.c.board.leader_spaces
    action = spaces[space]
    same = [i for i, a in enumerate(spaces) if a == action]
    number = f" ({same.index(space) + 1})" if len(same) > 1 else ""
    return f"the {action.capitalize()} Leader space{number}"


def decision_words(g, d) -> str:
    """A legal answer in words, naming its place (the district, Storehouse or Leader
    space) and its cards by name (a tableau card by its place in the row only when the
    row holds two of that name; Market slots counted from 1); else the engine's
    words."""
    if d.kind == Kind.INFLUENCE_START:
        return f"start the Influence at {space_name(g, d.arg)}"
    if d.kind == Kind.REMOVE_INFLUENCE:
        return f"remove a token from {space_name(g, d.arg)}"
    if d.kind == Kind.PLACE_LEADER:
        return f"place the Leader on {leader_space_name(g, d.arg)}"
    f = g.pending
    if d.kind == Kind.YES and f is not None and f.kind == "influence" and f.d.asking:
        return f"drop a token on {space_name(g, f.d.pos)}"
    words = _on_cards(g, f, d) if f is not None else None
    return _SEAT_ID.sub(lambda m: seat_words(SEAT_NAMES.index(m.group(0))),
                        words or describe(g, d))


def tableau_card(g, seat: int, i: int) -> str:
    """Card ``i`` of ``seat``'s tableau by name, with its place in the row (counted
    from 1) only when the row holds another card of that name."""
    row = g.s.tableau[seat] if 0 <= seat < 4 else []
    if not 0 <= i < len(row):
        return "a card"
    name = g.c.defs[row[i].card].name
    if sum(g.c.defs[slot.card].name == name for slot in row) > 1:
        return f"{name} (card {i + 1} of the tableau)"
    return name


#: Answers that name a card of the acting seat's tableau: kind -> words ({card}).
_ON_TABLEAU = {Kind.ACTIVATE: "activate {card}", Kind.REBUILD: "rebuild {card}",
               Kind.SEARCH: "search with {card}", Kind.CLOSE: "close {card}",
               Kind.DISCARD_POP: "discard a Population card from {card}",
               Kind.DISCARD_CARD: "discard {card}"}


def _on_cards(g, f, d) -> str | None:
    """The words of an answer about cards (a tableau's, the Market's), else None."""
    k, a, seat = d.kind, d.arg, f.seat
    try:
        if k in _ON_TABLEAU and not (k == Kind.DISCARD_CARD and f.kind == "fe_plunder"):
            return _ON_TABLEAU[k].format(card=tableau_card(g, seat, a))
        if k == Kind.ATTACH_POP:
            pop = _card(g, f.d.card) if f.kind == "attach_pop" else "the Population card"
            return f"attach {pop} to {tableau_card(g, seat, a)}"
        if k == Kind.CONNECT:
            p, side = divmod(a, 2)
            return f"connect it on the {'right' if side else 'left'} of " \
                   f"{tableau_card(g, seat, p)}"
        if k == Kind.PASS and f.kind == "connect":
            return "connect it to nothing (it stands on its own)"
        if k == Kind.BUY_MARKET:
            verb = "take" if f.kind == "boom_pick" else "buy"
            return f"{verb} {_card(g, g.s.market[a])} (Market slot {a + 1})"
        if k == Kind.STORE:
            return (f"store {_n(a, 'Influence token')} on {store_card(g, seat)}" if a
                    else "store none: place it all")
        if k in (Kind.MOVE_CARD, Kind.MOVE_POP) and f.kind == "moves":
            return _move(g, f, d)
    except (AttributeError, IndexError, KeyError, ValueError):
        return None
    return None


def _move(g, f, d) -> str:
    """A move in a tableau (John Crawfurd, G.D. Coleman) in words."""
    owner = f.seat if f.d.scope == "own" else f.d.target
    t = g.cfg.max_tableau
    whose = "" if owner == f.seat else f" in the {_seat(owner)}'s tableau"
    if d.kind == Kind.MOVE_POP:
        src, dst = divmod(d.arg, t)
        return (f"move a Population card from {tableau_card(g, owner, src)} to "
                f"{tableau_card(g, owner, dst)}{whose}")
    src, enc = divmod(d.arg, 2 * t + 1)
    card = tableau_card(g, owner, src)
    if enc == 2 * t:
        return f"move {card} away from its neighbours{whose}"
    p, side = divmod(enc, 2)
    return (f"move {card} to the {'right' if side else 'left'} of "
            f"{tableau_card(g, owner, p)}{whose}")


def decision_seen_by(g, d, viewer: int) -> str:
    """The decision the acting seat is about to take, as ``viewer`` (-1: a spectator)
    sees it: :func:`decision_words` when it is public or ``viewer``'s own, else only
    that a hidden choice is made."""
    f = g.pending
    if f is not None and f.seat != viewer and f.kind in HIDDEN_ANSWERS:
        return HIDDEN_ANSWERS[f.kind]
    return decision_words(g, d)


def _card(g, cid: int) -> str:
    return g.c.defs[cid].name if cid >= 0 else "a card"


def _seat(p: int) -> str:
    return SEAT_WORDS[p] if 0 <= p < 4 else "nobody"


def _frame(g, kind: str):
    for f in reversed(g.s.stack):
        if f.kind == kind:
            return f
    return None


def _war(g) -> str:
    f = _frame(g, "war") or _frame(g, "war_fe")
    return f"{_seat(f.seat)}'s War on {_seat(f.d.defender)}" if f else "the War"


def _raid(g) -> str:
    f = _frame(g, "raid") or _frame(g, "raid_fe")
    return f"{_seat(f.seat)}'s Raid" if f else "the Raid"


def _conflict(g) -> str:
    event = g.s.current_event
    return f"the Conflict of {_card(g, event)}" if event >= 0 else "the Conflict"


def _decree(g, f) -> str:
    decree = _frame(g, "decree")
    who = f" by {_seat(decree.seat)}" if decree else ""
    return f"the Decree{who} on {g.c.board.vices[f.d.vice]}"


def store_card(g, seat: int) -> str:
    """The name of the card of ``seat`` that stores Influence now (its first face-up
    card with a ``store_influence`` boost and room)."""
    for slot in g.s.tableau[seat]:
        boost = g.c.defs[slot.card].boost("store_influence") if slot.up else None
        if boost and slot.stored < boost["n"]:
            return g.c.defs[slot.card].name
    return "a card"


def _influence(g, f) -> str:
    if f.d.asking:
        return f"Drop an Influence token on {space_name(g, f.d.pos)}? ({f.d.n} left)"
    if f.d.pos < 0 and not f.d.store_asked and any(d.kind == Kind.STORE
                                                   for d in g.legal_decisions()):
        return (f"Store some of your {f.d.n} Influence on {store_card(g, f.seat)} instead "
                f"of placing it?")
    return (f"Place {f.d.n} Influence: choose the district or Storehouse where the "
            f"tokens start (one on each open space after it).")


#: What a question may name, read from the game ``g`` and the pending frame ``f``.
FIELDS = {
    "war": lambda g, f: _war(g), "raid": lambda g, f: _raid(g),
    "conflict": lambda g, f: _conflict(g), "decree": _decree,
    "card": lambda g, f: _card(g, f.d.card), "n": lambda g, f: f.d.n,
    "left": lambda g, f: f.d.left, "space": lambda g, f: leader_space_name(g, f.d.space),
    "free_spaces": lambda g, f: ", ".join(leader_space_name(g, i) for i, seat
                                          in enumerate(g.s.leader_space) if seat < 0),
    "drawn": lambda g, f: " or ".join(_card(g, c) for c in f.d.cards),
    "found": lambda g, f: ", ".join(_card(g, c) for c in f.d.options),
    "rolled": lambda g, f: _raid(g) if "raid" in f.d.parent else _war(g),
    "side": lambda g, f: "attacker" if f.d.side == 0 else "defender",
    "tableau": lambda g, f: ("your tableau" if f.d.scope == "own" else
                             f"{_seat(f.d.target)}'s tableau" if f.d.target >= 0
                             else "a tableau you choose"),
    "funded": lambda g, f: _seat(g.s.pw_track[f.d.index]),
    "ally": lambda g, f: _seat(f.d.ally),
    "committed_to": lambda g, f: _raid(g) if f.d.parent == "raid_fe" else _war(g),
}

#: Frame kind -> its question in words, naming the place or thing it is about
#: (``{field}``: :data:`FIELDS`); the Influence question is :func:`_influence`.
QUESTIONS = {
    "place_leader": "Place your Leader on a Leader space ({free_spaces} free).",
    "leader_action": "Take the Action of {space}?",
    "actions": "Take an Action ({left} left) or end your turn.",
    "attach_pop": "Attach {card} to a card of your tableau.",
    "connect": "Connect {card} to your tableau, or leave it standalone.",
    "influence": "",
    "remove_influence": "Remove an Influence token ({n} to remove) from one of your "
                        "districts or a Storehouse.",
    "keep_battle": "Keep one of the two Battle cards you drew ({drawn}).",
    "search_pick": "Search: pick the Market card you take ({found}).",
    "reroll": "Re-roll dice of {rolled} with {card}?",
    "hinder": "Hinder {raid}?",
    "veto": "Veto {decree}?",
    "war_join": "Join {war} as an ally of the {side}?",
    "war_accept": "Accept the ally's help in {war}?",
    "war_commit": "Commit a Battle card to {war} (face down).",
    "war_discard": "Discard a card for strength in {war}?",
    "spoils": "Take the spoils of {war} as dollars, the rest as VP.",
    "share": "Share the spoils of {war} with your ally.",
    "ally_pay": "Pay your ally's share of the cost of {war}.",
    "contribute": "Contribute to {conflict} (Battle cards, dollars, boosts).",
    "moves": "Move cards ({n} move(s) left) in {tableau}, or stop moving.",
    "boom_pick": "Boom: take an open Market card (not the most expensive), or the dollars "
                 "instead.",
    "lose_pop": "Lose a Population card from your tableau ({n} to lose).",
    "fund_close": "Fund the Public Works of {funded} at Upkeep, or close a card.",
    "declare_role": "Declare your Role (Colonial Ally, Resistance Leader or Colonial Ruler).",
    "storehouse_veto": "Veto {ally}'s use of the British Storehouse (as Colonial Ally)?",
    "ruler_buy": "Colonial Ruler: buy a card from the Market.",
    "fe_intervene": "Intervene in {raid}?",
    "fe_hinder": "Hinder {raid}?",
    "fe_commit": "Commit a card face down to {committed_to}.",
    "fe_tokens": "Withdraw Storehouse tokens for {war}.",
    "fe_donate": "Donate dollars to your ally after {war}.",
    "fe_plunder": "Plunder after {war}: take a card from the loser, the rest as VP.",
}


class _Fields(dict):
    """The fields of one question, each read when the question names it."""

    def __init__(self, g, f):
        super().__init__()
        self.g, self.f = g, f

    def __missing__(self, key: str):
        return FIELDS[key](self.g, self.f)


def question_words(g) -> str:
    """The pending question in words, naming its place (empty when the game is over)."""
    f = g.pending
    if f is None:
        return ""
    fallback = f.kind.replace("_", " ").capitalize() + "?"
    try:
        if f.kind == "influence":
            return _influence(g, f)
        return QUESTIONS[f.kind].format_map(_Fields(g, f)) if f.kind in QUESTIONS else fallback
    except (AttributeError, IndexError, KeyError, LookupError):
        return fallback
