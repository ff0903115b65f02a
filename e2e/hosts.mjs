// End-to-end: the book as a static host serves it (issue #24). Run against
// each server `cargo xtask test` starts: the xtask's own and nginx with the
// README's block (web/nginx.conf). With COMPARE_URL set (the other server),
// both must answer every probe the same way first.
//
// 1. HTTP, without a browser: routes (a folder without its slash is a 301 to
//    it, an unknown path is the 404 page), precompressed files by
//    Accept-Encoding, and cache headers.
// 2. A returning reader: a first visit installs the service worker; then every
//    route, in both languages, with and without the trailing slash, opens
//    online and then offline, with its own title and language, and mounts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import path from 'node:path';
import { BOOK_URL, launch, ready } from './browser.mjs';

const COMPARE_URL = process.env.COMPARE_URL || '';
const t0 = Date.now();
let step = 0;
const ok = (what) => console.log(`ok ${++step} - ${what}`);
const DIST = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'dist');

// The chapters, from the pages the build wrote.
const slugs = fs.readdirSync(path.join(DIST, 'ch')).filter((f) => f.endsWith('.html') && !f.includes('.html.'))
  .map((f) => f.replace(/\.html$/, '')).sort();
const fragment = fs.readdirSync(path.join(DIST, 'pagefind', 'fragment')).find((f) => f.endsWith('.pf_fragment'));

// What a server answers to `p`, without following redirects or decoding the
// body (node:http, not fetch, which decodes it).
function probe(base, p, encoding = 'br, gzip', extra = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get(base + p, { headers: { 'accept-encoding': encoding, ...extra } }, (r) => {
      const chunks = [];
      r.on('data', (c) => chunks.push(c));
      r.on('end', () => {
        const h = (n) => r.headers[n] || '';
        resolve({
          status: r.statusCode,
          location: h('location').replace(base, ''),
          type: h('content-type').split(';')[0],
          encoding: h('content-encoding'),
          cache: h('cache-control'),
          etag: h('etag'),
          body: Buffer.concat(chunks),
        });
      });
      r.on('error', reject);
    });
    req.on('error', reject);
  });
}

// A body as the browser sees it.
function decoded(a) {
  if (a.encoding === 'br') return zlib.brotliDecompressSync(a.body);
  if (a.encoding === 'gzip') return zlib.gunzipSync(a.body);
  return a.body;
}

const PROBES = [
  ['/', 200], ['/index.html', 200], ['/zh/', 200], ['/zh', 301], ['/zh/index.html', 200],
  ...slugs.flatMap((s) => [[`/ch/${s}`, 200], [`/ch/${s}.html`, 200], [`/zh/ch/${s}`, 200]]),
  ['/glossary', 200], ['/zh/glossary', 200], ['/404.html', 200],
  ['/ch/no-such-chapter', 404], ['/no/such/file.js', 404],
  ['/pkg/app_bg.wasm', 200], ['/pkg/app.js', 200], ['/style/book.css', 200], ['/sw.js', 200],
  ['/icons/icon-192.png', 200], [`/pagefind/fragment/${fragment}`, 200],
];

