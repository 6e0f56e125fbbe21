// The service worker: the page's own files are cached so the app opens quickly and
// installs on a phone's home screen; the games themselves need the server, so a
// page opened without a connection shows offline.html, which says so plainly.
// Network first: a deployed change is seen at once; the cache is the fallback.
// The API (games, the live channel) is never cached.

const CACHE = "tricktable-v1";
const FILES = [
  "./", "index.html", "offline.html", "style.css", "trust.css", "replay.css", "favicon.svg", "icon.svg", "icon-192.png", "icon-512.png",
  "manifest.json",
  "js/api.js", "js/app.js", "js/cards.js", "js/dom.js", "js/fairness.js", "js/friends.js", "js/home.js", "js/hosting.js", "js/i18n.js", "js/identity.js",
  "js/history.js", "js/levels.js", "js/live.js", "js/passkeys.js", "js/replay.js", "js/rules.js", "js/settings.js",
  "js/sheets.js", "js/sound.js", "js/stats.js", "js/table.js",
  "js/games/base.js", "js/games/courtpiece.js", "js/games/doppelkopf.js", "js/games/euchre.js", "js/games/index.js",
  "i18n/en.json", "i18n/de.json", "i18n/hi.json", "i18n/th.json",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  // Only the page's own files: the API and anything else go straight to the network.
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match("offline.html")));
    return;
  }
  event.respondWith(fetch(request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(request, copy));
    }
    return response;
  }).catch(() => caches.match(request, { ignoreSearch: true })));
});
