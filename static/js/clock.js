// The round clock (templates/partials/round_clock.html, docs/concours.md): the time left, every
// second, counted from the end time the server stored and corrected by the server's time sent
// with the page (a phone whose own clock is wrong still shows the right time). At zero: the
// clock's words ("Last deal", "Time!"), said once to screen readers (the ticking time is a
// silent role=timer). Without this file the page shows the end time and the state the server
// computed.
//
// An ES module (loaded with type="module"): `timeLeft` and `format` are exported for its unit
// tests (tests/js/clock.test.js), which import it in node, where there is no page to wire.

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
 * time corrected by `offset` (the server's time less the phone's when the clock was drawn).
 * @param {number} ends the end time (milliseconds since the epoch, the server's clock)
 * @param {number} now this phone's time
 * @param {number} offset the server's time less this phone's
 */
export function timeLeft(ends, now, offset) {
  return ends - (now + offset);
}

function tick() {
  for (const clock of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-clock-ends]"))) {
    if (!clock.dataset.clockOffset) {
      // Read once per clock element (a poll swaps in a new one, with a new server time).
      clock.dataset.clockOffset = String(Number(clock.dataset.clockNow) - Date.now());
    }
    const left = timeLeft(Number(clock.dataset.clockEnds), Date.now(), Number(clock.dataset.clockOffset));
    const time = clock.querySelector("[data-clock-time]");
    const end = /** @type {HTMLElement | null} */ (clock.querySelector("[data-clock-end]"));
    if (!time) continue;
    if (left > 0) {
      time.textContent = format(left);
      clock.classList.remove("is-up");
      clock.dataset.clockRan = "1";
      if (end) end.hidden = false;
      continue;
    }
    time.textContent = clock.dataset.clockOver ?? "";
    clock.classList.add("is-up");
    if (end) end.hidden = true;
    if (clock.dataset.clockRan === "1") {
      clock.dataset.clockRan = "0";
      const status = clock.querySelector("[data-clock-status]");
      if (status) status.textContent = clock.dataset.clockOver ?? "";
    }
  }
}

if (typeof document !== "undefined") {
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
  setInterval(tick, 1000);
}
