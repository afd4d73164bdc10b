"""The rulesets: each one is an object that declares what it plays differently.

A game's :class:`~singapore_env.engine.config.RulesConfig` names its ruleset (the string
``cfg.ruleset``, which is what configs and saves hold) and holds its numbers (a ruleset's
own numbers are the configuration's ``PRESETS``); :func:`ruleset_of` turns the name into
its :class:`Ruleset`, and a game reads it as ``game.ruleset``. The object declares every
procedure that differs from the standard rules:

* ``own_actions``: the core Actions it plays with its own procedure (the first
  edition's Raid and War), giving ``actions``, the whole table the turn dispatches on;
* ``setup``: a step added to the game's setup (Simulation Mode's put-away cards and
  Folk Hero deck);
* ``has_roles``: whether the Rajas declare Roles at the Anglo-Dutch Treaty (Simulation
  Mode), with the Folk Hero cards the Resistance Leader draws;
* ``frames``: the frame kinds its games may hold (what a save may contain);
* ``procedures``: the names of those procedures (one of :data:`PROCEDURES` each), by
  which a twin engine that cannot run these Python functions plays the same ones (the
  native engine plays a ruleset whose every procedure it knows).

A new ruleset is a new object here, added to :data:`BY_NAME` (with its name in the
configuration's ``RULESETS``, and its numbers, if any, in ``PRESETS``); no code compares
a ruleset's name.

This is engine code: it imports only the engine, so it names no observation slice and
no agent. The higher layers keep their own per-ruleset parts and choose them by what a
ruleset declares, never by its name: the observation writer and the text view show the
Roles where ``has_roles`` is true; the observation's first-edition slices and the agents'
answers to first-edition and Simulation questions are keyed by frame kind, which
``frames`` decides. They read declared capabilities rather than tables keyed by ruleset
because a capability such as the Roles spans several layers at once, and a ruleset made
of existing parts then needs no entry in any of them. The one exception is the heuristic
player's scoring of an Action a ruleset plays with its own procedure: a procedure is not
a capability the player can read, so it keeps a table keyed by the ruleset object,
consulted for the kinds in ``own_actions`` (``agents.heuristic.OWN_ACTION_SCORES``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Mapping

from .config import RulesConfig
from .decisions import FastKind as Kind
from .rules.base import AUTO, LEGAL, RulesGame
from .rules.raid_first_edition import raid_fe
from .rules.roles import setup_simulation
from .rules.turn import CORE
from .rules.war_first_edition import declare_war_fe

#: An Action's procedure: ``fn(game, seat, arg)`` starts the Action ``arg`` of ``seat``.
ActionProcedure = Callable[[RulesGame, int, int], None]

#: The procedures a ruleset may play differently from the standard rules, by name.
PROCEDURES = frozenset({"first_edition_raid_and_war", "simulation_setup", "roles"})


@dataclass(frozen=True, eq=False)
class Ruleset:
    """What one ruleset plays differently from the standard rules (see the module
    docstring). Rulesets are compared and hashed by identity: one object each."""

    #: The name configs, saves and the command line use (``RulesConfig.ruleset``).
    name: str
    #: The frame kinds a game of this ruleset may hold.
    frames: frozenset[str]
    #: Action kind -> the procedure this ruleset plays it with instead of the core one.
    own_actions: Mapping[int, ActionProcedure] = field(default_factory=dict)
    #: ``fn(game)`` run during setup once the Battle decks are shuffled, or None.
    setup: Callable[[RulesGame], None] | None = None
    #: Whether the Rajas declare Roles at the Anglo-Dutch Treaty (Simulation Mode).
    has_roles: bool = False
    #: The names of the procedures above (a subset of :data:`PROCEDURES`).
    procedures: frozenset[str] = frozenset()
    #: Action kind -> its procedure in this ruleset: the core table with
    #: ``own_actions`` in place (read on every Action; never changed).
    actions: Mapping[int, ActionProcedure] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        unknown = set(self.own_actions) - set(CORE)
        if unknown:
            raise ValueError(f"ruleset {self.name!r} replaces actions that are not core "
                             f"actions: {sorted(unknown)}")
        if not self.procedures <= PROCEDURES:
            raise ValueError(f"ruleset {self.name!r} names unknown procedures: "
                             f"{sorted(self.procedures - PROCEDURES)}")
        object.__setattr__(self, "own_actions", MappingProxyType(dict(self.own_actions)))
        object.__setattr__(self, "actions", MappingProxyType({**CORE, **self.own_actions}))


#: Frame kinds of the core Raid and War, which the first edition replaces.
_CORE_RAID_AND_WAR = frozenset({"raid", "hinder", "war", "war_join", "war_accept",
                                "war_commit", "spoils", "ally_pay", "share"})
#: Frame kinds of the first edition's Raid and War.
_FIRST_EDITION_RAID_AND_WAR = frozenset({"raid_fe", "war_fe", "fe_intervene", "fe_hinder",
                                         "fe_commit", "fe_tokens", "fe_donate", "fe_plunder"})
#: Frame kinds of Simulation Mode's Roles (and of a Colonial Ruler's buy in a War).
_ROLES = frozenset({"declare_role", "reveal_roles", "storehouse_veto", "ruler_buy"})
#: Frame kinds of every ruleset: all that the rules register but the ones above.
_SHARED = frozenset(LEGAL).union(AUTO) - _CORE_RAID_AND_WAR - _FIRST_EDITION_RAID_AND_WAR \
    - _ROLES

#: The final rulebook (Fantasy Mode, four players).
STANDARD = Ruleset("standard", frames=_SHARED | _CORE_RAID_AND_WAR)
#: The June 2022 first edition: its own Raid and War (and, in its numbers, a War costs no
#: tokens).
FIRST_EDITION = Ruleset(
    "first-edition", frames=_SHARED | _FIRST_EDITION_RAID_AND_WAR,
    own_actions={Kind.RAID: lambda g, seat, arg: raid_fe(g, seat), Kind.WAR: declare_war_fe},
    procedures=frozenset({"first_edition_raid_and_war"}))
#: The rulebook's Simulation Mode: the standard rules with the Rajas' Roles.
SIMULATION = Ruleset("simulation", frames=_SHARED | _CORE_RAID_AND_WAR | _ROLES,
                     setup=setup_simulation, has_roles=True,
                     procedures=frozenset({"simulation_setup", "roles"}))

#: Every ruleset by name, the standard one first.
BY_NAME: Mapping[str, Ruleset] = MappingProxyType(
    {r.name: r for r in (STANDARD, FIRST_EDITION, SIMULATION)})


def ruleset_of(cfg: RulesConfig) -> Ruleset:
    """The ruleset a configuration plays (``cfg.ruleset`` names it)."""
    return BY_NAME[cfg.ruleset]
