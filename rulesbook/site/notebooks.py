"""Notebook pages on the site: a static picture for each interactive cell, and the ``.ipynb`` link.

A notebook's calculator cell shows a live ipywidgets form in JupyterLab. Saved to disk, its
output is only the widget's text (``VBox(children=(HTML(value=...``), which means nothing to a
reader of the site. :func:`replace_widget_outputs` swaps each such output for a static picture
of the form — the calculator's inputs at the cell's values and the answer the Python calculator
gives for them — with links to try the calculator on the site (static) and under
``rulesbook serve`` (live). Every notebook page also gets a link to its ``.ipynb`` and the
command that opens it in JupyterLab (``scripts/lab``).

Example:
    >>> cell = widget_call('from widgets.forms.ipy import calculator_widget\\ncalculator_widget("scrollhammer.morale-check", ld=8)')
    >>> cell
    ('scrollhammer.morale-check', {'ld': 8})
    >>> picture = static_picture(*cell, calc_url="../x.html")
    >>> 'data-key="p_pass_exact">13/18<' in picture and "VBox" not in picture
    True
"""

from __future__ import annotations

import ast
import html
import posixpath
import re
from typing import Any

from rulesbook.calculators import form_text
from rulesbook.index import page_of
from rulesbook.registry import registry
from rulesbook.site.static import LIVE_PREFIX, TRY_IT, static_build

__all__ = ["WIDGET_OUTPUT", "replace_widget_outputs", "static_picture", "widget_call"]

WIDGET_OUTPUT = re.compile(
    r'<div class="jp-RenderedText[^"]*"[^>]*data-mime-type="text/plain"[^>]*>\s*<pre>'
    r"\s*[A-Z]\w*\((?:children|value|layout|description|options)=.*?</pre>"
    r'|<div class="jp-RenderedHTMLCommon[^"]*"[^>]*data-mime-type="text/html"[^>]*>\s*'
    r'<div class="rb-form-picture".*?<!--/rb-form-picture--></div>',
    re.DOTALL,
)
"""A text/plain output that is the text of an ipywidgets object (``VBox(children=...``), or the
picture of a form a saved notebook holds (``widgets.forms.ipy.picture_html``, shown by JupyterLab until
the kernel runs): both become the site's picture with its links."""
_SOURCE = re.compile(r'<div class="clipboard-copy-txt"[^>]*>(.*?)</div>', re.DOTALL)


def special_apps() -> dict[str, tuple[str, str]]:
    """Notebook factories of the systems' special apps -> (app name under ``/app/``, the
    calculator to try instead), from their declarations (:class:`rulesbook.registry.App`).

    >>> special_apps()["ipy_tracker"]
    ('army-morale-tracker', 'army-morale.replay')
    """
    return {a.ipywidgets_name: (a.name, a.calculator) for a in registry().apps.values() if a.ipywidgets}


_NOT_LITERAL = object()


def _literal(node: ast.expr) -> Any:
    """A keyword's value written as a literal (``7``, ``-1``, ``"x"``, ``(1, 2)``), else ``_NOT_LITERAL``.

    >>> _literal(ast.parse("-1", mode="eval").body)
    -1
    """
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError):
        return _NOT_LITERAL


