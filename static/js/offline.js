// A match's phone pages without signal (docs/offline.md), loaded by app.js for a match this
// phone keeps (the scorer tapped "Keep working without signal", or a concours's table phone):
// - keeps the match's pages and file in the service worker's cache, and refreshes them online;
// - shows the outbox (outbox-db.js: what the worker queued without signal) on the scoreboard,
//   marked "not sent yet", with totals from the in-browser engine once it is ready
//   (window.OfflineEngine, static/js/offline-engine.js: optional), else "totals when sent";
// - sends the outbox, in order, when the signal is back; a conflict stops it at that change,
//   which stays on the phone with what happened and what the scorer can do;
// - keeps the one badge "offline · 3 deals waiting" (the one live region of these pages).
(async () => {
  const root = document.getElementById("offline");
  const badge = document.getElementById("net-badge");
  if (!root || !badge || !self.Outbox) return;
  const Outbox = self.Outbox;
  const d = root.dataset;
  // The outbox's words in the page's language: the server's, else the copy kept with the pages.
  // Not only without signal: a scorer link renewed while this phone was offline answers 404 once
  // the signal is back, and the deals waiting must still show, stopped, with what happened.
  async function loadWords() {
    try {
      const response = await fetch(d.words, { credentials: "same-origin" });
      if (response.ok) return await response.json();
    } catch {
      // no signal: the kept copy below
    }
    try {
      const kept = "caches" in self ? await caches.match(d.words) : null;
      return kept ? await kept.json() : null;
    } catch {
      return null;
    }
  }
  const words = await loadWords();
  if (!words) return;
  const token = d.token;
  const copy = document.documentElement.dataset.offlineCopy === "1";
  const say = (text, params) => text.replace(/%\((\w+)\)s/g, (_, key) => params[key]);
  const el = (tag, props = {}, ...children) => {
    const node = Object.assign(document.createElement(tag), props);
    node.append(...children);
    return node;
  };
  const fresh = () => (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}${Math.random()}`).replace(/[^\w]/g, "");

  // Keeping the match: its pages, its file and the files they run.
  function keptTokens() {
    try {
      return JSON.parse(localStorage.getItem("offline-kept") || "[]");
    } catch {
      return [];
    }
  }
  const keptHere = () => Boolean(d.auto || d.keep || root.dataset.kept || keptTokens().includes(token));
  function showKept() {
    const keepButton = document.getElementById("offline-keep");
    if (keepButton) keepButton.hidden = true;
    const note = document.getElementById("offline-kept");
    if (note) note.hidden = false;
  }
  async function keep() {
    showKept();
    try {
      const tokens = keptTokens().filter((t) => t !== token);
      localStorage.setItem("offline-kept", JSON.stringify([token, ...tokens].slice(0, 20)));
    } catch {
      // No storage: kept for this visit.
    }
    const registration = await navigator.serviceWorker.ready;
    const files = [...document.querySelectorAll("link[rel=stylesheet], script[src]")].map((e) => e.href || e.src);
    const urls = [d.board, d.deal, d.count, d.export, d.words, d.edit, d.engine, ...files].filter(Boolean);
    await new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = resolve;
      registration.active.postMessage({ type: "keep", urls }, [channel.port2]);
    });
    root.dataset.kept = "1"; // the pages are kept (the browser tests wait on it)
    prepareEngine();
  }

  // The in-browser engine (optional): prepared only for a kept match, in the background.
  let loading = null;
  function engine() {
    if (window.OfflineEngine) return Promise.resolve(window.OfflineEngine);
    if (!d.engine) return Promise.resolve(null);
    loading ||= new Promise((resolve) => {
      const script = el("script", { src: d.engine });
      script.onload = () => resolve(window.OfflineEngine || null);
      script.onerror = () => resolve(null);
      document.head.append(script);
    });
    return loading;
  }
  // Once a page: a kept match's pages store the engine's pack at each load (from the cache
  // without signal). Its worker, a whole Python runtime (seconds of a phone's CPU), starts only
  // when the page needs it: without signal, or with changes waiting to be sent.
  // data-engine-state says how far it got ("stored", "ready"; the browser tests wait on it).
  let storing = null;
  let starting = null;
  function prepareEngine() {
    storing ||= (async () => {
      const found = await engine();
      if (!found || !(await found.available().catch(() => false))) return null;
      if (found.store) await found.store().catch(() => null);
      root.dataset.engineState ||= "stored";
      return found;
    })();
    return storing.then(startWhenNeeded);
  }
  async function startWhenNeeded(found) {
    if (!found || starting) return starting;
    if (navigator.onLine && !copy && !(await Outbox.items(token)).length) return null;
    starting ||= found.prepare().then(() => {
      root.dataset.engineState = "ready";
      render();
      // A deal form opened without signal before the engine was ready: its preview now.
      const form = document.getElementById("deal-form");
      if (form && !navigator.onLine) showPreview(form);
    }, () => {
      starting = null;
    });
    return starting;
  }
  // The kept match file with the changes waiting appended (or in place, for an edit), and the
  // row of each; null when the engine cannot tell (an undo of a deal the phone never saw).
  async function fileWith(found, items) {
    if (items.some((item) => item.action === "undo")) return null;
    const file = await (await fetch(d.export)).json();
    const base = file.deals.length;
    const rows = [];
    for (const item of items) {
      if (item.action === "passed") {
        file.deals.push({ passed: true });
      } else {
        const made = await found.dealFromForm(Object.fromEntries(item.fields), file);
        if (!made.deal) return null;
        if (item.action === "edit") file.deals[base - 1] = made.deal;
        else file.deals.push(made.deal);
      }
      rows.push(item.action === "edit" ? base - 1 : file.deals.length - 1);
    }
    return { file, rows };
  }
  async function engineTotals(items) {
    const found = window.OfflineEngine;
    if (!found || !found.ready()) return null;
    try {
      const made = await fileWith(found, items);
      if (!made) return null;
      const scored = await found.scoreMatch(made.file);
      return { totals: scored.totals, rows: made.rows.map((i) => scored.deals[i] && scored.deals[i].totals) };
    } catch {
      return null;
    }
  }
  function showPreview(form) {
    const preview = document.getElementById("preview");
    if (preview) offlinePreview(form).then((nodes) => preview.replaceChildren(...nodes));
  }
  // The deal form's live preview without signal, by the engine once ready (the server's own
  // scoring: outcome, scores, breakdown, totals after it), else a word. Its deal goes after the
  // changes waiting, or in place of the deal the form edits (/deal/<n>/).
  async function offlinePreview(form) {
    const word = (text) => [el("p", { className: "small" }, text)];
    const found = window.OfflineEngine;
    if (!found || !found.ready()) return word(words.noNetwork);
    try {
      const made = await fileWith(found, await Outbox.items(token));
      if (!made) return word(words.noNetwork);
      const { file } = made;
      const deal = await found.dealFromForm(Object.fromEntries(new FormData(form)), file);
      if (!deal.deal) return word(words.fillIn);
      const edited = /\/deal\/(\d+)\/$/.exec(new URL(form.action, location.href).pathname);
      const at = edited && Number(edited[1]) <= file.deals.length ? Number(edited[1]) - 1 : file.deals.length;
      file.deals[at] = deal.deal;
      const scored = await found.scoreMatch(file);
      const row = scored.deals[at];
      if (!row || row.outcome === "passed") return word(words.fillIn);
      return [
        el("p", { className: `preview-outcome outcome-${row.outcome}` }, words.outcomes[row.outcome] || row.outcome),
        el("div", { className: "preview-scores" },
          el("span", { className: "t0" }, `${words.teams[0]} `, el("strong", {}, `+${row.scores[0]}`)),
          el("span", { className: "t1" }, `${words.teams[1]} `, el("strong", {}, `+${row.scores[1]}`))),
        el("ul", { className: "breakdown" }, ...(row.breakdown || []).map((line) => el("li", {}, line))),
        el("p", { className: "small" }, say(words.then, { a: row.totals[0], b: row.totals[1] })),
        el("p", { className: "small" }, words.previewHere),
      ];
    } catch {
      return word(words.noNetwork);
    }
  }

  // What a queued change says, in words.
  function describe(item) {
    const f = Object.fromEntries(item.fields);
    if (item.action === "passed") return words.passed;
    if (item.action === "undo") return words.undo;
    const parts = [say(words.took, { team: words.teams[Number(f.taker)] ?? "?" })];
    if (f.contract) parts.push(f.contract);
    if (f.trump) parts.push(words.trumps[f.trump] || f.trump);
    if (words.coinche[f.coinche]) parts.push(words.coinche[f.coinche]);
    if (f.capot) parts.push(`${words.capot} ${words.teams[Number(f.capot)] ?? ""}`.trim());
    else if (f.taker_points || f.defence_points) parts.push(`${f.taker_points || "?"} – ${f.defence_points || "?"}`);
    if (f.note) parts.push(f.note);
    const text = parts.join(" · ");
    return item.action === "edit" ? `${say(words.edit, { n: serverDeals() })}: ${text}` : text;
  }
  const serverDeals = () => document.querySelectorAll("#scoreboard ol.deals > li").length;

  // The badge: "offline", "offline · 3 deals waiting", "sending · 3 deals waiting".
  function showBadge(count, stopped) {
    const parts = [];
    if (!navigator.onLine) parts.push(words.offline);
    else if (count && !stopped) parts.push(words.sending);
    if (count) parts.push(say(words.waiting[count === 1 ? 0 : 1], { n: count }));
    const text = parts.join(" · ");
    if (badge.textContent !== text) {
      badge.textContent = text;
      // A page with its own live region (the deal form's) says it there: one live region a page.
      const live = badge.getAttribute("aria-hidden") && document.getElementById("preview-status");
      if (live && text) live.textContent = text;
    }
    badge.classList.toggle("is-shown", text !== "");
  }

  // The scoreboard's "Not sent yet" list, above its deals.
  let renders = 0;
  async function render() {
    const mine = ++renders; // a later call wins: no list drawn twice
    const items = await Outbox.items(token);
    const state = await Outbox.state(token);
    const board = document.getElementById("scoreboard");
    const computed = board && items.length ? await engineTotals(items) : null;
    if (mine !== renders) return;
    showBadge(items.length, state.stopped);
    document.getElementById("outbox")?.remove();
    if (!board || !items.length) return;
    const list = el("ol", { className: "outbox-list" });
    let number = serverDeals();
    items.forEach((item, index) => {
      if (item.action === "add" || item.action === "passed") number += 1;
      const totals = computed && computed.rows[index];
      const li = el(
        "li",
        { className: "deal outbox-item" },
        el("span", { className: "num" }, item.action === "add" || item.action === "passed" ? String(number) : "·"),
        " ",
        el("span", { className: "what" }, describe(item)),
        " ",
        el("span", { className: "run" }, totals ? `${totals[0]} – ${totals[1]}` : words.totalsLater),
        " ",
        el("span", { className: "waiting-mark" }, words.notSent),
      );
      li.dataset.id = item.id;
      if (state.stopped && state.stopped.id === item.id) li.append(stoppedBox(item, state));
      else if (index === items.length - 1 && !state.stopped) li.append(lastActions(item));
      list.append(li);
    });
    const section = el("section", { id: "outbox", className: "outbox" }, el("h2", { className: "deals-title" }, words.notSent), list);
    if (computed) {
      section.append(el("p", { className: "small" }, words.computed));
      board.querySelectorAll(".total").forEach((node, team) => { node.textContent = String(computed.totals[team]); });
    }
    board.querySelector(".deals-title")?.before(section);
  }
  function lastActions(item) {
    const actions = el("p", { className: "deal-actions" });
    if (item.action === "add") {
      actions.append(el("a", { className: "btn btn-small", href: `${d.deal}?outbox=${item.id}` }, words.editIt));
    }
    const undo = el("button", { type: "button", className: "btn btn-small" }, words.undoIt);
    undo.addEventListener("click", async () => {
      await Outbox.remove(item.id);
      render();
    });
    actions.append(" ", undo);
    return actions;
  }
  function stoppedBox(item, state) {
    const stopped = state.stopped;
    const box = el("div", { className: "outbox-stopped", role: "alert" },
      el("p", { className: "msg msg-error" }, `${words.stopped}: ${stopped.message}`),
      el("p", { className: "small" }, words.after));
    if (stopped.link) box.append(el("p", {}, el("a", { className: "tap-link", href: stopped.link }, words.table)));
    const actions = el("p", { className: "deal-actions" });
    if (stopped.code === "changed" || stopped.code === "busy") {
      const resend = el("button", { type: "button", className: "btn btn-small btn-primary" }, words.resend);
      resend.addEventListener("click", async () => {
        await Outbox.setState({ ...state, stopped: null, version: stopped.version ?? state.version });
        flush();
      });
      actions.append(resend, " ");
    }
    const copyButton = el("button", { type: "button", className: "btn btn-small" }, words.copy);
    copyButton.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(describe(item));
        copyButton.textContent = words.copied;
      } catch {
        // No clipboard: the words stay on the screen to copy by hand.
      }
    });
    const discard = el("button", { type: "button", className: "btn btn-small" }, words.discard);
    discard.addEventListener("click", () => {
      const sure = el("button", { type: "button", className: "btn btn-small btn-danger" }, words.yes);
      sure.addEventListener("click", async () => {
        await Outbox.remove(item.id);
        await Outbox.setState({ ...state, stopped: null, version: stopped.version ?? state.version });
        await render();
        flush();
      });
      discard.replaceWith(el("span", { className: "small" }, words.confirm, " "), sure);
      sure.focus();
    });
    actions.append(copyButton, " ", discard);
    box.append(actions);
    return box;
  }

  // Sending, in order: each change once (its submission id makes a replay harmless).
  let sending = false;
  const csrf = () => (document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/) || [])[1] || "";
  async function post(body) {
    return fetch(d.outbox, { method: "POST", body, headers: { "X-CSRFToken": csrf() }, credentials: "same-origin" });
  }
  async function flush() {
    if (sending || !navigator.onLine) return;
    sending = true;
    let sent = null;
    try {
      for (;;) {
        const state = await Outbox.state(token);
        const items = await Outbox.items(token);
        if (!items.length || state.stopped) {
          if (!items.length && (state.since || state.version != null)) {
            if (d.auto) await post(new URLSearchParams({ action: "heartbeat", waiting: "0" })).catch(() => null);
            await Outbox.setState({ token });
          }
          break;
        }
        const item = items[0];
        const body = new URLSearchParams(item.fields);
        if (state.version != null) body.set("version", state.version);
        body.set("action", item.action);
        if (item.seq) body.set("seq", item.seq);
        body.set("waiting", String(items.length));
        if (state.since) body.set("offline_since", String(state.since));
        let response;
        try {
          response = await post(body);
        } catch {
          break; // no signal again: the rest waits
        }
        const answer = response.headers.get("Content-Type")?.startsWith("application/json") ? await response.json().catch(() => null) : null;
        if (!answer && (response.redirected || response.status === 404)) {
          // The link is gone: renewed, or a table's partie over (its page, where it went).
          const code = response.redirected ? "closed" : "revoked";
          await Outbox.setState({ ...state, stopped: { id: item.id, code, message: words[code], link: response.redirected ? response.url : "" } });
          break;
        }
        if (answer && answer.ok) {
          await Outbox.remove(item.id);
          await Outbox.setState({ ...state, version: answer.version });
          sent = answer;
          continue;
        }
        if (!answer || answer.code === "busy") break; // not an answer of ours, or busy: later
        await Outbox.setState({ ...state, stopped: { id: item.id, code: answer.code, message: answer.message, version: answer.version } });
        break;
      }
    } finally {
      sending = false;
    }
    const left = await Outbox.items(token);
    if (sent && !left.length && document.getElementById("scoreboard")) {
      location.replace(sent.board || d.board); // the server's scoreboard, with every deal sent
      return;
    }
    render();
  }

  // A kept copy of a page (served without signal): fresh one-time ids for its forms, and no
  // message of the visit it was kept from.
  if (copy) {
    for (const input of document.querySelectorAll("input[name=submission]")) {
      input.value = fresh() + (input.value.match(/-(undo|redo)$/) || [""])[0];
    }
    document.querySelectorAll(".messages, .msg").forEach((node) => node.remove());
  }
  // A form filled with these [name, value] pairs (its stamp kept).
  function fill(target, pairs) {
    for (const [name, value] of pairs) {
      for (const input of target.querySelectorAll(`[name="${CSS.escape(name)}"]`)) {
        if (input.type === "radio") input.checked = input.value === value;
        else if (input.type === "checkbox") input.checked = value === "on" || value === "True" || value === input.value;
        else if (!["submission", "version", "csrfmiddlewaretoken"].includes(name)) input.value = value;
      }
    }
    target.dispatchEvent(new Event("input", { bubbles: true }));
  }
  const query = new URLSearchParams(location.search);
  const form = document.getElementById("deal-form");
  // A kept deal form opened with a deal in its address (back from the card counter): the
  // server would have filled it in; without signal this script does.
  if (form && copy && !query.has("outbox")) fill(form, [...query.entries()]);
  // The deal form opened to change a deal not sent yet (its Edit link): filled with it, and
  // saved into the outbox in its place.
  const editing = Number(query.get("outbox"));
  if (form && editing) {
    Outbox.items(token).then((items) => {
      const item = items.find((i) => i.id === editing);
      if (!item) return;
      fill(form, item.fields);
      form.dataset.outboxId = String(item.id);
      form.addEventListener("submit", async (event) => {
        if (event.submitter && event.submitter.name) return; // Preview or a language
        event.preventDefault();
        const fields = [...new FormData(form).entries()].filter(([name]) => !["csrfmiddlewaretoken", "submission", "version"].includes(name));
        const kept = item.fields.filter(([name]) => ["submission", "version"].includes(name));
        await Outbox.put({ ...item, fields: [...kept, ...fields] });
        location.href = d.board;
      }, true);
    });
  }
  // The card counter without signal: the values of the cards (the engine's table, in the
  // page) summed here, and the way back to the deal form with the points.
  const countForm = document.querySelector(".count-form");
  const cardValues = document.getElementById("card-values");
  if (countForm && cardValues) {
    const table = JSON.parse(cardValues.textContent);
    const useWords = document.querySelector("#count-total .btn")?.textContent || "OK";
    if (copy) {
      // The deal carried in the address: as the server would have put it in the form.
      const shown = new Set([...countForm.elements].map((input) => input.name));
      for (const [name, value] of query.entries()) {
        if (!shown.has(name)) countForm.append(el("input", { type: "hidden", name, value }));
        else if (name === "for") countForm.querySelector("input[name=for]").value = value;
      }
      // The total goes to the takers by default, as the server's form does.
      const takers = query.get("taker");
      const wonBy = countForm.querySelector(`input[name=won_by][value="${takers}"]`);
      if (wonBy && !query.has("won_by")) wonBy.checked = true;
      const trump = countForm.querySelector(`input[name=trump][value="${query.get("trump")}"]`);
      if (trump) trump.checked = true;
    }
    document.addEventListener("htmx:beforeRequest", (event) => {
      if (navigator.onLine || event.target !== countForm) return;
      event.preventDefault();
      const data = new FormData(countForm);
      const trump = String(data.get("trump") || "");
      let total = data.get("last_trick") ? 10 : 0;
      for (const input of countForm.querySelectorAll("input[name=card]")) {
        const [rank, suit] = input.value.split("-");
        const row = ["no_trump", "all_trump"].includes(trump) ? trump : suit === trump ? "trump" : "plain";
        const value = table[row][rank];
        const small = input.closest("label")?.querySelector("small");
        if (small) small.textContent = String(value);
        if (input.checked) total += value;
      }
      const box = document.getElementById("count-total");
      box.querySelector(".total-line strong").textContent = String(total);
      const carried = Object.fromEntries([...countForm.querySelectorAll("input[type=hidden]")].map((i) => [i.name, i.value]));
      const back = carried.for && carried.for !== "new" ? `${d.deal}${carried.for}/` : d.deal;
      delete carried.for;
      const wonBy = String(data.get("won_by") || "0");
      const taker = ["0", "1"].includes(carried.taker) ? carried.taker : wonBy;
      const counted = Math.min(total, 162);
      const points = wonBy === taker ? counted : 162 - counted;
      const back_query = new URLSearchParams({ ...carried, trump, taker, taker_points: points, defence_points: 162 - points });
      box.querySelectorAll(".btn, .help").forEach((node) => node.remove());
      box.append(el("a", { className: "btn btn-primary btn-block", href: `${back}?${back_query}` }, useWords));
    });
  }
  // The live preview without signal: the engine's, once ready; else a word (offlinePreview).
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (navigator.onLine || !(event.target instanceof Element) || !event.target.closest(".deal-form")) return;
    event.preventDefault();
    const form = event.target.closest("form");
    if (form) showPreview(form);
  });
  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.target instanceof Element && event.target.id === "scoreboard") {
      render();
      if (navigator.onLine && root.dataset.kept) keep(); // a change made here: the kept form's stamp too
    }
  });
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data && event.data.type === "queued" && event.data.token === token) {
      render();
      if (keptHere()) prepareEngine();
    }
  });
  window.addEventListener("online", flush);
  window.addEventListener("offline", () => {
    render();
    if (keptHere()) prepareEngine();
  });
  document.getElementById("offline-keep")?.addEventListener("click", keep);

  const kept = keptHere();
  if (kept) showKept();
  if (kept && navigator.onLine && !copy) keep();
  else if (kept) prepareEngine();
  (async () => {
    const state = await Outbox.state(token);
    const items = await Outbox.items(token);
    // Seen online with nothing waiting: the next change is based on this page's version.
    if (!copy && navigator.onLine && !items.length && state.version != null) await Outbox.setState({ token });
    await render();
    flush();
  })();
  setInterval(() => {
    Outbox.items(token).then((items) => {
      if (items.length) flush();
      else if (d.auto && navigator.onLine) post(new URLSearchParams({ action: "heartbeat", waiting: "0" })).catch(() => null);
    });
  }, 60000);
})();
