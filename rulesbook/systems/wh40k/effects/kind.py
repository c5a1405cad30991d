"""What declaring an effect kind takes (:class:`EffectKind`), and what its hooks work on.

A kind is declared once, with everything it means: the schema of its value (:class:`ValueRule`),
how it is worded, whose numbers it may change in an attack (``lands``), its hooks into the
sequence — ``apply`` on one attack (:class:`Application`, the weapons, target and situation as
the effects change them), ``prepare`` before it (what a side's rules set up for the attack: its
Contagion Range, the modifiers it disregards), ``shock`` on a Battle-shock test
(:class:`ShockTest`) — and the rule-text phrasings it is recognised by
(:class:`~rulesbook.systems.wh40k.effects.text.TextPattern`). The declarations are
:data:`~rulesbook.systems.wh40k.effects.kinds.KINDS`.

Example:
    >>> ValueRule("int", -3, 3).check(1, "effects[0].value")
    1
    >>> ValueRule("choice", options=("ones", "failed")).schema
    'value: one of ones, failed'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from rulesbook.data import DataFileError
from rulesbook.errors import InputError, quote
from rulesbook.systems.wh40k.attack.rolls import Situation
from rulesbook.systems.wh40k.attack.weapons import Target, Weapon, parse_abilities
from rulesbook.systems.wh40k.choices import Wh40kChoices
from rulesbook.systems.wh40k.effects.effect import Effect
from rulesbook.systems.wh40k.effects.scope import scope_text
from rulesbook.systems.wh40k.effects.text import TextPattern

__all__ = [
    "Application",
    "Applied",
    "Apply",
    "EffectKind",
    "Owner",
    "Prepare",
    "Shock",
    "ShockTest",
    "Source",
    "Use",
    "ValueRule",
]

type Owner = Literal["attacker", "defender"]
"""The side a rule belongs to in an attack."""


@dataclass(frozen=True, slots=True)
class ValueRule:
    """What an effect kind's ``value`` may be: an integer from ``lo`` to ``hi`` (``int``), one
    of ``options`` (``choice``), weapon ability words (``ability``) or anything (``free``: the
    kind reads no value)."""

    kind: Literal["int", "choice", "ability", "free"]
    lo: int = 0
    hi: int = 0
    options: tuple[str, ...] = ()

    @property
    def schema(self) -> str:
        """The value's schema in words (the effects page lists it).

        >>> ValueRule("int", 1, 12).schema
        'value: an integer from 1 to 12'
        """
        if self.kind == "int":
            return f"value: an integer from {self.lo} to {self.hi}"
        if self.kind == "choice":
            return "value: one of " + ", ".join(self.options)
        if self.kind == "ability":
            return "value: weapon ability words (e.g. lethal-hits, crit-hit-5)"
        return "no value"

    def check(self, raw: Any, where: str) -> Any:
        """The checked value (DataFileError naming ``where`` when it is not allowed)."""
        if self.kind == "int":
            if isinstance(raw, bool) or not isinstance(raw, int) or not self.lo <= raw <= self.hi:
                raise DataFileError(
                    f"{where}: expected an integer from {self.lo} to {self.hi}, got {quote(raw)}"
                )
        elif self.kind == "choice":
            if raw not in self.options:
                raise DataFileError(f"{where}: expected one of {', '.join(self.options)}, got {quote(raw)}")
        elif self.kind == "ability":
            try:
                parse_abilities(str(raw), field_name=where)
            except InputError as exc:
                raise DataFileError(f"{where}: {exc.message}") from None
        return raw


@dataclass(frozen=True, slots=True)
class Applied:
    """One declared effect and what became of it."""

    rule: str
    name: str
    effect: str
    applied: bool
    why: str
    side: str = "attacker"
    """Whose rule it is: ``attacker`` or ``target``."""


@dataclass(frozen=True, slots=True)
class Source:
    """A rule a side brings to the attack, with its effects."""

    rule: str
    name: str
    side: str
    chosen: bool
    """Chosen by the player (a stratagem, an aura, a Sickness): out of scope gives a warning."""
    effects: tuple[Effect, ...]
    aura: Literal["own", "near", ""] = ""
    """A friendly aura: of the unit itself (``own``), of a bearer ``aura_distance`` away
    (``near``), or not an aura reach question (``""``)."""
    lord: bool = False
    """An aura that disregards modifiers, as Lord of the Death Guard (the reading
    lord-own-modifiers is about it)."""
    field: str = "stratagems"
    """The input that chose it (for a refusal's message)."""


@dataclass(frozen=True, slots=True)
class Use:
    """One effect of one source, with its kind, about to be applied: ``attacking`` says whether
    it lands on the attacking unit (else on the target)."""

    src: Source
    effect: Effect
    kind: EffectKind
    attacking: bool = True


class Application:
    """The attack as the effects change it: weapons, target, situation, the Hit and Wound roll
    modifiers collected (summed and capped afterwards), AP by rule, each side's Contagion Range
    and who disregards modifiers (Lord of the Death Guard, by side), and every decision, recorded."""

    def __init__(
        self,
        weapons: list[Weapon],
        target: Target,
        situation: Situation,
        choices: Wh40kChoices,
    ) -> None:
        self.weapons = weapons
        self.target = target
        self.situation = situation
        self.choices = choices
        self.applied: list[Applied] = []
        self.warnings: list[str] = []
        self.hit_mods: list[tuple[str, int]] = [("hit_modifier input", situation.hit_modifier)]
        self.wound_mods: list[tuple[str, int]] = [("wound_modifier input", situation.wound_modifier)]
        self.ap_by_rule: dict[str, int] = {}
        self.ignores: dict[Owner, str] = {}
        self.contagion: dict[Owner, int] = {}

    def note(self, use: Use, applied: bool, why: str) -> None:
        """Record what became of one effect (worded by its kind)."""
        shown = use.kind.words(use.effect)
        self.applied.append(Applied(use.src.rule, use.src.name, shown, applied, why, use.src.side))

    def weapon_abilities(self, word: str) -> str:
        """Give every weapon the ability words (the names of those that changed)."""
        ab = parse_abilities(word)
        changed = []
        stacking = self.choices.readings.sustained_stacking
        for i, w in enumerate(self.weapons):
            old = w.abilities
            if ab.sustained is not None:
                # a weapon that already has Sustained Hits keeps the larger X on average
                # (register entry sustained-stacking; "stratagem-replaces" takes the granted X)
                keep = stacking == "larger-on-average"
                if (
                    keep
                    and old.sustained is not None
                    and old.sustained.die().mean() >= ab.sustained.die().mean()
                ):
                    continue
                new = replace(old, sustained=ab.sustained)
            else:
                new = old.gain(ab)
                if (new.blast or new.torrent or new.heavy or new.indirect_fire) and not w.ranged:
                    continue  # a ranged ability does not reach a melee weapon
            if new != old:
                self.weapons[i] = replace(w, abilities=new)
                changed.append(w.name)
        return ", ".join(changed) if changed else "no weapon changed (each already has it)"


@dataclass(frozen=True, slots=True)
class ShockTest:
    """A Battle-shock test as the effects change it: the Leadership worsened by ``worse``
    steps (negative: improved), ``modifier`` added to the 2D6 roll, a failed test re-rolled
    once (``reroll``), or the test ``passed`` outright; ``record`` says what became of each
    effect offered to it (its words, whether it acted, and why)."""

    worse: int = 0
    passed: bool = False
    modifier: int = 0
    reroll: bool = False
    record: tuple[tuple[str, bool, str], ...] = ()


type Apply = Callable[[Application, Use], None]
"""A kind's hook on one attack."""
type Prepare = Callable[[Application, Owner, Callable[[str], bool], Use], None]
"""A kind's hook before the attack: the side that owns the rule, whether that side's unit has a
keyword, the effect."""
type Shock = Callable[[ShockTest, Effect], ShockTest]
"""A kind's hook on a Battle-shock test."""
type Describe = Callable[[Effect], str]


@dataclass(frozen=True, slots=True)
class EffectKind:
    """One kind of effect, declared once: its name, what it does (one line), what its value may
    be, how it is worded, whose numbers it changes in an attack (``lands``: the attacking
    unit's rolls and weapons, the target's, or ``either``: the kind's ``apply`` decides), its
    hooks (``apply`` on an attack, ``prepare`` before one, ``shock`` on a Battle-shock test) and
    the rule-text phrasings that declare it (``texts``)."""

    name: str
    summary: str
    value: ValueRule
    describe: Describe
    apply: Apply
    lands: Literal["attacker", "target", "either"]
    needs_characteristic: bool = False
    notes: str = ""
    """What else the kind reads (the page of the effects language shows it)."""
    texts: tuple[TextPattern, ...] = ()
    prepare: Prepare | None = None
    shock: Shock | None = None
    disregards_modifiers: bool = False
    """The unit disregards harmful modifiers (an aura of such a kind is Lord of the Death
    Guard's: the reading lord-own-modifiers is about it)."""

    def words(self, effect: Effect) -> str:
        """The effect in words: what the kind does and the conditions it carries."""
        return f"{self.describe(effect)} ({scope_text(effect)})"

    def run(self, b: Application, use: Use) -> None:
        """Apply one effect, or record why it changes nothing of this attack."""
        if self.lands == "attacker" and not use.attacking:
            b.note(use, False, "changes the unit's own attacks, not the attacks made against it")
        elif self.lands == "target" and use.attacking:
            b.note(use, False, "protects or changes the attacking unit in other ways, not its attacks")
        else:
            self.apply(b, use)
