"""The visible state of a live answer: typed values count without Enter, stale answers look stale.

:class:`LiveResult` shows a served calculator's answer (a Panel ``JSComponent``, so the part that
must react before the server hears anything runs in the browser):

* **typing counts**: a value typed into any text or number box of the page is committed after
  :attr:`~LiveResult.delay` ms without a keystroke (as if Enter had been pressed), so nobody has
  to press Enter or leave the field; the server sets a short delay for calculators that answer
  in milliseconds and a longer one where an answer may take a second;
* **stale until fresh**: from the first keystroke until the answer for the new values is on the
  screen, the old result is dimmed (class ``rb-stale``) and a busy badge says "updating…"
  (``.rb-status[data-state="busy"]``; on a phone it floats at the top of the screen, since the
  result may be scrolled away and the keyboard covers the bottom); ``data-state="idle"`` once
  the answer is current.

* **the summary stays in view**: every answer carries its summary line (the key probability, and
  a compared variant's beside it: :func:`rulesbook.present.comparison.summary_html`); while the
  top of the result is off the screen — on a phone the result sits above the form, so any input
  lower down scrolls it away — the line is pinned at the top of the screen
  (``.rb-summary-bar``). The result itself is never a box scrolling on its own. Embedded in a
  site page (``?embed=1``), the frame is as tall as its content, so the line and the page's
  query string go to the page around it instead (``postMessage``, read by
  ``docs/javascripts/live-embed.js``), which pins the line and keeps the inputs in its address;
* **help without the keyboard**: a tap on an input's "?" opens its help and does not focus the
  input (the "?" sits in the input's ``<label>``, whose click would focus it and open a phone's
  keyboard over the help).

The bookkeeping is made of counters that only grow, so it holds however the server's messages
are ordered on the way (Panel may write one update at once and queue another made just before
it; a busy flag sent as ``True`` then ``False`` once arrived as ``False`` then ``True`` and left
the badge spinning under the right number):

* the browser counts its commits in :attr:`~LiveResult.request`; the server sets
  :attr:`~LiveResult.done` to the last request whose answer is shown;
* the server counts the answers it has started in :attr:`~LiveResult.pending` and sets
  :attr:`~LiveResult.answered` to the count its shown answer covers;
* the answer comes with its own number, :attr:`~LiveResult.answer` ``= (number, html)``, and
  every update says the newest number in :attr:`~LiveResult.latest`.

The browser keeps the largest value it has seen of each and shows an answer only if its number is
larger than the one on the screen. The page is stale while typing, while
``pending > answered``, while ``request > done`` or while ``latest`` is newer than the answer shown.

An answer the server has set can wait on its side until the session's next event (Panel sends
the changes of a callback that runs outside the document's lock later when the document is held
at that moment). So a page that stays stale for :data:`NUDGE_MS` with nothing typed counts up
:attr:`~LiveResult.ping`: a no-op event whose arrival sends on whatever is waiting (at most one
every :data:`NUDGE_MS`, also during a long computation, which it does not disturb).
"""

from __future__ import annotations

import json
from typing import ClassVar

import param
from panel.custom import JSComponent

__all__ = ["NUDGE_MS", "LiveResult"]

from widgets.forms.compare import SLOW_DELAY_MS

NUDGE_MS = 2000
"""How long a page stays stale, with nothing typed, before it nudges the server (:attr:`LiveResult.ping`)."""

BADGE = """
.rb-status { z-index: 1000; font: .85rem system-ui, sans-serif; padding: 2px 10px; border-radius: 10px;
  background: #fff3c4; color: #5a4300; box-shadow: 0 1px 3px rgba(0,0,0,.25); }
.rb-status[data-state="idle"] { display: none; }
.rb-status::before { content: ""; display: inline-block; width: .7em; height: .7em; margin-right: .4em;
  border: 2px solid #5a4300; border-right-color: transparent; border-radius: 50%;
  vertical-align: -1px; animation: rb-spin .8s linear infinite; }
@keyframes rb-spin { to { transform: rotate(360deg); } }
"""
"""The busy badge (shared by the one on the result and the one floating on a phone's screen)."""