def widget_call(source: str) -> tuple[str, dict[str, Any]] | None:
    """The calculator ID and constant keyword values of a cell's widget call, if any.

    ``rb.widget("id", key=value, ...)`` (the front door) or ``calculator_widget("id", ...)`` gives
    the ID and the constant keywords (``compare_with`` left out; a ``**`` of other values reads
    as the worked example's, as the notebooks use it); a special app factory
    (``ipy_tracker()``) gives the calculator to try instead and no values.

    >>> widget_call('import rulesbook as rb\\nrb.widget("wh40k.battle-shock", leadership=7, compare_with="x")')
    ('wh40k.battle-shock', {'leadership': 7})
    >>> widget_call('rb.widget("scrollhammer.morale-check", ld=7, modifier=-1, other=x)')
    ('scrollhammer.morale-check', {'ld': 7, 'modifier': -1})
    >>> widget_call("ipy_tracker()")
    ('army-morale.replay', {})
    >>> widget_call("print(1)") is None
    True
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name | ast.Attribute):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
        apps = special_apps()
        if name in apps:
            return apps[name][1], {}
        if name in ("calculator_widget", "widget") and node.args and isinstance(node.args[0], ast.Constant):
            values = {
                kw.arg: value
                for kw in node.keywords
                if kw.arg not in (None, "compare_with") and (value := _literal(kw.value)) is not _NOT_LITERAL
            }
            calc_id = str(node.args[0].value)
            if any(kw.arg is None for kw in node.keywords) and calc_id in registry().calculators:
                # ``**calc.examples[0]``, as the notebooks write it: the worked example's values
                values = {**registry().calculator(calc_id).examples[0], **values}
            return calc_id, values
    return None


def static_picture(calc_id: str, values: dict[str, Any], *, calc_url: str, app: str = "") -> str:
    """A static picture of a calculator form at ``values`` with its answer, and where to try it."""
    from rulesbook.present import result_html

    calc = registry().calculator(calc_id)
    current, _ = calc.form_start(values)  # where the notebook's form starts
    rows = "".join(
        f'<label class="rb-picture-input"><span>{html.escape(inp.title)}</span>'
        f'<input type="text" disabled value="{html.escape(form_text(inp, current[inp.key]))}"></label>'
        for inp in calc.inputs
    )
    answer = result_html(calc.outputs, calc.run(**current), styled=True)
    live = f"{LIVE_PREFIX}{calc_id}" if not app else f"/app/{app}"
    if static_build():
        live_html = f"live under <code>rulesbook serve</code> at <code>{live}</code>"
    else:
        live_html = f'<a href="{live}">the live version</a>'
    return (
        '<div class="rb-notebook-widget rb-no-glossary" data-calc="' + calc_id + '">'
        '<p class="rb-widget-caption">In JupyterLab this cell is an interactive form. '
        "Here is a picture of it, with the answer for the values in the cell:</p>"
        f'<div class="rb-widget-picture"><p><strong>{html.escape(calc.title)}</strong> '
        f'<code>{calc_id}</code></p><form class="rb-picture-form">{rows}</form>{answer}</div>'
        f'<p class="rb-widget-links">Try it: <a class="rb-try" href="{calc_url}#{TRY_IT}">on the '
        f"calculator's page</a> (works offline) · {live_html}.</p></div>"
    )


def replace_widget_outputs(page_html: str, page: Any, files: Any) -> str:
    """Static pictures instead of widget text, and the ``.ipynb`` link, on a notebook page."""
    out: list[str] = []
    pos = 0
    for match in WIDGET_OUTPUT.finditer(page_html):
        sources = _SOURCE.findall(page_html, 0, match.start())
        call = widget_call(html.unescape(sources[-1])) if sources else None
        if call is None:
            continue
        calc_id, values = call
        target = files.get_file_from_path(page_of(calc_id, "calculator"))
        calc_url = target.url_relative_to(page.file) if target is not None else ""
        app = next((a for a, c in special_apps().values() if c == calc_id and not values), "")
        picture = static_picture(calc_id, values, calc_url=calc_url, app=app)
        # the output's own closing </div> follows the match and now closes this one
        out += [
            page_html[pos : match.start()],
            f'<div class="jp-OutputArea-output rb-widget-output">{picture}',
        ]
        pos = match.end()
    out.append(page_html[pos:])
    name = posixpath.basename(page.file.src_uri)
    quickstart = files.get_file_from_path("quickstart.md")
    how = f' (<a href="{quickstart.url_relative_to(page.file)}#jupyterlab">how</a>)' if quickstart else ""
    header = (
        f'<p class="rb-notebook-source">This page is the notebook <a href="{name}" download>'
        f"<code>{name}</code></a>. Open it in JupyterLab, with its calculators live, with "
        f"<code>scripts/lab</code>{how}.</p>"
    )
    return header + "".join(out)
