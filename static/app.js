// Progressive enhancement: every form works without this file. It hides what a deal does not
// need, fills in the tricks that one tap tells (10 − the rest), previews the deal through the API, and
// keeps the sheet, history and settlement of every watching phone up to date.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const deal = document.querySelector("form.deal-form");
  if (deal) dealForm(deal);
  const pulka = document.querySelector("form.pulka-form");
  if (pulka) pulkaForm(pulka);
  const main = document.querySelector("main[data-live]");
  if (main) live(main);
  if (main || deal) stayAwake();
  installable();
  freshKeys();
  window.addEventListener("pageshow", (event) => { if (event.persisted) freshKeys(); });
  outbox();
  // A refused save: its problems are listed at the top; focused, they are in view and read out.
  const problems = document.querySelector(".error-summary");
  if (problems) problems.focus();
});

// The app opens without a connection and can be put on the home screen (static/sw.js); logging out
// drops the pages this phone kept, so nothing of the account's pulkas stays behind.
function installable() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js").catch(() => {});
  document.querySelectorAll("form[data-logout]").forEach((form) => form.addEventListener("submit", () => {
    if (navigator.serviceWorker.controller) navigator.serviceWorker.controller.postMessage("forget-pages");
  }));
}

// Each form shown gets a key of its own, here rather than the server's: a page shown again from this phone's
// cache, or from the back/forward cache, would otherwise send its one key with two different writes (the
// second refused as a reused key). A retry of one submission keeps its key: the browser resends the body.
function freshKeys() {
  document.querySelectorAll('input[name="idempotency_key"]').forEach((input) => {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    input.value = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  });
}

// The writes saved without a connection (static/sw.js keeps them and sends them when the server answers
// again): listed at the top of every page while any is left, each refused one with the server's reason, to
// open or discard. The words are the page's own (templates/_outbox.html).
const OUTBOX_RETRY_MS = 5000;  // a server that was unreachable fires no `online`: ask again while one waits

function outbox() {
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
    const label = form.classList.contains("deal-form") && heading ? heading.textContent : button && button.textContent;
    ask({ outbox: "label", key: key.value, label: (label || "").trim(), shown });
  });
  worker.addEventListener("message", (event) => {
    const data = event.data || {};
    if (!Array.isArray(data.outbox)) return;
    waiting = data.outbox.some((item) => item.state === "waiting");
    list(box, data.outbox, (id) => ask({ outbox: "discard", id }));
    if (data.sent) note(box.dataset.sent.replace("{label}", data.sent));
  });
  window.addEventListener("online", flush);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) flush(); });
  setInterval(() => { if (waiting && !document.hidden) flush(); }, OUTBOX_RETRY_MS);
  worker.ready.then(flush);
  worker.addEventListener("controllerchange", flush);
  // The page that says a write was kept: its links lead back to that pulka.
  const pulka = new URLSearchParams(location.search).get("p");
  document.querySelectorAll("[data-outbox-link]").forEach((link) => {
    if (!pulka || !/^[\w-]+$/.test(pulka)) return;
    link.href = link.dataset.outboxLink.replace("{pulka}", pulka);
    link.hidden = false;
  });
}

