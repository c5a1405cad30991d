"""A roster as a rule system sees it (:class:`~rulesbook.rosters.RosterView`), as text, JSON and
HTML: ``rulesbook roster show`` and ``rb.roster`` print these.

Example:
    >>> from rulesbook.rosters import RosterView, UnitView
    >>> view = RosterView("My list", "wh40k", "Warhammer 40,000 10th Edition", "list.ros",
    ...     "BattleScribe .ros", 180, (UnitView("boyz", "Boyz", 10, 85, ("weapons: slugga",)),),
    ...     ("weapon keywords not understood: 'waaagh' (Boyz: slugga)",))
    >>> print(roster_text(view))
    My list — Warhammer 40,000 10th Edition (list.ros, BattleScribe .ros), 180 pts, 1 unit, read by wh40k
      boyz — Boyz: 10 models, 85 pts
        weapons: slugga
    Not understood, or to check:
      weapon keywords not understood: 'waaagh' (Boyz: slugga)
"""

from __future__ import annotations

import html
from typing import Any

from rulesbook.rosters.views import RosterView

__all__ = ["roster_html", "roster_json", "roster_text"]


def _head(view: RosterView) -> str:
    pts = f", {view.points} pts" if view.points is not None else ""
    n = len(view.units)
    who = f", read by {view.system}" if view.system else ""
    return (
        f"{view.name} — {view.game_system} ({view.file}, {view.format}){pts}, "
        f"{n} unit{'s' if n != 1 else ''}{who}"
    )


def roster_text(view: RosterView) -> str:
    """The roster as lines of text: a head line, each unit (key, name, models, points, its
    lines) and what was not understood."""
    out = [_head(view)]
    if view.remark:
        out.append(f"  ({view.remark})")
    for u in view.units:
        pts = f", {u.points} pts" if u.points is not None else ""
        out.append(f"  {u.key} — {u.name}: {u.models} model{'s' if u.models != 1 else ''}{pts}")
        out += [f"    {line}" for line in u.lines]
    if view.notes:
        out.append("Not understood, or to check:")
        out += [f"  {note}" for note in view.notes]
    return "\n".join(out)


def roster_json(view: RosterView) -> dict[str, Any]:
    """The roster as JSON-ready data (``rulesbook roster show --json``)."""
    return {
        "name": view.name,
        "system": view.system or None,
        "game_system": view.game_system,
        "file": view.file,
        "format": view.format,
        "points": view.points,
        "catalogues": list(view.catalogues),
        "units": [
            {"key": u.key, "name": u.name, "models": u.models, "points": u.points, "lines": list(u.lines)}
            for u in view.units
        ],
        "not_understood": list(view.notes),
        "remark": view.remark or None,
    }


def roster_html(view: RosterView) -> str:
    """The roster as an HTML fragment (Jupyter, the served pages)."""
    e = html.escape
    rows = "".join(
        f"<tr><td><code>{e(u.key)}</code></td><td>{e(u.name)}</td><td>{u.models}</td>"
        f"<td>{'' if u.points is None else u.points}</td><td>{'<br>'.join(e(x) for x in u.lines)}</td></tr>"
        for u in view.units
    )
    notes = (
        "<p><strong>Not understood, or to check:</strong></p><ul>"
        + "".join(f"<li>{e(n)}</li>" for n in view.notes)
        + "</ul>"
        if view.notes
        else ""
    )
    remark = f"<p><em>{e(view.remark)}</em></p>" if view.remark else ""
    return (
        f'<div class="rb-roster"><p>{e(_head(view))}</p>{remark}<table><thead><tr><th>Key</th><th>Unit</th>'
        f"<th>Models</th><th>Points</th><th>What it has</th></tr></thead><tbody>{rows}</tbody></table>"
        f"{notes}</div>"
    )
