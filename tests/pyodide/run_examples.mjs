/* Run command-line calculations under the site's vendored Pyodide, in one Node process.

   node tests/pyodide/run_examples.mjs LIVE_RUNTIME_DIR < jobs.json > answers.json
   jobs.json: [{"calc": ID, "args": ["key=value", ...]}, ...]
   answers:   {"python": VERSION, "start_seconds": S, "from_snapshot": BOOL, "answers": [{"code", "output", "ms"}, ...]}
   Start-up is the page worker's own (docs/javascripts/rulesbook-live-core.mjs); each answer is
   widgets.forms.browser.cli_json, i.e. what `rulesbook calc ID ARGS --json` prints. */
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { join, resolve } from "node:path";

const here = fileURLToPath(new URL(".", import.meta.url));
const { startPython } = await import(pathToFileURL(join(here, "..", "..", "docs", "javascripts", "rulesbook-live-core.mjs")).href);
const dir = resolve(process.argv[2]);
const base = pathToFileURL(dir + "/").href;
const read = async (path, kind) => {
  const data = readFileSync(join(dir, path));
  return kind === "text" ? data.toString("utf8") : new Uint8Array(data);
};
const jobs = JSON.parse(readFileSync(0, "utf8"));
const system = process.env.RULESBOOK_SYSTEM || "";
const { pyodide, app, manifest, seconds, fromSnapshot } = await startPython({ base, read, system });
const answers = [];
for (const job of jobs) {
  const started = performance.now();
  const result = app.cli_json(job.calc, pyodide.toPy(job.args));
  const ms = performance.now() - started;
  const [code, output] = result.toJs();
  result.destroy();
  answers.push({ code, output, ms });
}
process.stdout.write(JSON.stringify({
  python: manifest.pyodide.python, start_seconds: seconds, from_snapshot: fromSnapshot, answers,
}));
