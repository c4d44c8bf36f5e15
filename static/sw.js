// The service worker: the app opens on a weak signal, or none, and can live on the home screen.
// Served at /sw.js (its scope is the whole site) with SHELL_VERSION filled in: a hash of the static
// files, so a new version of any of them installs a new worker, which drops the old caches; and with
// SHELL_SCRIPTS filled in: every module under static/js (a module missing offline breaks the app).
"use strict";

const VERSION = "SHELL_VERSION";
const SHELL = `shell-${VERSION}`;  // the app's own files: the same for everybody
const PAGES = "pages";  // pages this browser opened, for reading them again without a connection
const SHELL_PAGES = ["/offline", "/outbox"];  // the app's own pages, the same for every pulka
const SHELL_SCRIPTS = ["SHELL_SCRIPTS"];  // every file under static/js, main.js and the modules it imports
const SHELL_FILES = [
  ...SHELL_PAGES, ...SHELL_SCRIPTS, "/static/app.css", "/static/sheet.css", "/static/early.js",
  "/static/icons/icon.svg", "/static/icons/icon-192.png", "/static/fonts/DejaVuSans.ttf",
  "/static/fonts/DejaVuSans-Bold.ttf", "/static/manifest.webmanifest",
];
// Every answer says which session it was sent to (a hash, never the cookie); the kept pages are one
// session's, marked in PAGES under SESSION_KEY.
const SESSION_HEADER = "Scorekeeper-Session";
const SESSION_KEY = "/.pages-session";
// A page or the version poll answering these: the session ended (a password reset, a disabled account) or
// the page is no longer this caller's (a revoked link): nothing kept may be shown for it offline.
const GONE = [401, 403, 404];
const NETWORK_WAIT_MS = 4000;  // on a weak signal, a page last seen is better than a blank screen
// The page a write redirects to carries its result ("Deal 5 saved: …") once, and a form on the version the
// write made: never stand in a kept copy for it while the server answers, however slowly.
const AFTER_WRITE_MS = 30000;
let lastWrite = 0;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(SHELL_FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name.startsWith("shell-") && name !== SHELL)
      .map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  // Logging out: nothing of this account's pulkas stays on the phone (the writes still waiting stay, shown).
  if (data === "forget-pages") event.waitUntil(Promise.all([caches.delete(PAGES), clear("after")]));
  else if (data.outbox === "label") event.waitUntil(label(data));
  else if (data.outbox === "flush") event.waitUntil(flush().then(() => tell({}, event.source)));
  else if (data.outbox === "discard") event.waitUntil(drop(Number(data.id)).then(() => tell()).then(flush));
});

self.addEventListener("sync", (event) => {
  // Background Sync (where the browser has it): the connection came back while no page of the app was open.
  // Thrown, it is tried again later.
  if (event.tag === "outbox") {
    event.waitUntil(flush().then(async () => {
      if ((await all("items")).some((item) => item.state === "waiting")) throw new Error("still waiting");
    }));
  }
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== location.origin) return;
  if (request.method === "POST" && request.mode === "navigate") {
    const target = writeTarget(url, request.referrer);
    if (target) event.respondWith(write(request, target));
    return;
  }
  if (request.method !== "GET") return;
  if (SHELL_PAGES.includes(url.pathname) && request.mode === "navigate") {
    event.respondWith(caches.match(url.pathname, { cacheName: SHELL }).then((kept) => kept || fetch(request)));
  } else if (/^\/outbox\/\d+$/.test(url.pathname) && request.mode === "navigate") {
    event.respondWith(refusal(Number(url.pathname.split("/")[2])));
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.match(request).then((cached) => cached || fetch(request)));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request));
  } else if (/^\/api\/v1\/pulkas\/[^/]+\/version$/.test(url.pathname)) {
    event.respondWith(fetch(request).then(async (response) => {
      if (GONE.includes(response.status)) await caches.delete(PAGES);
      return response;
    }));
  }
  // Everything else (the rest of the API) goes to the network only.
});

async function page(request) {
  const network = fetch(request).then(async (response) => {
    await sessionOf(response);
    const toLogIn = response.redirected && new URL(response.url).pathname === "/login";
    if (GONE.includes(response.status) || toLogIn) {
      await caches.delete(PAGES);
    } else if (response.ok && !response.redirected) {
      const cache = await caches.open(PAGES);
      await cache.put(request, response.clone());
    }
    return response;
  });
  const wait = Date.now() - lastWrite < AFTER_WRITE_MS ? AFTER_WRITE_MS : NETWORK_WAIT_MS;
  const slow = new Promise((resolve) => setTimeout(resolve, wait));
  try {
    const first = await Promise.race([network, slow]);
    if (first) return first;
  } catch (error) {
    // no connection at all: fall through to what this phone kept
  }
  const kept = await caches.match(request, { cacheName: PAGES });
  if (kept) return kept;
  try {
    return await network;
  } catch (error) {
    return (await caches.match("/offline")) || Response.error();
  }
}

