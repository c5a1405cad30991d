"""Generate the rulebook site's pages from the registry (used by ``docs/gen_pages.py``).

Nothing on a generated page is typed by hand: rule texts, citations and interpretations come
from the systems' ``rules.yaml``; input tables from the calculator declarations; example
results and reference tables are computed while the site builds; the tests that cover a rule
and everything else about a rule come from :func:`rulesbook.index.rule_info`.

Example:
    >>> pages = generate_pages()
    >>> page = pages["scrollhammer/rules/scrollhammer.morale.insane-heroism.md"]
    >>> "Scrollhammer Morale section, § Insane Heroism" in page and "scrollhammer.morale-check" in page
    True
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from rulesbook.calculators import Calculator
from rulesbook.index import PageKind, anchor, covering_tests, page_of, rule_info, shown_path
from rulesbook.present import result_markdown, tables_markdown
from rulesbook.records import Interpretation, Rule, System
from rulesbook.registry import registry
from rulesbook.results import Table
from rulesbook.site.live import calculator_panel, live_iframe
from rulesbook.site.sources import citation_md, source_link
from rulesbook.site.static import live_link, live_note, static_build, static_calculator_html

__all__ = ["generate_pages"]


def md_link(here: str, some_id: str, kind: PageKind, text: str | None = None) -> str:
    """A Markdown link from the page ``here`` to the page of ``some_id`` as a ``kind`` (its ID
    as text by default; see :func:`rulesbook.index.page_of`)."""
    target = page_of(some_id, kind)
    path, _, frag = target.partition("#")
    rel = posixpath.relpath(path, posixpath.dirname(here) or ".")
    return f"[{text or some_id}]({rel}{'#' + frag if frag else ''})"


# -- page parts ------------------------------------------------------------------------------------


@cache
def _reference_tables(calc_id: str) -> tuple[Table, ...]:
    calc = registry().calculator(calc_id)
    return tuple(calc.reference_tables()) if calc.reference_tables else ()


def interpretation_md(here: str, interp: Interpretation, level: str = "###") -> list[str]:
    """An entry of the interpretations register as Markdown lines (heading at ``level``)."""
    out = [f"{level} {interp.question} {{#{anchor(interp.id)}}}", "", f"`{interp.id}`", ""]
    default = interp.option(interp.default)
    out += [f"**Default — {default.label}** (`{default.key}`). {default.description}".rstrip(), ""]
    out += [f"*Why:* {interp.why}", ""]
    if interp.fact_source:
        out += [f"*Fact source:* {interp.fact_source}", ""]
    out.append("**Alternatives:**")
    out.append("")
    for alt in interp.alternatives:
        out.append(f"- **{alt.label}** (`{alt.key}`){': ' + alt.description if alt.description else ''}")
    out.append("")
    if interp.rules:
        out += [
            "Applies to: "
            + ", ".join(md_link(here, r, "rule", registry().rule(r).title) for r in interp.rules),
            "",
        ]
    return out


def rule_page(rule: Rule) -> str:
    """The Markdown page of one rule (everything :func:`rulesbook.index.rule_info` knows)."""
    reg = registry()
    info = rule_info(rule.id)
    here = info.page_file
    system = reg.system(info.system)
    out = [
        f"# {info.title}",
        "",
        f"`{info.id}` · {md_link(here, system.id, 'system', system.title)} version {system.version}",
        "",
    ]
    if info.summary:
        out += [f"> {info.summary}", ""]
    out += calculator_panel(here, info.calculators)  # near the top: the reader can try it at once
    out += [info.text, ""]
    out += [
        "**Source:** "
        + "; ".join(citation_md(here, info.system, c) for c in info.citations)
        + " — paraphrased in our own words.",
        "",
    ]
    calcs = [reg.calculator(c) for c in info.calculators]
    if calcs:
        out += ["## Calculators", ""]
        for c in calcs:
            out.append(
                f"- {md_link(here, c.id, 'calculator', c.title)} (`{c.id}`) · {_try(here, c.id, 'live calculator')}"
            )
        out.append("")
    if info.interpretations:
        out += ["## Interpretations", ""]
        for interp_id in info.interpretations:
            out += interpretation_md(here, reg.interpretation(interp_id), "###")
    out += ["## Code", ""]
    for impl in info.code:
        out.append(f"- `{impl.module}.{impl.qualname}` — `{shown_path(Path(impl.file))}`, line {impl.line}")
    if not info.code:
        out.append("- *(no implementation marked)*")
    out.append("")
    out += ["## Tests", ""]
    out += [f"- `{t}`" for t in info.tests] or ["- *(none yet)*"]
    out.append("")
    tables = [t for c in calcs for t in _reference_tables(c.id)]
    if tables:
        out += ["## Computed tables", "", *tables_markdown(tables)]
    if rule.see_also:
        out += [
            "## See also",
            "",
            *[f"- {md_link(here, s, 'rule', reg.rule(s).title)}" for s in rule.see_also],
            "",
        ]
    return "\n".join(out)


def calculator_page(calc: Calculator) -> str:
    """The Markdown page of one calculator: inputs, results, example, rules, tables, live embed."""
    reg = registry()
    here = page_of(calc.id, "calculator")
    out = [
        f"# {calc.title}",
        "",
        f"`{calc.id}` · {_try(here, calc.id, 'open the live calculator', 'try it below')}",
        "",
        calc.summary,
        "",
    ]
    if static_build():
        out += ["## Try it", "", static_calculator_html(calc), "", live_note(calc.id), ""]
    else:  # served: the live calculator itself, at the top, sized to its content
        out += ["## Try it", "", live_iframe(calc.id), ""]
    out += ["## Inputs", "", "| key | allowed | default | meaning |", "|---|---|---|---|"]
    for inp in calc.inputs:
        default = "*required*" if inp.required else f"`{inp.format(inp.default)}`"
        meaning = inp.help
        interp = getattr(inp, "interpretation", None)
        if interp:
            meaning += " See " + md_link(here, interp, "interpretation", "the register") + "."
        out.append(f"| `{inp.key}` | {inp.allowed()} | {default} | {meaning} |")
    out += ["", "## Results", "", "| key | kind | meaning |", "|---|---|---|"]
    for o in calc.outputs:
        key = f"`{o.key}`, `{o.key}_exact`" if o.kind == "probability" else f"`{o.key}`"
        out.append(f"| {key} | {o.kind} | {o.label}{'. ' + o.help if o.help else ''} |")
    out.append("")
    for n, example in enumerate(calc.examples[:3]):
        data = calc.run_json(**dict(example))
        shown = {
            k: v for k, v in data["result"].items() if not isinstance(v, list) or len(json.dumps(v)) < 300
        }
        out += [f"## Example {n + 1}" if len(calc.examples) > 1 else "## Example", ""]
        out += ["```console", f"$ {calc.cli_example(example)}", "```", ""]
        out += ["```json", json.dumps({**data, "result": shown}, indent=2, ensure_ascii=False), "```", ""]
        out += result_markdown(calc.outputs, calc.run(**dict(example)))
    out += ["## Rules", ""]
    out += [f"- {md_link(here, r, 'rule', reg.rule(r).title)} (`{r}`)" for r in calc.rules]
    out.append("")
    tables = _reference_tables(calc.id)
    if tables:
        out += ["## Computed tables", "", *tables_markdown(tables)]
    out += [
        "## In Python",
        "",
        "```python",
        "from rulesbook.registry import registry",
        f'calc = registry().calculator("{calc.id}")',
        f"result = calc.run({', '.join(f'{k}={_py(calc, k, v)}' for k, v in (calc.examples[0] if calc.examples else {}).items())})",
        "```",
        "",
    ]
    tests = covering_tests().get(calc.id, ())
    if tests:
        out += ["## Tests", "", *[f"- `{t}`" for t in tests], ""]
    return "\n".join(out)


def _try(here: str, calc_id: str, text: str, static_text: str = "try it") -> str:
    return live_link(here, page_of(calc_id, "calculator"), calc_id, text, static_text)


def _py(calc: Calculator, key: str, text: str) -> str:
    value = calc.input(key).parse(text)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, tuple):
        return repr(list(value))
    if hasattr(value, "count") and hasattr(value, "sides"):
        return repr(str(value))
    return repr(value)


def system_page(system: System) -> str:
    """The index page of a system: version, source, guide, and everything it contains."""
    reg = registry()
    here = page_of(system.id, "system")
    out = [
        f"# {system.title}",
        "",
        f"**Version:** {system.version} · **Source:** {source_link(here, system)}",
    ]
    out += ["", system.summary, ""]
    guide = reg.folder(system.id) / "guide.md"
    if guide.is_file():
        out += [guide.read_text(encoding="utf-8").strip(), ""]
    out += ["## Calculators", "", "| calculator | ID | |", "|---|---|---|"]
    for c in reg.calculators_for_system(system.id):
        out.append(
            f"| {md_link(here, c.id, 'calculator', c.title)} | `{c.id}` | {_try(here, c.id, 'try it')} |"
        )
    out += ["", "## Rules", "", "| rule | ID | in short |", "|---|---|---|"]
    for r in reg.rules_for_system(system.id):
        out.append(f"| {md_link(here, r.id, 'rule', r.title)} | `{r.id}` | {r.summary} |")
    out += ["", "## Interpretations", ""]
    for i in reg.interpretations_for_system(system.id):
        out.append(f"- {md_link(here, i.id, 'interpretation', i.question)}")
    out.append("")
    return "\n".join(out)


def interpretations_page(system: System) -> str:
    """The system's interpretations register."""
    here = page_of(system.id, "register")
    out = [
        f"# Interpretations register — {system.title}",
        "",
        "Every gap or ambiguity we met in the source, the default we chose and why, and the "
        "alternatives. Calculators expose the alternatives as inputs where they change a number.",
        "",
    ]
    out += ["| question | default | ID |", "|---|---|---|"]
    for interp in registry().interpretations_for_system(system.id):
        default = interp.option(interp.default).label
        out.append(
            f"| {md_link(here, interp.id, 'interpretation', interp.question)} | {default} | `{interp.id}` |"
        )
    return "\n".join(out) + "\n"


