"""Morale effects a designer's variant adds (``add: morale_effects:``), declared and checked.

The source lists "the main" morale effects and says there are more (section "Army Morale effects
and modifiers"), each either *ongoing* (checked at every end of the Rally phase) or *one-time*
(applied once for its context, mostly the moment it happens, some checked at the end of the
Rally phase). A variant adds its own in the same terms::

    add:
      morale_effects:
        general-slain:
          name: Enemy general slain
          value: 3            # added to the target's Army Morale value (negative: deducted)
          kind: one-time      # or ongoing
          when: immediately   # or end-of-rally (step R4); ongoing effects are always end-of-rally
          target: own         # or opponent: whose value changes
          once: true          # one-time only: at most once per side per game (false: each time)

A variant's choice set carries them (:class:`ArmyMoraleAdditions`, declared by the system package); the replay applies them (a log event
``{type: effect, effect: general-slain, side: a}`` for one happening during play, a Rally report's
``effects: {KEY: COUNT}`` for one checked at step R4), the Rally odds take them as inputs
``a_effects``/``b_effects`` and the tracker offers them. Rule ``army-morale.effects.added``;
how counts and repeats are read is the interpretations register's
``added-ongoing-count`` and ``added-one-time-context``.

Example:
    >>> added = ArmyMoraleAdditions.from_mapping(
    ...     {"morale_effects": {"general-slain": {"name": "Enemy general slain", "value": 3, "kind": "one-time"}}},
    ...     "house.yaml")
    >>> effect = dict(added.section("morale_effects"))["general-slain"]
    >>> effect.describe()
    'Enemy general slain: one-time, +3 to its own side, immediately (once per side)'
    >>> check_effect("x", {"name": "X", "value": 2, "kind": "ongoing", "when": "immediately"}, "f.yaml: add.x")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: f.yaml: add.x.when: an ongoing effect is checked at the end of every Rally phase; use when: end-of-rally (or kind: one-time)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, cast

from rulesbook.additions import Additions, AddSection
from rulesbook.errors import InputError, quote

__all__ = [
    "EFFECTS_SECTION",
    "EFFECT_KEYS",
    "EFFECT_RULE",
    "ArmyMoraleAdditions",
    "MoraleEffect",
    "check_effect",
]

EFFECT_RULE = "army-morale.effects.added"
EFFECTS_SECTION = "morale_effects"
EFFECT_KEYS = ("name", "value", "kind", "when", "target", "once", "description")
"""The keys of one added effect (``name``, ``value`` and ``kind`` are required)."""
MAX_VALUE = 100

type EffectKind = Literal["one-time", "ongoing"]
type When = Literal["immediately", "end-of-rally"]
type Target = Literal["own", "opponent"]
KINDS: tuple[EffectKind, ...] = ("one-time", "ongoing")
WHENS: tuple[When, ...] = ("immediately", "end-of-rally")
TARGETS: tuple[Target, ...] = ("own", "opponent")


@dataclass(frozen=True, slots=True)
class MoraleEffect:
    """One added morale effect: ``value`` changes the ``target`` side's value each time it applies."""

    name: str
    value: int
    kind: EffectKind = "one-time"
    when: When = "immediately"
    target: Target = "own"
    once: bool = True
    description: str = ""

    @property
    def at_rally(self) -> bool:
        """True when it is checked at the end of the Rally phase (reported in the Rally report)."""
        return self.when == "end-of-rally"

    @property
    def once_only(self) -> bool:
        """True for a one-time effect that applies at most once per side per game."""
        return self.kind == "one-time" and self.once

    def describe(self) -> str:
        """The effect in words (what ``rulesbook variants`` lists)."""
        whose = "its own side" if self.target == "own" else "the opponent"
        when = "at the end of every Rally phase" if self.kind == "ongoing" else self.when.replace("-", " ")
        limit = "" if self.kind == "ongoing" else (" (once per side)" if self.once else " (each time)")
        return f"{self.name}: {self.kind}, {self.value:+d} to {whose}, {when}{limit}"

    def to_mapping(self) -> dict[str, Any]:
        """The entry as a variant file writes it."""
        out: dict[str, Any] = {"name": self.name, "value": self.value, "kind": self.kind}
        if self.kind == "one-time":
            out["when"] = self.when
            if not self.once:
                out["once"] = False
        if self.target != "own":
            out["target"] = self.target
        if self.description:
            out["description"] = self.description
        return out


