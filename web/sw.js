// The book's service worker: after a first visit, the whole book (pages, wasm,
// scripts, styles, charts, editor, search index, notebooks) is answered from a
// cache, so it reads, runs and grades with the network off.
//
// `cargo xtask build` fills this template into dist/sw.js (xtask/src/offline.rs):
// VERSION is a hash of every precached file, FILES lists them by the name they
// have in dist/ (`/index.html`, `/zh/index.html`, `/ch/<slug>.html`,
// `/pkg/app.js`), which every static host serves, directly or through a
// redirect to its pretty URL. Each is stored under its route's key (`key`), so
// `/zh`, `/zh/` and `/zh/index.html` are one page. A new build is a new sw.js:
// the browser installs it next to the running one, and the page (index.html)
// offers to switch; it never switches by itself, since an open page may still
// load files (plotly.js, the editor) of its own version.
//
// Hosts redirect: `/zh` to `/zh/` (nginx, GitHub Pages, Netlify), `/ch/x.html`
// to `/ch/x` (Cloudflare Pages, Netlify's pretty URLs). A navigation answered
// with a response that went through a redirect fails (net::ERR_FAILED), so
// nothing redirected is ever stored or served: every response is copied into a
// fresh one before it is cached.

const VERSION = "{{version}}";
const FILES = /*{{files}}*/[];
const PREFIX = "ih-offline-";
const CACHE = PREFIX + VERSION;

// The cache key of a path, as the hosts resolve it: `/ch/x`, `/ch/x/` and
// `/ch/x.html` are one page, `/index.html` is `/`. Queries never matter.
function key(path) {
  path = path.replace(/\/index\.html$/, "/").replace(/\.html$/, "");
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

// A copy of `response` that carries no trace of a redirect (its URL list is
// one URL) and no transfer encoding (the body is already decoded).
async function plain(response) {
  const headers = new Headers(response.headers);
  headers.delete("content-encoding");
  headers.delete("content-length");
  return new Response(await response.blob(), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

self.addEventListener("install", (event) => {
  // Every file or none: a failed download fails the install, and the
  // previous version (if any) keeps serving.
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => Promise.all(FILES.map(async (file) => {
        const response = await fetch(new Request(file, { cache: "reload" }));
        if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
        await cache.put(self.location.origin + key(file), await plain(response));
      })))
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

// Python (Pyodide, its worker and the judge's harness, about 14 MB) is not
// precached: it is stored the first time a reader runs Python, in a cache of
// its own that outlives the book's versions (its name says which Pyodide;
// the harness and worker are checked against the network when it answers).
const PYTHON_CACHE = "ih-python-{{pyodide}}";
const isPython = (path) => path.startsWith("/pyodide/") || path.startsWith("/python/") || path === "/python-worker.js";

async function answerPython(request, url) {
  const cache = await caches.open(PYTHON_CACHE);
  const pinned = url.pathname.startsWith("/pyodide/");
  const hit = await cache.match(url.origin + url.pathname);
  if (hit && pinned) return hit;
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(url.origin + url.pathname, await plain(response.clone()));
    return response;
  } catch (e) {
    if (hit) return hit;
    throw e;
  }
}

// Cache first, then the network. A page the cache does not have, with no
// network, is the cached 404 page with status 404, as the hosts answer.
async function answer(request, url) {
  if (isPython(url.pathname)) return answerPython(request, url);
  const hit = await caches.match(url.origin + key(url.pathname), { cacheName: CACHE });
  if (hit) return hit.redirected ? plain(hit) : hit;
  try {
    // A navigation's own redirects reach the browser as they are (its
    // redirect mode is "manual"), so the address bar follows them.
    return await fetch(request);
  } catch (e) {
    const missing = request.mode === "navigate" && (await caches.match(url.origin + key("/404.html"), { cacheName: CACHE }));
    if (!missing) throw e;
    return new Response(missing.body, { status: 404, statusText: "Not Found", headers: missing.headers });
  }
}