STYLE = (
    BADGE
    + """
:host { position: relative; display: block; width: 100%; }
.rb-answer { transition: opacity .12s; max-width: 100%; overflow-x: auto; padding-left: 4px; box-sizing: border-box; }
.rb-answer .rb-chart svg { overflow: visible; }
.rb-answer.rb-stale { opacity: .4; }
.rb-status { position: absolute; top: 0; right: 0; }
@media (max-width: 700px) { .rb-status { display: none !important; } }
"""
)
"""The component's own style sheet (inside its shadow root)."""

PAGE_STYLE = (
    BADGE
    + """
.rb-status-floating { position: fixed; top: 8px; left: 50%; transform: translateX(-50%); }
/* (top and left follow the visual viewport, set by the component's script) */
@media (min-width: 701px) { .rb-status-floating { display: none !important; } }
.rb-summary-bar { position: fixed; top: 0; left: 0; right: 0; z-index: 999; display: none;
  font: 15px/1.4 system-ui, sans-serif; padding: 10px 12px; background: #fffdf8;
  border-bottom: 1px solid #ccc; box-shadow: 0 2px 6px -2px rgba(0,0,0,.3); }
.rb-summary-bar[data-shown="true"] { display: block; }
.rb-summary-bar.rb-stale { opacity: .55; }
.rb-summary-bar .rb-summary-error { color: #a00; margin-left: .5em; }
.rb-summary-bar .rb-summary-mended { color: #0a4f7a; font-size: 13px; }
"""
)
"""The page-level style of the floating badge: on a phone the result may be scrolled away and the
keyboard covers the bottom of the screen, so there the badge floats at the top of the screen
(outside every Panel element, whose layout would otherwise anchor it)."""


