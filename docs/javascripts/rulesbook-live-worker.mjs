/* The Web Worker behind a live calculator page: Python (Pyodide) with rulesbook, off the page's
   thread, so the page never freezes while Python starts or computes.

   Messages from the page (live-calculators.js):
     {type: "start", base, system}                    -> {type: "ready", seconds, python}
                                                          | {type: "absent"} (no runtime in this build)
                                                          | {type: "failed", message}
     {type: "answer", seq, calc, values, variant, changed}
                                                      -> {type: "answer", seq, html, ms}
       (changed: the input just picked, whose declared relations may set others: widgets.forms.browser.answer)
       only the newest question is computed: one still waiting when a newer one comes is
       answered {type: "answer", seq, skipped: true}
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
   system loaded, nothing left to import; the browser's HTTP cache keeps it for later pages and
   visits. */
import { startPython } from "./rulesbook-live-core.mjs";

let python = null;
let queued = null;
let scheduled = false;

async function read(base, path, kind, integrity) {
  const response = await fetch(new URL(path, base), integrity ? { integrity } : {});
  if (!response.ok) {
    const error = new Error(`${path}: HTTP ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return kind === "text" ? response.text() : new Uint8Array(await response.arrayBuffer());
}

function timed(call) {
  const started = performance.now();
  const value = call();
  return [value, performance.now() - started];
}

function answerNewest() {
  scheduled = false;
  const job = queued;
  queued = null;
  if (!job) return;
  const { app, pyodide } = python;
  const values = pyodide.toPy(job.values);
  try {
    const [html, ms] = timed(() => app.answer(job.calc, values, job.variant || "none", job.changed || ""));
    self.postMessage({ type: "answer", seq: job.seq, html, ms });
  } catch (error) {
    self.postMessage({ type: "answer", seq: job.seq, error: String(error && error.message || error).split("\n").slice(-2).join(" ") });
  } finally {
    values.destroy();
  }
}

async function start(message) {
  try {
    python = await startPython({
      base: message.base,
      system: message.system,
      read: (path, kind, integrity) => read(message.base, path, kind, integrity),
    });
    self.postMessage({
      type: "ready", seconds: python.seconds, phases: python.phases, python: python.manifest.pyodide.python,
      fromSnapshot: python.fromSnapshot,
    });
  } catch (error) {
    if (error && error.status === 404 && !python) self.postMessage({ type: "absent" });
    else self.postMessage({ type: "failed", message: String(error && error.message || error).split("\n")[0] });
  }
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === "start") {
    await start(message);
    return;
  }
  if (!python) return;
  if (message.type === "answer") {
    if (queued) self.postMessage({ type: "answer", seq: queued.seq, skipped: true });
    queued = message; // a newer question replaces one still waiting
    if (!scheduled) {
      scheduled = true;
      setTimeout(answerNewest, 0);
    }
  } else if (message.type === "upload") {
    const error = python.app.upload(message.calc, message.key, message.name, message.bytes);
    const names = error === undefined ? JSON.parse(python.app.names(message.calc)) : {};
    self.postMessage({ type: "upload", seq: message.seq, error: error === undefined ? null : error, names });
  } else if (message.type === "house") {
    self.postMessage({ type: "house", seq: message.seq, result: python.app.house_rule(message.text) });
  } else if (message.type === "fields") {
    self.postMessage({ type: "fields", seq: message.seq, html: python.app.added_fields(message.calc, message.variant || "none") });
  } else if (message.type === "json") {
    if (message.cold) python.app.clear_caches();
    const args = python.pyodide.toPy(message.args);
    const [result, ms] = timed(() => python.app.cli_json(message.calc, args));
    const [code, output] = result.toJs();
    result.destroy();
    args.destroy();
    self.postMessage({ type: "json", seq: message.seq, code, output, ms });
  }
};
