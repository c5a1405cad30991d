/* The Web Worker behind a live calculator page: Python (Pyodide) with rulesbook, off the page's
   thread, so the page never freezes while Python starts or computes.

   Messages from the page (live-calculators.js):
     {type: "start", base, system}                    -> {type: "ready", seconds, python}
                                                          | {type: "absent"} (no runtime in this build)
                                                          | {type: "failed", message}
     {type: "answer", seq, calc, values, variant}     -> {type: "answer", seq, html, ms}
       only the newest question is computed: one still waiting when a newer one comes is
       answered {type: "answer", seq, skipped: true}
     {type: "upload", seq, calc, key, name, bytes}    -> {type: "upload", seq, error, names}
                                                        (error: HTML or null; names: what the
                                                        file offers to pick, by input key)
     {type: "house", seq, text}                       -> {type: "house", seq, result}
       the reader's house rule (a variant file's text) checked and kept: `result` is JSON with
       its system, title and changes, or its one-line error (widgets.forms.browser.house_rule); an
       answer's variant ":house" compares with it
     {type: "json", seq, calc, args, cold}            -> {type: "json", seq, code, output, ms}
       (what `rulesbook calc ID ARGS --json` prints: for tests and benchmarks; `cold` clears
       every rulesbook cache first)
   On a first visit, once the page has been live for a moment, Python's memory is stored in the
   browser (IndexedDB, gzip-compressed: about 10 MB) and the next visit starts from it: about a
   second instead of three or four. Where IndexedDB is missing or refuses, every visit starts
   afresh. */
import { startPython } from "./rulesbook-live-core.mjs";

let python = null;
let queued = null;
let scheduled = false;

const SAVE_AFTER_MS = 1500; // let the first answers through before the snapshot (about half a second of work)

/* Snapshots of Python's memory, kept in IndexedDB: at most one per site (its latest build). */
function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function database() {
  const opening = indexedDB.open("rulesbook-live", 1);
  opening.onupgradeneeded = () => opening.result.createObjectStore("snapshots");
  return request(opening);
}

async function transform(blob, Stream) {
  if (typeof Stream !== "function") return new Uint8Array(await blob.arrayBuffer());
  return new Uint8Array(await new Response(blob.stream().pipeThrough(new Stream("gzip"))).arrayBuffer());
}

const snapshots = typeof indexedDB === "object" && indexedDB ? {
  async get(key) {
    const db = await database();
    const stored = await request(db.transaction("snapshots").objectStore("snapshots").get(key));
    db.close();
    if (!stored) return null;
    return stored.gzip ? transform(stored.data, globalThis.DecompressionStream) : new Uint8Array(await stored.data.arrayBuffer());
  },
  async put(key, bytes) {
    const gzip = typeof CompressionStream === "function";
    const data = new Blob([gzip ? await transform(new Blob([bytes]), CompressionStream) : bytes]);
    await this.clear(key);  // this site's earlier builds; other sites on this host keep theirs
    const db = await database();
    await request(db.transaction("snapshots", "readwrite").objectStore("snapshots").put({ gzip, data }, key));
    db.close();
  },
  async clear(key) {
    const site = key.slice(0, key.indexOf(" ") + 1);
    const db = await database();
    const store = db.transaction("snapshots", "readwrite").objectStore("snapshots");
    for (const stored of await request(store.getAllKeys())) {
      if (String(stored).startsWith(site)) await request(store.delete(stored));
    }
    db.close();
  },
} : null;

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
    const [html, ms] = timed(() => app.answer(job.calc, values, job.variant || "none"));
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
      snapshots: message.snapshots === false ? null : snapshots,
      read: (path, kind, integrity) => read(message.base, path, kind, integrity),
    });
    self.postMessage({
      type: "ready", seconds: python.seconds, phases: python.phases, python: python.manifest.pyodide.python,
      fromSnapshot: python.fromSnapshot,
    });
    if (python.saveSnapshot) {
      setTimeout(() => {
        const started = performance.now();
        python.saveSnapshot().then(
          () => self.postMessage({ type: "saved", ms: performance.now() - started }),
          (error) => console.warn("rulesbook: no start-up snapshot stored", error),
        );
      }, SAVE_AFTER_MS);
    }
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
