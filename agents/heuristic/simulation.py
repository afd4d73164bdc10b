"""The heuristic player's answers to the Simulation Mode questions.

* **Role**: a Raja becomes a Resistance Leader when it can already afford a Folk Hero
  card and holds Battle cards to fight with, otherwise a Colonial Ally (steady Income
  and scoring in every District);
* **veto**: an Agent always agrees to veto a Colonial Ally's use of the British
  Storehouse (the Ally would spend the Agents' tokens);
* **Folk Heroes**: a Folk Hero card is played as soon as the turn allows (its effects
  only help); ``INSPIRE`` is scored like any Action: the average value of the Folk Hero
  cards this seat cannot see, minus the tokens and the Action;
* **Colonial Ruler's purchase**: the top card (keeps the Storehouse tokens).

It reads only what the seat may see: its own Role, the public Roles, the sizes and
*contents* (never the order) of the unseen Folk Hero cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from singapore_env.engine.decisions import Decision, Kind
from singapore_env.engine.query import ALLY, LEADER, storehouse_tokens

if TYPE_CHECKING:  # pragma: no cover
    from .context import Ctx

YES = Decision(Kind.YES, 0)


def declare_role(ctx: "Ctx", f, legal):
    """Resistance Leader with tokens for a Folk Hero and 2+ Battle cards, else Ally."""
    fighter = (storehouse_tokens(ctx.g, ctx.seat) >= ctx.g.cfg.folk_hero_cost
               and ctx.battle_cards_held() >= 2)
    return Decision(Kind.CHOOSE, LEADER if fighter else ALLY)


def storehouse_veto(ctx: "Ctx", f, legal):
    """Always agree to the veto."""
    return YES


def ruler_buy(ctx: "Ctx", f, legal):
    """Buy the top Battle card."""
    return Decision(Kind.BUY_BATTLE, 0) if Decision(Kind.BUY_BATTLE, 0) in legal else legal[0]


QUESTIONS = {"declare_role": declare_role, "storehouse_veto": storehouse_veto,
             "ruler_buy": ruler_buy}


def play_folk_hero(legal) -> Decision | None:
    """The first Folk Hero card to play now, if any."""
    return next((d for d in legal if d.kind == Kind.FOLK_HERO), None)


def unseen_folk(ctx: "Ctx") -> list[int]:
    """Folk Hero cards this seat cannot see (deck and the other hands), as a multiset."""
    s = ctx.s
    pool = list(s.folk_deck) + list(s.folk_discard if not s.folk_deck else [])
    for p in range(4):
        if p != ctx.seat:
            pool += s.folk_hands[p]
    return pool


def inspire_value(ctx: "Ctx", effects_value) -> float:
    """Average value of a Folk Hero card drawn now, minus its tokens and the Action."""
    pool = unseen_folk(ctx)
    if not pool:
        return -1.0
    card = sum(effects_value(ctx, ctx.defs[c].instant, instant=True) for c in pool) / len(pool)
    return card - ctx.g.cfg.folk_hero_cost * ctx.tv - ctx.p["action_cost"]
