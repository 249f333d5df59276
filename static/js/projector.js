// The projector's ranking, one page at a time when it does not fit the screen: the next page
// every 10 seconds, and the same page kept when a poll swaps in new standings; each page's type
// made smaller when it is taller than the screen. Without this file every page shows, one under
// the other.
(() => {
  const EVERY = 10_000;
  let index = 0;
  // A page taller than the screen (long names on two lines, prizes under them): its type a
  // little smaller, step by step, until it fits (never under 60 %). Names are never cut.
  function fit() {
    const projector = document.getElementById("projector");
    if (!projector) return;
    const root = document.documentElement;
    let scale = 1;
    projector.style.setProperty("--fit", "1");
    while (root.scrollHeight > window.innerHeight && scale > 0.6) {
      scale -= 0.04;
      projector.style.setProperty("--fit", scale.toFixed(2));
    }
  }
  function show() {
    const pages = /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#projector .proj-page"));
    if (pages.length === 0) return;
    index %= pages.length;
    pages.forEach((page, i) => {
      page.hidden = pages.length > 1 && i !== index;
    });
    fit();
  }
  document.addEventListener("DOMContentLoaded", show);
  document.addEventListener("htmx:afterSwap", show);
  window.addEventListener("resize", fit);
  // Paused (the button, or the P key: WCAG 2.2.2), the same page stays; polls still update it.
  let paused = false;
  const button = document.getElementById("proj-pause");
  const said = document.getElementById("proj-said");
  if (button && said) {
    const toggle = () => {
      paused = !paused;
      button.setAttribute("aria-pressed", String(paused));
      said.textContent = (paused ? said.dataset.paused : said.dataset.turning) ?? "";
    };
    button.hidden = false;
    button.addEventListener("click", toggle);
    document.addEventListener("keydown", (event) => {
      if (event.key.toLowerCase() === "p" && !event.ctrlKey && !event.metaKey && !event.altKey) {
        toggle();
      }
    });
  }
  setInterval(() => {
    if (paused) return;
    index += 1;
    show();
  }, EVERY);
})();
