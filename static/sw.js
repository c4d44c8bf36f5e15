// The service worker: the app opens on a weak signal, or none, and can live on the home screen.
// Served at /sw.js (its scope is the whole site) with SHELL_VERSION filled in: a hash of the static
// files, so a new version of any of them installs a new worker, which drops the old caches.
"use strict";

const VERSION = "SHELL_VERSION";
const SHELL = `shell-${VERSION}`;  // the app's own files: the same for everybody
const PAGES = "pages";  // pages this browser opened, for reading them again without a connection
const SHELL_FILES = [
  "/offline", "/static/app.css", "/static/sheet.css", "/static/app.js", "/static/early.js",
  "/static/icons/icon.svg", "/static/icons/icon-192.png", "/static/fonts/DejaVuSans.ttf",
  "/static/fonts/DejaVuSans-Bold.ttf", "/static/manifest.webmanifest",
];
const NETWORK_WAIT_MS = 4000;  // on a weak signal, a page last seen is better than a blank screen

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
  // Logging out: nothing of this account's pulkas stays on the phone.
  if (event.data === "forget-pages") event.waitUntil(caches.delete(PAGES));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.match(request).then((cached) => cached || fetch(request)));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request));
  }
  // Everything else (the API, the version phones poll) goes to the network only.
});

async function page(request) {
  const network = fetch(request).then(async (response) => {
    if (response.ok && !response.redirected) {
      const cache = await caches.open(PAGES);
      await cache.put(request, response.clone());
    }
    return response;
  });
  const slow = new Promise((resolve) => setTimeout(resolve, NETWORK_WAIT_MS));
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
