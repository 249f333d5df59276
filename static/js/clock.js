// The round clock (templates/partials/round_clock.html, docs/concours.md): the time left, every
// second, counted from the end time the server stored and corrected by the server's time sent
// with the page (a phone whose own clock is wrong still shows the right time). At zero: the
// clock's words ("Last deal", "Time!"), said once to screen readers (the ticking time is a
// silent role=timer). Without this file the page shows the end time and the state the server
// computed.
(() => {
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
    document.querySelectorAll("[data-clock-ends]").forEach((clock) => {
      if (!clock.dataset.clockOffset) {
        // Read once per clock element (a poll swaps in a new one, with a new server time).
        clock.dataset.clockOffset = String(Number(clock.dataset.clockNow) - Date.now());
      }
      const left = Number(clock.dataset.clockEnds) - (Date.now() + Number(clock.dataset.clockOffset));
      const time = clock.querySelector("[data-clock-time]");
      const end = clock.querySelector("[data-clock-end]");
      if (!time) return;
      if (left > 0) {
        time.textContent = format(left);
        clock.classList.remove("is-up");
        clock.dataset.clockRan = "1";
        if (end) end.hidden = false;
        return;
      }
      time.textContent = clock.dataset.clockOver;
      clock.classList.add("is-up");
      if (end) end.hidden = true;
      if (clock.dataset.clockRan === "1") {
        clock.dataset.clockRan = "0";
        const status = clock.querySelector("[data-clock-status]");
        if (status) status.textContent = clock.dataset.clockOver;
      }
    });
  }
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
  setInterval(tick, 1000);
})();
