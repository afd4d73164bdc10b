"""End of game: VP track + Legacies + End Game bonuses; winners share ties."""

from __future__ import annotations

from .base import faction, fit, record_source, roll
from .upkeep import tax_totals


def legacy_metric(g, seat: int, metric: str) -> int:
    s, defs = g.s, g.c.defs
    row = s.tableau[seat]

    def count(pred) -> int:
        return sum(1 for slot in row if slot.up and pred(defs[slot.card]))

    if metric == "wealth":
        return s.wealth[seat]
    if metric == "population_cards":
        return sum(len(slot.pops) for slot in row)
    if metric == "dependent_cards":
        return sum(1 for slot in row if "slavery" in defs[slot.card].kinds)
    if metric == "pop_on_dependents":
        return sum(len(slot.pops) for slot in row if "slavery" in defs[slot.card].kinds)
    if metric == "tax_tokens":
        return tax_totals(g)[0][seat]
    if metric == "public_works_tokens":
        return s.pw_track.count(seat)
    if metric == "personality_cards":
        return count(lambda d: "personality" in d.kinds or d.category == "leader")
    if metric == "public_works_cards":
        return count(lambda d: "public_works" in d.kinds)
    if metric == "commerce_cards":
        return count(lambda d: "commerce" in d.kinds)
    if metric == "battle_cards":
        return len(s.hands[seat]) + len(s.revealed[seat])
    if metric == "storehouse_tokens":
        return s.storehouse[faction(seat)]
    if metric == "outlawed_vices":
        return s.outlawed.count(seat)
    if metric == "wars_won":
        return s.wars_won[seat]
    raise ValueError(f"unknown legacy metric {metric!r}")


def legacy_vp(g, seat: int) -> int:
    total = 0
    for legacy in g.c.defs[g.c.leader_ids[seat]].legacies:
        value = legacy_metric(g, seat, legacy.metric)
        if legacy.per:
            total += legacy.per * value
        reached = [vp for threshold, vp in legacy.bands if value >= threshold]
        if reached:
            total += max(reached)
    return total


def end_game_vp(g, seat: int, expected: bool = False) -> int:
    """End Game bonuses of face-up cards; penalties count face up or down. With
    ``expected`` dice bonuses count their mean (1 per die) and no die is rolled."""
    total = 0
    for slot in g.s.tableau[seat]:
        for e in g.c.defs[slot.card].end_game:
            if e.type == "vp":
                value = e["n"]
            elif e.type == "vp_dice":
                dice = e["dice"] if expected else roll(g, e["dice"])
                value = dice + e["plus"]
            elif e.type == "vp_per_pop":
                value = e["n"] * len(slot.pops)
            else:  # vp_per_stored_tokens
                value = slot.stored // e["per"]
            if slot.up or value < 0:
                total += value
    return total


def projected_final_vp(g, seat: int) -> float:
    """The seat's final VP if the game ended now (VP track + Legacies + End Game
    bonuses, dice bonuses at their mean): public information, no die rolled."""
    return g.s.vp[seat] + legacy_vp(g, seat) + end_game_vp(g, seat, expected=True)


def final_scores(g) -> list[int]:
    """Final VP per seat (VP track + Legacies + End Game bonuses, dice rolled); the
    Legacies and bonuses are recorded as VP sources."""
    scores = []
    for seat in range(4):
        legacy, bonus = legacy_vp(g, seat), end_game_vp(g, seat)
        record_source(g, seat, "legacy", legacy)
        record_source(g, seat, "end_game", bonus)
        scores.append(fit(g.s.vp[seat] + legacy + bonus, "final VP", seat))
    return scores
