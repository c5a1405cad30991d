/* Live calculators embedded in a served page (iframe.rb-live, rulesbook.site.live.live_iframe):
   size each frame to its content, so the whole form and result show without a scroll box.
   The calculator comes from the same server as the page, so the page may read its height;
   if it cannot (another origin), the frame keeps its starting height and scrolls inside. */
(function () {
  "use strict";
  var MAX = 20000;
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
  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("iframe.rb-live"), watch);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
