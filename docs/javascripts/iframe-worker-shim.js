/* A local stand-in for the iframe-worker shim that mkdocs-material's offline plugin would fetch
   from a CDN. Opened from file://, a browser refuses `new Worker(url)`, so the search would not
   start; this shim runs the worker script in a hidden same-origin iframe instead and passes
   messages both ways. Served over http(s) it does nothing. No network request is made. */
(function () {
  "use strict";
  if (location.protocol !== "file:" || typeof window === "undefined") return;

  function IframeWorker(url) {
    var worker = this;
    var listeners = [];
    var queue = [];
    var ready = false;
    worker.onmessage = null;
    worker.onerror = null;
    var iframe = document.createElement("iframe");
    iframe.setAttribute("aria-hidden", "true");
    iframe.setAttribute("tabindex", "-1");
    iframe.style.display = "none";
    (document.body || document.documentElement).appendChild(iframe);
    var win = iframe.contentWindow;
    var doc = win.document;

    function deliver(data) {
      var event = { data: data, target: worker, type: "message" };
      setTimeout(function () {
        if (typeof worker.onmessage === "function") worker.onmessage(event);
        listeners.forEach(function (fn) { fn(event); });
      }, 0);
    }
    function send(data) {
      win.dispatchEvent(new win.MessageEvent("message", { data: data }));
    }
    // The worker's global scope: postMessage goes back to the page.
    win.postMessage = function (data) { deliver(data); };
    win.importScripts = function () {
      throw new Error("importScripts is not available to a worker run from file://");
    };
    var script = doc.createElement("script");
    script.src = String(new URL(url, location.href));
    script.onload = function () {
      ready = true;
      queue.splice(0).forEach(send);
    };
    script.onerror = function (error) {
      if (typeof worker.onerror === "function") worker.onerror(error);
    };
    (doc.head || doc.documentElement).appendChild(script);

    worker.postMessage = function (data) {
      if (ready) send(data);
      else queue.push(data);
    };
    worker.addEventListener = function (type, fn) {
      if (type === "message") listeners.push(fn);
    };
    worker.removeEventListener = function (type, fn) {
      listeners = listeners.filter(function (other) { return other !== fn; });
    };
    worker.terminate = function () { iframe.remove(); };
  }
  window.Worker = IframeWorker;
})();
