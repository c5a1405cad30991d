/* Live calculators on the published site: every input, computed in the reader's browser.

   A calculator page opens with its precomputed answers (static-calculators.js). If the page is
   served over HTTP(S) and the browser runs WebAssembly, a worker (rulesbook-live-worker.mjs)
   starts Python with rulesbook from the site's own live-runtime/ folder (the same URLs on every
   page, so the browser's cache holds it once); a shared worker, where the browser has one, so the
   next page and a reload find Python started. The status line says "Loading…", then "Live", and
   the full form generated from the calculator's declarations (rulesbook.site.live_form, in the
   page's <template>) replaces the few precomputed inputs. Every change is answered by the
   calculator itself: the result pane is the served page's (labels, percentages, charts, the
   one-line errors of the command line), the inputs are kept in the page's address, and "Compare
   with" sets a shipped variant beside the rules as published; the inputs a compared variant adds
   (add: inputs) appear below the form's own while it is compared.

   The reader's house rule (house-rules.js: a variant file's text, from the variants page or a
   link) is checked in the same Python; where it changes the page's system, "Compare with" offers
   it and starts with it, so the page shows it beside the published rules. On the variants page
   this script checks the text as it is typed and says what it changes, or its one-line error,
   and brings live a form for each calculator the house rule adds (add: calculators). 

   From file:// (browsers refuse WebAssembly from disk), without WebAssembly or without the
   runtime in the build, the page keeps its precomputed calculator and says in one line how to
   get live answers. Nothing is fetched from another host. */