def _choice(raw: Mapping[str, Any], key: str, options: tuple[str, ...], field: str, default: str) -> str:
    value = raw.get(key, default)
    if value not in options:
        raise InputError(f"{field}.{key}", f"expected one of {', '.join(options)}, got {quote(value)}")
    return str(value)


def check_effect(key: str, raw: Any, field: str) -> MoraleEffect:
    """One ``add: morale_effects:`` entry checked (InputError naming ``field.KEY`` otherwise)."""
    if not isinstance(raw, Mapping):
        raise InputError(field, "expected a mapping with name, value and kind (one-time or ongoing)")
    for k in raw:
        if k not in EFFECT_KEYS:
            raise InputError(f"{field}.{k}", f"unknown key; allowed: {', '.join(EFFECT_KEYS)}")
    for k in ("name", "value", "kind"):
        if k not in raw:
            raise InputError(f"{field}.{k}", "required")
    name = raw["name"]
    if not isinstance(name, str) or not name.strip() or len(name) > 80:
        raise InputError(f"{field}.name", f"expected text of 1 to 80 characters, got {quote(name)}")
    value = raw["value"]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < abs(value) <= MAX_VALUE:
        raise InputError(
            f"{field}.value",
            f"expected a whole number from -{MAX_VALUE} to {MAX_VALUE}, not 0 (negative deducts), got {quote(value)}",
        )
    kind = cast(EffectKind, _choice(raw, "kind", KINDS, field, "one-time"))
    when = cast(
        When, _choice(raw, "when", WHENS, field, "end-of-rally" if kind == "ongoing" else "immediately")
    )
    if kind == "ongoing" and when != "end-of-rally":
        raise InputError(
            f"{field}.when",
            "an ongoing effect is checked at the end of every Rally phase; use when: end-of-rally "
            "(or kind: one-time)",
        )
    once = raw.get("once", True)
    if not isinstance(once, bool):
        raise InputError(f"{field}.once", f"expected true or false, got {quote(once)}")
    if kind == "ongoing" and "once" in raw:
        raise InputError(
            f"{field}.once", "an ongoing effect repeats every Rally phase; once is for one-time effects"
        )
    description = raw.get("description", "")
    if not isinstance(description, str):
        raise InputError(f"{field}.description", f"expected text, got {quote(description)}")
    target = cast(Target, _choice(raw, "target", TARGETS, field, "own"))
    return MoraleEffect(name.strip(), value, kind, when, target, once, " ".join(description.split()))


class ArmyMoraleAdditions(Additions):
    """What an Army Morale variant may add: morale effects (rule ``army-morale.effects.added``)."""

    SECTIONS: ClassVar[Mapping[str, AddSection]] = {
        EFFECTS_SECTION: AddSection(
            EFFECT_RULE,
            check_effect,
            "new one-time or ongoing morale effects (name, value, kind, when)",
            ("a_effects", "b_effects"),
        )
    }

    def effects(self) -> tuple[tuple[str, MoraleEffect], ...]:
        """The added morale effects, ``(key, effect)`` in the order written."""
        return cast(tuple[tuple[str, MoraleEffect], ...], self.section(EFFECTS_SECTION))

    def offered(self, input_key: str) -> tuple[str, ...]:
        """The added effects an input can name: the Rally odds' ``a_effects``/``b_effects`` take
        those checked at step R4 (an effect applied the moment it happens is not one of them)."""
        return tuple(key for key in super().offered(input_key) if dict(self.effects())[key].at_rally)

    def effect(self, key: str) -> MoraleEffect | None:
        """The added effect ``key`` (None when this set adds none by that key)."""
        return dict(self.effects()).get(key)
