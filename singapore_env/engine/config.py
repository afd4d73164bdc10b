"""Rules configuration: every tunable number and rule choice in one frozen object.

A configuration names its ruleset (``ruleset``, one of :data:`RULESETS`) and holds its
numbers (a ruleset's own numbers are its :data:`PRESETS`); the procedures a ruleset plays
differently are declared by its object in :mod:`singapore_env.engine.rulesets`, which
builds on the rules (this module is below them: the rules read a configuration). Balance
studies change configuration, never code::

    cfg = RulesConfig.standard(slavery=False)
    cfg = cfg.replace(war_cost=6)

Numbers printed on the board live in ``data/board.toml``; the numbers here are the
rulebook's rules text and the project's choices where the sources are silent (each
choice is listed in ``docs/rules.md``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .decisions import N_CHOOSE

#: The rulesets' names, the standard one first (each has an object in
#: :data:`singapore_env.engine.rulesets.BY_NAME`; a test keeps the two in step).
RULESETS = ("standard", "first-edition", "simulation")
#: The numbers a ruleset changes from the standard defaults (``RulesConfig.named``).
PRESETS: dict[str, dict] = {
    # 2022 first edition: War costs no Storehouse tokens (still two Actions).
    "first-edition": {"war_cost": 0, "war_cost_under_anglo_dutch": 0},
}
SPOILS_SHARING = ("mandatory", "optional")
#: Upper bounds on the numbers that size lists, dice pools or loops, so that a config
#: from a file cannot make the engine allocate or loop without bound. Every other int
#: is capped at ``MAX_VALUE``.
SIZE_LIMITS: dict[str, int] = {
    "market_slots": 12, "war_dice": 20, "war_ship_loss_dice": 20, "fe_raid_d4": 20,
    "fe_war_d4": 20, "max_hand": 64, "max_tableau": 64, "event_i_cards": 50,
    "event_ii_cards": 50, "actions_per_turn": 20,
    "fe_intervene_influence": 50,  # placements asked one by one (a frame's count)
}
MAX_VALUE = 10**6
#: The limit of every number a game stores (VP, final scores, Wealth, Storehouse tokens,
#: a War's totals and spoils...): both engines refuse to pass it, with OverflowError,
#: rather than wrap (the native engine's ints are 32-bit: 2**31 - 1 = 2,147,483,647; two
#: numbers within 10**9 add up within it). Settings and content numbers are capped at
#: MAX_VALUE, 1,000 times below, so that ordinary play stays far from it (docs/native.md,
#: "Numbers").
NUMBER_LIMIT = 10**9


class ConfigError(ValueError):
    """A rules configuration value is unknown or out of range."""


@dataclass(frozen=True)
class RulesConfig:
    """Every tunable rule of a game, and nothing else (how an environment rewards or
    truncates a game are its own arguments). Use :meth:`standard` to build one."""

    ruleset: str = "standard"
    slavery: bool = True

    # Rounds and events
    event_i_cards: int = 3
    event_ii_cards: int = 4
    singapore_treaty_ships: int = 2
    anglo_dutch_ship_threshold: int = 7
    first_round_income: int = 3

    # Turn
    actions_per_turn: int = 2
    leader_money: int = 1
    leader_storehouse_tokens: int = 1

    # Buy
    battle_card_price: int = 2
    battle_draw_two_tokens: int = 2
    market_slots: int = 5
    # A Search offers the first this many cards it finds, in card-id order (1..N_CHOOSE:
    # the action table has that many menu answers).
    search_shortlist: int = 4

    # Influence and districts
    district_threshold: int = 5

    # Raid
    raid_ship_threshold: int = 2

    # Decree
    legalize_cost: int = 5
    outlaw_vp: int = 2
    malay_decree_cost_under_anglo_dutch: int = 8

    # War
    war_cost: int = 7
    war_cost_under_anglo_dutch: int = 4
    war_dice: int = 2
    war_ship_loss_dice: int = 1
    star_ship_threshold: int = 7
    # Fractions of the spoils a victor may give an ally (numerator, denominator).
    spoils_shares: tuple[tuple[int, int], ...] = ((1, 3), (2, 3))
    # A victor with an ally must give one of those shares ("Faction victors split the
    # gains 2:1", the player board), or "optional": may keep everything (rules text).
    spoils_sharing: str = "mandatory"

    # Conflict events
    conflict_money_strength: int = 1
    # Singapore Treaty allows star cards against Conflict Events.
    star_in_conflict_under_singapore: bool = True
    # Volunteer VP count all the strength a player contributed (the card's text); False
    # counts it only up to the event's strength (a balance option).
    conflict_vp_full_strength: bool = True

    # Upkeep
    fund_cost_per_multiplier: int = 1

    # Simulation Mode (ruleset "simulation"; read only by that ruleset). Penalties are
    # stored as positive numbers and subtracted.
    sim_put_away_british: tuple[str, ...] = ("artillery_3", "artillery_4")
    ally_income: int = 1
    ally_dual_price_extra: int = 1
    folk_hero_cost: int = 4
    leader_spoils_bonus_vs_agents: int = 5
    leader_spoils_penalty_vs_allies: int = 1
    ruler_spoils_penalty_vs_allies: int = 2
    # A modified Spoils of War multiplier never drops below this (older rulebook: "min x1").
    spoils_multiplier_floor: int = 1
    folk_draw_on_loss: int = 1
    folk_draw_outnumbered: int = 2
    lone_leader_extra_tokens: int = 1

    # First edition (ruleset ``first-edition``; read only by its Raid and War, so the
    # defaults are the first edition's numbers). D4 = a four-sided die showing 1..4.
    fe_raid_d4: int = 2                 # a Raid rolls 2D4 dollars
    fe_raid_ships_lost: int = 1         # ships a Raid removes (intervened or not)
    fe_intervene_influence: int = 2     # Influence a successful Intervention places
    fe_war_d4: int = 1                  # each War side rolls one D4
    fe_storehouse_strength: int = 1     # War strength per Storehouse token withdrawn
    fe_war_ships_lost: int = 1          # ships a War removes
    fe_vp_per_dollar: int = 1           # plunder owed beyond Wealth and cards: VP per $1

    # Engine limits (addressable slots for the fixed action table).
    max_hand: int = 12
    max_tableau: int = 16

    def __post_init__(self) -> None:
        if self.ruleset not in RULESETS:
            raise ConfigError(f"unknown ruleset {self.ruleset!r}; known: {', '.join(RULESETS)}")
        if self.spoils_sharing not in SPOILS_SHARING:
            raise ConfigError(f"unknown spoils_sharing {self.spoils_sharing!r}; "
                              f"known: {', '.join(SPOILS_SHARING)}")
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            expected = type(f.default)
            if expected is int:
                if not isinstance(value, int) or isinstance(value, bool):
                    raise ConfigError(f"{f.name} must be an int, got {value!r}")
                top = SIZE_LIMITS.get(f.name, MAX_VALUE)
                if not 0 <= value <= top:
                    raise ConfigError(f"{f.name} must be in 0..{top}, got {value}")
            elif not isinstance(value, expected):
                raise ConfigError(f"{f.name} must be a {expected.__name__}, got {value!r}")
        for share in self.spoils_shares:
            if not (isinstance(share, tuple) and len(share) == 2
                    and all(isinstance(x, int) and not isinstance(x, bool) for x in share)
                    and 0 < share[0] < share[1] <= MAX_VALUE):
                raise ConfigError(f"spoils_shares must be (numerator, denominator) fractions "
                                  f"below 1, denominators up to {MAX_VALUE}, got {share!r}")
        if not all(isinstance(k, str) for k in self.sim_put_away_british):
            raise ConfigError(f"sim_put_away_british must name card keys, got "
                              f"{self.sim_put_away_british!r}")
        if self.max_hand < 1 or self.max_tableau < 4:
            raise ConfigError("max_hand must be >= 1 and max_tableau >= 4")
        if not 1 <= self.search_shortlist <= N_CHOOSE:
            raise ConfigError(f"search_shortlist must be in 1..{N_CHOOSE}, "
                              f"got {self.search_shortlist}")

    @classmethod
    def standard(cls, **overrides) -> "RulesConfig":
        """The final rulebook (Fantasy Mode, 4 players), optionally with overrides."""
        return cls(**overrides)

    @classmethod
    def named(cls, ruleset: str, **overrides) -> "RulesConfig":
        """Build a configuration by ruleset name (one of :data:`RULESETS`), with the
        ruleset's own numbers (:data:`PRESETS`) and then ``overrides`` applied."""
        if ruleset not in RULESETS:
            raise ConfigError(f"unknown ruleset {ruleset!r}; known: {', '.join(RULESETS)}")
        check_keys(overrides)
        return cls(ruleset=ruleset, **{**PRESETS.get(ruleset, {}), **overrides})

    def replace(self, **changes) -> "RulesConfig":
        """A copy with some values changed (validated)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        """Every setting by name, as JSON values (tuples as lists)."""
        d = {name: getattr(self, name) for name in _FIELD_NAMES}  # (asdict is ~10x slower)
        d["spoils_shares"] = [list(x) for x in self.spoils_shares]
        d["sim_put_away_british"] = list(self.sim_put_away_british)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "RulesConfig":
        """Build from :meth:`to_dict` output; raises ConfigError for anything malformed."""
        if not isinstance(d, dict):
            raise ConfigError(f"a rules config is an object, got {type(d).__name__}")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(d) - known
        if unknown:
            raise ConfigError(f"unknown rules config keys: {sorted(unknown)}")
        d = dict(d)
        if "spoils_shares" in d:
            shares = d["spoils_shares"]
            if not isinstance(shares, list) or not all(isinstance(x, list) for x in shares):
                raise ConfigError(f"spoils_shares must be a list of pairs, got {shares!r}")
            d["spoils_shares"] = tuple(tuple(x) for x in shares)
        if isinstance(d.get("sim_put_away_british"), list):
            d["sim_put_away_british"] = tuple(d["sim_put_away_british"])
        return cls(**d)


_FIELD_NAMES = tuple(f.name for f in dataclasses.fields(RulesConfig))
#: Allowed values of the text settings.
CHOICES = {"ruleset": RULESETS, "spoils_sharing": SPOILS_SHARING}


def setting_names() -> list[str]:
    """Every field of :class:`RulesConfig` a study may change (not ``ruleset``, which
    names the base configuration)."""
    return [f.name for f in dataclasses.fields(RulesConfig) if f.name != "ruleset"]


def check_keys(changes: dict) -> None:
    """ConfigError naming the allowed settings if ``changes`` has an unknown key."""
    unknown = sorted(set(changes) - set(setting_names()))
    if unknown:
        raise ConfigError(f"unknown rules setting(s) {', '.join(map(repr, unknown))}; "
                          f"settings: {', '.join(setting_names())}")


def parse_setting(text: str) -> tuple[str, object]:
    """``"war_cost=6"`` -> ``("war_cost", 6)``: the value converted to the field's type
    (int, ``true``/``false``, a choice, ``1/3,2/3`` for spoils_shares, ``a,b`` for a list
    of card keys). ConfigError names the allowed keys or values."""
    key, sep, value = (x.strip() for x in str(text).partition("="))
    if not sep or not key:
        raise ConfigError(f"a rules setting is written key=value (e.g. war_cost=6), got {text!r}")
    check_keys({key: value})
    default = next(f.default for f in dataclasses.fields(RulesConfig) if f.name == key)
    return key, _convert_setting(key, value, default)


def _convert_setting(key: str, value: str, default):
    try:
        if isinstance(default, bool):
            if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError
            return value.lower() in ("true", "1", "yes")
        if isinstance(default, int):
            number = int(value)
            if number < 0:
                raise ValueError
            return number
        if key == "spoils_shares":
            return tuple(tuple(int(x) for x in part.split("/", 1)) for part in value.split(","))
        if isinstance(default, tuple):
            return tuple(x.strip() for x in value.split(",") if x.strip())
    except ValueError:
        expected = {bool: "true or false", int: "an integer >= 0"}.get(
            type(default), "fractions like 1/3,2/3")
        raise ConfigError(f"rules setting {key} expects {expected}, got {value!r}") from None
    if key in CHOICES and value not in CHOICES[key]:
        raise ConfigError(f"rules setting {key} must be one of {', '.join(CHOICES[key])}, "
                          f"got {value!r}")
    return value
