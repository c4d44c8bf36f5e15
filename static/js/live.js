import { note } from "./notes.js";

// Every few seconds, ask the server for the pulka's version (a few bytes); when it changed, fetch this
// page again and put its content in place, where the reader had scrolled to. The script compares the
// versions itself rather than asking for a 304: waitress closes the connection after every 304, and a
// phone polling every two seconds should keep its one connection.
const LIVE_EVERY_MS = 2000;
// Every text it shows is in the page, in the page's language (templates/base.html, #live-texts).
const TEXT_KEYS = { added: "added", edited: "edited", deleted: "deleted", undone: "undone", settings: "settings",
                    again: "again", closed: "closed", reopened: "reopened" };

function liveText(key, values = {}) {
  const texts = document.getElementById("live-texts");
  const text = (texts && texts.dataset[key]) || "";
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

export function live(main) {
  let version = main.dataset.version;
  let asking = false;
  let stopped = false;

  async function check() {
    if (asking || stopped || document.hidden) return;
    asking = true;
    try {
      // `since`: the version this page shows, which the answer is never older than (a process that has not
      // heard of this phone's own write yet asks the database).
      const url = new URL(main.dataset.live, location.href);
      url.searchParams.set("since", version);
      const response = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
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
    // The table went on to its next pulka: the note stays, with the page's own link there (one tap, wherever
    // the reader had scrolled to).
    const later = main.querySelector("a[data-next-pulka]");
    if (change && change.what === "again" && later) note(describe(change), true, later);
    else if (change) note(describe(change));
  }

  setInterval(check, LIVE_EVERY_MS);
  document.addEventListener("visibilitychange", check);
}

function describe(change) {
  const key = (TEXT_KEYS[change.what] || "changed") + (change.by ? "By" : "");
  return liveText(key, { deal: change.deal, by: change.by });
}
