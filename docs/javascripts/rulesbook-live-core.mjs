/* Start Python (Pyodide) with rulesbook in it, from the site's live-runtime folder.

   Shared by the page's Web Worker (rulesbook-live-worker.mjs), the build that takes the start-up
   snapshot (rulesbook/site/snapshot.mjs) and the tests and benchmarks that run the same start-up
   in Node. Everything comes from the site itself (rulesbook.site.runtime wrote it at build time):
   the runtime, the wheels (unpacked here, never installed by loadPackage or micropip, which would
   look for packages on a CDN) and the data snapshot.

   Every start, a visit's first too, is from the start-up snapshot the build took: Python's
   memory with every system loaded and everything an answer imports (manifest.snapshot, gzip), so
   Python neither initialises nor imports anything in the browser — a second or two instead of
   ten or more. The browser keeps it in its HTTP cache with the other files for the next start
   (the worker keeps Python started across pages where it is a shared worker). A build without a
   snapshot (no Node.js when it was built), or one that does not load, starts Python afresh. */

/* startPython({base, read, system, makeSnapshot}) ->
     {pyodide, app, manifest, seconds, phases, fromSnapshot, takeSnapshot}
   base:    URL of the live-runtime folder, ending in "/" (http(s): in a browser, file: in Node)
   read:    async (path, kind, integrity) -> text (kind "text") or Uint8Array (kind "bytes"; kind
            "gzip": the file gunzipped, or as it is, which is then gunzipped here — a worker
            inflates it while it arrives)
   system:  the rule system whose calculators the page shows (loaded first)
   makeSnapshot: start afresh and keep what a memory snapshot needs; takeSnapshot() then loads
     every system and returns Python's memory (the build's snapshot.mjs). */
export async function startPython({ base, read, system, makeSnapshot = false }) {
  const started = performance.now();
  const phases = {};
  const mark = (name) => { phases[name] = Math.round(performance.now() - started); };
  const manifest = JSON.parse(await read("manifest.json", "text"));
  const runtimeURL = new URL(manifest.pyodide.path, base).href;
  // everything is fetched and unpacked at once, while the runtime compiles
  const { loadPyodide } = await import(runtimeURL + "pyodide.mjs");
  const indexURL = runtimeURL.startsWith("file:") ? decodeURIComponent(new URL(runtimeURL).pathname) : runtimeURL;
  const wheels = Promise.all(manifest.wheels.map((w) => read(w.path, "bytes", w.integrity).then(wheelFiles)));
  const settings = {
    indexURL,
    // no package index: nothing is ever looked up, here or on Pyodide's CDN
    lockFileContents: JSON.stringify({ info: manifest.pyodide.lock_info, packages: {} }),
    packageBaseUrl: indexURL,
    env: { HOME: "/home/pyodide" },
    stdout: () => {},
    stderr: (line) => console.warn(line),
  };
  let pyodide = null;
  let fromSnapshot = false;
  if (manifest.snapshot && !makeSnapshot) {
    // (no integrity hash to wait for: the gzip trailer's CRC-32 and length catch a damaged file)
    const fetched = read(manifest.snapshot.path, "gzip");
    fetched.then(() => mark("snapshot-fetched"), () => {});
    const snapshot = fetched.then((bytes) => (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzip(bytes) : bytes)).then(unsparse);
    snapshot.then(() => mark("snapshot-unpacked"), () => {});
    try {
      pyodide = await loadPyodide({
        ...settings, _loadSnapshot: snapshot, createPyodideModule: roomFor(snapshot, runtimeURL, mark),
      });
      fromSnapshot = true;
    } catch (error) {
      console.warn("rulesbook: the start-up snapshot did not load; starting afresh", error);
    }
  }
  if (!pyodide) pyodide = await loadPyodide({ ...settings, _makeSnapshot: makeSnapshot });
  mark("runtime");
  const sitePackages = pyodide.runPython("import sys; [p for p in sys.path if p.endswith('site-packages')][0]");
  for (const files of await wheels) {
    if (files instanceof Uint8Array) pyodide.unpackArchive(files, "wheel", { extractDir: sitePackages });
    else write(pyodide.FS, sitePackages, files);
  }
  // the command line's worked examples name shipped files relative to the project folder
  pyodide.runPython(`import os; os.chdir(${JSON.stringify(sitePackages)})`);
  mark("wheels");
  const app = pyodide.pyimport(manifest.module);
  mark("import");
  app.start(system || "");
  mark("system");
  const takeSnapshot = makeSnapshot ? () => {
    app.prepare_snapshot();
    return pyodide.makeMemorySnapshot();
  } : null;
  return { pyodide, app, manifest, seconds: (performance.now() - started) / 1000, phases, fromSnapshot, takeSnapshot };
}

async function inflate(bytes, format) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream(format));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function gunzip(bytes) {
  return inflate(bytes, "gzip");
}

/* Python's memory from the build's sparse form (rulesbook.site.memory.sparse): the pages kept,
   put back in place in a buffer that is zeros elsewhere. */
function unsparse(packed) {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  const magic = new TextDecoder().decode(packed.subarray(0, 7));
  if (magic !== "RBSNAP1") return packed;
  const [size, page, pages] = [8, 12, 16].map((at) => view.getUint32(at, true));
  const bitmap = packed.subarray(20, 20 + Math.ceil(pages / 8));
  const memory = new Uint8Array(size);
  let from = 20 + bitmap.length;
  for (let i = 0; i < pages; i += 1) {
    if (!(bitmap[i >> 3] & (1 << (i & 7)))) continue;
    const at = i * page;
    memory.set(packed.subarray(from, from + Math.min(page, size - at)), at);
    from += page;
  }
  return memory;
}

/* A wheel (a zip archive) read by the JavaScript engine's own inflater, as [path, bytes] pairs:
   Python's zipfile, under WebAssembly, took seconds for what this does in tens of milliseconds,
   and it runs before the runtime is ready. An archive this reader does not know (zip64, another
   compression) is returned as it is, for Pyodide's unpacker. */
async function wheelFiles(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end -= 1;
  if (end < 0 || typeof DecompressionStream !== "function") return bytes;
  const names = new TextDecoder();
  const files = [];
  let at = view.getUint32(end + 16, true);
  for (let n = view.getUint16(end + 10, true); n > 0; n -= 1) {
    if (view.getUint32(at, true) !== 0x02014b50) return bytes;
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    const name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (name.endsWith("/")) continue;
    if ((method !== 0 && method !== 8) || size === 0xffffffff) return bytes;
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(start, start + size);
    files.push(Promise.all([name, method === 0 ? data : inflate(data, "deflate-raw")]));
  }
  return Promise.all(files);
}

function write(FS, dir, files) {
  for (const [name, data] of files) {
    const path = `${dir}/${name}`;
    FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, data);
  }
}

/* Pyodide restores a snapshot into the memory its module starts with (30 MiB); one taken after
   the memory grew does not fit. Grow it first, through the allocator (so the runtime's views of
   the memory follow); the snapshot then overwrites all of it. */
function roomFor(snapshot, runtimeURL, mark) {
  return async (moduleSettings) => {
    const bytes = await snapshot;
    const { default: createPyodideModule } = await import(runtimeURL + "pyodide.asm.mjs");
    const header = new Uint32Array(bytes.buffer, bytes.byteOffset, 4)[1];
    const need = bytes.byteLength - header;
    const module = await createPyodideModule(moduleSettings);
    mark("module");
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
