// The service worker (docs/offline.md), served at /sw.js by scorekeeper/web/views.py, which puts
// in the cache version (a hash of the files the offline pages run) and the outbox's address.
// It keeps the phone pages of the matches a phone keeps (the scorer said "Keep working without
// signal", or a concours's table phone: offline.js asks), serves them without signal, and
// queues a deal posted without signal in the outbox. Any other page goes to the network as
// before: the worker does not answer for it.
const PAGES = "pages-__CACHE_VERSION__";
importScripts("__OUTBOX_URL__");

self.addEventListener("install", () => self.skipWaiting());
// A new version moves the kept pages into its cache (a phone that updated the worker, then lost
// the signal, still has them) and drops the old one.
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const fresh = await caches.open(PAGES);
    for (const name of await caches.keys()) {
      if (!name.startsWith("pages-") || name === PAGES) continue;
      const old = await caches.open(name);
      for (const request of await old.keys()) {
        if (!(await fresh.match(request))) await fresh.put(request, await old.match(request));
      }
      await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// offline.js: {type: "keep", urls}: fetch and keep these pages and files; answered on its port.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "keep") return;
  event.waitUntil((async () => {
    const cache = await caches.open(PAGES);
    let kept = 0;
    for (const url of data.urls) {
      // A static file is named by its content in production: kept once is enough.
      if (new URL(url, self.location.origin).pathname.startsWith("/static/") && (await cache.match(url))) continue;
      try {
        const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
        if (response.ok) {
          await cache.put(url, response);
          kept += 1;
        }
      } catch {
        // No signal: what was kept before stays.
      }
    }
    if (event.ports[0]) event.ports[0].postMessage({ kept });
  })());
});

const SCORE = /^\/score\/([\w-]+)\//;
const ACTION = /^\/score\/([\w-]+)\/(?:deal\/(?:(\d+)\/)?|(passed)\/|(undo)\/|(count)\/)$/;

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "GET") {
    if (url.pathname.startsWith("/static/offline/") || url.pathname.startsWith("/offline/engine/")) {
      event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
    } else if (SCORE.test(url.pathname) || url.pathname.startsWith("/static/")) {
      event.respondWith(networkFirst(request, url));
    }
  } else if (request.method === "POST" && ACTION.test(url.pathname)) {
    event.respondWith(posted(request, url));
  }
});

// The network's answer (kept pages are refreshed with it); without signal, the kept copy.
async function networkFirst(request, url) {
  const cache = await caches.open(PAGES);
  const key = url.origin + url.pathname;
  const htmx = request.headers.get("HX-Request") === "true";
  try {
    const response = await fetch(request);
    if (response.ok && !htmx && !url.search && (await cache.match(key))) {
      await cache.put(key, response.clone());
    }
    return response;
  } catch (error) {
    // A poll of the board gets no page in place of its fragment: it fails, as without a worker.
    const kept = htmx ? null : await cache.match(key);
    if (!kept) throw error;
    if (request.mode !== "navigate") return kept;
    // The page says it is a kept copy: offline.js then gives its forms fresh one-time ids.
    const html = (await kept.text()).replace("<html ", '<html data-offline-copy="1" ');
    return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  }
}

// A form of a kept match posted without signal goes to the outbox; the page goes back to the
// scoreboard (kept), which shows it "not sent yet". So does a change made while others still
// wait in the outbox (signal or not): they are sent in the order they were made.
async function posted(request, url) {
  const copy = request.clone();
  const [, token, seq, passed, undo, count] = url.pathname.match(ACTION);
  const save = !count && (passed || undo || request.headers.get("HX-Request") !== "true");
  if (save && (await self.Outbox.items(token)).length) {
    const fields = await formFields(copy);
    if (!fields.some(([name]) => name === "preview" || name === "language")) {
      return queued(request, token, seq, passed, undo, fields);
    }
  }
  try {
    return await fetch(request);
  } catch (error) {
    const board = `/score/${token}/`;
    if (!(await (await caches.open(PAGES)).match(url.origin + board))) throw error;
    const htmx = request.headers.get("HX-Request") === "true";
    const fields = await formFields(copy);
    const names = new Set(fields.map(([name]) => name));
    if (count) {
      // The deal being typed, taken to the card counter (kept), as the server would carry it.
      const carried = fields.filter(([n, v]) => v && !["csrfmiddlewaretoken", "version", "submission"].includes(n));
      const query = new URLSearchParams([...carried, ["for", url.searchParams.get("for") || "new"]]);
      return Response.redirect(`/score/${token}/count/?${query}`, 303);
    }
    if (htmx && !passed && !undo) return new Response(null, { status: 204 }); // a live preview: offline.js shows its own
    if (names.has("preview") || names.has("language")) return Response.redirect(request.referrer || board, 303);
    return queued(request, token, seq, passed, undo, fields);
  }
}

async function formFields(request) {
  return [...(await request.clone().formData()).entries()].filter(([, v]) => typeof v === "string");
}

async function queued(request, token, seq, passed, undo, fields) {
  const board = `/score/${token}/`;
  await self.Outbox.queue(token, undo ? "undo" : passed ? "passed" : seq ? "edit" : "add", fields, seq);
  for (const client of await self.clients.matchAll()) client.postMessage({ type: "queued", token });
  if (request.headers.get("HX-Request") === "true") {
    return new Response("", { status: 200, headers: { "HX-Redirect": board } });
  }
  return Response.redirect(board, 303);
}
