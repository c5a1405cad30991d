/* Live calculators embedded in a served page (div.rb-live-embed around iframe.rb-live,
   rulesbook.site.live.live_iframe).

   - Size each frame to its content, so the whole form and result show without a scroll box.
     The calculator comes from the same server as the page, so the page may read its height; if
     it cannot (another origin), the frame keeps its starting height and scrolls inside.
   - Keep the calculator's inputs in this page's address (its hash, "#live?ld=7&modifier=-1"):
     the frame tells the page its query string (postMessage from widgets/forms/live.py), a reload or a
     shared link opens the calculator with them, and the "full page" link follows them.
   - Pin the calculator's summary line (its key probability, and a compared variant's) at the top
     of the screen while the frame's own result is scrolled away. */
(function () {
  "use strict";
  var MAX = 20000;
  var PREFIX = "#live?";
  function contentHeight(doc) {
    var root = doc.documentElement, body = doc.body;
    var height = Math.max(root ? root.scrollHeight : 0, body ? body.scrollHeight : 0);
    // Panel draws into shadow roots: measure the lowest bottom edge of the top-level elements.
    Array.prototype.forEach.call(body ? body.children : [], function (el) {
      var rect = el.getBoundingClientRect();
      height = Math.max(height, rect.bottom + (doc.defaultView ? doc.defaultView.scrollY : 0));
    });
    return Math.ceil(height);
  }
  function fit(frame) {
    var doc;
    try { doc = frame.contentDocument; } catch (e) { return; }
    if (!doc || !doc.body) return;
    var wanted = Math.min(MAX, contentHeight(doc) + 4);
    var now = frame.getBoundingClientRect().height;
    if (wanted > 120 && Math.abs(wanted - now) > 4) {
      frame.style.height = wanted + "px";
      frame.setAttribute("data-fitted", String(wanted));
    }
  }
  function watch(frame) {
    function start() {
      fit(frame);
      var doc;
      try { doc = frame.contentDocument; } catch (e) { return; }
      if (!doc || !doc.body || !window.ResizeObserver) return;
      var observer = new ResizeObserver(function () { fit(frame); });
      observer.observe(doc.body);
      Array.prototype.forEach.call(doc.body.children, function (el) { observer.observe(el); });
    }
    frame.addEventListener("load", start);
    // Panel builds the page after the load event: look again while it settles, and on changes.
    var tries = 0;
    var timer = window.setInterval(function () {
      fit(frame);
      tries += 1;
      if (tries > 40) window.clearInterval(timer);
    }, 250);
    window.setInterval(function () { fit(frame); }, 1500);
  }

  /* -- inputs in the address, the full page, the pinned summary ------------------------------- */

  function inputs(search) {  // a query string without the embedding flag
    var params = new URLSearchParams(search);
    params.delete("embed");
    return params;
  }
  function linked(box) {
    var frame = box.querySelector("iframe.rb-live");
    var full = box.querySelector("a.rb-full-page");
    var bar = box.querySelector(".rb-embed-summary");
    var base = frame.getAttribute("src").split("?")[0];
    if (location.hash.indexOf(PREFIX) === 0) {  // a reload or a shared link: open with its inputs
      var wanted = inputs(location.hash.slice(PREFIX.length - 1));
      wanted.set("embed", "1");
      frame.setAttribute("src", base + "?" + wanted.toString());
      if (full) full.setAttribute("href", base + "?" + inputs(wanted.toString()).toString());
    }
    function pin() {
      var top = frame.getBoundingClientRect().top;
      var shown = bar.innerHTML !== "" && top < 0;
      bar.hidden = !shown;
    }
    window.addEventListener("scroll", pin, { passive: true });
    window.addEventListener("resize", pin);
    window.addEventListener("message", function (event) {
      var data = event.data;
      if (event.origin !== location.origin || event.source !== frame.contentWindow) return;
      if (!data || data.rulesbook !== "live") return;
      var params = inputs(data.search || "").toString();
      if (params) {
        history.replaceState(history.state, "", location.pathname + location.search + PREFIX + params);
        if (full) full.setAttribute("href", base + "?" + params);
      }
      bar.innerHTML = data.summary || "";  // built by the server, every user-supplied text escaped there
      if (data.error) {
        var problem = document.createElement("span");
        problem.className = "rb-summary-error";
        problem.textContent = data.error;
        bar.appendChild(problem);
      }
      box.setAttribute("data-inputs", params);
      pin();
    });
  }
  function init() {
    Array.prototype.forEach.call(document.querySelectorAll(".rb-live-embed"), linked);
    Array.prototype.forEach.call(document.querySelectorAll("iframe.rb-live"), watch);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
