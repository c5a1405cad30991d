/* The worker behind the live calculator pages: Python (Pyodide) with rulesbook, off the page's
   thread, so the page never freezes while Python starts or computes.

   A page starts it as a shared worker (SharedWorker, with extendedLifetime: it outlives the page
   for a while) wherever the browser has one, so one Python serves every open page of the site and
   the next page opened, or a reload, finds it started: the start-up below happens once per visit,
   not once per page. Elsewhere it is the page's own dedicated Worker (the same messages). Each
   page is a client with its own port; what a page gave Python (a file chosen, the house rule) is
   kept per client and given again when another page has asked in between (browser.forget).

   Messages from the page (live-calculators.js):
     {type: "start", base, system}                    -> {type: "ready", seconds, python}
                                                          | {type: "absent"} (no runtime in this build)
                                                          | {type: "failed", message}
     {type: "answer", seq, calc, values, variant, changed}
                                                      -> {type: "answer", seq, html, ms}
       (changed: the input just picked, whose declared relations may set others: widgets.forms.browser.answer)
       only the newest question of a page is computed: one still waiting when a newer one from
       the same page comes is answered {type: "answer", seq, skipped: true}
     {type: "upload", seq, calc, key, name, bytes}    -> {type: "upload", seq, error, names}
                                                        (error: HTML or null; names: what the
                                                        file offers to pick, by input key)
     {type: "house", seq, text}                       -> {type: "house", seq, result}
       the reader's house rule (a variant file's text) checked and kept: `result` is JSON with
       its system, title and changes, or its one-line error (widgets.forms.browser.house_rule); an
       answer's variant ":house" compares with it
     {type: "fields", seq, calc, variant}             -> {type: "fields", seq, html}
       the fields of the inputs the compared variant (":house": the house rule) adds to the
       calculator, "" for none (widgets.forms.browser.added_fields)
     {type: "json", seq, calc, args, cold}            -> {type: "json", seq, code, output, ms}
       (what `rulesbook calc ID ARGS --json` prints: for tests and benchmarks; `cold` clears
       every rulesbook cache first)
   Python starts from the start-up snapshot the build took (rulesbook-live-core.mjs): every
   system loaded, nothing left to import; the browser's HTTP cache keeps it for later visits.
   "ready" says `reused: true` when Python was started already when the page asked (for an
   earlier page, or by the page's own early start: rulesbook.site.static.early_start_script). */
import { startPython } from "./rulesbook-live-core.mjs";

let python = null;    // once started: {pyodide, app, manifest, seconds, phases, fromSnapshot}
let starting = null;  // the start-up under way (every page that connects meanwhile waits for it)
let owner = null;     // the client whose files and house rule Python holds now
const clients = new Map();  // port -> {house, uploads: Map("calc key" -> message), queued}
const waiting = [];   // clients with a question queued, oldest first
let scheduled = false;

async function read(base, path, kind, integrity) {
  const response = await fetch(new URL(path, base), integrity ? { integrity } : {});
  if (!response.ok) {
    const error = new Error(`${path}: HTTP ${response.status}`);
    error.status = response.status;
    throw error;
  }
  if (kind === "text") return response.text();
  // the start-up snapshot is inflated as it arrives (from the network or the browser's cache),
  // unless the host sent it as gzip-encoded and the browser inflated it already
  const inflate = kind === "gzip" && !/gzip/i.test(response.headers.get("Content-Encoding") || "");
  const body = inflate ? new Response(response.body.pipeThrough(new DecompressionStream("gzip"))) : response;
  return new Uint8Array(await body.arrayBuffer());
}

function timed(call) {
  const started = performance.now();
  const value = call();
  return [value, performance.now() - started];
}

/* Python holds what `client`'s page gave it (its files, its house rule), and nothing of another page. */
function own(client) {
  if (owner === client) return;
  const { app } = python;
  app.forget();
  for (const message of client.uploads.values()) app.upload(message.calc, message.key, message.name, message.bytes);
  if (client.house) app.house_rule(client.house);
  owner = client;
}

function answerNewest() {
  scheduled = false;
  const client = waiting.shift();
  if (waiting.length && !scheduled) {
    scheduled = true;
    setTimeout(answerNewest, 0);
  }
  const job = client && client.queued;
  if (!job) return;
  client.queued = null;
  own(client);
  const { app, pyodide } = python;
  const values = pyodide.toPy(job.values);
  try {
    const [html, ms] = timed(() => app.answer(job.calc, values, job.variant || "none", job.changed || ""));
    client.port.postMessage({ type: "answer", seq: job.seq, html, ms });
  } catch (error) {
    client.port.postMessage({ type: "answer", seq: job.seq, error: String(error && error.message || error).split("\n").slice(-2).join(" ") });
  } finally {
    values.destroy();
  }
}

async function start(client, message) {
  const reused = python !== null;
  if (!starting) {
    starting = startPython({
      base: message.base,
      system: message.system,
      read: (path, kind, integrity) => read(message.base, path, kind, integrity),
    });
  }
  try {
    python = await starting;
    client.port.postMessage({
      type: "ready", seconds: python.seconds, phases: python.phases, python: python.manifest.pyodide.python,
      fromSnapshot: python.fromSnapshot, reused,
    });
  } catch (error) {
    starting = null;  // the next page tries again
    if (error && error.status === 404) client.port.postMessage({ type: "absent" });
    else client.port.postMessage({ type: "failed", message: String(error && error.message || error).split("\n")[0] });
  }
}

async function receive(client, message) {
  if (message.type === "start") {
    await start(client, message);
    return;
  }
  if (!python) return;
  if (message.type === "answer") {
    if (client.queued) client.port.postMessage({ type: "answer", seq: client.queued.seq, skipped: true });
    else waiting.push(client);
    client.queued = message; // a newer question replaces one still waiting
    if (!scheduled) {
      scheduled = true;
      setTimeout(answerNewest, 0);
    }
  } else if (message.type === "upload") {
    own(client);
    const error = python.app.upload(message.calc, message.key, message.name, message.bytes);
    if (error === undefined) client.uploads.set(`${message.calc} ${message.key}`, message);
    const names = error === undefined ? JSON.parse(python.app.names(message.calc)) : {};
    client.port.postMessage({ type: "upload", seq: message.seq, error: error === undefined ? null : error, names });
  } else if (message.type === "house") {
    own(client);
    client.house = message.text;
    client.port.postMessage({ type: "house", seq: message.seq, result: python.app.house_rule(message.text) });
  } else if (message.type === "fields") {
    own(client);
    client.port.postMessage({ type: "fields", seq: message.seq, html: python.app.added_fields(message.calc, message.variant || "none") });
  } else if (message.type === "json") {
    if (message.cold) python.app.clear_caches();
    const args = python.pyodide.toPy(message.args);
    const [result, ms] = timed(() => python.app.cli_json(message.calc, args));
    const [code, output] = result.toJs();
    result.destroy();
    args.destroy();
    client.port.postMessage({ type: "json", seq: message.seq, code, output, ms });
  }
}

function connect(port) {
  const client = { port, house: "", uploads: new Map(), queued: null };
  clients.set(port, client);
  port.onmessage = (event) => receive(client, event.data);
  // a page gone (where the browser says so): its files are dropped
  port.addEventListener("close", () => {
    clients.delete(port);
    if (owner === client) owner = null;
  });
}

if ("onconnect" in self) self.onconnect = (event) => connect(event.ports[0]);  // a shared worker
else connect(self);  // a page's own worker
