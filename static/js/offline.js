// A match's phone pages without signal (docs/offline.md), loaded by app.js for a match this
// phone keeps (the scorer tapped "Keep working without signal", or a concours's table phone):
// - keeps the match's pages and file in the service worker's cache, and refreshes them online;
// - shows the outbox (outbox-db.js: what the worker queued without signal) on the scoreboard,
//   marked "not sent yet", with totals from the in-browser engine once it is ready
//   (window.OfflineEngine, static/js/offline-engine.js: optional), else "totals when sent";
// - sends the outbox, in order, when the signal is back; a conflict stops it at that change,
//   which stays on the phone with what happened and what the scorer can do;
// - keeps the one badge "offline · 3 deals waiting" (the one live region of these pages).
(() => {
  const root = document.getElementById("offline");
  const badge = document.getElementById("net-badge");
  if (!root || !badge || !self.Outbox) return;
  const Outbox = self.Outbox;
  const words = JSON.parse(document.getElementById("offline-words").textContent);
  const d = root.dataset;
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
    const urls = [d.board, d.deal, d.count, d.export, d.edit, d.engine, ...files].filter(Boolean);
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
  async function prepareEngine() {
    const found = await engine();
    if (!found || !(await found.available().catch(() => false))) return;
    found.prepare().then(render, () => {});
  }
  async function engineTotals(items) {
    const found = window.OfflineEngine;
    if (!found || !found.ready() || items.some((item) => item.action === "undo")) return null;
    try {
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
      const scored = await found.scoreMatch(file);
      return { totals: scored.totals, rows: rows.map((i) => scored.deals[i] && scored.deals[i].totals) };
    } catch {
      return null;
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
    if (badge.textContent !== text) badge.textContent = text;
    badge.classList.toggle("is-shown", text !== "");
  }

  // The scoreboard's "Not sent yet" list, above its deals.
  async function render() {
    const items = await Outbox.items(token);
    const state = await Outbox.state(token);
    showBadge(items.length, state.stopped);
    document.getElementById("outbox")?.remove();
    const board = document.getElementById("scoreboard");
    if (!board || !items.length) return;
    const computed = await engineTotals(items);
    const list = el("ol", { className: "deals outbox-list" });
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
  // The deal form opened to change a deal not sent yet (its Edit link): filled with it, and
  // saved into the outbox in its place.
  const form = document.getElementById("deal-form");
  const editing = Number(new URLSearchParams(location.search).get("outbox"));
  if (form && editing) {
    Outbox.items(token).then((items) => {
      const item = items.find((i) => i.id === editing);
      if (!item) return;
      for (const [name, value] of item.fields) {
        for (const input of form.querySelectorAll(`[name="${CSS.escape(name)}"]`)) {
          if (input.type === "radio" || input.type === "checkbox") input.checked = input.value === value || (input.type === "checkbox" && value === "on");
          else if (input.type !== "hidden" || !["submission", "version"].includes(name)) input.value = value;
        }
      }
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
  // The live preview without signal: the engine's, once ready; else a word.
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (navigator.onLine || !(event.target instanceof Element) || !event.target.closest(".deal-form")) return;
    event.preventDefault();
    const preview = document.getElementById("preview");
    if (preview) preview.replaceChildren(el("p", { className: "small" }, words.noNetwork));
  });
  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.target instanceof Element && event.target.id === "scoreboard") {
      render();
      if (navigator.onLine && root.dataset.kept) keep(); // a change made here: the kept form's stamp too
    }
  });
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data && event.data.type === "queued" && event.data.token === token) render();
  });
  window.addEventListener("online", flush);
  window.addEventListener("offline", render);
  document.getElementById("offline-keep")?.addEventListener("click", keep);

  const kept = d.auto || d.keep || keptTokens().includes(token);
  if (kept) showKept();
  if (kept && navigator.onLine && !copy) keep();
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
