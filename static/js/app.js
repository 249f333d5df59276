// Progressive enhancement only: every page works without this file.
// Pages say what only works with the script (the live preview) under html.js (see app.css).
document.documentElement.classList.add("js");
// Card points: typing one team's points fills the other's (162 in all).
document.addEventListener("input", (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement)) return;
  const pairs = { id_taker_points: "id_defence_points", id_defence_points: "id_taker_points" };
  const otherId = pairs[input.id];
  if (!otherId) return;
  const other = document.getElementById(otherId);
  const value = Number.parseInt(input.value, 10);
  if (other && Number.isInteger(value) && value >= 0 && value <= 162) {
    other.value = String(162 - value);
  } else if (other && input.value === "") {
    other.value = "";
  }
});
// Capot: its card points are fixed by the rules, so points typed are greyed (read-only, still
// sent: the preview and the save say they are left out) with a note saying why; "No" under Capot
// brings them back. The capot or générale contract picks the takers' capot (and another contract
// takes back a capot picked that way). Capture phase: done before the live preview reads it.
function showCapot(form) {
  const capot = form.querySelector("input[name=capot]:checked");
  const on = Boolean(capot && capot.value !== "");
  for (const input of form.querySelectorAll("input[name=taker_points], input[name=defence_points]")) {
    input.readOnly = on;
  }
  const note = form.querySelector(".capot-note");
  if (note) note.hidden = !on;
}
document.addEventListener("change", (event) => {
  const input = event.target;
  const form = input instanceof HTMLInputElement ? input.closest(".deal-form") : null;
  if (!form) return;
  if (["contract", "taker", "generale_bid"].includes(input.name)) {
    const contract = form.querySelector("input[name=contract]:checked")?.value;
    const bid = contract === "capot" || contract === "generale"
      || Boolean(form.querySelector("input[name=generale_bid]:checked"));
    const taker = form.querySelector("input[name=taker]:checked")?.value;
    let value = null;  // the capot chip to pick, if any
    if (bid && taker !== undefined) value = taker;
    else if (!bid && form.dataset.autoCapot === "1") value = "";  // "No"
    const chip = value === null ? null : form.querySelector(`input[name=capot][value="${value}"]`);
    if (chip) {
      chip.checked = true;
      form.dataset.autoCapot = bid ? "1" : "";
    }
  } else if (input.name === "capot") {
    form.dataset.autoCapot = "";
  }
  showCapot(form);
}, true);
for (const form of document.querySelectorAll(".deal-form")) showCapot(form);
// A tap on "Save" disables it until the page changes: one tap, one deal (the server also dedups).
document.addEventListener("submit", (event) => {
  const button = event.submitter;
  if (button instanceof HTMLButtonElement && !button.name) {
    setTimeout(() => { button.disabled = true; }, 0);
  }
});
// Coming back to a page from the history cache: the buttons work again.
window.addEventListener("pageshow", () => {
  for (const button of document.querySelectorAll("button[disabled]:not(.stays-disabled)")) {
    button.disabled = false;
  }
});
// Who took, who coinched: a player picked on a side that no longer fits (the takers or the
// coinche changed since) goes back to "Not said", before the live preview reads the form
// (capture phase), so a chip the page no longer shows is never sent.
document.addEventListener("change", (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || !["taker", "coinche"].includes(input.name)) return;
  const form = input.form;
  if (!form) return;
  const taker = form.querySelector("input[name=taker]:checked")?.value;
  const coinche = form.querySelector("input[name=coinche]:checked")?.value;
  const team = taker === undefined ? null : Number(taker);
  const sides = {
    taker_player: team,
    coinche_player:
      team === null ? null : coinche === "coinche" ? 1 - team : coinche === "surcoinche" ? team : null,
  };
  for (const [name, side] of Object.entries(sides)) {
    const picked = form.querySelector(`input[name=${name}]:checked`);
    if (!picked || picked.value === "" || (side !== null && Number(picked.value) % 2 === side)) continue;
    const unsaid = form.querySelector(`input[name=${name}][value=""]`);
    if (unsaid) unsaid.checked = true;
  }
}, true);
// A field the server marked as wrong stops looking wrong once it is changed (the live preview
// and the next save check it again). Its message stays, greyed, so nothing moves: a change fires
// as the field loses focus, often on the very tap that is pressing the save button.
document.addEventListener("change", (event) => {
  const field = event.target instanceof Element ? event.target.closest(".has-error") : null;
  if (!field) return;
  field.classList.remove("has-error");
  field.classList.add("was-error");
  for (const input of field.querySelectorAll("[aria-invalid]")) {
    input.removeAttribute("aria-invalid");
    // Nor is its hidden message read out with it any more.
    const described = (input.getAttribute("aria-describedby") || "").split(" ")
      .filter((id) => id && !id.endsWith("_error")).join(" ");
    if (described) input.setAttribute("aria-describedby", described);
    else input.removeAttribute("aria-describedby");
  }
});
// A form sent back with mistakes opens on its error summary, focused (autofocus) so a screen
// reader says it at once; where a browser skipped autofocus, the script gives it the focus.
const errorSummary = document.getElementById("error-summary");
if (errorSummary && (!document.activeElement || document.activeElement === document.body)) {
  errorSummary.focus();
}
// Share page: send a link through the phone's share sheet, or copy it where there is none.
for (const button of document.querySelectorAll("button[data-link]")) {
  button.hidden = false;
  button.addEventListener("click", async () => {
    const url = button.dataset.link;
    try {
      if (navigator.share) {
        await navigator.share({ url });
      } else {
        await navigator.clipboard.writeText(url);
        button.textContent = button.dataset.done;
      }
    } catch {
      // Share sheet closed, or no clipboard access: the link stays selectable above.
    }
  });
}
// A tap on a link's box selects it all, ready to copy by hand.
document.addEventListener("focusin", (event) => {
  if (event.target instanceof HTMLInputElement && event.target.classList.contains("copy")) {
    event.target.select();
  }
});
