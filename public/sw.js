/* Whitetail Pulse service worker.
 * - Build assets (/build/*) are content-hashed: served cache-first, so a return visit on a weak
 *   signal costs no script or style downloads.
 * - Pages are network-first; if the network is gone, the last copy of the page (or the offline
 *   page) is shown instead of the browser's error.
 * - Nothing else (API calls, form posts, media) is touched.
 * A new build registers /sw.js?v=<build>; the new worker takes over at once and the page reloads
 * once (app/utils/service-worker.ts).
 */
const VERSION = new URL(self.location.href).searchParams.get("v") || "dev";
const ASSETS = `assets-${VERSION}`;
const PAGES = "pages-v1";
const OFFLINE_URL = "/offline.html";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(PAGES)
      .then((cache) => cache.add(new Request(OFFLINE_URL, { cache: "reload" })))
      .catch(() => undefined)
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("assets-") && k !== ASSETS).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;

  if (url.pathname.startsWith("/build/")) {
    event.respondWith(
      caches.open(ASSETS).then(async (cache) => {
        const hit = await cache.match(request);
        if (hit) return hit;
        const response = await fetch(request);
        if (response.ok) cache.put(request, response.clone());
        return response;
      }),
    );
    return;
  }

  if (request.mode === "navigate") {
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok && !url.pathname.startsWith("/auth")) {
            const copy = response.clone();
            caches.open(PAGES).then((cache) => cache.put(request, copy));
          }
          return response;
        })
        .catch(async () => (await caches.match(request)) || (await caches.match(OFFLINE_URL)) || Response.error()),
    );
  }
});
