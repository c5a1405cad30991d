"""Army lists from the army builders players use: BattleScribe ``.ros`` (XML) and ``.rosz``
(zipped) and New Recruit's JSON export, read into typed, immutable values.

The formats follow one public schema (the BSData ``schemas`` repository, ``Catalogue.xsd`` with
the roster namespace): a roster holds forces, a force holds selections (units, models,
upgrades), and each selection carries its profiles (characteristics such as T, SV, W, or a
weapon's Range, A, BS, S, AP, D, Keywords), rules, categories (keywords) and costs (points). The
profiles travel inside the export, so no catalogue data is needed.

* :mod:`.values` — the values (:class:`Roster`, :class:`Force`, :class:`Selection`,
  :class:`Profile`, :class:`Rule`, :class:`Category`, :class:`Cost`);
* :mod:`.reading` — :func:`read_roster` (a file) and :func:`roster_from_bytes` (an upload's
  bytes: a server is sent data, it never opens a path a request names), with the hostile-file
  defences: sizes checked before reading or unpacking, zip bombs stopped, XML through
  :mod:`defusedxml` with no entities;
* :mod:`.battlescribe`, :mod:`.newrecruit` — each format's tree, read by the one builder
  (:mod:`.build`) with every check;
* :mod:`.views` — what a rule system makes of a roster (:class:`RosterView`) and how it says
  which game systems it reads (:class:`RosterAdapter`, declared by its ``SystemPackage``).

This package is system-independent: the 40k adapter (a roster as a faction's datasheets) and the
Army Morale one (a roster as a game's detachments) live in their systems and import it, never
the reverse.

Example:
    >>> roster = read_roster("tests/rosters/data/ork-patrol.ros")
    >>> roster.format, roster.game_system_name, [u.name for u in roster.units()][:2]
    ('BattleScribe .ros', 'Demo Skirmish', ['Boyz Mob', 'Warboss'])
"""

from rulesbook.rosters.build import LIMITS, RosterLimits
from rulesbook.rosters.reading import FORMATS, SUFFIXES, looks_like_roster, read_roster, roster_from_bytes
from rulesbook.rosters.values import Category, Cost, Force, Profile, Roster, Rule, Selection
from rulesbook.rosters.views import (
    RosterAdapter,
    RosterView,
    UnitView,
    generic_view,
    model_count,
    slug,
    unit_key,
)

__all__ = [
    "FORMATS",
    "LIMITS",
    "SUFFIXES",
    "Category",
    "Cost",
    "Force",
    "Profile",
    "Roster",
    "RosterAdapter",
    "RosterLimits",
    "RosterView",
    "Rule",
    "Selection",
    "UnitView",
    "generic_view",
    "looks_like_roster",
    "model_count",
    "read_roster",
    "roster_from_bytes",
    "slug",
    "unit_key",
]
