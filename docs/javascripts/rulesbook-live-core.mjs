/* Start Python (Pyodide) with rulesbook in it, from the site's live-runtime folder.

   Shared by the page's Web Worker (rulesbook-live-worker.mjs) and the tests and benchmarks that
   run the same start-up in Node. Everything comes from the site itself (rulesbook.site.runtime
   wrote it at build time): the runtime, the wheels (unpacked here, never installed by
   loadPackage or micropip, which would look for packages on a CDN) and the data snapshot.

   A later visit starts from a memory snapshot of the first one when the caller keeps them
   (`snapshots`: the worker stores one in the browser's IndexedDB): Python's memory after start-up
   and every rulesbook import, so Python neither initialises nor imports anything again. A
   snapshot belongs to one build (its key names every file's hash); one that fails to load is
   dropped and Python starts afresh. */

/* startPython({base, read, system, snapshots}) ->
     {pyodide, app, manifest, seconds, phases, fromSnapshot, saveSnapshot}
   base:      URL of the live-runtime folder, ending in "/" (http(s): in a browser, file: in Node)
   read:      async (path, kind, integrity) -> text (kind "text") or Uint8Array (kind "bytes")
   system:    the rule system whose calculators the page shows (only it is loaded)
   snapshots: optional {get(key) -> Uint8Array | null, put(key, bytes), clear(key)}; a key starts
              with `base` and a space
   saveSnapshot: when a snapshot can be taken (a fresh start with `snapshots`), an async function
     that loads every system, then stores Python's memory for the next visit. */
export async function startPython({ base, read, system, snapshots }) {
  const started = performance.now();
  const phases = {};
  const mark = (name) => { phases[name] = Math.round(performance.now() - started); };
  const manifest = JSON.parse(await read("manifest.json", "text"));
  const runtimeURL = new URL(manifest.pyodide.path, base).href;
  const { loadPyodide } = await import(runtimeURL + "pyodide.mjs");
  const indexURL = runtimeURL.startsWith("file:") ? decodeURIComponent(new URL(runtimeURL).pathname) : runtimeURL;
  const wheels = Promise.all(manifest.wheels.map((w) => read(w.path, "bytes", w.integrity)));
  const settings = {
    indexURL,
    // no package index: nothing is ever looked up, here or on Pyodide's CDN
    lockFileContents: JSON.stringify({ info: manifest.pyodide.lock_info, packages: {} }),
    packageBaseUrl: indexURL,
    env: { HOME: "/home/pyodide" },
    stdout: () => {},
    stderr: (line) => console.warn(line),
  };
  // one snapshot per site (its folder's URL) and build (every file's hash)
  const key = [base, manifest.pyodide.version, ...manifest.runtime.map((f) => f.integrity), ...manifest.wheels.map((w) => w.integrity)].join(" ");
  let pyodide = null;
  let fromSnapshot = false;
  const cached = snapshots ? await snapshots.get(key).catch(() => null) : null;
  mark("snapshot-read");
  if (cached) {
    try {
      pyodide = await loadPyodide({ ...settings, _loadSnapshot: cached, createPyodideModule: await roomFor(cached, runtimeURL) });
      fromSnapshot = true;
    } catch (error) {
      console.warn("rulesbook: the stored start-up snapshot did not load; starting afresh", error);
      await snapshots.clear(key).catch(() => {});
    }
  }
  if (!pyodide) pyodide = await loadPyodide({ ...settings, _makeSnapshot: Boolean(snapshots) });
  mark("runtime");
  const sitePackages = pyodide.runPython("import sys; [p for p in sys.path if p.endswith('site-packages')][0]");
  for (const data of await wheels) pyodide.unpackArchive(data, "wheel", { extractDir: sitePackages });
  // the command line's worked examples name shipped files relative to the project folder
  pyodide.runPython(`import os; os.chdir(${JSON.stringify(sitePackages)})`);
  mark("wheels");
  const app = pyodide.pyimport(manifest.module);
  mark("import");
  app.start(system || "");
  mark("system");
  const saveSnapshot = snapshots && !fromSnapshot ? async () => {
    app.prepare_snapshot();
    await snapshots.put(key, pyodide.makeMemorySnapshot());
  } : null;
  return { pyodide, app, manifest, seconds: (performance.now() - started) / 1000, phases, fromSnapshot, saveSnapshot };
}

/* Pyodide restores a snapshot into the memory its module starts with (30 MiB); one taken after
   the memory grew does not fit. Grow it first, through the allocator (so the runtime's views of
   the memory follow); the snapshot then overwrites all of it. */
async function roomFor(snapshot, runtimeURL) {
  const { default: createPyodideModule } = await import(runtimeURL + "pyodide.asm.mjs");
  const header = new Uint32Array(snapshot.buffer, snapshot.byteOffset, 4)[1];
  const need = snapshot.byteLength - header;
  return async (moduleSettings) => {
    const module = await createPyodideModule(moduleSettings);
    const blocks = [];
    while (module.HEAP8.length < need) {
      const block = module._malloc(1 << 20);
      if (!block) break;
      blocks.push(block);
    }
    blocks.forEach((block) => module._free(block));
    return module;
  };
}