// The pages kept are those of the session the server last named: another one (someone else logged in on this
// phone, a log-out, a new log-in) drops them before anything of the new one is kept.
async function sessionOf(response) {
  const session = response.headers.get(SESSION_HEADER);
  if (session === null) return;
  const kept = await (await caches.open(PAGES)).match(SESSION_KEY);
  if (kept && (await kept.text()) === session) return;
  await caches.delete(PAGES);
  await (await caches.open(PAGES)).put(SESSION_KEY, new Response(session));
}

// -- the outbox: writes saved without a connection, kept until the server acknowledges them -------------------
//
// A form that writes a deal (add, edit, delete, undo, restore) goes to the network as before; when it cannot
// reach the server, it is kept in IndexedDB, as it was sent (its CSRF token and idempotency key included), and
// the page says so (/outbox). Kept writes are sent again in the order they were entered, one pulka's after the
// other, whenever a page of the app asks (loading, every few seconds while something waits, `online`) or
// Background Sync fires. A write leaves the outbox only when the server answered it: a redirect or a 2xx
// (its key makes a write that was saved but whose answer was lost answer the first answer, saving nothing
// again). A 4xx refusal (the pulka changed meanwhile, a deal the rules refuse) is kept with the server's page,
// shown on every page until the player opens it (/outbox/<id>, the form with the choices kept) or discards
// it; the writes of that pulka entered after it wait behind it. A 5xx (503 cannot_save) is tried again.

// A pulka's writes, and the ledger's (a payment, a mark: kept as the writes of one more "pulka", "ledger").
const WRITES = /^\/(?:p\/([^/]+)\/(deal|deals\/\d+\/(edit|delete)|undo|restore)|ledger)$/;
const RETRY_STATUS = 500;  // and above: nothing was saved, and the server may save it later
const labels = new Map();  // idempotency key -> what the page said the write is, until the write is kept

// Where a form goes: a write route, or the page of a refused write opened again (its form has no action,
// so it posts to /outbox/<id>; with an action, the referrer names it): that write, to take its place.
function writeTarget(url, referrer) {
  const opened = /^\/outbox\/(\d+)$/;
  if (opened.test(url.pathname)) return { id: Number(url.pathname.match(opened)[1]), url: null };
  if (!WRITES.test(url.pathname)) return null;
  const from = referrer ? new URL(referrer) : null;
  const id = from && from.origin === location.origin && opened.test(from.pathname)
    ? Number(from.pathname.match(opened)[1]) : null;
  return { id, url: url.href };
}

async function write(request, target) {
  let replaced = target.id === null ? null : await get(target.id);
  if (replaced && target.url && target.url !== replaced.url) replaced = null;  // another form of its page
  const url = target.url || (replaced && replaced.url);
  if (!url) return Response.redirect("/outbox", 303);  // a refused write discarded meanwhile
  const body = await request.text();
  const key = new URLSearchParams(body).get("idempotency_key") || "";
  const [, pulka = "ledger", route] = new URL(url).pathname.match(WRITES);
  const item = {
    url, body, key, pulka, kind: route === "deal" ? "deal" : "", at: Date.now(), state: "waiting",
    type: request.headers.get("Content-Type") || "application/x-www-form-urlencoded",
  };
  if (replaced) Object.assign(item, { id: replaced.id, at: replaced.at });
  await flush();  // what waits goes first, in the order it was entered
  const before = (await all("items")).some((other) => other.pulka === item.pulka
    && (item.id === undefined || other.id < item.id));
  if (!before) {
    try {
      prepare(item, await get(item.pulka, "after"));
      const response = await send(item);
      labels.delete(key);
      lastWrite = Date.now();
      if (replaced && acknowledged(response)) {
        await drop(replaced.id);
        await after(item);
        tell();
        flush();  // the writes that waited behind the refused one
      }
      return response;  // the server's answer, a refusal too: the page shows it as ever
    } catch (error) {
      // no connection: kept below
    }
  }
  const said = labels.get(key);
  Object.assign(item, said);
  if (item.kind === "deal") numbered(item, await all("items"));
  await put(item);
  if (labels.get(key) !== said) {  // the message came while it was kept
    Object.assign(item, labels.get(key));
    if (item.kind === "deal") numbered(item, await all("items"));
    await put(item);
  }
  labels.delete(key);
  tell();
  if (self.registration.sync) self.registration.sync.register("outbox").catch(() => {});
  return Response.redirect(`/outbox?p=${encodeURIComponent(item.pulka)}`, 303);
}

// What the page tells just before a form is sent: the write's name ("Deal 7") and when its page was shown.
// Either may come first: the map is set at once and read by write() after it kept the item, and an item kept
// before the message came is found here.
async function label(data) {
  const said = { label: String(data.label || ""), shown: Number(data.shown) || 0 };
  labels.set(data.key, said);
  const kept = (await all("items")).find((item) => item.key === data.key);
  if (!kept) return;
  labels.delete(data.key);
  if (kept.number) said.label = said.label.replace(/\d+/, String(kept.number));  // renumbered when kept
  await put(Object.assign(kept, said));
  tell();
}

