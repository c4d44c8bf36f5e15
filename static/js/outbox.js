import { note } from "./notes.js";

// The writes saved without a connection (static/sw.js keeps them and sends them when the server answers
// again): listed at the top of every page while any is left, each refused one with the server's reason, to
// open or discard. The words are the page's own (templates/_outbox.html).
const OUTBOX_RETRY_MS = 5000;  // a server that was unreachable fires no `online`: ask again while one waits

export function outbox() {
  const box = document.querySelector("[data-outbox]");
  const worker = navigator.serviceWorker;
  if (!box || !worker) return;
  const shown = Date.now();
  const ask = (message) => { if (worker.controller) worker.controller.postMessage(message); };
  const flush = () => ask({ outbox: "flush" });
  let waiting = false;

  // What the write is ("Deal 7", "Undo deal 6"), said in the page's words, for the list.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    const key = form.querySelector('input[name="idempotency_key"]');
    if (!key || form.method !== "post") return;
    const heading = document.querySelector("h1");
    const button = event.submitter || form.querySelector("button");
    const label = form.dataset.outboxLabel  // the ledger's writes name themselves ("A payment")
      || (form.classList.contains("deal-form") && heading ? heading.textContent : button && button.textContent);
    ask({ outbox: "label", key: key.value, label: (label || "").trim(), shown });
  });
  worker.addEventListener("message", (event) => {
    const data = event.data || {};
    if (!Array.isArray(data.outbox)) return;
    waiting = data.outbox.some((item) => item.state === "waiting");
    list(box, data.outbox, (id) => ask({ outbox: "discard", id }));
    follow(data.outbox);
    if (data.sent) note(box.dataset.sent.replace("{label}", data.sent));
  });
  window.addEventListener("online", flush);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) flush(); });
  setInterval(() => { if (waiting && !document.hidden) flush(); }, OUTBOX_RETRY_MS);
  worker.ready.then(flush);
  worker.addEventListener("controllerchange", flush);
  // The page that says a write was kept: its links lead back to that pulka (or to the ledger, for a payment).
  const pulka = new URLSearchParams(location.search).get("p");
  document.querySelectorAll("[data-outbox-link]").forEach((link) => {
    if (!pulka || !/^[\w-]+$/.test(pulka)) return;
    if (pulka === "ledger") {
      if (!link.dataset.outboxLink.endsWith("}")) return;  // no next deal: the sheet's link leads to the ledger
      link.href = "/ledger";
      link.textContent = link.dataset.ledger || link.textContent;
    } else link.href = link.dataset.outboxLink.replace("{pulka}", pulka);
    link.hidden = false;
  });
}

function list(box, items, discard) {
  const waiting = items.filter((item) => item.state === "waiting").length;
  const refused = new Set();  // pulkas with a refused write: theirs after it wait for it to be settled
  // The count's sentence in the plural form the page's language takes for it (one, few, many; English: one, other).
  const form = new Intl.PluralRules(document.documentElement.lang || "en").select(waiting);
  const entries = items.some((item) => item.pulka === "ledger");  // a payment is no deal: "2 entries waiting"
  const sentence = (name) => box.dataset[entries ? `entries${name[0].toUpperCase()}${name.slice(1)}` : name];
  box.querySelector(".outbox-head").textContent = waiting
    ? (sentence(form) || sentence("many")).replace("{n}", waiting) : box.dataset.refusedHead;
  box.querySelector("ul").replaceChildren(...items.map((item) => {
    const row = box.querySelector("template").content.firstElementChild.cloneNode(true);
    const state = item.state === "refused" ? "refused" : refused.has(item.pulka) ? "held" : "waiting";
    if (item.state === "refused") refused.add(item.pulka);
    row.classList.add(`outbox-${state}`);
    row.querySelector(".outbox-label").textContent = item.label || box.dataset.unnamed;
    row.querySelector(".outbox-state").textContent = box.dataset[state];
    const why = item.loggedOut ? box.dataset.loggedOut : reason(item.page);
    row.querySelector(".outbox-why").textContent = item.state === "refused" ? why : "";
    row.querySelector(".outbox-actions").hidden = state !== "refused";
    row.querySelector(".outbox-open").href = `/outbox/${item.id}`;
    row.querySelector(".outbox-discard").addEventListener("click", () => discard(item.id));
    return row;
  }));
  box.hidden = items.length === 0;
}

// The server's reason, from the page it answered: the problems of a refused deal, or the error's message.
function reason(page) {
  const doc = new DOMParser().parseFromString(page || "", "text/html");
  const found = [".error-summary ul", ".flash-error", "[role=alert]", ".error-page p:not(.status)"]
    .map((selector) => doc.querySelector(selector)).find(Boolean);
  return found ? found.textContent.replace(/\s+/g, " ").trim() : "";
}

// A page that offers the next deal of a pulka ("Enter deal 8", the form of deal 8), shown from what the phone
// kept, does not know the deals this phone keeps for it: it offers the deal after them. Its numbers
// (`data-renumber`) say so, what it cannot know leaves (`data-until-kept`), and the element is told by how
// many (`kept-deals`). Never back: a kept deal acknowledged meanwhile is the server's now, and still comes before.
function follow(items) {
  document.querySelectorAll("[data-next-deal]").forEach((element) => {
    const next = Number(element.dataset.nextDeal);
    const kept = items.filter((item) => item.pulka === element.dataset.pulka && item.kind === "deal"
      && item.number >= next).map((item) => item.number);
    const by = kept.length ? Math.max(...kept) - next + 1 : 0;
    if (by <= Number(element.dataset.by || 0)) return;
    element.dataset.by = String(by);
    const renumber = (text) => text.replace(/\d+/, String(next + by));
    element.querySelectorAll("[data-renumber]").forEach((part) => { part.textContent = renumber(part.textContent); });
    if (element.matches("form")) {
      const heading = document.querySelector("h1");
      heading.textContent = renumber(heading.textContent);
      document.title = renumber(document.title);
    }
    element.querySelectorAll("[data-until-kept]").forEach((part) => { part.hidden = true; });
    element.dispatchEvent(new CustomEvent("kept-deals", { detail: by }));
  });
}
