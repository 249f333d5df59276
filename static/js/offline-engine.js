// The in-browser engine (docs/offline-engine.md): the server's own scoring package run by Pyodide in
// a Web Worker (offline-engine-worker.js), for totals computed offline exactly as the server
// computes them. Nothing is downloaded until prepare() is called (never on a first visit).
//
//   window.OfflineEngine = {
//     available(): Promise<boolean>  the runtime is installed on the server, and this browser can
//                                    run it (WebAssembly, workers, the Cache API)
//     store(): Promise<void>         downloads the runtime and the engine into the Cache API
//                                    (caches "offline-engine-<pyodide>-<engine hash>"; older ones
//                                    are deleted), without starting them; with the pack cached
//                                    already it only checks it
//     prepare(): Promise<void>       store(), then starts the worker (a whole Python runtime:
//                                    seconds of a phone's CPU), offline too once stored
//     ready(): boolean
//     scoreMatch(matchFile[, lang]): Promise<object>   `score_match --lang` output for a match
//                                    file (an object or its JSON text); {error: {code, path,
//                                    params}} for one the rules do not allow
//     dealFromForm(fields, matchFile): Promise<{deal} | {error: {code, field}}>   the deal form's
//                                    fields (name: value strings) read as the server's DealForm
//   }
//
// The manifest (GET /offline/engine/, scorekeeper/web/views.py):
/**
 * @typedef {object} Manifest
 * @property {boolean} available
 * @property {{version: string, url: string, files: string[]}} runtime
 * @property {{url: string, hash: string}} engine
 * @property {string} worker
 */
// The worker's answers (offline-engine-worker.js):
/** @typedef {{id: number, ok: boolean, result?: any, error?: string}} Answer */
(function () {
  "use strict";

  const script = document.currentScript;
  const MANIFEST_URL = (script && script.dataset.manifest) || "/offline/engine/";
  const CACHE_PREFIX = "offline-engine-";
  /** @type {Worker | null} */
  let worker = null;
  let isReady = false;
  /** @type {Promise<void> | null} */
  let preparing = null;
  let nextId = 1;
  /** @type {Map<number, {resolve: (result: any) => void, reject: (reason: unknown) => void}>} */
  const pending = new Map();

  function supported() {
    return (
      typeof WebAssembly === "object" && typeof Worker === "function" && "caches" in window
    );
  }

  /**
   * The manifest from the server; offline, the copy prepare() cached.
   * @returns {Promise<Manifest | null>}
   */
  async function manifest() {
    try {
      const response = await fetch(MANIFEST_URL, { credentials: "same-origin" });
      if (response.ok) return await response.json();
    } catch {
      // offline: the cached copy below
    }
    if ("caches" in window) {
      const cached = await caches.match(MANIFEST_URL);
      if (cached) return cached.json();
    }
    return null;
  }

  async function available() {
    if (!supported()) return false;
    const found = await manifest();
    return Boolean(found && found.available);
  }

  /**
   * @param {string} op
   * @param {Record<string, string>} args
   * @returns {Promise<any>}
   */
  function call(op, args) {
    return new Promise((resolve, reject) => {
      if (!worker) {
        reject(new Error("the offline engine is not started"));
        return;
      }
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, op, args });
    });
  }

  /** @param {MessageEvent<Answer>} event */
  function onMessage(event) {
    const { id, ok, result, error } = event.data;
    const waiting = pending.get(id);
    if (!waiting) return;
    pending.delete(id);
    if (ok) waiting.resolve(result);
    else waiting.reject(new Error(error));
  }

  /** @param {unknown} reason */
  function stopWorker(reason) {
    if (worker) worker.terminate();
    worker = null;
    isReady = false;
    for (const waiting of pending.values()) waiting.reject(reason);
    pending.clear();
  }

  /** @param {Manifest} found */
  async function fillCache(found) {
    const name = CACHE_PREFIX + found.runtime.version + "-" + found.engine.hash;
    const cache = await caches.open(name);
    const urls = found.runtime.files.map((file) => found.runtime.url + file);
    urls.push(found.engine.url, found.worker);
    await Promise.all(
      urls.map(async (url) => {
        if (!(await cache.match(url))) await cache.add(url);
      })
    );
    const copy = await fetch(MANIFEST_URL, { credentials: "same-origin" }).catch((error) => {
      // Offline since the manifest was read: the copy cached before stays (the pack is stored).
      console.info("The offline engine's manifest was not refreshed:", error);
      return null;
    });
    if (copy && copy.ok) await cache.put(MANIFEST_URL, copy);
    for (const other of await caches.keys()) {
      if (other.startsWith(CACHE_PREFIX) && other !== name) await caches.delete(other);
    }
  }

  /** @type {Promise<Manifest> | null} */
  let storing = null;
  function store() {
    storing ||= (async () => {
      if (!supported()) throw new Error("this browser cannot run the offline engine");
      const found = await manifest();
      if (!found || !found.available) throw new Error("the offline engine is not installed");
      await fillCache(found);
      return found;
    })().catch((error) => {
      storing = null;
      throw error;
    });
    return storing;
  }

  async function doPrepare() {
    const found = await store();
    worker = new Worker(found.worker, { type: "module", name: "offline-engine" });
    worker.onmessage = onMessage;
    worker.onerror = (event) => stopWorker(new Error(event.message || "worker error"));
    await call("start", { runtimeUrl: found.runtime.url, engineUrl: found.engine.url });
    isReady = true;
  }

  function prepare() {
    if (isReady) return Promise.resolve();
    if (!preparing) {
      preparing = doPrepare().catch((error) => {
        stopWorker(error);
        preparing = null;
        throw error;
      });
    }
    return preparing;
  }

  function pageLang() {
    return (document.documentElement.lang || "en").toLowerCase().startsWith("fr") ? "fr" : "en";
  }

  /** @param {object | string} matchFile */
  function asText(matchFile) {
    return typeof matchFile === "string" ? matchFile : JSON.stringify(matchFile);
  }

  /**
   * @param {object | string} matchFile
   * @param {string} [lang]
   */
  async function scoreMatch(matchFile, lang) {
    if (!isReady) throw new Error("the offline engine is not ready");
    const text = await call("score", { match: asText(matchFile), lang: lang || pageLang() });
    return JSON.parse(text);
  }

  /**
   * @param {Record<string, unknown>} fields
   * @param {object | string} matchFile
   */
  async function dealFromForm(fields, matchFile) {
    if (!isReady) throw new Error("the offline engine is not ready");
    /** @type {Record<string, string>} */
    const strings = {};
    for (const [name, value] of Object.entries(fields || {})) strings[name] = String(value);
    const text = await call("deal", { fields: JSON.stringify(strings), match: asText(matchFile) });
    return JSON.parse(text);
  }

  window.OfflineEngine = {
    available,
    store: () => store().then(() => undefined),
    prepare,
    ready: () => isReady,
    scoreMatch,
    dealFromForm,
  };
})();
