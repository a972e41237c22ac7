// The page's service worker, served at /sw.js (scope "/") by perudo.server.routes.webapp,
// which fills in VERSION (a digest of the page's files: each deploy that changes one gets a
// new worker and a new cache) and FILES (the page's own files). The page's files come from
// that version's cache; a page (the lobby, a table, a replay) from the network, or when the
// network fails from the cached page. The API, the table sockets and the rule book are never
// cached. Older versions' caches are deleted when this one takes over.
// Web Push (docs/server.md#web-push): a notice ("your turn", "you are invited", "your table
// is starting") is shown with the words the server wrote in the device's language; it carries
// a kind, a table and names, never a hand. Clicking it opens (or brings to the front) the
// table's page, on this site only.

const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = `perudo-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("perudo-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.mode === "navigate") {
    if (/^\/(t\/|replay\/|$)/.test(url.pathname)) event.respondWith(fetch(req).catch(() => caches.match("/", { cacheName: CACHE })));
    return;
  }
  if (FILES.includes(url.pathname)) {
    event.respondWith(caches.match(url.pathname, { cacheName: CACHE }).then((hit) => hit || fetch(req)));
  }
});

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (e) {
    data = {};
  }
  event.waitUntil(
    self.registration.showNotification(data.title || "Perudo", {
      body: data.body || "",
      tag: `${data.kind || "notice"}-${data.table || ""}`,
      icon: "/static/icons/icon-192.png",
      data: { url: data.url || "/" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const asked = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  const url = asked.origin === self.location.origin ? asked.href : self.location.origin + "/";
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((list) => {
      const open = list.find((c) => c.url === url && "focus" in c);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
