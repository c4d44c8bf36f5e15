// Progressive enhancement: every form works without this file. It hides what a deal does not
// need, fills the last hand's tricks as 10 − the rest, previews the deal through the API, and keeps
// the sheet, history and settlement of every watching phone up to date.
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
const WORDS = { added: "added", edited: "edited", deleted: "deleted", undone: "taken back" };

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
        note("This pulka is no longer shared with you.", true);
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
  const by = change.by ? ` by ${change.by}` : "";
  if (change.what === "settings") return `Settings changed${by}`;
  return `Deal ${change.deal} ${WORDS[change.what] || change.what}${by}`;
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
  const box = form.querySelector(".preview");
  const value = (name) => {
    const input = form.querySelector(`input[name="${name}"]:checked`);
    return input ? input.value : "";
  };
  const part = (name) => form.querySelector(`[data-part="${name}"]`);
  const show = (el, on) => { if (el) el.hidden = !on; };
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

    form.querySelectorAll(".tricks-row").forEach((row) => {
      const seat = row.dataset.seat;
      let on = true;
      if (row.hasAttribute("data-talon")) on = type === "raspasy";
      else if (type === "misere") on = seat === declarer;
      show(row, on);
    });
    show(part("tricks"), type !== "game" || (played && declarer !== ""));
    fillTen(changed, type);
    ready = type === "raspasy" || (declarer !== "" && (type === "misere" || (level && value("strain"))));
    clearTimeout(timer);
    timer = setTimeout(preview, 120);
  }

  // The last hand without a count gets 10 − the others (and the talon's); a tap on it takes over.
  function fillTen(changed, type) {
    if (changed && changed.name && /^t\d$/.test(changed.name)) {
      const row = changed.closest(".tricks-row");
      if (row) delete row.dataset.auto;
      row && row.querySelectorAll("span.auto").forEach((s) => s.classList.remove("auto"));
    }
    if (type === "misere" || part("tricks").hidden) return;
    const rows = [...form.querySelectorAll(".tricks-row:not([data-talon])")].filter((r) => !r.hidden);
    const open = rows.filter((r) => !value(`t${r.dataset.seat}`) || r.dataset.auto);
    if (open.length !== 1) return;
    const target = open[0];
    const talonRow = form.querySelector(".tricks-row[data-talon]");
    const talon = talonRow && !talonRow.hidden ? Number(value(`t${talonRow.dataset.seat}`) || 0) : 0;
    const rest = 10 - talon - rows.filter((r) => r !== target)
      .reduce((sum, r) => sum + Number(value(`t${r.dataset.seat}`)), 0);
    target.querySelectorAll("input").forEach((input) => {
      input.checked = Number(input.value) === rest;
      input.nextElementSibling.classList.toggle("auto", input.checked);
    });
    target.dataset.auto = "1";
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
      const lines = response.ok ? data.summary : (data.problems || [data.error]).map((p) => p.message);
      box.querySelector("h2").textContent = response.ok ? "Will be written" : "Not yet";
      box.querySelector("ul").replaceChildren(...lines.map((line) => {
        const li = document.createElement("li");
        li.textContent = line;
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
      label.textContent = input.value.trim() || `player ${i + 1}`;
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
