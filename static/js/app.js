// Progressive enhancement only: every page works without this file. An ES module (base.html loads
// it with type="module"): its names are its own, none of them a page global.
// Pages say what only works with the script (the live preview) under html.js (see app.css).
document.documentElement.classList.add("js");
// Card points: typing one team's points fills the other's, the two making the deal's card points
// (162: the form's data-card-points, the engine's TOTAL_CARD_POINTS; none written here). A form
// without it is the server's mistake: said in the console (a browser test fails on it), no guess.
document.addEventListener("input", (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement)) return;
  /** @type {Record<string, string>} */
  const pairs = { id_taker_points: "id_defence_points", id_defence_points: "id_taker_points" };
  const otherId = pairs[input.id];
  if (!otherId) return;
  const other = /** @type {HTMLInputElement | null} */ (document.getElementById(otherId));
  const total = Number.parseInt(input.form?.dataset.cardPoints ?? "", 10);
  if (!Number.isInteger(total)) console.error("The deal form has no data-card-points: the other team's points are not filled.");
  const value = Number.parseInt(input.value, 10);
  if (other && Number.isInteger(total) && Number.isInteger(value) && value >= 0 && value <= total) {
    other.value = String(total - value);
  } else if (other && input.value === "") {
    other.value = "";
  }
});
// Capot: its card points are fixed by the rules, so points typed, then a capot chosen, are greyed
// (still sent: the preview and the save say they are left out) with a note saying why; "No" under
// Capot brings them back. A point field never refuses typing (issue 41): points typed over the
// capot a bid preselected take it back (takeBack), and a note says the bid then failed by them.
// The notes follow the form as the server's render does (deal_fields.html). Capture phase: done
// before the live preview reads the form.
/** @param {HTMLFormElement} form */
function pointInputs(form) {
  return form.querySelectorAll("input[name=taker_points], input[name=defence_points]");
}
/** @param {HTMLFormElement} form */
function pointsTyped(form) {
  return [...pointInputs(form)].some((input) => input.value.trim() !== "");
}
/** @param {HTMLFormElement} form */
function showCapot(form) {
  markBid(form);
  const capot = form.querySelector("input[name=capot]:checked");
  const on = Boolean(capot && capot.value !== "");
  const typed = pointsTyped(form);
  for (const input of pointInputs(form)) input.classList.toggle("is-left-out", on && typed);
  const note = /** @type {HTMLElement | null} */ (form.querySelector("#capot-note"));
  if (note) note.hidden = !(on && typed);
  const failed = /** @type {HTMLElement | null} */ (form.querySelector("#bid-note"));
  if (failed) failed.hidden = !(bidKey(form) && !on && typed);
}
// The bid preselected and its takers' capot still chosen (form_reading.preselection's test): the
// takers' team, else "".
/** @param {HTMLFormElement} form */
function preselectedCapot(form) {
  const key = bidKey(form);
  const marker = form.querySelector("input[name=preselected]");
  return key && marker && marker.value === key ? key.split(":")[1] : "";
}
// Card points typed over what a bid preselected: the bid failed by them, so its capot (and the
// générale's box) go, as the server takes them back from a form posted without this script.
/** @param {HTMLFormElement} form */
function takeBack(form) {
  const taker = preselectedCapot(form);
  const capot = form.querySelector("input[name=capot]:checked");
  if (!taker || !capot || capot.value !== taker || !pointsTyped(form)) return false;
  const no = form.querySelector('input[name=capot][value=""]');
  if (no) no.checked = true;
  const generale = form.querySelector("input[name=generale]");
  if (generale) generale.checked = false;
  form.dataset.autoCapot = "";
  form.dataset.autoGenerale = "";
  return true;
}
// Once a bid is preselected (here, or by the server), `preselected` names it, so the server
// preselects it no more; but while the takers' capot, chosen by hand, sits over typed points
// (left out, not a failed bid: takeBack let them be), it is blank, so that the server does not
// take that capot back. form.dataset.bid: the bid preselected (a radio's input event, before its
// change, must not mark a bid not preselected yet).
/** @param {HTMLFormElement} form */
function markBid(form) {
  const key = bidKey(form);
  const marker = form.querySelector("input[name=preselected]");
  if (!key) delete form.dataset.bid;  // no bid: the next one is preselected afresh
  if (!key || !marker) return;
  if (marker.value === key) form.dataset.bid = key;
  if (form.dataset.bid !== key) return;
  const capot = form.querySelector("input[name=capot]:checked");
  marker.value = capot && capot.value === key.split(":")[1] && pointsTyped(form) ? "" : key;
}
// A capot or générale bid preselects what makes it: the takers' capot and, for a générale, "one
// player won every trick" (once per bid and takers, kept in the form's `preselected` field, as
// the server does without this script); another contract takes back what was preselected.
/** @param {HTMLFormElement} form */
function bidKey(form) {
  const taker = form.querySelector("input[name=taker]:checked")?.value;
  const contract = form.querySelector("input[name=contract]:checked")?.value;
  let bid = contract === "capot" || contract === "generale" ? contract : "";
  if (form.querySelector("input[name=generale_bid]:checked")) bid = "generale";
  return bid && taker !== undefined ? `${bid}:${taker}` : "";
}
/** @param {HTMLFormElement} form */
function preselect(form) {
  const key = bidKey(form);
  const marker = form.querySelector("input[name=preselected]");
  const generale = form.querySelector("input[name=generale]");
  if (key) {
    if (marker && marker.value === key) return;
    if (pointsTyped(form)) {
      // Points typed first: the bid failed by them, nothing to preselect (as the server reads
      // it), and a capot of its takers' goes as if typed after it.
      if (marker) marker.value = key;
      takeBack(form);
      return;
    }
    const [bid, taker] = key.split(":");
    const chip = form.querySelector(`input[name=capot][value="${taker}"]`);
    if (chip) chip.checked = true;
    if (generale && bid === "generale") generale.checked = true;
    else if (generale && form.dataset.autoGenerale === "1") generale.checked = false;
    form.dataset.autoCapot = "1";
    form.dataset.autoGenerale = bid === "generale" ? "1" : "";
    if (marker) marker.value = key;
    return;
  }
  if (form.dataset.autoCapot === "1") {
    const no = form.querySelector('input[name=capot][value=""]');
    if (no) no.checked = true;
  }
  if (generale && form.dataset.autoGenerale === "1") generale.checked = false;
  form.dataset.autoCapot = "";
  form.dataset.autoGenerale = "";
  if (marker) marker.value = "";
}
document.addEventListener("change", (event) => {
  const input = event.target;
  const form = input instanceof HTMLInputElement ? input.closest("form.deal-form") : null;
  if (!form || !(input instanceof HTMLInputElement)) return;
  if (["contract", "taker", "generale_bid"].includes(input.name)) preselect(form);
  else if (input.name === "capot") form.dataset.autoCapot = "";
  else if (input.name === "generale") form.dataset.autoGenerale = "";
  showCapot(form);
}, true);
document.addEventListener("input", (event) => {
  const input = event.target;
  const form = input instanceof HTMLInputElement ? input.closest("form.deal-form") : null;
  if (!form || !(input instanceof HTMLInputElement)) return;
  const tookBack = ["taker_points", "defence_points"].includes(input.name) && takeBack(form);
  showCapot(form);
  // The note that says so, in sight under the field typed in (the page's scroll padding keeps
  // it above the Save bar).
  if (tookBack) form.querySelector("#bid-note")?.scrollIntoView({ block: "nearest" });
});
for (const form of document.querySelectorAll("form.deal-form")) showCapot(form);
// A tap on "Save" disables it until the page changes: one tap, one deal (the server also dedups).
// On the deal form (whose htmx requests are only its live preview) it also ends the preview:
// none is sent after it (typed points wait 400 ms), and the answer of one on its way is dropped.
// After a table's last deal the save ends the page's link: such a preview was refused, and its
// answer (go to the table's page) took the phone away from the board the save leads to.
document.addEventListener("submit", (event) => {
  const button = event.submitter;
  if (button instanceof HTMLButtonElement && !button.name) {
    setTimeout(() => { button.disabled = true; }, 0);
    if (event.target instanceof HTMLFormElement && event.target.matches(".deal-form")) {
      event.target.dataset.saving = "1";
    }
  }
});
for (const name of ["htmx:confirm", "htmx:beforeOnLoad"]) {
  document.addEventListener(name, (event) => {
    const form = event.target instanceof Element ? event.target.closest("form.deal-form") : null;
    if (form && form.dataset.saving) event.preventDefault();
  });
}
// Coming back to a page from the history cache: the buttons work again.
window.addEventListener("pageshow", () => {
  for (const button of document.querySelectorAll("button[disabled]:not(.stays-disabled)")) {
    button.disabled = false;
  }
  for (const form of document.querySelectorAll("form[data-saving]")) delete form.dataset.saving;
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
// An organiser's action (paper totals, Close round, Draw...) comes back with its result at the
// top of the desk, focused (autofocus) so a screen reader says it. An address pointing at the
// table just typed (#table-3) makes the browser skip autofocus, and clear the focus once it has
// scrolled to the table: the script focuses the result after that, leaving the table in view.
const result = /** @type {HTMLElement | null} */ (document.querySelector("[data-focus-result]"));
const focusResult = () => {
  if (result && (!document.activeElement || document.activeElement === document.body)) {
    result.focus({ preventScroll: Boolean(location.hash) });
  }
};
if (result && !errorSummary) {
  if (location.hash && document.readyState !== "complete") {
    window.addEventListener("load", () => requestAnimationFrame(focusResult), { once: true });
  } else {
    focusResult();
  }
}
// A long list's pager (partials/pager.html) swaps the list alone: the link pressed goes with it,
// which left the keyboard's focus on <body>. The new page's heading takes it, as it does without
// this script (the link's #target-title), and says which page it is (partials/page_of.html).
document.addEventListener("htmx:afterSettle", (event) => {
  const detail = /** @type {CustomEvent<{requestConfig?: {elt?: unknown}}>} */ (event).detail;
  const link = detail?.requestConfig?.elt;
  if (!(link instanceof Element) || !link.closest(".pager")) return;
  const target = link.getAttribute("hx-target") || "";
  const heading = target.startsWith("#") ? document.getElementById(`${target.slice(1)}-title`) : null;
  heading?.focus();
});
// Share page: send a link through the phone's share sheet, or copy it where there is none.
for (const button of document.querySelectorAll("button[data-link]")) {
  button.hidden = false;
  button.addEventListener("click", () => {
    const url = button.dataset.link ?? "";
    const shared = navigator.share
      ? navigator.share({ url })
      : navigator.clipboard.writeText(url).then(() => { button.textContent = button.dataset.done ?? null; });
    shared.catch((error) => {
      // Share sheet closed, or no clipboard access: the link stays selectable above.
      console.info("The link was not shared or copied:", error);
    });
  });
}
// A tap on a link's box selects it all, ready to copy by hand.
document.addEventListener("focusin", (event) => {
  if (event.target instanceof HTMLInputElement && event.target.classList.contains("copy")) {
    event.target.select();
  }
});
// A language switch reloads the page in the other language: it comes back at the same place
// (the field last typed in where it was on the screen, or the same scroll position), not at
// the top. Kept for this tab only, and used once, by the same page.
const PLACE = "scorekeeper-place";
/** @type {Element | null} */
let lastField = null;
document.addEventListener("focusin", (event) => {
  const field = event.target;
  if (field instanceof Element && field.id && field.matches("input:not([type=hidden]), select, textarea")) {
    lastField = field;
  }
});
document.addEventListener("submit", (event) => {
  const button = event.submitter;
  if (!(button instanceof HTMLButtonElement) || button.name !== "language") return;
  const field = lastField && lastField.isConnected ? lastField : null;
  const place = {
    path: location.pathname,
    y: window.scrollY,
    field: field ? field.id : "",
    top: field ? field.getBoundingClientRect().top : 0,
  };
  try {
    sessionStorage.setItem(PLACE, JSON.stringify(place));
  } catch {
    // No storage (private mode): the page opens at the top, as without this script.
  }
});
try {
  const place = JSON.parse(sessionStorage.getItem(PLACE) || "null");
  sessionStorage.removeItem(PLACE);
  if (place && place.path === location.pathname) {
    const field = place.field ? document.getElementById(place.field) : null;
    const y = field ? field.getBoundingClientRect().top + window.scrollY - place.top : place.y;
    window.scrollTo(0, Math.max(0, y));
  }
} catch {
  // Nothing kept, or storage refused: the page stays at the top.
}
// The installable app (docs/offline.md): the service worker, the Install button where the
// browser offers to install (Safari's steps on iOS), and on a match's phone pages "Keep this
// match on this phone" (offline.js, loaded only for a match this phone keeps, or on the tap that
// keeps it).
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((error) => {
      // The pages work as before, without their kept copies (no offline use on this phone).
      console.warn("The service worker was not registered:", error);
    });
  });
}
/** @type {BeforeInstallPromptEvent | null} */
let installPrompt = null;
const installButton = document.getElementById("install-app");
window.addEventListener("beforeinstallprompt", (event) => {
  event.preventDefault();
  installPrompt = event;
  if (installButton) installButton.hidden = false;
});
// Safari on iOS and iPadOS fires no beforeinstallprompt: its Share menu installs the app, so
// the footer says so, except in the app itself (a Home Screen app runs standalone). An iPad
// says it is a Mac, with a touch screen; Chrome, Firefox or Edge on iOS name themselves.
const agent = navigator.userAgent;
const iosSafari = (/iPhone|iPad|iPod/.test(agent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1))
  && /Safari/.test(agent) && !/CriOS|FxiOS|EdgiOS|OPiOS/.test(agent);