(function () {
  "use strict";
  var script = document.currentScript;
  var boxes = Array.prototype.filter.call(document.querySelectorAll(".rb-static-calc"), function (box) {
    return box.querySelector("template.rb-live-template");
  });
  var houseBox = document.querySelector(".rb-house");
  if ((!boxes.length && !houseBox) || !script) return;
  var here = script.src;
  var HOUSE = ":house";  // "Compare with" value of the reader's house rule (widgets.forms.browser.HOUSE)
  var houseRules = window.rulesbookHouse;
  var house = null;      // what the page's Python made of the house rule: {system, title, changes} or {error}

  var STATIC = "The answers here were computed when the site was built.";
  var HOW = "For live answers to every input, serve this folder over HTTP — " +
    "<code>python3 -m http.server -d site</code>, or any web host.";

  function status(box, state, html) {
    var line = box.querySelector(".rb-live-status");
    if (!line) {
      line = document.createElement("p");
      line.className = "rb-live-status";
      line.setAttribute("role", "status");
      box.insertBefore(line, box.querySelector(".rb-static-form, .rb-static-fixed, .rb-static-result"));
    }
    line.setAttribute("data-state", state);
    line.innerHTML = html;
    box.setAttribute("data-live", state);
  }

  function stayStatic(html) {
    var unused = houseRules && houseRules.text().trim() ?
      " Your house rule is not applied here: these are the published rules." : "";
    boxes.forEach(function (box) { status(box, "static", html + unused); });
    if (houseBox) houseStatus("static", "Checking and using a house rule needs the live calculator. " + html +
      " Your text is kept" + (houseRules && houseRules.stored ? " in this browser" : "") + " and in the link.");
  }

  /* -- the house rule ---------------------------------------------------------------------------- */

  function escape(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  function houseStatus(state, html) {
    if (!houseBox) return;
    var line = houseBox.querySelector(".rb-house-status");
    line.setAttribute("data-state", state);
    line.innerHTML = html;
    houseBox.setAttribute("data-house", state);
  }

  /* The variants page: what the house rule changes, or its one-line error (the text stays as typed). */
  function showHouse() {
    if (!houseBox) return;
    var summary = houseBox.querySelector(".rb-house-summary");
    if (!house || (!house.error && !house.system)) {
      houseStatus("empty", "No house rule: paste the text of a variant file, or open one.");
      summary.innerHTML = "";
    } else if (house.error) {
      houseStatus("error", '<span class="rb-error" data-key="error">' + escape(house.error) + "</span>");
      summary.innerHTML = "";
    } else {
      houseStatus("ok", '<span class="rb-live-dot" aria-hidden="true"></span>Your house rule <strong>' +
        escape(house.title) + "</strong> is compared with the published rules on every " + escape(house.system) +
        " calculator of this site (in this browser).");
      summary.innerHTML = "<ul>" + house.changes.map(function (line) { return "<li>" + escape(line) + "</li>"; }).join("") + "</ul>";
    }
    houseCalculators(house && !house.error ? house.calculators || "" : null);
    houseBox.setAttribute("data-checked", String(seq));
  }

  /* The calculators the house rule adds: a live form each, below the box, computing under the
     rule (null: a rule that does not load keeps the forms of the last one that did). */
  function houseCalculators(html) {
    var holder = houseBox.querySelector(".rb-house-calcs");
    if (!holder || html === null || holder.getAttribute("data-html") === html) return;
    forms = forms.filter(function (entry) { return !entry.house; });
    holder.setAttribute("data-html", html);
    holder.innerHTML = html;
    Array.prototype.forEach.call(holder.querySelectorAll(".rb-house-calc"), function (box) {
      status(box, "loading", "");  // (its line goes above the result, before goLive moves it)
      goLive(box, true);
    });
  }

  function checkHouse(then) {
    var text = houseRules ? houseRules.text() : "";
    send({ type: "house", text: text }, function (reply) {
      house = JSON.parse(reply.result);
      showHouse();
      if (then) then();
    });
  }

  /* Where the house rule changes this form's system: offered under "Compare with" and chosen
     (at the start, unless the address names another variant); a line above the form says so,
     with a link carrying the comparison. A house rule that does not load is said there too. */
  function offerHouse(entry, first) {
    var select = entry.form.querySelector('select[data-key="variant"]');
    var old = entry.box.querySelector(".rb-house-note");
    if (old) old.remove();
    if (!select || !house) return;
    var option = select.querySelector('option[value="' + HOUSE + '"]');
    var system = entry.calc.split(".")[0];
    var note = document.createElement("p");
    note.className = "rb-house-note";
    if (house.error || house.system !== system) {
      if (option) {
        if (select.value === HOUSE) select.value = "none";
        option.remove();
      }
      if (!house.error) return;  // a rule of another system: this page is unchanged
      note.className += " rb-warning";
      note.textContent = "Your house rule does not load (" + house.error + "); edit it on the variants page.";
      entry.box.insertBefore(note, entry.summary);
      return;
    }
    if (!option) {
      option = document.createElement("option");
      option.value = HOUSE;
      select.appendChild(option);
    }
    option.textContent = "your house rule: " + house.title;
    if (!(first && boxes.length === 1 && query.has("variant"))) select.value = HOUSE;
    note.innerHTML = "Compared with your house rule <strong>" + escape(house.title) +
      '</strong> (set on the variants page). <a class="rb-house-share">Link to this comparison</a>';
    entry.box.insertBefore(note, entry.summary);
    shareLink(entry);
  }

  function shareLink(entry) {
    var link = entry.box.querySelector(".rb-house-share");
    if (link) houseRules.link(location.href).then(function (url) { link.href = url; });
  }

  /* Python runs in a shared worker where the browser has one: kept alive a while after a page
     closes (extendedLifetime), it serves the next page opened and a reload at once, already
     started; elsewhere in the page's own worker. Either way the page talks to it through one
     port: {postMessage, onmessage, onerror, terminate}. */
  function startWorker(url) {
    if (typeof SharedWorker === "function") {
      try {
        var shared = new SharedWorker(url, { type: "module", name: "rulesbook-live" + (window.rulesbookBuild ? "-" + window.rulesbookBuild : ""), extendedLifetime: true });
        var port = shared.port;
        shared.onerror = function (event) { if (port.onerror) port.onerror(event); };
        port.terminate = function () { port.close(); };
        return port;
      } catch (error) {
        // (a browser whose shared workers cannot run modules: the page's own worker below)
      }
    }
    return new Worker(url, { type: "module" });
  }

  if (location.protocol === "file:") {
    stayStatic("Opened from a file: browsers do not run the live calculator from disk. " + HOW);
    return;
  }
  if (typeof WebAssembly !== "object" || typeof Worker !== "function") {
    stayStatic("This browser cannot run the live calculator (it needs WebAssembly and Web Workers). " + STATIC);
    return;
  }

  var query = new URLSearchParams(location.search);
  var worker;
  try {
    worker = startWorker(new URL("rulesbook-live-worker.mjs", here));
  } catch (error) {
    stayStatic("This browser cannot run the live calculator (" + error.message + "). " + STATIC);
    return;
  }
  var seq = 0;
  var pending = {};   // seq -> callback
  var forms = [];     // {box, form, calc, latest, house (a calculator the house rule adds), added}
  var started = performance.now();

  if (houseBox) houseStatus("loading", '<span class="rb-live-spinner" aria-hidden="true"></span>' +
    "Loading Python for your browser to check the house rule…");
  boxes.forEach(function (box) {
    status(box, "loading", '<span class="rb-live-spinner" aria-hidden="true"></span>' +
      "Loading the live calculator (Python for your browser: 18–28&nbsp;MB on a first visit, by how the web host " +
      "compresses it; then from the browser's cache)…");
    if (boxes.length === 1 && query.toString()) {
      // a shared link: its inputs are answered as soon as the calculator is live
      box.querySelector(".rb-static-result").classList.add("rb-stale");
    }
  });

  function send(message, callback) {
    seq += 1;
    message.seq = seq;
    if (callback) pending[seq] = callback;
    worker.postMessage(message);
    return seq;
  }

  /* -- the live form --------------------------------------------------------------------------- */

  function controls(form) {
    return Array.prototype.slice.call(form.querySelectorAll("[data-key]"));
  }

  function valueOf(control) {
    if (control.type === "checkbox") return control.checked ? "true" : "false";
    return control.value;
  }

  function setValue(control, text) {
    if (control.type === "checkbox") control.checked = text.trim().toLowerCase() === "true";
    else if (control.type !== "file") control.value = text;
  }

  function values(form) {
    var out = {};
    controls(form).forEach(function (control) {
      if (control.type !== "file") out[control.getAttribute("data-key")] = valueOf(control);
    });
    return out;
  }

  function keepInAddress(form) {
    if (forms.length !== 1 || forms[0].house) return;
    var params = new URLSearchParams(values(form));
    if (params.get("variant") === HOUSE) params.delete("variant");  // the house rule travels in the fragment
    history.replaceState(history.state, "", "?" + params.toString() + location.hash);
    if (houseRules) forms.forEach(shareLink);
  }

  /* An input just picked (changed) may set others to agree with it (the calculator's declared
     relations, rulesbook.relations): the answer carries their new texts, shown in the form. */
  function ask(entry, changed) {
    var result = entry.result;
    result.classList.add("rb-stale");
    var vals = values(entry.form);
    var variant = vals.variant || "none";
    delete vals.variant;
    var question = { type: "answer", calc: entry.calc, values: vals, variant: variant, changed: changed || "" };
    entry.latest = send(question, function (reply) {
      if (reply.seq !== entry.latest) return; // a newer answer is on its way
      var html = reply.html !== undefined ? reply.html :
        '<div class="rb-result"><p class="rb-error" data-key="error">The live calculator failed: ' +
        String(reply.error).replace(/</g, "&lt;") + "</p></div>";
      morph(result, html);
      var set = result.querySelector(".rb-set");
      if (set) {
        var texts = JSON.parse(set.getAttribute("data-set"));
        Object.keys(texts).forEach(function (key) {
          var control = entry.form.querySelector('[data-key="' + key + '"]');
          if (control) setValue(control, texts[key]);
        });
        keepInAddress(entry.form);
      }
      fold(entry);
      keepLastAnswer(entry, html);
      result.classList.remove("rb-stale");
      entry.box.setAttribute("data-answered", String(reply.seq));
      entry.box.setAttribute("data-answer-ms", reply.ms === undefined ? "" : reply.ms.toFixed(1));
      if (!entry.box.hasAttribute("data-first-answer")) {
        entry.box.setAttribute("data-first-answer", (performance.now() - started).toFixed(0));
      }
    });
    keepInAddress(entry.form);
  }

  /* The result pane made to show `html`, changing only what differs from what it shows: the
     numbers of a new answer, mostly. Replacing the whole pane on every keystroke made the browser
     build, style and lay out all of its tables and charts anew (tens of milliseconds for a 40k
     attack); patching keeps the nodes that stay and touches the texts and attributes that change. */
  var parser = document.createElement("template");
  function morph(target, html) {
    parser.innerHTML = html;
    patch(target, parser.content);
    parser.innerHTML = "";
  }

  function patch(old, fresh) {
    var a = old.firstChild;
    var b = fresh.firstChild;
    while (b) {
      var next = b.nextSibling;
      if (!a) {
        old.appendChild(b);
      } else if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) {
        var after = a.nextSibling;
        old.replaceChild(b, a);
        a = after;
      } else {
        if (a.nodeType === 1) {
          sameAttributes(a, b);
          patch(a, b);
        } else if (a.nodeValue !== b.nodeValue) {
          a.nodeValue = b.nodeValue;
        }
        a = a.nextSibling;
      }
      b = next;
    }
    while (a) {
      var gone = a;
      a = a.nextSibling;
      old.removeChild(gone);
    }
  }

  function sameAttributes(a, b) {
    Array.prototype.slice.call(a.attributes).forEach(function (attr) {
      if (!b.hasAttributeNS(attr.namespaceURI, attr.localName)) a.removeAttributeNS(attr.namespaceURI, attr.localName);
    });
    Array.prototype.forEach.call(b.attributes, function (attr) {
      if (a.getAttributeNS(attr.namespaceURI, attr.localName) !== attr.value) {
        a.setAttributeNS(attr.namespaceURI, attr.name, attr.value);
      }
    });
  }

  /* An answer's workings (charts, explanation, tables) start closed on a phone, so the inputs sit
     right under the headline, and open on a wide screen; a tap on its summary sets it for the page. */
  function fold(entry) {
    var open = entry.workings === undefined ? !window.matchMedia("(max-width: 700px)").matches : entry.workings;
    Array.prototype.forEach.call(entry.result.querySelectorAll("details.rb-workings"), function (details) {
      details.open = open;
    });
  }

  /* A wrong or half-typed value: its one line above the last good answer (dimmed), its field
     marked; the summary line (the key probability) pinned while the result is scrolled away. */
  function keepLastAnswer(entry, html) {
    var result = entry.result;
    var problem = result.querySelector('.rb-error[data-key="error"]');
    var source = result.querySelector(".rb-summary-source");
    var key = problem ? problem.textContent.split(":")[0].trim() : "";
    controls(entry.form).forEach(function (control) {
      var field = control.closest(".rb-live-field");
      if (field) field.classList.toggle("rb-invalid", control.getAttribute("data-key") === key);
    });
    if (!problem) {
      entry.lastGood = html;
    } else if (entry.lastGood) {
      var kept = document.createElement("div");
      kept.className = "rb-kept";
      kept.style.opacity = ".5";
      kept.innerHTML = '<p class="rb-kept-note">The last answer, until the value is complete:</p>' + entry.lastGood;
      result.appendChild(kept);
      fold(entry);
    }
    if (source) entry.summary.innerHTML = source.innerHTML;
    var mark = entry.summary.querySelector(".rb-summary-error");
    if (mark) mark.remove();
    if (problem) {
      mark = document.createElement("span");
      mark.className = "rb-summary-error";
      mark.textContent = problem.textContent;
      entry.summary.appendChild(mark);
    }
    // (where the result sits is read once the page lays it out to paint, not forced here)
    requestAnimationFrame(function () { pin(entry); });
  }

  function pin(entry) {
    var top = entry.result.getBoundingClientRect().top;
    entry.summary.hidden = entry.summary.innerHTML === "" || (top > 40 && top < window.innerHeight - 60);
  }

  function upload(entry, control) {
    var file = control.files && control.files[0];
    if (!file) return;
    file.arrayBuffer().then(function (buffer) {
      send({
        type: "upload", calc: entry.calc, key: control.getAttribute("data-key"),
        name: file.name, bytes: new Uint8Array(buffer),
      }, function (reply) {
        if (reply.error) {
          entry.result.innerHTML = reply.error;
          entry.result.classList.remove("rb-stale");
        } else {
          offerNames(entry.form, reply.names || {});
          ask(entry, control.getAttribute("data-key"));  // what the file no longer offers follows it
        }
      });
    });
  }

  // what a chosen file offers to pick (an army list's units and weapons) replaces the
  // suggestions of the boxes it names; what was typed stays
  function offerNames(form, names) {
    Object.keys(names).forEach(function (key) {
      var box = form.querySelector('[data-key="' + key + '"]');
      var list = box && box.getAttribute("list") ? document.getElementById(box.getAttribute("list")) : null;
      var pick = form.querySelector('select.rb-pick[data-pick-for="' + key + '"]');
      var holder = list || pick;
      if (!holder) return;
      Array.prototype.slice.call(holder.querySelectorAll("option")).forEach(function (option) {
        if (option.value !== "") option.parentNode.removeChild(option);
      });
      names[key].forEach(function (name) {
        var option = document.createElement("option");
        option.value = name;
        option.textContent = name;
        holder.appendChild(option);
      });
      if (pick) pick.hidden = names[key].length === 0;
    });
  }

  function goLive(box, house) {
    var template = box.querySelector("template.rb-live-template");
    var form = template.content.firstElementChild.cloneNode(true);
    var result = box.querySelector(".rb-static-result");
    var entry = { box: box, form: form, result: result, calc: form.getAttribute("data-calc"), latest: 0, house: !!house };
    result.addEventListener("click", function (event) {
      var summary = event.target.closest && event.target.closest("details.rb-workings > summary");
      if (summary) entry.workings = !summary.parentElement.open;
    });
    // what the reader chose in the precomputed form carries over; a link's inputs come first
    Array.prototype.forEach.call(box.querySelectorAll(".rb-static-form select[data-key]"), function (select) {
      var live = form.querySelector('[data-key="' + select.getAttribute("data-key") + '"]');
      if (live && select.selectedIndex >= 0) setValue(live, select.options[select.selectedIndex].text);
    });
    if (forms.length === 0 && boxes.length === 1) {
      controls(form).forEach(function (control) {
        var key = control.getAttribute("data-key");
        if (query.has(key)) {
          setValue(control, query.get(key));
          var choices = control.closest("details.rb-choices");
          if (choices && valueOf(control) !== initial(control)) choices.open = true;
        }
      });
    }
    var layout = document.createElement("div");
    layout.className = "rb-live-layout";
    box.insertBefore(layout, result);
    entry.summary = document.createElement("div");
    entry.summary.className = "rb-live-summary";
    entry.summary.setAttribute("role", "status");
    entry.summary.hidden = true;
    box.insertBefore(entry.summary, layout);
    window.addEventListener("scroll", function () { pin(entry); }, { passive: true });
    layout.appendChild(result);
    layout.appendChild(form);
    Array.prototype.forEach.call(box.querySelectorAll(".rb-static-form, .rb-static-fixed"), function (old) {
      old.parentNode.removeChild(old);
    });
    // Every keystroke asks at once (no Enter, no pause): the worker computes only the newest
    // question waiting, so a fast typist never queues up stale answers.
    // "add from the list": each pick adds its name to the box's comma list, which stays editable
    Array.prototype.forEach.call(form.querySelectorAll("select.rb-pick"), function (pick) {
      pick.addEventListener("change", function () {
        var box = form.querySelector('[data-key="' + pick.getAttribute("data-pick-for") + '"]');
        if (!box || !pick.value) return;
        var words = box.value.split(",").map(function (w) { return w.trim(); }).filter(Boolean);
        if (words.indexOf(pick.value) < 0) words.push(pick.value);
        box.value = words.join(", ");
        pick.value = "";
        box.dispatchEvent(new Event("input"));
      });
    });
    // a compared variant's added entries (data-variant) are offered while it is compared
    var compared = form.querySelector('select[data-key="variant"]');
    function offer() {
      var variant = compared ? compared.value : "none";
      Array.prototype.forEach.call(form.querySelectorAll("option[data-variant]"), function (option) {
        option.disabled = option.hidden = option.getAttribute("data-variant") !== variant;
      });
      Array.prototype.forEach.call(form.querySelectorAll("select.rb-pick"), function (pick) {
        pick.hidden = !pick.querySelector('option:not([value=""]):not([disabled])');
      });
    }
    entry.offerAdded = offer;
    offer();
    if (compared) compared.addEventListener("change", offer);
    // the inputs a compared variant adds: gone at once when "Compare with" changes (the answer
    // asked meanwhile has none), then the new variant's, and the answer with them
    entry.added = document.createElement("div");
    entry.added.className = "rb-added-inputs";
    form.insertBefore(entry.added, compared ? compared.closest(".rb-live-field") : null);
    if (compared) compared.addEventListener("change", function () { refreshAdded(entry, false); });
    controls(form).forEach(function (control) {
      if (control.type === "file") {
        control.addEventListener("change", function () { upload(entry, control); });
      } else if (control.tagName === "SELECT" || control.type === "checkbox") {
        control.addEventListener("change", function () { ask(entry, control.getAttribute("data-key")); });
      } else {
        control.addEventListener("input", function () { ask(entry, control.getAttribute("data-key")); });
      }
    });
    forms.push(entry);
    offerHouse(entry, true);
    offer();
    status(box, "live", '<span class="rb-live-dot" aria-hidden="true"></span>' +
      "Live: every input is computed in your browser by the rules code itself (Python " +
      worker.python + "), exactly as <code>rulesbook calc</code> answers.");
    ask(entry);
    refreshAdded(entry, true);
  }

  /* Show the fields of the inputs the compared variant adds (none without one), then answer with
     them; `first`: a shared link's values for them are filled in. */
  function refreshAdded(entry, first) {
    var select = entry.form.querySelector('select[data-key="variant"]');
    var variant = select ? select.value : "none";
    entry.added.innerHTML = "";
    entry.addedFor = variant;
    if (variant === "none") return;
    send({ type: "fields", calc: entry.calc, variant: variant }, function (reply) {
      if (entry.addedFor !== variant || !reply.html) return;  // another variant was picked meanwhile
      entry.added.innerHTML = reply.html;
      controls(entry.added).forEach(function (control) {
        var key = control.getAttribute("data-key");
        if (first && forms.length === 1 && query.has(key)) setValue(control, query.get(key));
        var type = control.tagName === "SELECT" || control.type === "checkbox" ? "change" : "input";
        control.addEventListener(type, function () { ask(entry, key); });
      });
      ask(entry);
    });
  }

  function initial(control) {
    if (control.type === "checkbox") return control.defaultChecked ? "true" : "false";
    if (control.tagName === "SELECT") {
      var chosen = Array.prototype.filter.call(control.options, function (o) { return o.defaultSelected; });
      return chosen.length ? chosen[0].value : (control.options[0] || {}).value;
    }
    return control.defaultValue;
  }

  worker.onmessage = function (event) {
    var message = event.data;
    if (message.type === "ready") {
      worker.python = message.python;
      boxes.forEach(function (box) {
        box.setAttribute("data-start", JSON.stringify({
          seconds: message.seconds, phases: message.phases, since_open: Math.round(performance.now()),
          from_snapshot: message.fromSnapshot, reused: !!message.reused,
        }));
      });
      var live = function () {
        boxes.forEach(function (box) { goLive(box); });
        if (houseRules) document.addEventListener("rulesbook-house", houseChanged);
      };
      if (houseRules) houseRules.ready.then(function () { checkHouse(live); });
      else live();
    } else if (message.type === "absent") {
      stayStatic("This copy of the site was built without the live calculator (the build could not reach " +
        "the npm registry and PyPI). " + STATIC);
      boxes.forEach(function (box) { box.querySelector(".rb-static-result").classList.remove("rb-stale"); });
      worker.terminate();
    } else if (message.type === "failed") {
      stayStatic("The live calculator could not start (" + String(message.message).replace(/</g, "&lt;") +
        "). " + STATIC);
      boxes.forEach(function (box) { box.querySelector(".rb-static-result").classList.remove("rb-stale"); });
      worker.terminate();
    } else if (pending[message.seq]) {
      var callback = pending[message.seq];
      delete pending[message.seq];
      callback(message);
    }
  };
  /* The house rule changed in this page (typed, opened, cleared): checked after a pause in
     typing, then every form compares with it (or no longer does). */
  var houseTimer = null;
  function houseChanged() {
    clearTimeout(houseTimer);
    houseTimer = setTimeout(function () {
      checkHouse(function () {
        forms.forEach(function (entry) {
          offerHouse(entry, false);
          entry.offerAdded();
          ask(entry);
          refreshAdded(entry, false);
        });
      });
    }, 250);
  }

  worker.onerror = function (event) {
    stayStatic("The live calculator could not start (" + (event.message || "worker error") + "). " + STATIC);
  };

  /* For tests and benchmarks: what `rulesbook calc ID ARGS --json` prints, computed in this page
     (`cold`: every rulesbook cache cleared first, as the CPython benchmarks time a first answer). */
  window.rulesbookLive = {
    json: function (calc, args, cold) {
      return new Promise(function (resolve) { send({ type: "json", calc: calc, args: args, cold: !!cold }, resolve); });
    },
  };

  send({ type: "start", base: new URL("../live-runtime/", here).href,
    system: boxes.length ? boxes[0].getAttribute("data-calc").split(".")[0] : "" });
})();
