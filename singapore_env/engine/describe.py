"""Decisions in words, in the context of the pending question: for error messages, replays,
logs and the human seat. The board as text is :mod:`singapore_env.render`."""

from __future__ import annotations

from .content import SEAT_NAMES
from .decisions import Decision, Kind
from .rules.base import find_frame

_PASS_WORDS = {
    "actions": "end turn", "leader_action": "skip the Leader Action",
    "connect": "leave it standalone", "influence": "do not drop a token here",
    "war_join": "stay out of the War", "war_accept": "refuse the help",
    "war_commit": "commit no card", "war_discard": "discard nothing",
    "reroll": "keep the roll", "hinder": "do not hinder", "veto": "no veto",
    "spoils": "take the rest as VP", "ally_pay": "pay no more", "share": "keep all spoils",
    "contribute": "done contributing", "moves": "stop moving",
    "boom_pick": "take the dollars instead",
    "storehouse_veto": "allow the Colonial Ally the British Storehouse",
    "fe_intervene": "do not intervene", "fe_hinder": "do not hinder",
    "fe_commit": "commit no (more) card", "fe_tokens": "withdraw no more tokens",
    "fe_donate": "donate no more", "fe_plunder": "take the rest as VP",
}
_YES_WORDS = {
    "influence": "drop a token on this Storehouse", "war_join": "join the War",
    "war_accept": "accept the help", "hinder": "hinder the Raid",
    "veto": "veto the Decree", "contribute": "spend a once-per-round counter boost",
    "storehouse_veto": "veto the Colonial Ally's use of the British Storehouse",
    "fe_intervene": "intervene in the Raid", "fe_hinder": "hinder the Raid",
}


def card_name(g, cid: int) -> str:
    """A card id's name, or ``-`` for none."""
    return g.c.defs[cid].name if cid >= 0 else "-"


#: Questions whose answer the other players do not see (until a reveal), and how a
#: player at the table would see another seat answer them.
HIDDEN_ANSWERS = {
    "keep_battle": "keeps one of the two Battle cards drawn",
    "contribute": "decides on its Conflict contribution (hidden until the reveal)",
    "war_commit": "decides on its face-down War commitment",
    "fe_commit": "decides on its face-down commitment",
    "declare_role": "declares a Role (hidden until both Rajas have chosen)",
}


def describe_seen_by(g, d: Decision, viewer: int) -> str:
    """The decision the acting seat is about to take, as ``viewer`` sees it: in words
    when it is public (or ``viewer``'s own), else only that a hidden choice is made."""
    f = g.s.stack[-1] if g.s.stack else None
    if f is not None and f.seat != viewer and f.kind in HIDDEN_ANSWERS:
        return HIDDEN_ANSWERS[f.kind]
    return describe(g, d)


def describe(g, d: Decision) -> str:
    """One decision in words, in the context of the pending question."""
    try:
        return _describe(g, d)
    except (IndexError, KeyError, ValueError):
        return f"decision ({d[0]}, {d[1]})"


