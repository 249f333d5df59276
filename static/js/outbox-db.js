// A phone's outbox (docs/offline.md): the changes made to a match without signal, kept in
// IndexedDB (through a closed browser, a reboot, a crash of the page) until they are sent, in
// order. Shared by the service worker (importScripts), which queues a form posted without
// signal, and by offline.js, which shows and sends them.
// An item: {id (its order), token (the match's scorer link), action ("add", "passed", "edit",
// "undo"), seq (an edit's deal), fields ([name, value] pairs of the form, its version stamp and
// one-time submission id included), at (when it was made)}.
// A match's state: {token, since (when the phone lost the signal), version (the match's version
// the next item is based on), stopped ({id, code, message, version}: the item a conflict stopped)}.
self.Outbox = (() => {
  let opening = null;
  function open() {
    if (!opening) {
      opening = new Promise((resolve, reject) => {
        const request = indexedDB.open("scorekeeper-offline", 1);
        request.onupgradeneeded = () => {
          const db = request.result;
          db.createObjectStore("outbox", { keyPath: "id", autoIncrement: true }).createIndex("token", "token");
          db.createObjectStore("state", { keyPath: "token" });
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    }
    return opening;
  }
  async function run(store, mode, work) {
    const db = await open();
    return new Promise((resolve, reject) => {
      const tx = db.transaction(store, mode);
      const request = work(tx.objectStore(store));
      tx.oncomplete = () => resolve(request ? request.result : undefined);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  }
  const items = async (token) =>
    (await run("outbox", "readonly", (s) => s.index("token").getAll(token))).sort((a, b) => a.id - b.id);
  const state = async (token) => (await run("state", "readonly", (s) => s.get(token))) || { token };
  const setState = (value) => run("state", "readwrite", (s) => s.put(value));
  const put = (item) => run("outbox", "readwrite", (s) => s.put(item));
  const remove = (id) => run("outbox", "readwrite", (s) => s.delete(id));
  // A form posted without signal. The same submission twice is a double tap: queued once. An
  // undo takes back the last change not sent yet (nothing to send), else it is queued.
  async function queue(token, action, fields, seq) {
    const waiting = await items(token);
    const submission = (fields.find(([name]) => name === "submission") || [])[1];
    if (submission && waiting.some((item) => item.fields.some(([n, v]) => n === "submission" && v === submission))) {
      return;
    }
    if (action === "undo" && waiting.length) {
      await remove(waiting[waiting.length - 1].id);
      return;
    }
    const now = await state(token);
    if (!now.since) await setState({ ...now, since: Date.now() });
    const kept = fields.filter(([name]) => name !== "csrfmiddlewaretoken");
    await put({ token, action, seq: seq || null, fields: kept, at: Date.now() });
  }
  return { items, state, setState, put, remove, queue };
})();
