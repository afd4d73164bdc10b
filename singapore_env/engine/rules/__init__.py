"""Rules of 1819 Singapore, one module per phase or action family.

Importing this package registers every frame handler in :mod:`.base`.
"""

from . import (activate, conflict, decree, folk_hero, influence, market,  # noqa: F401
               population, raid, raid_first_edition, roles, scoring, tableau, turn, upkeep,
               war, war_first_edition)
