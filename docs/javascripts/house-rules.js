/* A reader's house rule on the published site: the text of a variant file, kept in this browser
   and carried by links.

   The variants page has a box (.rb-house) where a reader pastes a variant file's text or opens
   one from disk; live-calculators.js checks it in the page's Python (the same safe loader and the
   same checks as `rulesbook calc ... variant=FILE.yaml`) and every live calculator of its system
   then shows it beside the published rules. This script only keeps the text:

   - in the browser's storage for this site (localStorage), as typed: a half-written or wrong text
     is kept too, so nothing the reader typed is lost (a text that came by link replaces it, and
     the earlier one is kept one step back: "Back to your earlier text");
   - in links: `#house=` + a version and the text encoded for an address. The fragment never
     reaches a web server (browsers do not send it), so a designer can send a house rule by link:
       house=1.<base64url of the text's UTF-8, compressed with raw DEFLATE (RFC 1951)>
       house=0.<base64url of the text's UTF-8>   (browsers without CompressionStream)
     Any page of the site opened with such a fragment takes the house rule from it (once: the
     reader's edits after it survive a reload of the same address).

   window.rulesbookHouse = {
     ready:   Promise of the current text ("" for none), once a link's fragment is read;
     text():  the current text (after `ready`);
     set(text), clear(), earlier(): change it (each tells the page: event "rulesbook-house");
     previous(): the text kept one step back ("" for none);
     link(url): Promise of `url` with the current text in its fragment;
     stored:  whether this browser keeps the text (false: storage refused; the link still does)
   } */
(function () {
  "use strict";
  var script = document.currentScript;
  var site = script ? new URL("../", script.src).href : location.href;
  var KEY = "rulesbook-house " + site;
  var state = { text: "", previous: "", link: "" };  // link: the fragment last taken (a reload keeps the edits)
  var stored = true;

  function load() {
    try {
      var raw = localStorage.getItem(KEY);
      if (raw) {
        var saved = JSON.parse(raw);
        state.text = String(saved.text || "");
        state.previous = String(saved.previous || "");
        state.link = String(saved.link || "");
      }
    } catch (error) {
      stored = false;
    }
  }

  function save() {
    try {
      localStorage.setItem(KEY, JSON.stringify(state));
      stored = true;
    } catch (error) {
      stored = false;
    }
  }

  function tell() {
    document.dispatchEvent(new CustomEvent("rulesbook-house", { detail: { text: state.text } }));
  }

  /* -- the fragment: base64url of (compressed) UTF-8 ------------------------------------------- */

  function toBase64url(bytes) {
    var chunks = [];
    for (var i = 0; i < bytes.length; i += 0x8000) {
      chunks.push(String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000)));
    }
    return btoa(chunks.join("")).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function fromBase64url(text) {
    var plain = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    var bytes = new Uint8Array(plain.length);
    for (var i = 0; i < plain.length; i += 1) bytes[i] = plain.charCodeAt(i);
    return bytes;
  }

  function through(bytes, Stream) {
    return new Response(new Blob([bytes]).stream().pipeThrough(new Stream("deflate-raw"))).arrayBuffer()
      .then(function (buffer) { return new Uint8Array(buffer); });
  }

  function encode(text) {
    var bytes = new TextEncoder().encode(text);
    if (typeof CompressionStream !== "function") return Promise.resolve("0." + toBase64url(bytes));
    return through(bytes, CompressionStream).then(function (packed) { return "1." + toBase64url(packed); });
  }

  function decode(value) {
    var dot = value.indexOf(".");
    var version = value.slice(0, dot);
    var bytes = fromBase64url(value.slice(dot + 1));
    var unpacked = version === "1" ? through(bytes, DecompressionStream) :
      version === "0" ? Promise.resolve(bytes) : Promise.reject(new Error("unknown version " + version));
    return unpacked.then(function (raw) { return new TextDecoder("utf-8", { fatal: true }).decode(raw); });
  }

  function fragmentValue(hash) {
    var found = /(?:^#|&)house=([^&]*)/.exec(hash || "");
    return found ? decodeURIComponent(found[1]) : null;
  }

  function set(text, fromLink) {
    text = String(text);
    if (text === state.text) return;
    if (fromLink && state.text.trim()) state.previous = state.text;  // kept one step back
    state.text = text;
    save();
    tell();
  }

  load();
  var given = fragmentValue(location.hash);
  var ready = given === null || given === state.link ? Promise.resolve() : decode(given).then(
    function (text) {
      state.link = given;
      save();
      set(text, true);
    },
    function () { console.warn("rulesbook: this link's house rule could not be read"); },
  );

  window.rulesbookHouse = {
    ready: ready.then(function () { return state.text; }),
    stored: stored,
    text: function () { return state.text; },
    previous: function () { return state.previous; },
    set: function (text) { set(text, false); },
    clear: function () {
      if (state.text.trim()) state.previous = state.text;
      state.text = "";
      save();
      tell();
    },
    earlier: function () {
      var back = state.previous;
      state.previous = state.text;
      state.text = back;
      save();
      tell();
    },
    link: function (url) {
      var target = new URL(url || location.href);
      var rest = (target.hash || "").replace(/^#/, "").split("&").filter(function (part) {
        return part && part.indexOf("house=") !== 0;
      });
      if (!state.text.trim()) {
        target.hash = rest.join("&");
        return Promise.resolve(target.href);
      }
      return encode(state.text).then(function (value) {
        target.hash = rest.concat(["house=" + value]).join("&");
        return target.href;
      });
    },
    _decode: decode,  // for the tests: what a link holds
  };
  Object.defineProperty(window.rulesbookHouse, "stored", { get: function () { return stored; } });

  /* -- the variants page's box: paste, open a file, clear, go back, send by link --------------- */

  function editor(box) {
    var api = window.rulesbookHouse;
    var area = box.querySelector(".rb-house-text");
    var file = box.querySelector(".rb-house-file");
    var earlier = box.querySelector(".rb-house-earlier");
    var share = box.querySelector(".rb-house-link");
    function shown() {
      if (area.value !== api.text()) area.value = api.text();
      earlier.hidden = !api.previous().trim();
      share.hidden = !api.text().trim();
      if (!share.hidden) {
        api.link(new URL(location.pathname, location.href).href).then(function (url) {
          share.querySelector("a").href = url;
        });
      }
      box.querySelector(".rb-house-kept").hidden = api.stored;
    }
    area.addEventListener("input", function () { api.set(area.value); });
    file.addEventListener("change", function () {
      var chosen = file.files && file.files[0];
      if (chosen) chosen.text().then(function (text) { api.set(text); });
      file.value = "";
    });
    box.querySelector(".rb-house-clear").addEventListener("click", api.clear);
    earlier.addEventListener("click", api.earlier);
    box.querySelector(".rb-house-copy").addEventListener("click", function () {
      var url = share.querySelector("a").href;
      if (navigator.clipboard) navigator.clipboard.writeText(url).catch(function () {});
    });
    document.addEventListener("rulesbook-house", shown);
    api.ready.then(function () {
      shown();
      box.setAttribute("data-ready", "true");
    });
  }

  function init() {
    var box = document.querySelector(".rb-house");
    if (box) editor(box);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