const standalone = ("standalone" in navigator && navigator.standalone === true)
  || window.matchMedia("(display-mode: standalone)").matches;
const installSteps = document.getElementById("install-ios");
if (installSteps && iosSafari && !standalone) installSteps.hidden = false;
installButton?.addEventListener("click", () => {
  const asked = installPrompt;
  if (!asked) return;
  // Once only: the browser's offer is used up, whatever the answer.
  installPrompt = null;
  asked.prompt()
    .then(() => asked.userChoice)
    .catch((error) => { console.warn("The install prompt failed:", error); })
    .finally(() => { installButton.hidden = true; });
});
const offlineRoot = document.getElementById("offline");
if (offlineRoot && "serviceWorker" in navigator && "indexedDB" in window && "caches" in window) {
  offlineRoot.hidden = false;
  const load = () => {
    if (document.getElementById("offline-script")) return;
    for (const [id, src] of /** @type {const} */ ([["offline-store", offlineRoot.dataset.store], ["offline-script", offlineRoot.dataset.script]])) {
      const script = document.createElement("script");
      script.id = id;
      script.src = src ?? "";
      script.async = false; // in order: the outbox, then offline.js
      document.head.append(script);
    }
  };
  let kept = [];
  try {
    kept = JSON.parse(localStorage.getItem("offline-kept") || "[]");
  } catch {
    // No storage: the button loads it.
  }
  if (offlineRoot.dataset.auto || kept.includes(offlineRoot.dataset.token) || document.documentElement.dataset.offlineCopy) load();
  document.getElementById("offline-keep")?.addEventListener("click", () => {
    offlineRoot.dataset.keep = "1";
    load();
  });
}