def _describe(g, d: Decision) -> str:
    f = g.s.stack[-1] if g.s.stack else None
    kind = f.kind if f else ""
    seat = f.seat if f else 0
    k, a = d.kind, d.arg
    s, b, t, h = g.s, g.c.board, g.cfg.max_tableau, g.cfg.max_hand
    row = s.tableau[seat] if 0 <= seat < 4 else []

    def pos(i: int) -> str:
        return f"{row[i].card and card_name(g, row[i].card)} (#{i})" if 0 <= i < len(row) else f"#{i}"

    try:
        kind_name = Kind(k).name
    except ValueError:
        return f"unknown decision ({k}, {a})"
    if k == Kind.PASS:
        return _PASS_WORDS.get(kind, "pass")
    if k == Kind.YES:
        return _YES_WORDS.get(kind, "yes")
    if k == Kind.PLACE_LEADER:
        return f"place Leader on {b.leader_spaces[a] if a < len(b.leader_spaces) else a} space #{a}"
    if k == Kind.LEADER_MONEY:
        return "take $1"
    if k == Kind.LEADER_STOREHOUSE:
        return "add 1 token to the Storehouse"
    if k == Kind.BUY_MARKET:
        card = s.market[a] if a < len(s.market) else -1
        return f"{'take' if kind == 'boom_pick' else 'buy'} {card_name(g, card)} (market slot {a})"
    if k == Kind.BUY_BATTLE:
        return "buy the top Battle card" if a == 0 else "buy a Battle card: draw 2, keep 1"
    if k == Kind.KEEP_BATTLE and kind == "keep_battle":
        assert f is not None  # (a kind is named only by a pending frame)
        return f"keep {card_name(g, f.d.cards[a])}"
    if k == Kind.POPULATE:
        return "populate"
    if k == Kind.DISCARD_CARD and kind == "fe_plunder":
        loser = find_frame(g, "war_fe").d.loser
        return f"take {card_name(g, s.tableau[loser][a].card)} from {SEAT_NAMES[loser]}"
    if k in (Kind.ATTACH_POP, Kind.ACTIVATE, Kind.REBUILD, Kind.SEARCH, Kind.CLOSE,
             Kind.DISCARD_POP, Kind.DISCARD_CARD):
        return f"{kind_name.lower().replace('_', ' ')} {pos(a)}"
    if k == Kind.RAID:
        return "raid"
    if k == Kind.DECREE:
        v = b.vices[a] if a < len(b.vices) else a
        return f"decree: {'outlaw' if a < len(s.outlawed) and s.outlawed[a] < 0 else 'legalize'} {v}"
    if k == Kind.WAR:
        return f"declare War on {SEAT_NAMES[a] if a < 4 else a}"
    if k == Kind.REVEAL:
        hand = s.hands[seat] if 0 <= seat < 4 else []
        return f"reveal {card_name(g, hand[a]) if a < len(hand) else a}"
    if k == Kind.CHOOSE:
        if kind == "search_pick":
            assert f is not None
            return f"search for {card_name(g, f.d.options[a])}"
        if kind == "reroll":
            dice = {1: "the first die", 2: "the second die", 3: "both dice"}
            return f"re-roll {dice.get(a, a)}"
        if kind == "share":
            num, den = g.cfg.spoils_shares[a]
            return f"give the ally {num}/{den} of the spoils"
        if kind == "declare_role":
            from .rules.roles import ROLE_NAMES
            return f"declare {ROLE_NAMES[a]}"
        return f"option {a}"
    if k == Kind.CONNECT:
        p, side = divmod(a, 2)
        return f"connect to the {'right' if side else 'left'} of {pos(p)}"
    if k == Kind.INFLUENCE_START:
        return f"start Influence at {b.loop_ids[a]}"
    if k == Kind.COMMIT:
        hand = s.hands[seat] if 0 <= seat < 4 else []
        rev = s.revealed[seat] if 0 <= seat < 4 else []
        card = hand[a] if a < h and a < len(hand) else (
            rev[a - h] if h <= a < h + len(rev) else -1)
        return f"commit {card_name(g, card)}"
    if k == Kind.ADD_MONEY:
        return {"spoils": "take $1 more", "ally_pay": "pay $1 more",
                "fe_tokens": "withdraw 1 more Storehouse token",
                "fe_donate": "donate $1 more"}.get(kind, "contribute $1")
    if k == Kind.FUND:
        return "fund the Public Works"
    if k == Kind.MOVE_SEAT:
        return f"move cards in {SEAT_NAMES[a]}'s tableau"
    if k == Kind.MOVE_CARD:
        src, enc = divmod(a, 2 * t + 1)
        if enc == 2 * t:
            return f"move: detach card #{src}"
        p, side = divmod(enc, 2)
        return f"move: card #{src} to the {'right' if side else 'left'} of card #{p}"
    if k == Kind.MOVE_POP:
        src, dst = divmod(a, t)
        return f"move a Population card from #{src} to #{dst}"
    if k == Kind.REMOVE_INFLUENCE:
        return f"remove a token from {b.loop_ids[a]}"
    if k == Kind.STORE:
        return f"store {a} Influence on the card"
    if k == Kind.INSPIRE:
        return "spend Storehouse tokens to draw a Folk Hero card"
    if k == Kind.FOLK_HERO:
        folk = s.folk_hands[seat] if 0 <= seat < 4 else []
        return f"play {card_name(g, folk[a]) if a < len(folk) else a}"
    return f"{kind_name.lower()} {a}"
