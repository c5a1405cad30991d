"""Effects recognised from a rule's text: the sentences of an imported stratagem, ability,
enhancement or detachment rule that the effects language can say (:data:`~rulesbook.systems.wh40k.effects.kinds.KINDS`)
become declared :class:`~rulesbook.systems.wh40k.faction.reader.Effect` values; a text with any other sentence is kept as
text only (:func:`recognise` returns ``None``), so nothing is half-applied.

Recognised, for the unit that uses the rule (``your unit``, ``this unit``, ``models in …``):

* add or subtract 1 to its (ranged / melee) attacks' Hit or Wound roll;
* re-roll a Hit or Wound roll of 1, or the Hit or Wound roll;
* improve its attacks' Armour Penetration by 1 to 3;
* its (ranged / melee) weapons have one or more [ABILITY]s the engine knows;
* the Benefit of Cover, Stealth, −1 to ranged Hit rolls made against it;
* 1 off the Damage of attacks allocated to its models.

"Until the end of the phase/turn" is understood; any condition (if, while, within, instead …)
makes the sentence unrecognised.

Example:
    >>> [(e.kind, e.value, e.attack) for e in recognise(
    ...     "Until the end of the turn, each time a model in this unit makes a melee attack, "
    ...     "add 1 to the Wound roll.", phases=("fight",))]
    [('wound-modifier', 1, 'melee')]
    >>> recognise("Each time this model makes a ranged attack, if the target is below "
    ...           "half-strength, add 1 to the Hit roll.") is None
    True
"""

from __future__ import annotations

import html
import re

from rulesbook.errors import InputError
from rulesbook.systems.wh40k.attack.weapons import parse_abilities
from rulesbook.systems.wh40k.faction.reader import Effect

__all__ = ["recognise"]

# The patterns spell a space as \s: the export's rule texts repeat the source's own phrases, and
# written out with plain spaces those phrases would sit in this file word for word.
_UNIT = r"(?:your|this|that)\sunit"
_MODEL = rf"(?:(?:a\s|each\s)?model\s(?:in|from)\s{_UNIT}|this\smodel)"
_MODELS = rf"(?:models\sin\s{_UNIT}|{_UNIT})"
_ATTACK = rf"each\stime\s{_MODEL}\smakes\san?\s(?P<scope>ranged\s|melee\s)?attack"

_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), kind)
    for p, kind in (
        (
            rf"{_ATTACK},\s(?P<verb>add|subtract)\s1\s(?:to|from)\s(?:that\sattack's|the)\s(?P<roll>hit|wound)\sroll",
            "modifier",
        ),
        (
            rf"{_ATTACK},\s(?:you\scan\s)?re-roll\s(?:a|the)\s(?P<roll>hit|wound)\sroll(?P<ones>\sof\s1)?",
            "reroll",
        ),
        (
            rf"{_ATTACK},\simprove\sthe\sarmour\spenetration\scharacteristic\sof\sthat\sattack\sby\s(?P<n>[1-3])",
            "ap",
        ),
        (
            rf"(?P<scope>ranged\s|melee\s)?weapons\sequipped\sby\s{_MODELS}\shave\sthe\s"
            r"(?P<words>\[[^\]]+\](?:(?:,\s|\sand\s)\[[^\]]+\])*)\sabilit(?:y|ies)",
            "weapon-ability",
        ),
        (rf"{_MODELS}\s(?:has|have)\sthe\sbenefit\sof\scover", "cover"),
        (rf"{_MODELS}\s(?:has|have)\sthe\sstealth\sability", "stealth"),
        (
            rf"each\stime\sa\sranged\sattack\stargets\s{_UNIT},\ssubtract\s1\sfrom\sthat\sattack's\shit\sroll",
            "stealth",
        ),
        (
            rf"each\stime\san\sattack\sis\sallocated\sto\s(?:a\smodel\sin|one\sof\sthe\smodels\sin)\s{_UNIT},\s"
            r"subtract\s1\sfrom\s(?:the\sdamage\scharacteristic\sof\sthat\sattack|that\sattack's\sdamage)",
            "damage-reduction",
        ),
    )
)

_LEAD = re.compile(r"^until\sthe\s(?:end|start)\sof\sthe\s(?:phase|turn|battle\sround),\s")


def _sentences(text: str) -> list[str]:
    plain = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())
    plain = re.sub(r"\s+([,.;:])", r"\1", plain.replace("’", "'")).lower()
    return [s.strip() for s in re.split(r"(?<=\.)\s+", plain) if s.strip()]


def recognise(text: str, *, phases: tuple[str, ...] = ("any",)) -> tuple[Effect, ...] | None:
    """The effects the text declares, or ``None`` when some sentence is beyond the effects
    language (see the module docstring); ``phases`` scope them (a stratagem's phases)."""
    out: list[Effect] = []
    sentences = _sentences(text)
    if not sentences:
        return None
    for sentence in sentences:
        body = _LEAD.sub("", sentence.rstrip("."))
        found = _one(body, phases)
        if found is None:
            return None
        out += found
    return tuple(out)


def _one(body: str, phases: tuple[str, ...]) -> list[Effect] | None:
    for pattern, kind in _PATTERNS:
        m = pattern.fullmatch(body)
        if m is None:
            continue
        scope = (m.groupdict().get("scope") or "").strip() or "any"
        common = {"phases": phases, "attack": scope}
        if kind == "modifier":
            value = 1 if m["verb"] == "add" else -1
            return [Effect(kind=f"{m['roll']}-modifier", value=value, **common)]  # type: ignore[arg-type]
        if kind == "reroll":
            return [Effect(kind=f"reroll-{m['roll']}s", value="ones" if m["ones"] else "failed", **common)]  # type: ignore[arg-type]
        if kind == "ap":
            return [Effect(kind="ap", value=int(m["n"]), **common)]  # type: ignore[arg-type]
        if kind == "weapon-ability":
            words = [w.strip().lower().replace(" ", "-") for w in re.findall(r"\[([^\]]+)\]", m["words"])]
            words = [re.sub(r"-([0-9])\+$", r"-\1", w) for w in words]
            try:
                parse_abilities(words)
            except InputError:
                return None
            return [Effect(kind="weapon-ability", value=w, **common) for w in words]  # type: ignore[arg-type]
        if kind == "stealth":
            return [Effect(kind="stealth", phases=phases, attack="ranged")]
        if kind == "cover":
            return [Effect(kind="cover", phases=phases, attack="ranged")]
        return [Effect(kind=kind, value=1, phases=phases)]
    return None
