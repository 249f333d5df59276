// The in-browser engine's worker (docs/offline-engine.md): Pyodide and the server's own scoring
// package, run off the page's thread so the page stays responsive. Started as a module worker by
// offline-engine.js; messages {id, op, args} in, {id, ok, result | error} out.
//
// Served by the app under /offline/engine/worker-<hash>.js (scorekeeper/web/views.py) with its own
// Content-Security-Policy, which adds 'wasm-unsafe-eval' for Pyodide: the WebAssembly is compiled
// here, and the pages keep script-src 'self'.
"use strict";

const ENGINE_DIR = "/offline-engine";
// The engine's entry points (scorekeeper/web/offline_entry.py), once started: a Pyodide proxy.
/** @type {any} */
let entry = null;

// Files the page cached while preparing (Cache API, "offline-engine-*") are read from there
// rather than downloaded again; the rest goes to the network (or the app's service worker).
const networkFetch = self.fetch.bind(self);
self.fetch = async (input, init) => {
  try {
    const cached = await caches.match(input);
    if (cached) return cached;
  } catch {
    // no Cache API here (a private window): the network
  }
  return networkFetch(input, init);
};

/**
 * @param {string} runtimeUrl
 * @param {string} engineUrl
 */
async function start(runtimeUrl, engineUrl) {
  const { loadPyodide } = await import(runtimeUrl + "pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: runtimeUrl, fullStdLib: false });
  const response = await self.fetch(engineUrl);
  if (!response.ok) throw new Error("engine " + response.status);
  pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: ENGINE_DIR });
  pyodide.runPython("import sys\nsys.path.insert(0, '" + ENGINE_DIR + "')");
  entry = pyodide.pyimport("scorekeeper.web.offline_entry");
  const phrases = pyodide.FS.readFile(ENGINE_DIR + "/offline_phrases.json", { encoding: "utf8" });
  entry.load_phrases(phrases);
  return { python: pyodide.runPython("import sys; sys.version.split()[0]") };
}

/** @type {Record<string, (args: Record<string, string>) => unknown>} */
const OPS = {
  start: (args) => start(args.runtimeUrl, args.engineUrl),
  score: (args) => entry.score_match_json(args.match, args.lang),
  deal: (args) => entry.deal_from_form_json(args.fields, args.match),
};

self.onmessage = async (event) => {
  const { id, op, args } = event.data || {};
  try {
    if (!(op in OPS)) throw new Error("unknown operation " + op);
    if (op !== "start" && entry === null) throw new Error("the engine is not started");
    const result = await OPS[op](args || {});
    self.postMessage({ id, ok: true, result });
  } catch (error) {
    self.postMessage({ id, ok: false, error: error instanceof Error && error.message ? error.message : String(error) });
  }
};