const launched = await launch();
let page = null;
try {
  // 1. HTTP.
  const seen = {};
  for (const [p, status] of PROBES) {
    const a = await probe(BOOK_URL, p);
    seen[p] = a;
    assert.equal(a.status, status, `${p}: status`);
    if (status === 301) assert.equal(a.location, p + '/', `${p} redirects to its slash`);
    if (status === 404) assert.match(decoded(a).toString(), /<html/, `${p}: the 404 page`);
  }
  const wasm = seen['/pkg/app_bg.wasm'];
  assert.equal(wasm.type, 'application/wasm');
  assert.equal(wasm.encoding, 'br', 'the wasm goes out as brotli');
  const raw = fs.statSync(path.join(DIST, 'pkg', 'app_bg.wasm')).size;
  assert.equal(wasm.body.length, fs.statSync(path.join(DIST, 'pkg', 'app_bg.wasm.br')).size, 'the build\'s brotli copy, as it is');
  const gz = await probe(BOOK_URL, '/pkg/app_bg.wasm', 'gzip');
  assert.equal(gz.encoding, 'gzip', 'gzip when brotli is not accepted');
  const plain = await probe(BOOK_URL, '/pkg/app_bg.wasm', 'identity');
  assert.equal(plain.encoding, '', 'no encoding when none is accepted');
  assert.equal(plain.body.length, raw);
  assert.ok(decoded(wasm).equals(plain.body) && decoded(gz).equals(plain.body), 'both copies decode to the file');
  for (const p of ['/', '/ch/' + slugs[0], '/zh/ch/' + slugs[0], '/style/book.css', '/pkg/app.js']) {
    assert.equal(seen[p].encoding, 'br', `${p} goes out as brotli`);
  }
  assert.equal(seen['/icons/icon-192.png'].encoding, '', 'a PNG goes out as it is');
  for (const p of ['/', '/ch/' + slugs[0], '/pkg/app_bg.wasm', '/sw.js']) {
    assert.equal(seen[p].cache, 'no-cache', `${p} is revalidated`);
  }
  assert.match(seen[`/pagefind/fragment/${fragment}`].cache, /max-age=31536000/, 'a content-named fragment is kept a year');
  // A revalidation with the validator it was given is a 304.
  const again = await probe(BOOK_URL, '/pkg/app.js', 'br, gzip', { 'if-none-match': seen['/pkg/app.js'].etag });
  assert.equal(again.status, 304, 'If-None-Match gets a 304');
  ok(`${PROBES.length} probes: /zh is a 301 to /zh/, unknown paths the 404 page; wasm ${raw} B goes out as ${wasm.body.length} B brotli (gzip ${gz.body.length} B); pages no-cache, fragments a year; 304 on a match`);

  if (COMPARE_URL) {
    const differ = [];
    // JavaScript has two MIME types browsers treat alike: nginx's mime.types
    // says application/javascript, the xtask's server text/javascript (RFC 9239).
    const js = (a) => ({ ...a, type: a.type === 'application/javascript' ? 'text/javascript' : a.type });
    for (const [p] of PROBES) {
      const [a, b] = [js(seen[p]), js(await probe(COMPARE_URL, p))];
      for (const k of ['status', 'location', 'type', 'encoding', 'cache']) {
        if (a[k] !== b[k]) differ.push(`${p} ${k}: ${JSON.stringify(a[k])} here, ${JSON.stringify(b[k])} at ${COMPARE_URL}`);
      }
    }
    assert.deepEqual(differ, [], 'both servers answer alike');
    ok(`the other server (${COMPARE_URL}) answers all ${PROBES.length} probes alike: status, Location, type, encoding, Cache-Control`);
  }

  // 2. A returning reader.
  const context = await launched.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'allow' });
  page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  await page.goto(BOOK_URL + '/ch/' + slugs[0]); await ready(page);
  const files = await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
    }
    let n = 0;
    for (const name of await caches.keys()) n += (await (await caches.open(name)).keys()).length;
    return n;
  });
  ok(`first visit: the service worker installed ${files} files and controls the page`);

  const titleOf = async (file) => {
    const html = fs.readFileSync(path.join(DIST, file), 'utf8');
    return html.match(/<title>([^<]*)<\/title>/)[1];
  };
  const routes = [
    ['/', 'index.html', 'en'], ['/index.html', 'index.html', 'en'],
    ['/zh/', 'zh/index.html', 'zh-CN'], ['/zh', 'zh/index.html', 'zh-CN'], ['/zh/index.html', 'zh/index.html', 'zh-CN'],
    ['/glossary', 'glossary.html', 'en'], ['/zh/glossary', 'zh/glossary.html', 'zh-CN'],
    ...slugs.flatMap((s) => [
      [`/ch/${s}`, `ch/${s}.html`, 'en'], [`/ch/${s}.html`, `ch/${s}.html`, 'en'],
      [`/zh/ch/${s}`, `zh/ch/${s}.html`, 'zh-CN'], [`/zh/ch/${s}.html`, `zh/ch/${s}.html`, 'zh-CN'],
    ]),
  ];
  for (const offline of [false, true]) {
    await context.setOffline(offline);
    for (const [route, file, lang] of routes) {
      const resp = await page.goto(BOOK_URL + route).catch((e) => { throw new Error(`${offline ? 'offline' : 'online'} ${route}: ${e.message}`); });
      assert.ok(resp, `${route}: a response`);
      assert.equal(resp.status(), 200, `${offline ? 'offline' : 'online'} ${route}: status`);
      await ready(page);
      assert.equal(await page.title(), await titleOf(file), `${route} is ${file}`);
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang, `${route}: language`);
    }
    ok(`${offline ? 'offline' : 'online'}, controlled by the service worker: all ${routes.length} routes open with their own page and mount`);
  }
  await context.setOffline(false);
  assert.deepEqual(errors, [], 'no uncaught page errors');
  ok(`no page errors (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  await context.close();
} catch (e) {
  if (page) await page.screenshot({ path: 'target/e2e-hosts-failure.png' }).catch(() => {});
  console.error('not ok - ' + (e.stack || e) + '\n(screenshot: target/e2e-hosts-failure.png)');
  process.exitCode = 1;
} finally {
  await launched.close();
}
