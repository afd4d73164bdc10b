"""Observation slices of Simulation Mode: Roles, the Storehouse veto and Folk Heroes.

The slices exist in every ruleset (so N and D do not depend on the ruleset) and stay
zero outside Simulation Mode. A Raja's declared Role is hidden from the other seats until
both Rajas have declared: they only see that it was declared.
"""

from __future__ import annotations

_FOLK_DECK = 10.0  # scale of the Folk Hero deck and discard sizes


def add_role_slices(add, folk_keys: list[str], H: int) -> None:
    """Declare the slices (``add(name, shape, high, meaning)`` of the encoder)."""
    add("roles", (4, 4), 1,
        "Simulation Roles per relative seat: [declared, Colonial Ally, Resistance Leader, "
        "Colonial Ruler] (another Raja's Role shows only 'declared' until both are revealed)")
    add("storehouse_veto", 4, 1,
        "Simulation: the Agents vetoed this relative seat's use of the British Storehouse")
    add("folk", 6, 10.0,
        f"Simulation Folk Heroes: [deck / {_FOLK_DECK:g}, discard / {_FOLK_DECK:g}], "
        f"then hand size / {H} per relative seat")
    add("own_folk", (H, len(folk_keys)), 1,
        "own Folk Hero hand: card key per hand index (FOLK_HERO arg)")
    add("ctx_veto", 4, 1,
        "Simulation Storehouse veto question: the Colonial Ally in question, relative one-hot")


def make_role_encoder(offsets: dict, folk_index: list[int], H: int, ORDER):
    """``fn(m, s, seat)`` writing the Simulation slices of ``seat``'s observation into the
    memoryview ``m`` (which starts zeroed)."""
    O_ROLES, O_VETO = offsets["roles"], offsets["storehouse_veto"]
    O_FOLK, O_OWN, O_VETO_ALLY = offsets["folk"], offsets["own_folk"], offsets["ctx_veto"]
    FK = max(folk_index) + 1
    INV_H = 1.0 / H

    def encode(m, s, seat: int) -> None:
        order = ORDER[seat]
        if s.stack and s.stack[-1].kind == "storehouse_veto" and not s.game_over:
            m[O_VETO_ALLY + order.index(s.stack[-1].d.ally)] = 1.0
        public = s.roles_public
        for r in range(4):
            p = order[r]
            role = s.roles[p]
            if role >= 0:
                m[O_ROLES + 4 * r] = 1.0
                if public or p == seat:
                    m[O_ROLES + 4 * r + 1 + role] = 1.0
            if s.vetoed[p]:
                m[O_VETO + r] = 1.0
            x = len(s.folk_hands[p])
            if x:
                m[O_FOLK + 2 + r] = x * INV_H
        m[O_FOLK] = len(s.folk_deck) / _FOLK_DECK
        m[O_FOLK + 1] = len(s.folk_discard) / _FOLK_DECK
        i = O_OWN
        for cid in s.folk_hands[seat][:H]:
            m[i + folk_index[cid]] = 1.0
            i += FK

    return encode
