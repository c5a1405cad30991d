"""Weapon profiles typed as one line of text: the ``weapons`` input of ``wh40k.sequence``.

The syntax is small and parsed with regular expressions (never ``eval``)::

    [NAME:] A=<dice> BS=<2-6> (or WS=<2-6>) S=<1-30> [AP=<-6..0>] D=<dice> [abilities]

Profiles are separated by ``;``. ``BS`` makes a ranged weapon, ``WS`` a melee one. Abilities
are the comma list of ``wh40k.attack`` (``lethal-hits,sustained-hits-1,…``), written as one
word or several. Keys are not case-sensitive. Every mistake is a one-line
:class:`~rulesbook.errors.InputError` naming the weapon (its number and name) and the key.

Example:
    >>> ws = parse_weapons("bolters: A=20 BS=3 S=4 D=1; plasma: A=2 bs=3 s=8 ap=-3 d=2 lethal-hits")
    >>> [(w.name, str(w.attacks), w.skill, w.strength, w.ap, str(w.damage)) for w in ws]
    [('bolters', '20', 3, 4, 0, '1'), ('plasma', '2', 3, 8, -3, '2')]
    >>> canonical_weapons("A=D6 WS=4 S=5 D=1   lethal-hits ,  precision")
    'A=D6 WS=4 S=5 AP=0 D=1 lethal-hits,precision'
    >>> parse_weapons("A=3 BS=3 S=4 D=1; A=2 BS=3 S=40 D=2")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: weapons: weapon 2: S: expected an integer from 1 to 30, got 40
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from rulesbook.errors import InputError, quote
from rulesbook.inputs import Input
from rulesbook.systems.wh40k.attack.weapons import Weapon, make_weapon

__all__ = ["MAX_WEAPONS", "PROFILE_SYNTAX", "WeaponProfilesInput", "canonical_weapons", "parse_weapons"]

MAX_WEAPONS = 8
"""Most weapon profiles in one sequence."""

MAX_TEXT = 2000
"""Most characters of the whole ``weapons`` text."""

PROFILE_SYNTAX = (
    "1 to 8 weapon profiles separated by ';', each [name:] A=attacks BS=skill (WS for melee) "
    "S=strength AP=0 or less D=damage and optional abilities, e.g. "
    "'bolters: A=20 BS=3 S=4 AP=0 D=1; plasma: A=2 BS=3 S=8 AP=-3 D=2'"
)

_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 '()+-]{0,39}$")
_PAIR_RE = re.compile(r"^(?P<key>[A-Za-z]{1,2})\s*=\s*(?P<value>\S*)$")
_KEYS = {"A": "attacks", "BS": "skill", "WS": "skill", "S": "strength", "AP": "ap", "D": "damage"}
"""The profile keys and the weapon characteristic each one gives."""
_SHOWN_KEYS = "A, BS or WS, S, AP, D"


def _split(text: str, field: str) -> list[str]:
    if not isinstance(text, str):
        raise InputError(field, f"expected {PROFILE_SYNTAX}")
    if len(text) > MAX_TEXT:
        raise InputError(field, f"at most {MAX_TEXT} characters, got {len(text)}")
    parts = [p.strip() for p in text.split(";")]
    if parts and not parts[-1]:
        parts.pop()  # a trailing ';' is harmless
    if not parts or not any(parts):
        raise InputError(field, f"expected {PROFILE_SYNTAX}")
    if len(parts) > MAX_WEAPONS:
        raise InputError(field, f"at most {MAX_WEAPONS} weapons, got {len(parts)}")
    return parts


def _tokens(body: str) -> list[str]:
    """Split on spaces, keeping ``KEY = value`` together and ability lists with spaces."""
    body = re.sub(r"\s*=\s*", "=", body)
    body = re.sub(r"\s*,\s*", ",", body)
    return body.split()


def _one(index: int, part: str, field: str) -> tuple[Weapon, str]:
    """One profile: the weapon and its canonical text."""
    label = f"weapon {index}"
    if not part:
        raise InputError(field, f"{label} is empty; expected {PROFILE_SYNTAX}")
    name = ""
    head, colon, rest = part.partition(":")
    if colon:
        name = " ".join(head.split())
        if not _NAME_RE.match(name):
            raise InputError(
                field,
                f"{label}: a name is 1-40 letters, digits, spaces, ' ( ) + or -, "
                f"starting with a letter or digit; got {quote(head.strip())}",
            )
        label = f"{label} ({name})"
        part = rest
    texts: dict[str, str] = {}
    words: list[str] = []
    for token in _tokens(part):
        pair = _PAIR_RE.match(token)
        if pair is None:
            words.extend(w for w in token.lower().split(",") if w)
            continue
        key = pair["key"].upper()
        if key not in _KEYS:
            raise InputError(field, f"{label}: unknown key {quote(pair['key'])}; keys: {_SHOWN_KEYS}")
        if key in texts:
            raise InputError(field, f"{label}: {key} given twice")
        texts[key] = pair["value"]
    if "BS" in texts and "WS" in texts:
        raise InputError(field, f"{label}: give BS (a ranged weapon) or WS (a melee weapon), not both")
    missing = [k for k in ("A", "S", "D") if k not in texts]
    if "BS" not in texts and "WS" not in texts:
        missing.insert(1, "BS or WS")
    if missing:
        raise InputError(field, f"{label}: missing {', '.join(missing)}; keys: {_SHOWN_KEYS}")
    seen: set[str] = set()
    for word in words:
        if word in seen:
            raise InputError(field, f"{label}: ability {quote(word)} given twice")
        seen.add(word)
    ranged = "BS" in texts
    skill_key = "BS" if ranged else "WS"
    weapon = make_weapon(
        {**{_KEYS[k]: v for k, v in texts.items()}, "abilities": tuple(words), "ranged": ranged},
        name=name or f"weapon {index}",
        field=field,
        label=label,
        shown={_KEYS[k]: k for k in ("A", skill_key, "S", "AP", "D")},
    )
    text = (
        f"{name + ': ' if name else ''}A={weapon.attacks} {skill_key}={weapon.skill} "
        f"S={weapon.strength} AP={weapon.ap} D={weapon.damage}"
    )
    if words:
        text += " " + ",".join(words)
    return weapon, text


def _parse(text: str, field: str) -> list[tuple[Weapon, str]]:
    return [_one(i, part, field) for i, part in enumerate(_split(text, field), start=1)]


def parse_weapons(text: str, field: str = "weapons") -> tuple[Weapon, ...]:
    """The weapons of a profile text, in order (InputError naming ``field`` and the weapon)."""
    return tuple(w for w, _ in _parse(text, field))


def canonical_weapons(text: str, field: str = "weapons") -> str:
    """The profile text in its canonical form (parsing it again gives the same text)."""
    return "; ".join(t for _, t in _parse(text, field))


@dataclass(frozen=True, kw_only=True)
class WeaponProfilesInput(Input):
    """A ``weapons`` text input: profiles in the syntax above, kept in canonical form.

    No input class of :mod:`rulesbook.calculators` takes free text, so this one lives with the
    system; forms show it as a text box (like every input that is not a number, a flag or a
    choice).

    >>> WeaponProfilesInput(key="weapons", help="").parse("A=2 bs=3 s=8 ap=-3 d=2")
    'A=2 BS=3 S=8 AP=-3 D=2'
    """

    kind: ClassVar[str] = "weapon-profiles"

    def allowed(self) -> str:
        return PROFILE_SYNTAX

    def _initial(self) -> Any:
        return ""

    def parse(self, text: str) -> str:
        return canonical_weapons(text, self.key)

    def _check(self, value: Any) -> str:
        if isinstance(value, str):
            return self.parse(value)
        raise self.error(value)
