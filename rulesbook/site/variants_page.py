"""The site's designer variants page: the variant file schema, the shipped variants and what
each changes, and every parameter and reading a variant can set — generated from the declarations."""

from __future__ import annotations

from typing import Any

from rulesbook.errors import did_you_mean
from rulesbook.index import page_of
from rulesbook.registry import registry
from rulesbook.site.static import static_build
from rulesbook.variants import overridable_rules, signature_text, variant_calculators, variants_for_system

__all__ = ["HOUSE_BOX", "house_rule_section", "variants_markdown"]

HOUSE_BOX = (
    '<div class="rb-house rb-no-glossary" id="house-rule-box" data-search-exclude>'
    '<p class="rb-house-status" role="status" data-state="waiting">'
    "Your house rule is checked here by the live calculator once it has loaded.</p>"
    '<label for="rb-house-text">The text of a variant file</label>'
    '<textarea id="rb-house-text" class="rb-house-text" rows="9" spellcheck="false" autocomplete="off" '
    'placeholder="system: scrollhammer&#10;title: Harsher Break tests&#10;parameters:&#10;  break_ld_per_point: 2">'
    "</textarea>"
    '<div class="rb-house-actions">'
    '<label class="rb-house-open">Open a .yaml file <input type="file" accept=".yaml,.yml" class="rb-house-file"></label>'
    '<button type="button" class="rb-house-clear">Clear</button>'
    '<button type="button" class="rb-house-earlier" hidden>Back to your earlier text</button>'
    "</div>"
    '<div class="rb-house-summary"></div>'
    '<div class="rb-house-calcs"></div>'
    '<p class="rb-house-link" hidden>Send it by link: <a class="rb-house-href">this page with your house rule</a> '
    '<button type="button" class="rb-house-copy">Copy the link</button></p>'
    '<p class="rb-house-kept" hidden>This browser keeps nothing for this site: only the link keeps your text.</p>'
    "</div>"
)
"""The variants page's house-rule box (``docs/javascripts/house-rules.js`` keeps its text,
``docs/javascripts/live-calculators.js`` checks it in the page's Python)."""


def house_rule_section() -> list[str]:
    """The variants page's "Your house rule" section: on the published (static) site a box where
    a reader pastes or opens a variant file and every live calculator of its system compares with
    it; on the served site, where to put your variant files instead.

    >>> any("rb-house" in line for line in house_rule_section())
    True
    """
    if not static_build():
        return [
            "## Your house rule",
            "",
            "On the published site a reader pastes a variant file here and every calculator of",
            "its system shows it beside the published rules, in the browser. Served by",
            "`rulesbook serve`, put your variant files in the folder `$RULESBOOK_VARIANTS_DIR` names",
            "instead: every form offers them under **Compare with**, and shows the inputs a compared",
            "variant adds (`add: inputs`) below its own.",
            "",
            *_added_calculator_links(),
        ]
    return [
        "## Your house rule",
        "",
        "Paste the text of a variant file below (or open one): it is checked as the command line",
        "checks a variant file, and every calculator of its system on this site then shows it",
        "beside the published rules, computed in your browser. Your text is kept in this browser",
        "as you type it, and **Send it by link** gives an address that carries it (after `#`, so",
        "it never reaches a web server): whoever opens it sees the same comparison. The inputs a",
        "house rule adds (`add: inputs`) appear in every form it reaches, below the form's own, and",
        "each calculator it adds (`add: calculators`) gets a form right here, below the box.",
        "",
        HOUSE_BOX,
        "",
    ]


def _added_calculator_links() -> list[str]:
    """Served: a link to the page of each calculator a listed variant adds (``add: calculators``),
    which computes under that variant (:func:`rulesbook.variants.variant_calculators`)."""
    added = variant_calculators()
    if not added:
        return []
    out = ["Calculators your variants add (each page computes under the variant that adds it):", ""]
    out += [
        f'- <a href="/calc/{calc_id}">`{calc_id}`</a> — variant `{name}`' for calc_id, name in added.items()
    ]
    return [*out, ""]


def variants_markdown() -> str:
    """The site's variants page: the file schema, the shipped variants and what each changes,
    and every parameter and reading a variant can set (all generated from the declarations).

    >>> page = variants_markdown()
    >>> page.startswith("# Designer what-ifs: variants") and "| `system` | yes |" in page
    True
    """
    reg = registry()
    out = [*_INTRODUCTION, *house_rule_section(), *_writing_a_variant(), "## Shipped variants", ""]
    for system in reg.systems.values():
        out += _shipped_variants(system.id, system.title)
    out += ["## What a variant can change", ""]
    for system in reg.systems.values():
        choices = reg.choices.get(system.id)
        if choices is not None:
            out += _what_a_variant_can_change(system.id, system.title, choices)
    return "\n".join(out) + "\n"


