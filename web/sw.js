// The book's service worker: after a first visit, the whole book (pages, wasm,
// scripts, styles, charts, editor, search index, notebooks) is answered from a
// cache, so it reads, runs and grades with the network off.
//
// `cargo xtask build` fills this template into dist/sw.js (xtask/src/offline.rs):
// VERSION is a hash of every precached file, FILES lists them by the URL a
// reader fetches them at (pages by route: `/`, `/ch/<slug>`, `/404`). A new
// build is a new sw.js: the browser installs it next to the running one, and
// the page (index.html) offers to switch; it never switches by itself, since an
// open page may still load files (plotly.js, the editor) of its own version.

const VERSION = "{{version}}";
const FILES = /*{{files}}*/[];
const PREFIX = "ih-offline-";
const CACHE = PREFIX + VERSION;

// The cache key of a path, as the server resolves it: `/ch/x`, `/ch/x/` and
// `/ch/x.html` are one page, `/index.html` is `/`. Queries never matter.
function key(path) {
  path = path.replace(/\/index\.html$/, "/").replace(/\.html$/, "");
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

self.addEventListener("install", (event) => {
  // Every file or none: a failed download fails the install, and the
  // previous version (if any) keeps serving.
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(FILES.map((url) => new Request(url, { cache: "reload" }))))
      .catch((e) => caches.delete(CACHE).then(() => { throw e; })),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// The page's "Reload" on the new-version notice.
self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skip-waiting") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  event.respondWith(answer(request, url));
});

// Cache first, then the network. A page the cache does not have, with no
// network, is the cached 404 page with status 404, as the server would answer.
async function answer(request, url) {
  const hit = await caches.match(url.origin + key(url.pathname), { cacheName: CACHE });
  if (hit) return hit;
  try {
    return await fetch(request);
  } catch (e) {
    const missing = request.mode === "navigate" && (await caches.match(url.origin + key("/404.html"), { cacheName: CACHE }));
    if (!missing) throw e;
    return new Response(missing.body, { status: 404, statusText: "Not Found", headers: missing.headers });
  }
}
