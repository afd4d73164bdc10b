"""Observation slices of the first-edition Raid and War (ruleset ``first-edition``).

The slices exist in every configuration (all zeros unless a ``raid_fe`` or ``war_fe``
frame is on the stack), so one observation layout serves every ruleset. Committed
Battle cards are face down: another seat sees only *how many* cards a seat committed
until the War's totals are computed (the Raid frame ends at its resolution).
"""

from __future__ import annotations

from ..engine.frames import RaidFePhase, WarFePhase

#: The first-edition frames whose context these slices show.
CONTEXT = ("raid_fe", "war_fe")

_CAP = 10.0


def add_slices(add, n_battle_keys: int) -> None:
    """Declare the slices with the encoder's ``add(name, shape, high, meaning)``."""
    add("fe_raid", 8, _CAP,
        "first-edition Raid: [in progress, rolled, roll / 8, hinder / 2], "
        "Interventionist relative one-hot")
    add("fe_war", 15, _CAP,
        "first-edition War: [in progress, tokens withdrawn attacker / 10, defender / 10, "
        "D4 attacker / 4, defender / 4, total attacker / 10, defender / 10, still owed / "
        "10, cards shown], phase one-hot (0..5)")
    add("fe_war_roles", (4, 4), 1,
        "first-edition War roles, relative one-hot: attacker, defender, victor, loser")
    add("fe_committed", 4, _CAP, "first edition: cards committed per relative seat / 3")
    add("fe_commits", (4, n_battle_keys), _CAP,
        "first edition: committed Battle card keys per relative seat, counts (own always; "
        "others once the War's totals are computed)")


def make_encoder(offsets: dict, bkey: list, n_battle_keys: int):
    """``encode(m, frame, seat, rel)`` writing a first-edition frame into ``m``."""
    O_RAID, O_WAR, O_ROLES = offsets["fe_raid"], offsets["fe_war"], offsets["fe_war_roles"]
    O_COUNT, O_KEYS = offsets["fe_committed"], offsets["fe_commits"]
    BK = n_battle_keys

    def scaled(x: int, scale: float) -> float:
        return min(x / scale, _CAP)

    def commits(m, d, seat: int, rel) -> None:
        shown = d.shown
        for p, cards in enumerate(d.commits):
            if not cards:
                continue
            r = rel[p]
            m[O_COUNT + r] = scaled(len(cards), 3.0)
            if shown or p == seat:
                for cid in cards:
                    m[O_KEYS + r * BK + bkey[cid]] += 1.0

    def encode(m, f, seat: int, rel) -> None:
        d = f.d
        commits(m, d, seat, rel)
        if f.kind == "raid_fe":
            m[O_RAID] = 1.0
            if d.phase == RaidFePhase.RESOLVE:
                m[O_RAID + 1] = 1.0
            m[O_RAID + 2] = scaled(d.roll, 8.0)
            m[O_RAID + 3] = scaled(d.hinder, 2.0)
            if d.intervener >= 0:
                m[O_RAID + 4 + rel[d.intervener]] = 1.0
            return
        m[O_WAR] = 1.0
        values = (d.tokens[0], d.tokens[1], d.roll0, d.roll1,
                  d.totals[0], d.totals[1], d.due)
        for i, (x, scale) in enumerate(zip(values, (10, 10, 4, 4, 10, 10, 10))):
            m[O_WAR + 1 + i] = scaled(x, float(scale))
        m[O_WAR + 8] = float(d.shown)
        m[O_WAR + 9 + min(d.phase, WarFePhase.END)] = 1.0
        m[O_ROLES + rel[f.seat]] = 1.0
        m[O_ROLES + 4 + rel[d.defender]] = 1.0
        if d.victor >= 0:
            m[O_ROLES + 8 + rel[d.victor]] = 1.0
            m[O_ROLES + 12 + rel[d.loser]] = 1.0

    return encode