_INTRODUCTION = (
    "# Designer what-ifs: variants",
    "",
    "A **variant** is a named change to a rule set: other values for the numbers and dice the",
    "rules fix (*rule parameters*), other answers to the gaps in the sources (*readings* of the",
    "interpretations register), or — in Python — another function for a calculator. Every",
    "calculator runs under a variant on the command line, in Python and in the widgets, beside",
    "the rules as published.",
    "",
    "```bash",
    "rulesbook variants                                    # the shipped variants (and yours)",
    "rulesbook variants show break-2-ld-per-point          # as a variant file that loads back",
    "rulesbook parameters scrollhammer                     # everything a variant can set",
    "rulesbook calc scrollhammer.break-test ld=8 lost_by=2 variant=break-2-ld-per-point",
    "rulesbook calc ID ... variant=my-rules.yaml variant=other   # repeat to compose",
    "rulesbook compare scrollhammer.break-test ld=8 lost_by=2 --variant break-2-ld-per-point",
    "rulesbook sweep scrollhammer.break-test ld=5..10 lost_by=1..4 --variant break-2-ld-per-point --csv out.csv --plot out.png",
    "```",
    "",
    "In Python: `rulesbook.variants.run_with_variant(calc, 'NAME' or 'path.yaml' or Variant, **inputs)`,",
    "`compare(calc, inputs, [variants])` and `Variant.define(...)` (which may also replace a",
    "calculator's function: `functions={'calculator-id': fn}`, `fn` taking the calculator's inputs",
    "and `choices`). In the widgets, pick a variant under **Compare with**; served calculators",
    "keep it in the address (`/calc/ID?ld=8&variant=NAME`), so a comparison can be bookmarked and",
    "sent. [Sweeps](sweeps.md) run a calculator over a grid of inputs × variants; [designer",
    "analysis](designing.md) solves for a target, ranks the rules by how much they move an answer,",
    "draws balance tables and shares a change as a file. Your own variant files, in the folder",
    "`$RULESBOOK_VARIANTS_DIR` names, are found by name like the shipped ones and offered by",
    "**Compare with**.",
    "",
)
"""The page's title and what a variant is, with the commands that use one."""


def _writing_a_variant() -> list[str]:
    """How a variant file is written: an example, its keys, and the errors a bad one gets."""
    return [
        "## Writing a variant",
        "",
        "A variant file is a small YAML document; its name is the file name without `.yaml`:",
        "",
        "```yaml",
        "system: scrollhammer",
        "title: −2 Ld per point lost in a Break test",
        "description: >",
        "  Lost combats become decisive much sooner.",
        "parameters:",
        "  break_ld_per_point: 2",
        "readings:",
        "  ld_bounds: max-10",
        "```",
        "",
        "| key | required | what it is |",
        "|---|---|---|",
        "| `system` | yes | the system whose rules change (its ID) |",
        "| `title` | yes | one line, shown beside the results |",
        "| `description` | no | why, in the designer's words |",
        "| `parameters` | no | parameter key → new value (the tables below list every key, its value and what is allowed) |",
        "| `readings` | no | reading key (or interpretation ID) → option key (quote `'on'`/`'off'`: YAML reads them as true/false) |",
        "",
        "A file is checked when it is loaded; any problem is one line naming the file, the line, the key and",
        "what is allowed, and the command exits with code 2:",
        "",
        "```text",
        "rulesbook: error: my-rules.yaml, line 4: parameters.break_ld_per_pont: unknown rule parameter"
        + did_you_mean("break_ld_per_pont", ["break_ld_per_point"])
        + " allowed: …",
        "rulesbook: error: my-rules.yaml, line 5: parameters.fall_back_dice: the dice can roll below 1, got D6-3",
        "rulesbook: error: my-rules.yaml, line 6: parameters.points_per_morale: is a army-morale parameter, not scrollhammer's; …",
        "```",
        "",
        "Variants compose (`variant=a variant=b`, `--variant a+b`, names and paths alike) when they are of one system; two",
        "variants that set the same key to different values are a conflict, reported in one line.",
        "",
    ]


def _shipped_variants(system_id: str, title: str) -> list[str]:
    """A system's shipped variants: each one's changes and file, then their descriptions."""
    shipped = variants_for_system(system_id)
    if not shipped:
        return []
    out = [f"### {title}", "", "| variant | what changes | file |", "|---|---|---|"]
    for v in shipped:
        changes = "<br>".join(s.replace("|", "\\|") for s in v.summary())
        out.append(f"| **`{v.name}`** — {v.title} | {changes} | `{v.path}` |")
    out.append("")
    out += [f"- **{v.name}**: {v.description}" for v in shipped if v.description]
    out.append("")
    return out


def _what_a_variant_can_change(system_id: str, title: str, choices: Any) -> list[str]:
    """A system's rule parameters and readings (with their values, what is allowed and their
    rule or register entry) and the rules a Python variant can replace."""
    out = [f"### {title} (`system: {system_id}`)", "", "Rule parameters:", ""]
    out += ["| key | value | allowed | rule | source section |", "|---|---|---|---|---|"]
    for spec in type(choices.parameters).specs():
        value = spec.format(getattr(choices.parameters, spec.key))
        link = f"[{spec.rule}]({page_of(spec.rule, 'rule')})"
        label = spec.label.replace("|", "\\|")
        out.append(f"| `{spec.key}` | `{value}` ({label}) | {spec.allowed()} | {link} | {spec.section} |")
    out += ["", "Readings (the options of each entry of the interpretations register):", ""]
    out += ["| key | default | options | interpretation |", "|---|---|---|---|"]
    for rspec in type(choices.readings).specs():
        link = f"[{rspec.interpretation}]({page_of(rspec.interpretation, 'interpretation')})"
        inert = " (no number changes)" if rspec.inert else ""
        out.append(f"| `{rspec.key}` | `{rspec.default}` | {', '.join(rspec.options)} | {link}{inert} |")
    out.append("")
    replaceable = overridable_rules(system_id)
    if replaceable:
        out += [
            "Rules a Python variant can give other code ([how](designer/guide.md#python-variants-the-contract)):",
            "",
            "| rule | function (its arguments) |",
            "|---|---|",
        ]
        for rule_id, functions in sorted(replaceable.items()):
            for func in functions:
                shown = signature_text(func).replace("|", "\\|")
                out.append(f"| [{rule_id}]({page_of(rule_id, 'rule')}) | `{shown}` |")
        out.append("")
    return out
