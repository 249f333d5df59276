// Paper pages (issue 15): the Print button, shown only where it works (without JavaScript the page
// says to use the browser's own Print).
for (const button of document.querySelectorAll("button[data-print]")) {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
}