// A new deal kept here: its number (`number`, for the pages that offer the next deal, static/js/outbox.js),
// which follows the deals this phone kept before it. The page numbers its form after them once it has heard
// of them; one sent before that (it still said "Deal 7") is numbered here, while it was never sent.
function numbered(item, items) {
  const fields = new URLSearchParams(item.body);
  const before = items.filter((other) => other.pulka === item.pulka && other.kind === "deal"
    && other.id !== item.id && (item.id === undefined || other.id < item.id)).map((other) => other.number || 0);
  item.number = Number(fields.get("number")) || 0;
  const last = Math.max(0, ...before);
  if (!item.tried && item.number && item.number <= last) {
    item.number = last + 1;
    fields.set("number", String(item.number));
    item.body = fields.toString();
    item.label = (item.label || "").replace(/\d+/, String(item.number));
  }
}

let flushing = null;

function flush() {
  flushing = flushing || sendAll().finally(() => { flushing = null; });
  return flushing;
}

async function sendAll() {
  const blocked = new Set();  // pulkas with an earlier write not acknowledged: theirs wait behind it
  for (const item of await all("items")) {
    if (blocked.has(item.pulka)) continue;
    if (item.state === "refused") {
      blocked.add(item.pulka);
      continue;
    }
    if (!item.tried) await put(prepare(item, await get(item.pulka, "after")));
    let response;
    try {
      response = await send(item, "follow");
    } catch (error) {
      return;  // the server cannot be reached: nothing else can be sent either
    }
    if (acknowledged(response) && !loggedOut(response)) {
      await drop(item.id);
      await after(item);
      tell({ sent: item.label });
      continue;
    }
    blocked.add(item.pulka);
    if (response.status < RETRY_STATUS) {
      Object.assign(item, { state: "refused", status: response.status, page: await response.text(),
                            loggedOut: loggedOut(response),
                            csp: response.headers.get("Content-Security-Policy") });
      await put(item);
      tell();
    }
  }
}

// Before a write is first sent: written on the version this phone's own kept writes made, when they were
// kept before its page was shown (`mine`, see after), since that page could not show them. From then on its
// body never changes, so that sending it again is the same request under the same key.
function prepare(item, mine) {
  const fields = new URLSearchParams(item.body);
  if (mine && item.shown > mine.at && fields.has("version") && Number(fields.get("version")) < mine.version) {
    fields.set("version", String(mine.version));
    item.body = fields.toString();
  }
  item.tried = true;
  return item;
}

// A form's own request takes the server's redirect to the page (`manual`); a kept write sent again follows it
// (taking the messages meant for that page), to tell a write saved from one sent to the log-in page.
function send(item, redirect = "manual") {
  return fetch(item.url, { method: "POST", body: item.body, headers: { "Content-Type": item.type },
                           credentials: "same-origin", redirect });
}

// The session ended meanwhile (logged out, password changed): the write was not saved, it is refused.
function loggedOut(response) {
  return response.redirected && new URL(response.url).pathname === "/login";
}

function acknowledged(response) {
  return response.type === "opaqueredirect" || response.ok;
}

// A kept write acknowledged: the version it made (each write adds one), for the writes entered after it was
// kept, on pages that could not know it. Only kept writes count: a form sent again from an old page with the
// network up is refused as stale (409), as before.
async function after(item) {
  const version = new URLSearchParams(item.body).get("version");
  if (version) await put({ pulka: item.pulka, version: Number(version) + 1, at: item.at }, "after");
}

// A refused write's page, as the server answered it, to see why and send it again.
async function refusal(id) {
  const item = await get(id);
  if (!item || item.state !== "refused") return Response.redirect("/outbox", 303);
  const headers = { "Content-Type": "text/html; charset=utf-8" };
  if (item.csp) headers["Content-Security-Policy"] = item.csp;
  return new Response(item.page, { status: 200, headers });
}

// Every open page of the app shows the outbox as it is now (and `sent`: a write just acknowledged).
async function tell(news = {}, client = null) {
  const items = (await all("items")).map(({ body, ...shown }) => shown);
  const to = client ? [client] : await self.clients.matchAll({ type: "window" });
  to.forEach((page) => page.postMessage({ outbox: items, ...news }));
}

// -- IndexedDB: "items" are the kept writes by id (the order they were entered); "after", by pulka, the
// version this phone's last acknowledged kept write made.

let database = null;

function open() {
  database = database || new Promise((resolve, reject) => {
    const request = indexedDB.open("outbox", 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore("items", { keyPath: "id", autoIncrement: true });
      request.result.createObjectStore("after", { keyPath: "pulka" });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return database;
}

async function store(name, mode, work) {
  const db = await open();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(name, mode);
    const request = work(transaction.objectStore(name));
    transaction.oncomplete = () => resolve(request.result);
    transaction.onerror = transaction.onabort = () => reject(transaction.error);
  });
}

const all = (name) => store(name, "readonly", (s) => s.getAll());
const get = (key, name = "items") => store(name, "readonly", (s) => s.get(key));
const clear = (name) => store(name, "readwrite", (s) => s.clear());
const drop = (id) => store("items", "readwrite", (s) => s.delete(id));

async function put(value, name = "items") {
  const key = await store(name, "readwrite", (s) => s.put(value));
  if (name === "items") value.id = key;
  return key;
}
