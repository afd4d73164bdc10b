"""Rules of 1819 Singapore, one module per phase or action family.

Importing this package registers every frame handler in :mod:`.base`.
"""

from . import (activate, conflict, decree, influence, market, population, raid,  # noqa: F401
               scoring, tableau, turn, upkeep, war)
