"""Weapon and target profiles, and the one constructor every weapon source goes through.

A weapon comes from a form (``wh40k.attack``'s inputs), from a data file (a datasheet of ``death-guard.yaml``)
or from a typed profile (``wh40k.sequence``'s ``weapons`` text): all three hand their raw
characteristics to :func:`make_weapon`, which checks each one with the same declared input
(:data:`WEAPON_INPUTS`, also the form's inputs) and raises one-line
:class:`~rulesbook.errors.InputError` naming the field, the weapon and the characteristic.

Example:
    >>> w = make_weapon({"attacks": "D6+3", "skill": "2", "strength": "7", "ap": "-2",
    ...                  "damage": "1", "abilities": "blast,lethal-hits"}, name="Rotwind")
    >>> str(w.attacks), w.skill, w.ap, w.abilities.blast, w.ranged
    ('D6+3', 2, -2, True, True)
    >>> make_weapon({"attacks": "3", "skill": "7", "strength": "4", "damage": "1"},
    ...             field="weapons", label="weapon 1", shown={"skill": "BS"})
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: weapons: weapon 1: BS: expected an integer from 2 to 6, got 7
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rulesbook.dice import DiceExpr, parse_dice
from rulesbook.errors import CostError, InputError, quote
from rulesbook.inputs import BoolInput, DiceInput, Input, IntInput, WordListInput

__all__ = [
    "ABILITY_WORDS",
    "INERT_ABILITIES",
    "MAX_DAMAGE",
    "RANGED_ONLY",
    "WEAPON_INPUTS",
    "Abilities",
    "FeelNoPain",
    "Target",
    "Weapon",
    "better_fnp",
    "make_weapon",
    "mortal_fnp",
    "parse_abilities",
    "printed_abilities",
]

MAX_DAMAGE = 60
"""Upper bound on the Damage of one attack (the largest roll of the expression)."""

ABILITY_WORDS: tuple[tuple[str, str], ...] = (
    ("lethal-hits", "lethal-hits"),
    ("sustained-hits-(?:[1-6]|d3|d6)", "sustained-hits-N (N = 1-6, d3 or d6)"),
    ("devastating-wounds", "devastating-wounds"),
    ("blast", "blast"),
    ("torrent", "torrent"),
    ("heavy", "heavy"),
    ("ignores-cover", "ignores-cover"),
    ("twin-linked", "twin-linked"),
    ("anti-[a-z]+(?:-[a-z]+)*-[2-6]", "anti-KEYWORD-N (N = 2-6)"),
    ("rapid-fire-(?:[1-9]|d3|d6)", "rapid-fire-X (X = 1-9, d3 or d6)"),
    ("melta-(?:[1-9]|d3|d6)", "melta-X (X = 1-9, d3 or d6)"),
    ("lance", "lance"),
    ("indirect-fire", "indirect-fire"),
    ("pistol", "pistol"),
    ("psychic", "psychic"),
    ("precision", "precision"),
    ("hazardous", "hazardous"),
    ("assault", "assault"),
    ("extra-attacks", "extra-attacks"),
    ("one-shot", "one-shot"),
    ("crit-hit-[2-6]", "crit-hit-N (N = 2-6)"),
    ("crit-wound-[2-6]", "crit-wound-N (N = 2-6)"),
)
"""The ``abilities`` words, every weapon ability of the core rules: (pattern, shown form); seven
of them (:data:`INERT_ABILITIES`) change no number of an attack here. ``crit-hit-N`` and
``crit-wound-N`` are a designer's words, not the source's: an unmodified Hit (Wound) roll of N+
is a Critical Hit (Wound) for this weapon (register entry crit-threshold-words)."""

INERT_ABILITIES = ("pistol", "psychic", "precision", "hazardous", "assault", "extra-attacks", "one-shot")
"""Ability words accepted (so a profile can be typed as printed) that change no number of the
attack calculators: Pistol, Psychic and Assault only matter for who may shoot and when,
Precision for which model an attack is allocated to (a CHARACTER), Hazardous after the attacks
(``wh40k.hazardous``), Extra Attacks for which weapons a model fights with, One Shot for how
often a weapon is used in a battle."""

RANGED_ONLY = ("blast", "torrent", "heavy", "rapid_fire", "melta", "indirect_fire")
"""Abilities only a ranged weapon can have (their field names)."""

_ABILITY_RE = re.compile("|".join(f"(?:{p})" for p, _ in ABILITY_WORDS))
"""Every ability pattern as one compiled alternative (one match per word)."""

_ANTI_RE = re.compile(r"^anti-(?P<keyword>[a-z]+(?:-[a-z]+)*)-(?P<n>[2-6])$")
_CRIT_RE = re.compile(r"^crit-(?P<roll>hit|wound)-(?P<n>[2-6])$")


@dataclass(frozen=True, slots=True)
class Abilities:
    """Weapon abilities that change the numbers of the attack sequence.

    >>> parse_abilities("lethal-hits,sustained-hits-d3,anti-infantry-4").sustained
    DiceExpr(count=1, sides=3, modifier=0)
    """

    lethal_hits: bool = False
    sustained: DiceExpr | None = None
    devastating_wounds: bool = False
    blast: bool = False
    torrent: bool = False
    heavy: bool = False
    ignores_cover: bool = False
    twin_linked: bool = False
    anti: tuple[tuple[str, int], ...] = ()
    other: tuple[str, ...] = ()
    rapid_fire: DiceExpr | None = None
    """Rapid Fire X: X more attacks when the target is within half range."""
    melta: DiceExpr | None = None
    """Melta X: X more Damage when the target is within half range."""
    lance: bool = False
    indirect_fire: bool = False
    critical_hit: int | None = None
    """``crit-hit-N``: an unmodified Hit roll of N+ is a Critical Hit (``None``: the rules')."""
    critical_wound: int | None = None
    """``crit-wound-N``: an unmodified Wound roll of N+ is a Critical Wound."""

    def gain(self, granted: Abilities) -> Abilities:
        """These abilities with those a rule grants added: a flag it lacks, an Anti-X it lacks, a
        Rapid Fire or Melta X when it has none, an inert word, the lower of two Critical Hit
        (Wound) thresholds (Sustained Hits is the caller's: register entry sustained-stacking).

        >>> parse_abilities("heavy").gain(parse_abilities("lethal-hits,anti-infantry-4")).words()
        ('lethal-hits', 'heavy', 'anti-infantry-4')
        >>> parse_abilities("crit-hit-5").gain(parse_abilities("crit-hit-4,crit-wound-5")).words()
        ('crit-hit-4', 'crit-wound-5')
        """
        flags = {
            name: getattr(self, name) or getattr(granted, name)
            for name in (
                "lethal_hits",
                "devastating_wounds",
                "blast",
                "torrent",
                "heavy",
                "ignores_cover",
                "twin_linked",
                "lance",
                "indirect_fire",
            )
        }
        return replace(
            self,
            anti=tuple(dict.fromkeys((*self.anti, *granted.anti))),
            other=tuple(dict.fromkeys((*self.other, *granted.other))),
            rapid_fire=self.rapid_fire or granted.rapid_fire,
            melta=self.melta or granted.melta,
            critical_hit=_lower(self.critical_hit, granted.critical_hit),
            critical_wound=_lower(self.critical_wound, granted.critical_wound),
            **flags,
        )

    def words(self) -> tuple[str, ...]:
        """The ability words that give these abilities back (:func:`parse_abilities` inverts it).

        >>> parse_abilities("anti-infantry-4,lethal-hits,rapid-fire-1").words()
        ('lethal-hits', 'rapid-fire-1', 'anti-infantry-4')
        """
        out: list[str] = []
        for name in ("lethal_hits", "devastating_wounds", "blast", "torrent", "heavy", "ignores_cover"):
            if getattr(self, name):
                out.append(name.replace("_", "-"))
        if self.sustained is not None:
            out.append(f"sustained-hits-{str(self.sustained).lower()}")
        if self.twin_linked:
            out.append("twin-linked")
        for name in ("rapid_fire", "melta"):
            value = getattr(self, name)
            if value is not None:
                out.append(f"{name.replace('_', '-')}-{str(value).lower()}")
        out += [w for w in ("lance", "indirect-fire") if getattr(self, w.replace("-", "_"))]
        out += [f"anti-{k}-{n}" for k, n in self.anti]
        out += list(self.other)
        if self.critical_hit is not None:
            out.append(f"crit-hit-{self.critical_hit}")
        if self.critical_wound is not None:
            out.append(f"crit-wound-{self.critical_wound}")
        return tuple(out)


_NO_ABILITIES = Abilities()
"""A weapon without ability words (a value: every such weapon shares it)."""


def _lower(a: int | None, b: int | None) -> int | None:
    """The lower of two thresholds (``None``: not set)."""
    return b if a is None else (a if b is None else min(a, b))


def printed_abilities(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A weapon's keywords as an export prints them (``Rapid Fire 1, Anti-Infantry 4+``,
    ``[LETHAL HITS]``, ``-`` for none) as ability words: those the engine knows
    (:data:`ABILITY_WORDS`), each once in order, and the others, kept as words for a warning. The
    one reader of printed weapon keywords (the Wahapedia import and the roster import use it).

    >>> printed_abilities("Rapid Fire 1, [ANTI-INFANTRY 4+], Sustained Hits D3, Corroding, -")
    (('rapid-fire-1', 'anti-infantry-4', 'sustained-hits-d3'), ('corroding',))
    """
    known: list[str] = []
    unknown: list[str] = []
    for raw in text.split(","):
        word = raw.strip().strip("[]").strip().lower()
        if not word or word in ("-", "—", "–"):
            continue
        word = "-".join(re.sub(r"([0-9])\+$", r"\1", word).split())  # anti-infantry 4+ -> anti-infantry-4
        (known if _ABILITY_RE.fullmatch(word) else unknown).append(word)
    return tuple(dict.fromkeys(known)), tuple(dict.fromkeys(unknown))


def parse_abilities(words: str | Sequence[str], *, field_name: str = "abilities") -> Abilities:
    """Turn ability words (``lethal-hits``, ``sustained-hits-d3``, ``anti-infantry-4``, …) into
    :class:`Abilities`; an unknown word raises :class:`InputError` naming ``field_name``.

    >>> parse_abilities("blast, devastating-wounds").devastating_wounds
    True
    >>> parse_abilities("lethal-hit")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: abilities: unknown word 'lethal-hit'; allowed: lethal-hits, ...
    """
    items = [w.strip().lower() for w in words.split(",")] if isinstance(words, str) else list(words)
    if not any(items):
        return _NO_ABILITIES
    flags: dict[str, bool] = {}
    sustained: DiceExpr | None = None
    extra: dict[str, DiceExpr] = {}
    anti: list[tuple[str, int]] = []
    other: list[str] = []
    crits: dict[str, int] = {}
    for word in (w for w in items if w):
        if _ABILITY_RE.fullmatch(word) is None:
            shown = ", ".join(s for _, s in ABILITY_WORDS)
            raise InputError(field_name, f"unknown word {quote(word)}; allowed: {shown}")
        if word.startswith("sustained-hits-"):
            if sustained is not None:
                raise InputError(field_name, "give one sustained-hits-N word")
            sustained = parse_dice(word.removeprefix("sustained-hits-"), field_name=field_name)
        elif word.startswith(("rapid-fire-", "melta-")):
            name, _, x = word.rpartition("-")
            key = name.replace("-", "_")
            if key in extra:
                raise InputError(field_name, f"give one {name}-X word")
            extra[key] = parse_dice(x, field_name=field_name)
        elif (m := _ANTI_RE.match(word)) is not None:
            anti.append((m["keyword"], int(m["n"])))
        elif (m := _CRIT_RE.match(word)) is not None:
            key = f"critical_{m['roll']}"
            if key in crits:
                raise InputError(field_name, f"give one crit-{m['roll']}-N word")
            crits[key] = int(m["n"])
        elif word in INERT_ABILITIES:
            other.append(word)
        else:
            flags[word.replace("-", "_")] = True
    return Abilities(sustained=sustained, anti=tuple(anti), other=tuple(other), **extra, **crits, **flags)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Weapon:
    """One weapon profile as printed (``ap`` is 0 or negative, ``skill`` the X of X+)."""

    name: str
    attacks: DiceExpr
    skill: int
    strength: int
    ap: int
    damage: DiceExpr
    abilities: Abilities = field(default_factory=Abilities)
    ranged: bool = True


@dataclass(frozen=True, slots=True)
class Target:
    """The target unit: every model shares one profile (Sv 7 means no armour save)."""

    toughness: int
    save: int
    wounds: int
    models: int = 1
    invuln: int | None = None
    fnp: int | None = None
    cover: bool = False
    stealth: bool = False
    damage_reduction: int = 0
    keywords: tuple[str, ...] | None = None
    """``None``: not stated, so every Anti-X ability given applies."""
    fnp_mortal: int | None = None
    """Feel No Pain X+ against mortal wounds only (``fnp`` is against every wound)."""

    @property
    def total_wounds(self) -> int:
        """Wounds of the whole unit."""
        return self.wounds * self.models

    def mortal_fnp(self, combined: str = "better-one") -> FeelNoPain:
        """The Feel No Pain rolled against a mortal wound: ``fnp`` and ``fnp_mortal`` as the
        reading ``fnp_combined`` combines them (``better-one``: the lower X; ``both-rolled``:
        both, a wound ignored if either succeeds).

        >>> Target(4, 3, 2, fnp=5, fnp_mortal=4).mortal_fnp(), Target(4, 3, 2, fnp=5, fnp_mortal=4).mortal_fnp("both-rolled")
        (4, (5, 4))
        >>> Target(4, 3, 2, fnp=5).mortal_fnp(), Target(4, 3, 2).mortal_fnp()
        (5, None)
        """
        return mortal_fnp(self.fnp, self.fnp_mortal, combined)


def mortal_fnp(fnp: int | None, fnp_mortal: int | None, combined: str = "better-one") -> FeelNoPain:
    """The Feel No Pain rolled against a mortal wound by a model with Feel No Pain ``fnp``+
    against every wound and ``fnp_mortal``+ against mortal wounds (see :meth:`Target.mortal_fnp`).

    >>> mortal_fnp(6, 4), mortal_fnp(6, 4, "both-rolled"), mortal_fnp(None, 5)
    (4, (6, 4), 5)
    """
    given = [x for x in (fnp, fnp_mortal) if x is not None]
    if len(given) < 2:
        return given[0] if given else None
    return tuple(given) if combined == "both-rolled" else min(given)


def better_fnp(held: int | None, other: int | None) -> int | None:
    """The better of two Feel No Pain X+ (the lower X; a model uses one per lost wound).

    >>> better_fnp(5, 4), better_fnp(None, 6), better_fnp(5, None)
    (4, 6, 5)
    """
    return other if held is None else held if other is None else min(held, other)


type FeelNoPain = int | tuple[int, ...] | None
"""The Feel No Pain made for each point of damage: its X (one D6 at X+), several X (one D6 each:
the point is ignored if any succeeds), or None."""


WEAPON_INPUTS: tuple[Input, ...] = (
    DiceInput(
        key="attacks", label="Attacks (A)", help="The weapon's Attacks: 3, D6, D6+3, 2D6 …", min_value=1
    ),
    IntInput(key="skill", label="BS/WS", help="The X of the weapon's BS or WS X+.", minimum=2, maximum=6),
    IntInput(key="strength", label="Strength (S)", help="The weapon's Strength.", minimum=1, maximum=30),
    IntInput(
        key="ap",
        label="AP",
        help="Armour Penetration as printed: 0 or negative.",
        minimum=-6,
        maximum=0,
        default=0,
    ),
    DiceInput(key="damage", label="Damage (D)", help="The weapon's Damage: 1, D3, D6+1 …", min_value=1),
    WordListInput(
        key="abilities",
        label="Weapon abilities",
        help=(
            "Comma list, e.g. lethal-hits,sustained-hits-1,devastating-wounds,blast,anti-infantry-4. "
            "Pistol, psychic, precision and hazardous are accepted but change no number here "
            "(a warning says so); with several anti-KEYWORD-N that apply, the lowest N counts."
        ),
        words=ABILITY_WORDS,
        default=(),
    ),
    BoolInput(
        key="ranged", label="Ranged attack", help="true for a ranged weapon, false for melee.", default=True
    ),
)
"""The characteristics of a weapon, each with its bounds: the inputs of ``wh40k.attack`` and the
checks of every other weapon source."""

_WEAPON_KEYS = frozenset(i.key for i in WEAPON_INPUTS)


def _characteristics(
    values: Mapping[str, Any],
    field: str | None,
    where: str,
    names: Mapping[str, str],
    *,
    checked: bool,
    named: bool,
) -> dict[str, Any]:
    """Each characteristic of :data:`WEAPON_INPUTS` checked by its input (kept as given when
    ``checked``), or its default when left out; errors as :func:`make_weapon` describes."""
    parsed: dict[str, Any] = {}
    for inp in WEAPON_INPUTS:
        spelled = names.get(inp.key, inp.key)
        if inp.key not in values:
            if inp.required:
                raise InputError(field or inp.key, f"{where}missing {spelled}")
            parsed[inp.key] = inp.default
            continue
        if checked:  # already validated by these very inputs (a calculator's own weapon inputs)
            parsed[inp.key] = values[inp.key]
            continue
        try:
            parsed[inp.key] = inp.validate(values[inp.key])
        except InputError as exc:
            shown = f"{where}{spelled}: " if named else ""
            if isinstance(exc, CostError):  # still a refusal for cost, with its estimate
                raise CostError(field or inp.key, f"{shown}{exc.message}", times=exc.times) from None
            raise InputError(field or inp.key, f"{shown}{exc.message}") from None
    return parsed


def make_weapon(
    values: Mapping[str, Any],
    *,
    name: str = "weapon",
    field: str | None = None,
    label: str = "",
    shown: Mapping[str, str] | None = None,
    checked: bool = False,
) -> Weapon:
    """The one weapon constructor: raw characteristics (text or typed values, keyed like
    :data:`WEAPON_INPUTS`; ``ap``, ``abilities`` and ``ranged`` may be left out) to a checked
    :class:`Weapon`.

    Errors name ``field`` (or the characteristic when ``field`` is None), then ``label`` (the
    weapon) and the characteristic as its source spells it (``shown``, e.g. ``{"skill": "BS"}``).
    ``checked=True`` says every value is already the typed result of the same declared input
    (``wh40k.attack`` validated them as its own inputs), so they are not validated again; the
    cross-characteristic checks still run.

    >>> make_weapon({"attacks": 2, "skill": 3, "strength": 8, "ap": -3, "damage": "D3",
    ...              "abilities": ("heavy",)}).abilities.heavy
    True
    >>> make_weapon({"attacks": "2", "skill": "3", "strength": "8", "damage": "1",
    ...              "abilities": "blast", "ranged": False})
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: abilities: blast is a ranged weapon ability; set ranged=true or remove it
    """
    names = shown or {}
    where = f"{label}: " if label else ""
    if checked and values.keys() >= _WEAPON_KEYS:  # every value given, each already checked
        parsed = {key: values[key] for key in _WEAPON_KEYS}
    else:
        parsed = _characteristics(values, field, where, names, checked=checked, named=bool(field or label))
    abilities = parse_abilities(parsed["abilities"])
    if not parsed["ranged"]:
        fix = "use BS for a ranged weapon" if "skill" in names else "set ranged=true"
        for word in RANGED_ONLY:
            if getattr(abilities, word):
                shown_word = word.replace("_", "-")
                raise InputError(
                    field or "abilities",
                    f"{where}{shown_word} is a ranged weapon ability; {fix} or remove it",
                )
    for word, base in (
        (("rapid-fire", parsed["attacks"]), ("melta", parsed["damage"]))
        if abilities.rapid_fire is not None or abilities.melta is not None
        else ()
    ):
        x = getattr(abilities, word.replace("-", "_"))
        if x is not None and x.count and base.count and base.sides != x.sides:
            raise InputError(
                field or "abilities",
                f"{where}{word}-{str(x).lower()} on {names.get(key := 'attacks' if word == 'rapid-fire' else 'damage', key)} "
                f"{base} cannot be added up as one dice expression (only dice of one kind)",
            )
    damage: DiceExpr = parsed["damage"]
    if damage.maximum > MAX_DAMAGE:
        raise InputError(
            field or "damage", f"{where}at most {MAX_DAMAGE} damage per attack, got up to {damage.maximum}"
        )
    return Weapon(
        name=name,
        attacks=parsed["attacks"],
        skill=parsed["skill"],
        strength=parsed["strength"],
        ap=parsed["ap"],
        damage=damage,
        abilities=abilities,
        ranged=parsed["ranged"],
    )
