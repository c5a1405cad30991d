/* Take the start-up snapshot of the published site's live calculators (run by
   rulesbook.site.runtime at build time, under Node.js):

     node snapshot.mjs CORE_MJS LIVE_RUNTIME_DIR OUT

   starts Python exactly as a page's worker does (CORE_MJS: docs/javascripts/rulesbook-live-core.mjs)
   from the runtime folder the build wrote, loads every system and everything an answer imports,
   and writes Python's memory to OUT (the build compresses it and names it in the manifest). */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [core, folder, out] = process.argv.slice(2);
const { startPython } = await import(pathToFileURL(resolve(core)).href);
const dir = resolve(folder);
const read = async (path, kind) => {
  const data = readFileSync(join(dir, path));
  return kind === "text" ? data.toString("utf8") : new Uint8Array(data);
};
const python = await startPython({ base: pathToFileURL(dir + "/").href, read, system: "", makeSnapshot: true });
writeFileSync(out, python.takeSnapshot());
