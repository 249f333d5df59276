// The round clock (templates/partials/round_clock.html, docs/concours.md "The round clock"): the
// time left, every second: the end the server stored (data-clock-ends, an absolute time) less
// the server's time now, which is this phone's time plus the offset between the two clocks.
//
// The offset is measured from fresh answers only, never from a fragment's copy of the server's
// time (a poll answered 304 hands htmx the cached fragment, data-clock-now and all, as old as
// that fragment): the page's own data-clock-now when the page came from the server, and the
// Server-Time header of every htmx answer (a 304's headers are its own: they replace the cached
// ones). Each sample is a lower bound of the server's time when it arrived (read before the
// answer left the server): the offset is the highest of the last KEPT samples, so a slow answer
// never moves the clock back, and a phone's clock set again meanwhile is forgotten after KEPT
// answers. A page that has no fresh sample (a copy the offline service worker kept) takes the
// offset this phone measured last (localStorage), else its own clock.
//
// At zero: the clock's words ("Last deal", "Time!"), said once to screen readers for each end
// time (the ticking time is a silent role=timer), whatever the polls swap in meanwhile. Without
// this file the page shows the end time and the state the server computed.
//
// An ES module (loaded with type="module"): its arithmetic is exported for its unit tests
// (tests/js/clock.test.js), which import it in node, where there is no page to wire.

const KEPT = 8;
const STORED = "round-clock-offset";

/** @param {number} n */
function pad(n) {
  return String(n).padStart(2, "0");
}

/**
 * The time left as the clock shows it: "mm:ss", or "h:mm:ss" from an hour on; a part of a second
 * counts as a whole one (the clock shows 00:01 until it is at zero).
 * @param {number} ms time left, in milliseconds (> 0)
 */
export function format(ms) {
  const total = Math.ceil(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return hours ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${pad(minutes)}:${pad(seconds)}`;
}

/**
 * Milliseconds left on a clock: its end time less the server's time now, which is this phone's
 * time corrected by `offset` (the server's time less the phone's).
 * @param {number} ends the end time (milliseconds since the epoch, the server's clock)
 * @param {number} now this phone's time
 * @param {number} offset the server's time less this phone's
 */
export function timeLeft(ends, now, offset) {
  return ends - (now + offset);
}

/**
 * The offset between the server's clock and this phone's, from fresh samples: the highest of the
 * last `kept` (each sample is a lower bound: the server's time read before its answer left).
 */
export class Offset {
  /** @param {number} kept */
  constructor(kept = KEPT) {
    this.kept = kept;
    /** @type {number[]} */
    this.samples = [];
  }

  /**
   * One fresh server time, read on this phone at `phoneMs`; false when it is no time at all.
   * @param {number} serverMs
   * @param {number} phoneMs
   */
  add(serverMs, phoneMs) {
    if (!Number.isFinite(serverMs) || serverMs <= 0) return false;
    this.samples.push(serverMs - phoneMs);
    if (this.samples.length > this.kept) this.samples.shift();
    return true;
  }

  /** The offset, or null before any sample. */
  value() {
    return this.samples.length ? Math.max(...this.samples) : null;
  }
}

function wire() {
  const offsets = new Offset();
  const running = new Set(); // end times seen with time left on this page
  const said = new Set(); // end times whose zero was announced

  /** @param {number} serverMs */
  function sample(serverMs) {
    if (!offsets.add(serverMs, Date.now())) return;
    try {
      localStorage.setItem(STORED, String(offsets.value()));
    } catch {
      // No storage (a private window's quota): the samples in memory still count.
    }
  }
  function offset() {
    const measured = offsets.value();
    if (measured !== null) return measured;
    try {
      const kept = Number(localStorage.getItem(STORED));
      if (Number.isFinite(kept)) return kept;
    } catch {
      // No storage: this phone's own clock.
    }
    return 0;
  }
  function tick() {
    const now = Date.now();
    const shift = offset();
    for (const clock of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-clock-ends]"))) {
      const ends = Number(clock.dataset.clockEnds);
      const time = clock.querySelector("[data-clock-time]");
      const end = /** @type {HTMLElement | null} */ (clock.querySelector("[data-clock-end]"));
      if (!time || !Number.isFinite(ends)) continue;
      const left = timeLeft(ends, now, shift);
      if (left > 0) {
        time.textContent = format(left);
        clock.classList.remove("is-up");
        if (end) end.hidden = false;
        running.add(ends);
        continue;
      }
      time.textContent = clock.dataset.clockOver ?? "";
      clock.classList.add("is-up");
      if (end) end.hidden = true;
      if (running.has(ends) && !said.has(ends)) {
        said.add(ends);
        const status = clock.querySelector("[data-clock-status]");
        if (status) status.textContent = clock.dataset.clockOver ?? "";
      }
    }
  }
  // The page itself, when it came from the server (not a kept copy, nor Back from the cache).
  function fromPage() {
    const navigation = /** @type {PerformanceNavigationTiming | undefined} */ (
      performance.getEntriesByType("navigation")[0]
    );
    const cached = navigation?.type === "back_forward";
    const clock = /** @type {HTMLElement | null} */ (document.querySelector("[data-clock-now]"));
    if (clock && !cached && !document.documentElement.dataset.offlineCopy) {
      sample(Number(clock.dataset.clockNow));
    }
    tick();
  }
  // Every htmx answer, before it is swapped in: its own Server-Time, 304s included.
  document.addEventListener("htmx:beforeOnLoad", (event) => {
    const xhr = /** @type {CustomEvent<{xhr?: XMLHttpRequest}>} */ (event).detail.xhr;
    if (xhr && xhr.status >= 200 && xhr.status < 400) {
      sample(Number(xhr.getResponseHeader("Server-Time")));
    }
  });
  // A module runs once the page is parsed: DOMContentLoaded may not have fired yet, or may have.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fromPage);
  else fromPage();
  document.addEventListener("htmx:afterSwap", tick);
  setInterval(tick, 1000);
}

if (typeof document !== "undefined") wire();
