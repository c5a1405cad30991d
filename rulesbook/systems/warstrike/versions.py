"""Rule-set drafts as data: which WarStrike draft is current, its parameters, what changed.

``versions.yaml`` lists every draft rulesbook holds (oldest first). A draft is a set of rule
parameter values — the morale threshold (as a fraction, ``1/2``), any other parameter of
:class:`~rulesbook.systems.warstrike.choices.WarStrikeParameters` by its key — and the step
list, so a draft is a changed copy of the system's choice set (:func:`draft_choices`), the same
mechanism as a designer's variant. The shipped current (last) draft equals the declared
defaults (a test keeps them in step).
A later draft (say 0.53) is one more entry, selectable with the ``rules_version`` input of the
calculators, while 0.52 stays available for comparison. :func:`changes_markdown` renders the
"what changed" section of ``guide.md`` from the same data (a test keeps the two in step).

Example:
    >>> ruleset().version, ruleset().morale_threshold
    ('0.52', Fraction(1, 2))
    >>> ruleset("0.51")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: rules_version: expected one of 0.52, got '0.51'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from rulesbook.data import DataFileError, load_data_file, need
from rulesbook.errors import InputError, quote
from rulesbook.systems.warstrike.choices import CHOICES, WarStrikeChoices, WarStrikeParameters

__all__ = [
    "Change",
    "RuleSet",
    "changes_markdown",
    "draft_choices",
    "rule_since",
    "ruleset",
    "rulesets",
]

VERSIONS_FILE = Path(__file__).with_name("versions.yaml")
RULES_FILE = Path(__file__).with_name("rules.yaml")
STEPS = ("check-strike-force-morale", "check-victory-conditions", "roll-for-reserves")
CHANGE_KINDS = ("added", "changed", "removed", "known")


@dataclass(frozen=True, slots=True)
class Change:
    """One entry of a draft's change list."""

    kind: str
    what: str
    note: str
    rules: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The parameters of one draft of the Starting Phase.

    Attributes:
        version: the draft's version string (``"0.52"``).
        source: the source document of the draft (its file name).
        title: the document's title as a reader knows it (what the pages show).
        morale_threshold: a check is needed when remaining units < this × starting units.
        steps: the phase's steps, in order (today the engine supports exactly :data:`STEPS`).
        changes: what changed from the previous draft.
        parameters: the draft's rule parameters by key of
            :class:`~rulesbook.systems.warstrike.choices.WarStrikeParameters` (the morale
            threshold as its numerator and denominator, and any other parameter it sets).
    """

    version: str
    source: str
    morale_threshold: Fraction
    steps: tuple[str, ...]
    changes: tuple[Change, ...]
    parameters: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    title: str = ""


def _field(mapping: Any, key: str, where: str) -> Any:
    return need(mapping, key, where, object)


def _load(path: Path) -> tuple[RuleSet, ...]:
    name = path.name
    data = load_data_file(path)
    drafts = _field(data, "drafts", name)
    if not isinstance(drafts, list) or not drafts:
        raise DataFileError(f"{name}.drafts: expected a non-empty list")
    out = []
    for i, raw in enumerate(drafts):
        where = f"{name}.drafts[{i}]"
        params = _field(raw, "parameters", where)
        try:
            threshold = Fraction(str(_field(params, "morale_threshold", f"{where}.parameters")))
        except ValueError:
            raise DataFileError(
                f"{where}.parameters.morale_threshold: expected a fraction such as 1/2"
            ) from None
        if not 0 < threshold <= 1:
            raise DataFileError(f"{where}.parameters.morale_threshold: must lie in (0, 1]")
        values = _parameters(params, threshold, f"{where}.parameters")
        steps = tuple(str(s) for s in _field(params, "steps", f"{where}.parameters"))
        if steps != STEPS:
            # The phase engine (rules.starting_phase) runs exactly these steps in this order; a
            # draft that adds, drops or reorders steps needs code as well as data.
            raise DataFileError(
                f"{where}.parameters.steps: the engine supports {', '.join(STEPS)} in this order"
            )
        changes = []
        for j, ch in enumerate(raw.get("changes", []) or []):
            cw = f"{where}.changes[{j}]"
            kind = str(_field(ch, "kind", cw))
            if kind not in CHANGE_KINDS:
                raise DataFileError(
                    f"{cw}.kind: expected one of {', '.join(CHANGE_KINDS)}, got {quote(kind)}"
                )
            changes.append(
                Change(
                    kind,
                    str(_field(ch, "what", cw)),
                    " ".join(str(ch.get("note", "")).split()),
                    tuple(ch.get("rules", ()) or ()),
                )
            )
        out.append(
            RuleSet(
                version=str(_field(raw, "version", where)),
                source=str(_field(raw, "source", where)),
                morale_threshold=threshold,
                steps=steps,
                changes=tuple(changes),
                parameters=MappingProxyType(values),
                title=str(raw.get("title", "") or ""),
            )
        )
    return tuple(out)


def _parameters(params: Mapping[str, Any], threshold: Fraction, where: str) -> dict[str, Any]:
    """Every rule parameter of a draft: the declared defaults changed by what the draft says."""
    given = {k: v for k, v in params.items() if k not in ("morale_threshold", "steps")}
    given["morale_threshold_numerator"] = threshold.numerator
    given["morale_threshold_denominator"] = threshold.denominator
    try:
        checked = WarStrikeParameters().replace(given)
    except InputError as exc:
        raise DataFileError(f"{where}.{exc.field}: {exc.message}") from None
    return {s.key: getattr(checked, s.key) for s in WarStrikeParameters.specs()}


@cache
def rulesets() -> tuple[RuleSet, ...]:
    """Every draft, oldest first (the last is current)."""
    return _load(VERSIONS_FILE)


def ruleset(version: str | None = None) -> RuleSet:
    """The draft called ``version`` (the current one by default); InputError if unknown."""
    sets = rulesets()
    if version is None:
        return sets[-1]
    for rs in sets:
        if rs.version == version:
            return rs
    raise InputError(
        "rules_version", f"expected one of {', '.join(r.version for r in sets)}, got {quote(version)}"
    )


def draft_choices(version: str | None = None, base: WarStrikeChoices = CHOICES) -> WarStrikeChoices:
    """``base`` under draft ``version`` (the current one by default): a changed copy.

    The draft's parameters that differ from the declared defaults replace those of ``base``;
    the shipped current draft equals the defaults, so under it a variant is kept as it is.

    >>> draft_choices("0.52") == CHOICES
    True
    >>> draft_choices("0.51")
    Traceback (most recent call last):
    ...
    rulesbook.errors.InputError: rules_version: expected one of 0.52, got '0.51'
    """
    defaults = WarStrikeParameters()
    changed = {k: v for k, v in ruleset(version).parameters.items() if getattr(defaults, k) != v}
    return base.replace(parameters=changed)


@cache
def rule_since() -> dict[str, str]:
    """Rule ID -> the draft its text dates from (the ``since`` field of rules.yaml).

    >>> rule_since()["warstrike.morale.hive-mind"]
    '0.52'
    """
    data = load_data_file(RULES_FILE)
    return {str(r["id"]): str(r.get("since", "")) for r in data["rules"]}


def changes_markdown() -> str:
    """The "what changed" section of the guide, rendered from versions.yaml and rules.yaml.

    >>> changes_markdown().splitlines()[0]
    '## What changed between drafts'
    """
    lines = [
        "## What changed between drafts",
        "",
        "<!-- generated from versions.yaml by rulesbook.systems.warstrike.versions.changes_markdown -->",
        "",
    ]
    current = rulesets()[-1].version
    for rs in reversed(rulesets()):
        tag = " (current)" if rs.version == current else ""
        lines.append(f"### Ver. {rs.version}{tag}")
        lines.append("")
        lines.append(
            f"Source: {rs.title or rs.source}. Morale check below {rs.morale_threshold} of the starting units; "
            f"steps: {', '.join(rs.steps)}."
        )
        lines.append("")
        for ch in rs.changes:
            refs = f" Rules: {', '.join(f'`{r}`' for r in ch.rules)}." if ch.rules else ""
            lines.append(f"- **{ch.kind}** — {ch.what}: {ch.note}{refs}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":  # pragma: no cover - prints the section to paste into guide.md
    print(changes_markdown(), end="")
