// Live pages (issue 43, scorekeeper/web/live): one stream a page (Server-Sent Events) for every
// element that names a topic (`data-live`, signed by the server, with `data-live-v`, the version
// it shows). An event says a topic's version; each element of that topic showing another one is
// sent the `live` event, which its hx-trigger ("every 10s, live") answers with one GET of its
// fragment, ETag and all, as a poll would.
//
// While the stream is open, the elements' polls are not sent (htmx:confirm cancelled): the
// stream says when to ask. When it is not (no script, the server answering 204 through gunicorn,
// a 429, a proxy that blocks streams, no signal), the polls go on as before. On reconnecting the
// browser sends Last-Event-ID (every version the page held) and the server answers at once with
// what changed since: nothing is missed.
//
// Written here rather than with htmx's sse extension: the polls must stop only while the stream
// is open (a trigger filter would need eval, which the CSP forbids), one stream must serve every
// element whatever htmx swaps, and the page's versions must travel with it.
//
// An ES module: its pure functions are exported for tests/js/live.test.js.

/**
 * The topic of a signed value ("m12:signature" -> "m12").
 * @param {string} signed
 */
export function topicOf(signed) {
  return signed.split(":", 1)[0];
}

/**
 * The stream's address: each signed topic once (`t`), with the version shown (`v`).
 * @param {string} base the stream's address (`<meta name="live">`)
 * @param {{signed: string, version: string}[]} items one per live element
 */
export function streamUrl(base, items) {
  /** @type {Map<string, string>} */
  const versions = new Map();
  for (const { signed, version } of items) {
    if (!versions.has(signed)) versions.set(signed, version);
  }
  const params = new URLSearchParams();
  for (const signed of [...versions.keys()].sort()) params.append("t", signed);
  for (const signed of [...versions.keys()].sort()) {
    params.append("v", `${topicOf(signed)}=${versions.get(signed)}`);
  }
  return `${base}${base.includes("?") ? "&" : "?"}${params.toString()}`;
}

/**
 * An event's data ("m12 57"): the topic and its version ("" for an object gone).
 * @param {string} data
 * @returns {{topic: string, version: string} | null}
 */
export function parseEvent(data) {
  const space = data.indexOf(" ");
  if (space < 1) return null;
  return { topic: data.slice(0, space), version: data.slice(space + 1) };
}

/**
 * Which elements must ask again: those of the topic showing another version.
 * @template {{dataset: DOMStringMap}} E
 * @param {E[]} elements
 * @param {{topic: string, version: string}} event
 * @returns {E[]}
 */
export function behind(elements, event) {
  return elements.filter(
    (el) => topicOf(el.dataset.live ?? "") === event.topic && el.dataset.liveV !== event.version,
  );
}

/** @type {EventSource | null} */
let source = null;
let key = "";

function liveElements() {
  return [...document.querySelectorAll("[data-live]")].filter(
    /** @returns {el is HTMLElement} */ (el) => el instanceof HTMLElement,
  );
}

/** @param {MessageEvent<string>} message */
function onMessage(message) {
  const event = parseEvent(message.data);
  if (!event) return;
  for (const el of behind(liveElements(), event)) {
    el.dispatchEvent(new CustomEvent("live", { detail: event }));
  }
}

function close() {
  if (source) source.close();
  source = null;
  key = "";
}

/** Open, keep or change the page's stream to follow the live elements it now has. */
function sync() {
  const base = document.querySelector('meta[name="live"]')?.getAttribute("content");
  const items = liveElements().map((el) => ({
    signed: el.dataset.live ?? "",
    version: el.dataset.liveV ?? "",
  }));
  const topics = [...new Set(items.map((item) => item.signed))].sort().join(" ");
  if (!base || !items.length || typeof EventSource === "undefined") {
    close();
    return;
  }
  // The same topics keep their stream, even one the server closed for good (a 204 through
  // gunicorn, a 429): the page then polls until it is loaded again.
  if (topics === key && source) return;
  close();
  key = topics;
  const opened = new EventSource(streamUrl(base, items));
  opened.addEventListener("message", onMessage);
  // The page says whether its stream is open (`<html data-live="open">`): for the tests, and
  // for whoever wonders why a page does not poll.
  opened.addEventListener("open", () => {
    document.documentElement.dataset.live = "open";
  });
  opened.addEventListener("error", () => {
    document.documentElement.dataset.live = opened.readyState === EventSource.CLOSED ? "closed" : "connecting";
  });
  source = opened;
}

/** Whether the page's stream is open now (its elements' polls are then not sent). */
function streaming() {
  return source !== null && source.readyState === EventSource.OPEN;
}

if (typeof document !== "undefined") {
  document.addEventListener("DOMContentLoaded", sync);
  document.addEventListener("htmx:load", sync);
  // A page left (or kept in the back-forward cache) holds no stream; coming back opens it
  // again and the server says at once what changed meanwhile.
  window.addEventListener("pagehide", close);
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) sync();
  });
  document.addEventListener("htmx:confirm", (event) => {
    const detail = /** @type {CustomEvent<{elt: Element, triggeringEvent?: Event}>} */ (event).detail;
    const polled = detail.elt instanceof HTMLElement && detail.elt.hasAttribute("data-live");
    if (polled && detail.triggeringEvent?.type !== "live" && streaming()) event.preventDefault();
  });
}