function list(box, items, discard) {
  const waiting = items.filter((item) => item.state === "waiting").length;
  const refused = new Set();  // pulkas with a refused write: theirs after it wait for it to be settled
  // The count's sentence in the plural form the page's language takes for it (one, few, many; English: one, other).
  const form = new Intl.PluralRules(document.documentElement.lang || "en").select(waiting);
  box.querySelector(".outbox-head").textContent = waiting
    ? (box.dataset[form] || box.dataset.many).replace("{n}", waiting) : box.dataset.refusedHead;
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

// The screen stays on while a sheet or a deal is open (the Screen Wake Lock API, where the browser has
// it); the lock is released when the page is hidden, so it is taken again when it comes back.
function stayAwake() {
  if (!("wakeLock" in navigator)) return;
  const take = () => {
    if (document.visibilityState === "visible") navigator.wakeLock.request("screen").catch(() => {});
  };
  document.addEventListener("visibilitychange", take);
  take();
}

// Every few seconds, ask the server for the pulka's version (a few bytes); when it changed, fetch this
// page again and put its content in place, where the reader had scrolled to. The script compares the
// versions itself rather than asking for a 304: waitress closes the connection after every 304, and a
// phone polling every two seconds should keep its one connection.
const LIVE_EVERY_MS = 2000;
// Every text it shows is in the page, in the page's language (templates/base.html, #live-texts).
const TEXT_KEYS = { added: "added", edited: "edited", deleted: "deleted", undone: "undone", settings: "settings" };

function liveText(key, values = {}) {
  const texts = document.getElementById("live-texts");
  const text = (texts && texts.dataset[key]) || "";
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

function live(main) {
  let version = main.dataset.version;
  let asking = false;
  let stopped = false;

  async function check() {
    if (asking || stopped || document.hidden) return;
    asking = true;
    try {
      const response = await fetch(main.dataset.live, { headers: { Accept: "application/json" }, cache: "no-store" });
      if (response.status === 200) {
        const data = await response.json();
        if (String(data.version) !== version) await refresh(data.change);
      } else if ([401, 403, 404].includes(response.status)) {
        stopped = true;
        note(liveText("gone"), true);
      }
    } catch (error) {
      // No connection for now: the next check tries again.
    } finally {
      asking = false;
    }
  }

  async function refresh(change) {
    const response = await fetch(location.href, { headers: { Accept: "text/html" }, cache: "no-store" });
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = page.querySelector("main[data-live]");
    if (!fresh) return;
    const x = window.scrollX, y = window.scrollY;
    main.replaceChildren(...[...fresh.childNodes].map((child) => document.adoptNode(child)));
    const tabs = document.querySelector("nav.tabs"), freshTabs = page.querySelector("nav.tabs");
    if (tabs && freshTabs) tabs.replaceWith(document.adoptNode(freshTabs));
    version = fresh.dataset.version;
    main.dataset.version = version;
    window.scrollTo(x, y);
    if (change) note(describe(change));
  }

  setInterval(check, LIVE_EVERY_MS);
  document.addEventListener("visibilitychange", check);
}

function describe(change) {
  const key = (TEXT_KEYS[change.what] || "changed") + (change.by ? "By" : "");
  return liveText(key, { deal: change.deal, by: change.by });
}

// An unobtrusive line at the bottom of the screen, read out by screen readers.
function note(text, stays = false) {
  let box = document.querySelector(".live-note");
  if (!box) {
    box = document.createElement("p");
    box.className = "live-note";
    box.setAttribute("role", "status");
    document.body.append(box);
  }
  box.textContent = text;
  box.hidden = false;
  clearTimeout(box.timer);
  if (!stays) box.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

function dealForm(form) {
  const defenders = JSON.parse(form.dataset.defenders || "{}");
  const half = (form.dataset.half || "").split(",").filter(Boolean).map(Number);
  const tenChecked = form.dataset.tenChecked === "true";
  const least = Number(form.dataset.least || 6);
  const hands = (form.dataset.hands || "").split(",").filter(Boolean); // first hand … last hand
  const loneTotal = form.dataset.loneTotal === "true";
  const box = form.querySelector(".preview");
  const words = form.querySelector(".word-rows");
  const value = (name) => {
    const input = form.querySelector(`input[name="${name}"]:checked`);
    return input ? input.value : "";
  };
  const part = (name) => form.querySelector(`[data-part="${name}"]`);
  const show = (el, on) => { if (el) el.hidden = !on; };
  // The count rows by their last tap, the latest last: a count that no longer adds up is made up on the row
  // tapped longest ago.
  const tapped = [];
  let timer = null;
  let ready = false;
  let asking = 0;

  function update(changed) {
    const type = value("type") || "game";
    const declarer = value("declarer");
    const level = Number(value("level")) || 0;
    const checkedTen = tenChecked && level === 10;
    const defs = (defenders[declarer] || []).map(String);
    form.querySelectorAll("[data-for]").forEach((el) => show(el, el.dataset.for.split(" ").includes(type)));
    form.querySelectorAll('input[name="level"]').forEach((input) => {
      input.disabled = type === "game" && Number(input.value) < least;
    });

    show(part("whist"), type === "game" && !checkedTen && declarer !== "");
    // The two defenders in speaking order: first the one on the declarer's left.
    defs.forEach((seat) => words.append(words.querySelector(`.word-row[data-seat="${seat}"]`)));
    form.querySelectorAll(".word-row").forEach((row) => {
      const seat = row.dataset.seat;
      show(row, defs.includes(seat));
      const halfChip = row.querySelector(".chip.half");
      const halfOk = seat === defs[1] && half.includes(level) && value(`w${defs[0]}`) === "pass";
      show(halfChip, halfOk);
      if (!halfOk && value(`w${seat}`) === "half") row.querySelector('input[value="pass"]').checked = true;
    });
    const whisters = defs.filter((seat) => value(`w${seat}`) === "whist").length;
    show(part("open"), whisters === 1);
    const played = type !== "game" || checkedTen || whisters > 0;
    // One whister where only the defence's total counts (forms.lone_whist_total): the declarer's count is all
    // the form asks, as on misère.
    const lone = type === "game" && !checkedTen && whisters === 1 && loneTotal;
    const declarerOnly = type === "misere" || lone;
    show(part("lone"), lone);

    form.querySelectorAll(".tricks-row").forEach((row) => {
      let on = true;
      if (row.hasAttribute("data-talon")) on = type === "raspasy";
      else if (declarerOnly) on = row.dataset.seat === declarer;
      show(row, on);
    });
    show(part("tricks"), type !== "game" || (played && declarer !== ""));
    if (!declarerOnly && !part("tricks").hidden) balance(changed, declarer);
    else noteTap(changed);
    ready = type === "raspasy" || (declarer !== "" && (type === "misere" || (level && value("strain"))));
    clearTimeout(timer);
    timer = setTimeout(preview, 120);
  }

  // A tapped count is the player's own: it is never filled in again, and it goes last in `tapped`.
  function noteTap(changed) {
    const row = changed && /^t\d$/.test(changed.name || "") ? changed.closest(".tricks-row") : null;
    if (!row) return null;
    mark(row, false);
    const at = tapped.indexOf(row.dataset.seat);
    if (at >= 0) tapped.splice(at, 1);
    tapped.push(row.dataset.seat);
    return row;
  }

  // The counts add up to 10 (the talon's included) wherever one tap tells the rest:
  // - one hand left without a count (or with one filled in here) gets 10 − the others;
  // - a hand given all 10 leaves 0 to every hand without a count;
  // - when every hand has a count and one is changed (an edit, a correction), the hand tapped longest ago
  //   makes up the difference: a defender rather than the declarer, the last hand first among those untouched.
  function balance(changed, declarer) {
    const tappedRow = noteTap(changed);
    const rows = [...form.querySelectorAll(".tricks-row:not([data-talon])")].filter((r) => !r.hidden);
    const count = (r) => value(`t${r.dataset.seat}`);
    const open = rows.filter((r) => r !== tappedRow && (count(r) === "" || r.dataset.auto));
    if (open.length === 1) {
      fill(open[0], rest(rows, open[0]));
    } else if (open.length > 1) {
      const left = rest(rows, null, open);
      open.forEach((r) => fill(r, left === 0 ? 0 : null));
    } else if (tappedRow && rows.length > 1 && rest(rows, null) !== 0) {
      const target = longestAgo(rows.filter((r) => r !== tappedRow), declarer);
      fill(target, rest(rows, target));
    }
  }

  // What is left of the 10 tricks for `target` (null: after every hand) once the others' counts, and the
  // talon's, are taken; `skip`: rows not counted.
  function rest(rows, target, skip = []) {
    const talonRow = form.querySelector(".tricks-row[data-talon]");
    const talon = talonRow && !talonRow.hidden ? Number(value(`t${talonRow.dataset.seat}`) || 0) : 0;
    return rows.filter((r) => r !== target && !skip.includes(r))
      .reduce((left, r) => left - Number(value(`t${r.dataset.seat}`) || 0), 10 - talon);
  }

  function longestAgo(rows, declarer) {
    const order = (r) => (r.dataset.seat === declarer ? 1000 : 0) +
      (tapped.includes(r.dataset.seat) ? 100 + tapped.indexOf(r.dataset.seat) : -hands.indexOf(r.dataset.seat));
    return rows.reduce((best, r) => (order(r) < order(best) ? r : best));
  }

  // Check `count` on the row, marked as filled in here (dashed); null or a count out of 0-10 clears it.
  function fill(row, count) {
    row.querySelectorAll("input").forEach((input) => { input.checked = Number(input.value) === count; });
    mark(row, count !== null && count >= 0 && count <= 10);
  }

  function mark(row, auto) {
    if (auto) row.dataset.auto = "1";
    else delete row.dataset.auto;
    row.querySelectorAll("input").forEach((input) => {
      input.nextElementSibling.classList.toggle("auto", auto && input.checked);
    });
  }

  async function preview() {
    if (!box) return;
    if (!ready) { box.hidden = true; return; }
    const body = new FormData(form);
    const asked = ++asking;
    try {
      const response = await fetch(form.dataset.preview, { method: "POST", body, headers: { Accept: "application/json" } });
      const data = await response.json();
      if (asked !== asking) return; // a later tap has asked again: its answer counts
      // Each line with its reason ("Anna helps Boris …"), so that help or consolation does not look like a mistake.
      const lines = response.ok ? data.lines : (data.problems || [data.error]).map((p) => ({ what: p.message }));
      box.querySelector("h2").textContent = response.ok ? box.dataset.ok : box.dataset.bad;
      box.querySelector("ul").replaceChildren(...lines.map((line) => {
        const li = document.createElement("li");
        const what = document.createElement("span");
        what.className = "what";
        what.textContent = line.what;
        li.append(what);
        if (line.why) {
          const why = document.createElement("span");
          why.className = "why";
          why.textContent = line.why;
          li.append(" ", why);
        }
        return li;
      }));
      box.classList.toggle("bad", !response.ok);
      box.hidden = false;
    } catch (error) {
      box.hidden = true; // offline: the server still checks on save
    }
  }

  form.addEventListener("change", (event) => update(event.target));
  update(null);
}

function pulkaForm(form) {
  const presets = JSON.parse(form.dataset.presets || "{}");
  const shown = form.querySelector('input[name="shown_preset"]');

  function fill(preset) {
    const values = presets[preset];
    if (!values) return;
    form.querySelectorAll(".advanced [data-param]").forEach((input) => {
      const value = values[input.dataset.param];
      if (input.type === "checkbox") {
        input.checked = Array.isArray(value) ? value.includes(Number(input.value)) : Boolean(value);
      } else {
        input.value = Array.isArray(value) ? value.join(", ") : String(value);
      }
    });
    if (shown) shown.value = preset;
  }

  function names() {
    for (let i = 0; i < 4; i++) {
      const input = form.querySelector(`input[name="player${i}"]`);
      const label = form.querySelector(`[data-player="${i}"]`);
      if (!input || !label) continue;
      label.textContent = input.value.trim() || label.dataset.unnamed;
      if (i === 3) label.closest(".chip").hidden = !input.value.trim();
    }
  }

  form.addEventListener("change", (event) => {
    if (event.target.name === "preset") fill(event.target.value);
  });
  form.addEventListener("input", (event) => {
    if (/^player\d$/.test(event.target.name)) names();
  });
  names();
}
