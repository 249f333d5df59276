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
(() => {
  const KEPT = 8;
  const STORED = "round-clock-offset";
  const samples = [];
  const running = new Set(); // end times seen with time left on this page
  const said = new Set(); // end times whose zero was announced

  function sample(serverMs) {
    if (!Number.isFinite(serverMs) || serverMs <= 0) return;
    samples.push(serverMs - Date.now());
    if (samples.length > KEPT) samples.shift();
    try {
      localStorage.setItem(STORED, String(offset()));
    } catch {
      // No storage (a private window's quota): the samples in memory still count.
    }
  }
  function offset() {
    if (samples.length) return Math.max(...samples);
    try {
      const kept = Number(localStorage.getItem(STORED));
      if (Number.isFinite(kept)) return kept;
    } catch {
      // No storage: this phone's own clock.
    }
    return 0;
  }
  function pad(n) {
    return String(n).padStart(2, "0");
  }
  function format(ms) {
    const total = Math.ceil(ms / 1000);
    const hours = Math.floor(total / 3600);
    const minutes = Math.floor((total % 3600) / 60);
    const seconds = total % 60;
    return hours ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${pad(minutes)}:${pad(seconds)}`;
  }
  function tick() {
    const now = Date.now() + offset();
    document.querySelectorAll("[data-clock-ends]").forEach((clock) => {
      const ends = Number(clock.dataset.clockEnds);
      const time = clock.querySelector("[data-clock-time]");
      const end = clock.querySelector("[data-clock-end]");
      if (!time || !Number.isFinite(ends)) return;
      const left = ends - now;
      if (left > 0) {
        time.textContent = format(left);
        clock.classList.remove("is-up");
        if (end) end.hidden = false;
        running.add(ends);
        return;
      }
      time.textContent = clock.dataset.clockOver;
      clock.classList.add("is-up");
      if (end) end.hidden = true;
      if (running.has(ends) && !said.has(ends)) {
        said.add(ends);
        const status = clock.querySelector("[data-clock-status]");
        if (status) status.textContent = clock.dataset.clockOver;
      }
    });
  }
  // The page itself, when it came from the server (not a kept copy, nor Back from the cache).
  function fromPage() {
    const navigation = performance.getEntriesByType("navigation")[0];
    const cached = navigation && navigation.type === "back_forward";
    const clock = document.querySelector("[data-clock-now]");
    if (clock && !cached && !document.documentElement.dataset.offlineCopy) {
      sample(Number(clock.dataset.clockNow));
    }
    tick();
  }
  // Every htmx answer, before it is swapped in: its own Server-Time, 304s included.
  document.addEventListener("htmx:beforeOnLoad", (event) => {
    const xhr = event.detail.xhr;
    if (xhr && xhr.status >= 200 && xhr.status < 400) {
      sample(Number(xhr.getResponseHeader("Server-Time")));
    }
  });
  document.addEventListener("DOMContentLoaded", fromPage);
  document.addEventListener("htmx:afterSwap", tick);
  setInterval(tick, 1000);
})();