def systems_table() -> str:
    """The home page's table of rule systems (appended to the hand-written ``index.md``)."""
    reg = registry()
    out = [
        "",
        "## The systems on this site",
        "",
        "| system | version | source | rules | calculators |",
        "|---|---|---|---:|---:|",
    ]
    for system in reg.systems.values():
        out.append(
            f"| [{system.title}]({page_of(system.id, 'system')}) | {system.version} | {source_link('index.md', system)} | "
            f"{len(reg.rules_for_system(system.id))} | {len(reg.calculators_for_system(system.id))} |"
        )
    out += [
        "",
        f"{len(reg.interpretations)} entries in the [interpretations register](interpretations.md).",
        "",
    ]
    return "\n".join(out)


def overview_pages() -> dict[str, str]:
    """Cross-system pages: all calculators and the whole interpretations register."""
    reg = registry()
    calcs = ["# Calculators", "", "| calculator | system | ID | |", "|---|---|---|---|"]
    for c in reg.calculators.values():
        calcs.append(
            f"| {md_link('calculators.md', c.id, 'calculator', c.title)} | {reg.system(c.system).title} | `{c.id}` | "
            f"{_try('calculators.md', c.id, 'try it')} |"
        )
    interps = ["# Interpretations register", "", "| system | question | default |", "|---|---|---|"]
    for i in reg.interpretations.values():
        interps.append(
            f"| {reg.system(i.system).title} | {md_link('interpretations.md', i.id, 'interpretation', i.question)} | "
            f"{i.option(i.default).label} |"
        )
    return {"calculators.md": "\n".join(calcs) + "\n", "interpretations.md": "\n".join(interps) + "\n"}


