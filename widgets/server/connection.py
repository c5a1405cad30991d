"""A banner on every live page the moment its connection to the server drops.

A live page talks to the server over one websocket; when it closes (the server stopped, the
network went, the laptop slept) nothing the player does reaches the server any more. Bokeh
announces it on the page's document (its ``connection_lost`` event), and
:func:`connection_banner` then shows, at the top of the screen, a line saying so
(``rb-connection-text``) and a **Reload** button (``rb-reload``). Nothing is lost by
reloading: a calculator's inputs are in the page's address, and a tracker game is saved on the
server after every change (what was on the screen but not yet sent was not recorded anyway,
and the banner says so at once rather than after the next click).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any, ClassVar

__all__ = ["connection_banner"]

MESSAGE = (
    "The connection to the server was lost: nothing you do on this page reaches it now. "
    "Everything recorded before is kept on the server."
)


def connection_banner() -> Any:
    """The banner of one page (hidden until the connection drops)."""
    return _banner_class()()


@cache
def _banner_class() -> Any:
    from panel.custom import JSComponent

    class ConnectionBanner(JSComponent):
        """Shows itself, pinned to the top of the screen, when the page's websocket closes."""

        _stylesheets: ClassVar[list[str]] = [
            ".rb-connection { position: fixed; top: 0; left: 0; right: 0; z-index: 1000;"
            " font: 1rem system-ui, sans-serif; background: #fff3cd; color: #5c3c00;"
            " border-bottom: 2px solid #a66f00; padding: .5em .8em; display: flex; gap: .8em;"
            " flex-wrap: wrap; align-items: center; }"
            " .rb-connection[hidden] { display: none; }"
            " .rb-reload { font: inherit; min-height: 44px; min-width: 44px; padding: 0 1em; }"
        ]
        _esm = (
            """
        export function render({ model, el, view }) {
          const box = document.createElement("div")
          box.className = "rb-connection"
          box.setAttribute("role", "alert")
          box.hidden = true
          const text = document.createElement("span")
          text.className = "rb-connection-text"
          text.textContent = __MESSAGE__
          const reload = document.createElement("button")
          reload.className = "rb-reload"
          reload.textContent = "Reload"
          reload.addEventListener("click", () => window.location.reload())
          box.append(text, reload)
          el.append(box)
          const doc = view.model.document
          if (doc) doc.on_event("connection_lost", () => { box.hidden = false })
        }
        """
        ).replace("__MESSAGE__", json.dumps(MESSAGE))

    return ConnectionBanner
