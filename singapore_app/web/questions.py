"""The pending question in words: what the rulebook asks the acting seat at each frame.

The engine names a question by its frame kind; the web page shows this sentence above the
answers (the answers themselves are :func:`singapore_env.engine.describe.describe`).
"""

from __future__ import annotations

#: Frame kind -> the question, as the rulebook puts it to the acting player.
QUESTIONS = {
    "place_leader": "Place your Leader on a Leader space.",
    "leader_action": "Take your Leader Action?",
    "actions": "Take an Action (buy a card, populate, activate, raid, decree, War...) "
               "or end your turn.",
    "attach_pop": "Attach the Population card to a card of your tableau.",
    "connect": "Connect the new card to your tableau, or leave it standalone.",
    "influence": "Drop an Influence token here?",
    "remove_influence": "Remove an Influence token from a district.",
    "keep_battle": "Keep one of the two Battle cards you drew.",
    "search_pick": "Search: pick the card you take.",
    "reroll": "Re-roll the dice?",
    "hinder": "Hinder the Raid?",
    "veto": "Veto the Decree?",
    "war_join": "Join the War as an ally?",
    "war_accept": "Accept the ally's help in the War?",
    "war_commit": "Commit a Battle card to the War (face down).",
    "war_discard": "Discard a card after the War?",
    "spoils": "Take the War spoils as dollars, the rest as VP.",
    "share": "Share the spoils with your ally.",
    "ally_pay": "Pay your ally's share of the War cost.",
    "contribute": "Contribute to the Conflict (Battle cards, dollars, boosts).",
    "moves": "Move cards in a tableau (or stop moving).",
    "boom_pick": "Boom: take a Market card, or the dollars instead.",
    "lose_pop": "Lose a Population card.",
    "fund_close": "Fund the Public Works, or close a card.",
    "declare_role": "Declare your Role.",
    "storehouse_veto": "Veto the Colonial Ally's use of the British Storehouse?",
    "ruler_buy": "Colonial Ruler: buy a card.",
    "fe_intervene": "Intervene in the Raid?",
    "fe_hinder": "Hinder the Raid?",
    "fe_commit": "Commit a card (face down).",
    "fe_tokens": "Withdraw Storehouse tokens.",
    "fe_donate": "Donate dollars.",
    "fe_plunder": "Plunder: take a card from the loser, the rest as VP.",
}


def question_text(kind: str) -> str:
    """The question of frame ``kind`` in words (its name, readable, if not listed)."""
    return QUESTIONS.get(kind, kind.replace("_", " ").capitalize() + "?")