class LiveResult(JSComponent):
    """The result pane of a served calculator with its busy badge and stale marking."""

    answer = param.Tuple(
        default=(0, ""), length=2, doc="Set by the server: (number, HTML) of the answer to show."
    )
    pending = param.Integer(default=0, doc="Counted by the server: answers started so far.")
    answered = param.Integer(default=0, doc="Set by the server: how many of those the shown answer covers.")
    request = param.Integer(default=0, doc="Counted by the browser: typed values committed so far.")
    done = param.Integer(default=0, doc="Set by the server: the last request whose answer is shown.")
    latest = param.Integer(default=0, doc="Set by the server: the number of the newest answer it has shown.")
    ping = param.Integer(
        default=0, doc="Counted by the browser: nudges of an overdue answer (the server ignores their value)."
    )
    delay = param.Integer(
        default=SLOW_DELAY_MS, doc="Milliseconds without a keystroke before typed text counts."
    )

    _stylesheets: ClassVar[list[str]] = [STYLE]

    _esm = """
    export function render({ model, el }) {
      if (!document.getElementById("rb-live-style")) {
        const style = document.createElement("style")
        style.id = "rb-live-style"
        style.textContent = __PAGE_STYLE__
        document.head.append(style)
      }
      const status = document.createElement("div")
      status.className = "rb-status"
      status.setAttribute("role", "status")
      const floating = document.createElement("div")
      floating.className = "rb-status rb-status-floating"
      floating.setAttribute("role", "status")
      document.body.append(floating)
      const viewport = window.visualViewport
      function place() {  // the top of what is on the screen, even when a phone has zoomed the page
        if (viewport) {
          floating.style.top = `${viewport.offsetTop + 8}px`
          floating.style.left = `${viewport.offsetLeft + viewport.width / 2}px`
        }
      }
      viewport?.addEventListener("scroll", place)
      viewport?.addEventListener("resize", place)
      const body = document.createElement("div")
      body.className = "rb-answer"
      el.append(status, body)
      // embedded in a site page (?embed=1): the page around the frame pins the summary line
      const embedded = window.parent !== window && new URLSearchParams(location.search).has("embed")
      const bar = document.createElement("div")
      bar.className = "rb-summary-bar"
      if (!embedded) document.body.append(bar)
      let summary = "", error = "", posted = ""
      function headlineGone() {  // the top of the result is off the screen (above or below)
        const rect = body.getBoundingClientRect()
        return rect.height > 0 && (rect.top < -40 || rect.top > window.innerHeight - 60)
      }
      function pin() {
        const shown = summary !== "" && headlineGone()
        bar.dataset.shown = shown ? "true" : "false"
      }
      function tell() {  // the page around an embedded frame: its summary line and its inputs
        if (!embedded) return
        const message = JSON.stringify([summary, error, location.search])
        if (message === posted) return
        posted = message
        window.parent.postMessage(
          {rulesbook: "live", summary, error, search: location.search, path: location.pathname},
          location.origin,
        )
      }
      window.addEventListener("scroll", pin, {passive: true})
      window.addEventListener("resize", pin)
      const poll = setInterval(tell, 400)  // the form writes its inputs into the query string
      function openHelp(event) {  // a tap on "?" shows the help, never focuses the input
        if (event.composedPath().some((node) => node.classList && node.classList.contains("bk-description"))) {
          event.preventDefault()
        }
      }
      document.addEventListener("click", openHelp, true)
      const timers = new Map()
      let staleSince = 0
      const nudge = setInterval(() => {  // an overdue answer: one no-op event sends on what waits
        if (staleSince && timers.size === 0 && Date.now() - staleSince > __NUDGE_MS__) {
          staleSince = Date.now()
          model.ping = model.ping + 1
        }
      }, 500)
      // an answer's workings (charts, explanation, tables) start closed on a phone, so the
      // inputs sit right under the headline; open on a wide screen; a tap sets it for the page
      let workings = null
      body.addEventListener("click", (event) => {
        const summary = event.target.closest && event.target.closest("details.rb-workings > summary")
        if (summary) workings = !summary.parentElement.open
      })
      function fold() {
        const open = workings === null ? !window.matchMedia("(max-width: 700px)").matches : workings
        for (const details of body.querySelectorAll("details.rb-workings")) details.open = open
      }
      // the largest of each counter seen so far: messages may arrive out of order
      const seen = {number: -1, pending: 0, answered: 0, done: 0}
      function show() {
        const [number, html] = model.answer
        if (number > seen.number) {  // never an older answer over a newer one
          seen.number = number
          body.innerHTML = html  // built by the server, every user-supplied text escaped there
          fold()
          const source = body.querySelector(".rb-summary-source")
          const problem = body.querySelector('.rb-error[data-key="error"]')
          if (source) summary = source.innerHTML  // an error keeps the last summary
          error = problem ? problem.textContent : ""
          bar.innerHTML = summary + (error ? '<span class="rb-summary-error"></span>' : "")
          if (error) bar.querySelector(".rb-summary-error").textContent = error
          const mended = body.querySelector('[data-key="mended"]')  // an input set to agree with a pick
          if (mended) {
            const line = document.createElement("div")
            line.className = "rb-summary-mended"
            line.textContent = mended.textContent
            bar.append(line)
          }
        }
        for (const key of ["pending", "answered", "done"]) {
          seen[key] = Math.max(seen[key], model[key])
        }
        const missing = model.latest > seen.number  // a later message says an answer is on its way
        const stale = timers.size > 0 || seen.pending > seen.answered || model.request > seen.done || missing
        staleSince = stale ? staleSince || Date.now() : 0
        place()
        for (const badge of [status, floating]) {
          badge.dataset.state = stale ? "busy" : "idle"
          badge.textContent = stale ? "updating\u2026" : ""
        }
        body.classList.toggle("rb-stale", stale)
        bar.classList.toggle("rb-stale", stale)
        body.setAttribute("aria-busy", stale ? "true" : "false")
        pin()
        tell()
      }
      function commit(input) {
        timers.delete(input)
        input.dispatchEvent(new Event("change"))
        model.request = model.request + 1
        show()
      }
      function typed(event) {
        const input = event.composedPath()[0]
        if (!(input instanceof HTMLInputElement) || input.type === "file" || input.type === "checkbox") {
          return
        }
        clearTimeout(timers.get(input))
        timers.set(input, setTimeout(() => commit(input), model.delay))
        show()
      }
      document.addEventListener("input", typed, true)
      model.on("remove", () => {
        document.removeEventListener("input", typed, true)
        document.removeEventListener("click", openHelp, true)
        window.removeEventListener("scroll", pin)
        window.removeEventListener("resize", pin)
        clearInterval(poll)
        clearInterval(nudge)
        floating.remove()
        bar.remove()
        viewport?.removeEventListener("scroll", place)
        viewport?.removeEventListener("resize", place)
      })
      model.on(["answer", "pending", "answered", "done", "request", "latest"], show)
      show()
    }
    """.replace("__PAGE_STYLE__", json.dumps(PAGE_STYLE)).replace("__NUDGE_MS__", str(NUDGE_MS))