def generate_pages() -> dict[str, str]:
    """Every generated page: path inside docs -> Markdown."""
    reg = registry()
    pages = overview_pages()
    pages["cli.md"] = cli_page()
    for system in reg.systems.values():
        pages[page_of(system.id, "system")] = system_page(system)
        pages[page_of(system.id, "register")] = interpretations_page(system)
        for rule in reg.rules_for_system(system.id):
            pages[page_of(rule.id, "rule")] = rule_page(rule)
        for calc in reg.calculators_for_system(system.id):
            pages[page_of(calc.id, "calculator")] = calculator_page(calc)
    return pages


def summary_nav(notebooks: Iterable[str] = ()) -> str:
    """The literate-nav SUMMARY.md: hand-written pages, systems, notebooks, registers."""
    reg = registry()
    lines = ["* [Home](index.md)", "* [Quick start](quickstart.md)", "* [Your army](army-lists.md)"]
    for system in reg.systems.values():
        lines.append(f"* [{system.title}]({page_of(system.id, 'system')})")
        lines.append("    * Calculators")
        lines += [
            f"        * [{c.title}]({page_of(c.id, 'calculator')})"
            for c in reg.calculators_for_system(system.id)
        ]
        lines.append("    * Rules")
        lines += [f"        * [{r.title}]({page_of(r.id, 'rule')})" for r in reg.rules_for_system(system.id)]
        lines.append(f"    * [Interpretations]({page_of(system.id, 'register')})")
    nbs = list(notebooks)
    if nbs:
        lines.append("* Notebooks")
        lines += [f"    * [{Path(nb).stem.replace('-', ' ').capitalize()}]({nb})" for nb in nbs]
    lines += [
        "* [All calculators](calculators.md)",
        "* [Live calculators and apps](live.md)",
        "* [The served rulebook](serving.md)",
        "* [The JSON API](http-api.md)",
        "* [Interpretations register](interpretations.md)",
        "* [Command line](cli.md)",
        "* [Adding rules](adding-rules.md)",
        "* [Developing](developing.md)",
        "* [Server internals](server-internals.md)",
    ]
    return "\n".join(lines) + "\n"


def cli_page() -> str:
    """The command-line reference, from the click commands' own help."""
    import click

    from rulesbook.cli import cli

    out = [
        "# Command line",
        "",
        "Generated from `rulesbook --help`. Exit code 2 means bad input; "
        "the one-line message on stderr names the field and what is allowed.",
        "",
    ]
    ctx = click.Context(cli, info_name="rulesbook")
    out += ["```text", cli.get_help(ctx), "```", ""]
    for name in [*cli.commands, *(n for n in cli.list_commands(ctx) if n not in cli.commands)]:
        cmd = cli.get_command(ctx, name)  # (the core's commands, then those the systems bring)
        if cmd is None:
            continue
        sub = click.Context(cmd, info_name=name, parent=ctx)
        out += [f"## `rulesbook {name}`", "", "```text", cmd.get_help(sub), "```", ""]
    out += [
        "## Calculator help",
        "",
        "`rulesbook calc ID --help` prints the generated inputs of a calculator:",
        "",
    ]
    for calc in registry().calculators.values():
        out += [f"### `{calc.id}`", "", "```text", calc.help_text(), "```", ""]
    return "\n".join(out)
