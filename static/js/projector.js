// The projector's ranking, one page at a time when it does not fit the screen: the next page
// every 10 seconds, and the same page kept when a poll swaps in new standings. Without this
// file every page shows, one under the other.
(() => {
  const EVERY = 10_000;
  let index = 0;
  function show() {
    const pages = document.querySelectorAll("#projector .proj-page");
    if (pages.length === 0) return;
    index %= pages.length;
    pages.forEach((page, i) => {
      page.hidden = pages.length > 1 && i !== index;
    });
  }
  document.addEventListener("DOMContentLoaded", show);
  document.addEventListener("htmx:afterSwap", show);
  setInterval(() => {
    index += 1;
    show();
  }, EVERY);
})();
