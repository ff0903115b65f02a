// End-to-end: the book offline (issue #11 §3). A first visit installs the
// service worker (dist/sw.js), which caches the whole book; then, with the
// network off, a chapter never visited reads, runs a cell with a new parameter
// and draws its chart, grades an exercise in the code editor, answers unknown
// paths with the 404 page, and searches. A new build's worker is announced
// ("A new version of the book is ready") and "Reload" switches to it, leaving
// only its cache. The book is installable (Chrome DevTools Protocol).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { BOOK_URL, launchPersistent, layOut, ready, scrollTo } from './browser.mjs';
import { SOLUTIONS } from './solutions.mjs';

const t0 = Date.now();
// A fresh profile: Chromium does not install apps from incognito contexts.
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ih-offline-'));
const context = await launchPersistent(profile, { viewport: { width: 1280, height: 900 } });
const page = context.pages()[0] || await context.newPage();
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
let step = 0;
const ok = (what) => console.log(`ok ${++step} - ${what}`);

// The cache key of a path, as web/sw.js computes it: a page under its route.
function key(p) {
  p = p.replace(/\/index\.html$/, '/').replace(/\.html$/, '');
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

// The service worker the server has now: its version, precache list (files
// by their paths in dist/) and the keys they are cached under.
async function served() {
  const text = await (await fetch(BOOK_URL + '/sw.js')).text();
  const version = text.match(/^const VERSION = "([^"]+)";$/m)[1];
  const files = JSON.parse(text.match(/^const FILES = (\[[\s\S]*?\]);$/m)[1]);
  return { text, version, files, keys: files.map(key) };
}

// Waits until a service worker controls the page; returns the caches the
// origin holds, with the paths each one has.
async function controlled(p) {
  return p.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
    }
    const out = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      out[name] = (await cache.keys()).map((r) => new URL(r.url).pathname);
    }
    return out;
  });
}

const sorted = (xs) => [...xs].sort();
let restore = () => {};

try {
  const sw = await served();
  const cacheName = `ih-offline-${sw.version}`;

  // 1. First visit, online: the worker installs, precaches every file of the
  // build into the cache of its version, and takes the page over.
  await page.goto(BOOK_URL + '/ch/newmodels'); await ready(page);
  const toc = await page.locator('.toc .book-toc > li > a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  const caches1 = await controlled(page);
  assert.deepEqual(Object.keys(caches1), [cacheName], 'one cache, named by the build');
  assert.deepEqual(sorted(caches1[cacheName]), sorted(sw.keys), 'the cache holds every file of the list');
  for (const route of ['/', '/404', '/zh', ...toc]) assert.ok(sw.keys.includes(route), `${route} is precached`);
  // Everything the page fetched online is in the list (pages by their routes).
  const fetched = await page.evaluate(() => performance.getEntriesByType('resource')
    .map((e) => new URL(e.name)).filter((u) => u.origin === location.origin).map((u) => u.pathname));
  for (const f of fetched) if (f !== '/sw.js') assert.ok(sw.keys.includes(key(f)), `${f} (fetched by the page) is precached`);
  assert.equal(await page.locator('.notice[data-topic="update"]').count(), 0, 'no update notice on a first visit');
  const bytes = await page.evaluate(async (name) => {
    let n = 0;
    const cache = await caches.open(name);
    for (const r of await cache.keys()) n += (await (await cache.match(r)).arrayBuffer()).byteLength;
    return n;
  }, cacheName);
  ok(`the service worker precached ${sw.files.length} files (${bytes} B) in ${cacheName} and controls the page`);

  // 2. Installable: the manifest parses, its icons are PNGs of their stated sizes.
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  assert.deepEqual(installabilityErrors, [], 'no installability errors');
  const am = await cdp.send('Page.getAppManifest');
  assert.deepEqual(am.errors, [], 'the manifest parses without errors');
  const manifest = JSON.parse(am.data);
  assert.equal(new URL(am.url).pathname, '/manifest.webmanifest');
  assert.equal(manifest.start_url, '/');
  assert.equal(manifest.display, 'standalone');
  for (const icon of manifest.icons.filter((i) => i.type === 'image/png')) {
    const [w, h] = await page.evaluate(async (src) => {
      const b = new DataView(await (await fetch(src)).arrayBuffer());
      return [b.getUint32(16), b.getUint32(20)];
    }, icon.src);
    assert.equal(`${w}x${h}`, icon.sizes, `${icon.src} is ${icon.sizes}`);
  }
  ok(`installable (no installability errors); manifest "${manifest.name}" with ${manifest.icons.length} icons`);

  // 3. Offline. The network is really off: the worker script itself is not cached.
  await context.setOffline(true);
  assert.equal(await page.evaluate(() => fetch('/sw.js').then(() => 'reached', () => 'unreachable')), 'unreachable');

  // A chapter never visited loads, and reloads, from the cache.
  let resp = await page.goto(BOOK_URL + '/ch/kvcache'); await ready(page);
  assert.equal(resp.status(), 200);
  assert.ok(resp.fromServiceWorker(), 'answered by the service worker');
  resp = await page.reload(); await ready(page);
  assert.equal(resp.status(), 200);
  const title = await page.locator('main.chapter h1').first().textContent();
  const titleText = title.replace(/#$/, '').trim();
  assert.ok(title.length > 3, 'the chapter has its title');
  assert.ok(await page.locator('.prose p').count() > 10, 'the chapter has its text');
  assert.ok(await page.locator('.prose table td').count() > 10, 'and its tables');
  ok(`offline: /ch/kvcache (never visited) loads and reloads: "${titleText}"`);

  // A cell re-runs with a new parameter, and its chart draws (plotly.js from the cache).
  const cell = page.locator('.cell[data-cell="cla"]');
  const out = cell.locator('.cell-output .cell-text').first();
  await layOut(page);
  await cell.scrollIntoViewIfNeeded();
  await cell.locator('.timing', { hasText: 'ran in' }).waitFor({ timeout: 15000 });
  const before = await out.textContent();
  const tokens = cell.locator('input[name="tokens"]');
  const was = await tokens.inputValue();
  await tokens.fill('500,000');
  await page.waitForFunction((b) => {
    const t = document.querySelector('.cell[data-cell="cla"] .cell-output .cell-text');
    return t && t.textContent !== b && t.textContent.includes('500,000');
  }, before);
  await scrollTo(page, '.cell[data-cell="cla"] .chart');
  await cell.locator('.chart[data-drawn="true"] svg.main-svg').first().waitFor({ timeout: 15000 });
  assert.ok(await page.evaluate(() => typeof window.Plotly === 'object'), 'plotly.js loaded');
  await tokens.fill(was);
  ok('offline: a cell re-runs with tokens = 500,000 (was ' + was + ') and draws its chart');

  // An exercise passes with its known-good solution, typed into the code editor.
  const exId = Object.keys(SOLUTIONS).find((id) => id.startsWith('ch_kvcache/'));
  const ex = page.locator(`.exercise[data-exercise="${exId}"]`);
  await ex.scrollIntoViewIfNeeded();
  await ex.locator('.cm-editor').waitFor({ timeout: 15000 });
  await ex.locator('textarea.editor').fill(SOLUTIONS[exId]);
  const fn = SOLUTIONS[exId].match(/fn (\w+)\(/)[1];
  assert.ok((await ex.locator('.cm-content').textContent()).includes(`fn ${fn}(`), 'the code is in the editor');
  await ex.getByRole('button', { name: 'Run tests' }).click();
  await ex.locator('.verdict[data-status="passed"]').waitFor({ timeout: 15000 }).catch(async () => {
    throw new Error(`${exId} did not pass offline: ${await ex.locator('.verdict').textContent().catch(() => 'no verdict')}`);
  });
  ok(`offline: the code editor loads and ${exId} passes (${(await ex.locator('.verdict-head').textContent()).trim()})`);

  // Routes as the server resolves them; an unknown path is the 404 page, status 404.
  for (const variant of ['/ch/kvcache/', '/ch/kvcache?x=1', '/ch/kvcache#y', '/ch/kvcache.html']) {
    resp = await page.goto(BOOK_URL + variant); await ready(page);
    assert.equal(resp.status(), 200, variant);
    assert.equal(await page.locator('main.chapter h1').first().textContent(), title, `${variant} is the chapter`);
  }
  resp = await page.goto(BOOK_URL + '/ch/no-such-chapter'); await ready(page);
  assert.equal(resp.status(), 404);
  assert.ok(resp.fromServiceWorker(), 'the 404 page came from the service worker');
  await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  ok('offline: /ch/kvcache/, ?x=1, #y and .html are the chapter; an unknown path is the 404 page (404)');

  // 4. A new build: the server's sw.js changes (here: dist/sw.js gets another
  // version string for this step; Playwright's routing does not see the
  // browser's update check). The next visit installs it in the background;
  // the page says so; Reload switches.
  await context.setOffline(false);
  const next = `${sw.version}-next`;
  const swFile = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'dist', 'sw.js');
  assert.equal(fs.readFileSync(swFile, 'utf8'), sw.text, `${BOOK_URL} serves ${swFile}`);
  const changed = sw.text.replace(`const VERSION = "${sw.version}";`, `const VERSION = "${next}";`);
  // The build writes sw.js.br and sw.js.gz beside it, and a static host sends
  // those: they change with it.
  const copies = (text) => [[swFile, text], [swFile + '.br', zlib.brotliCompressSync(text)], [swFile + '.gz', zlib.gzipSync(text)]];
  const saved = copies(sw.text).map(([f]) => [f, fs.existsSync(f) ? fs.readFileSync(f) : null]);
  for (const [f, body] of copies(changed)) if (f === swFile || fs.existsSync(f)) fs.writeFileSync(f, body);
  restore = () => {
    // Put the build's worker back, unless a build has written a new one since.
    if (fs.readFileSync(swFile, 'utf8') === changed) {
      for (const [f, body] of saved) if (body !== null) fs.writeFileSync(f, body);
    }
    restore = () => {};
  };
  await page.goto(BOOK_URL + '/ch/newmodels'); await ready(page);
  const notice = page.locator('.notices .notice[data-topic="update"]');
  await notice.waitFor({ timeout: 20000 });
  assert.equal(await notice.getAttribute('role'), 'status');
  assert.match(await notice.textContent(), /A new version of the book is ready\./);
  // Until the reader says so, the old version serves: another visit finds the
  // new worker still waiting, and both caches.
  await page.goto(BOOK_URL + '/ch/newmodels'); await ready(page);
  await notice.waitFor({ timeout: 20000 }).catch(() => {
    throw new Error('on the next visit the notice is gone: the new version did not wait for the reader');
  });
  assert.ok(await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration()).waiting), 'the new worker waits');
  assert.deepEqual(Object.keys(await controlled(page)).sort(), [cacheName, `ih-offline-${next}`].sort(), 'both caches while the new one waits');
  await page.evaluate(() => { window.__oldPage = true; });
  // The notice is accessible, and the keyboard reaches its Reload button from the top.
  await page.addScriptTag({ path: new URL('../node_modules/axe-core/axe.min.js', import.meta.url).pathname });
  const axe = await page.evaluate(() => window.axe.run('.notice[data-topic="update"]', { resultTypes: ['violations'] }));
  assert.deepEqual(axe.violations.map((v) => `${v.impact} ${v.id}`), [], 'axe-core finds nothing in the notice');
  const reload = notice.getByRole('button', { name: 'Reload' });
  await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  let tabs = 0;
  while (tabs < 15 && !(await reload.evaluate((b) => b === document.activeElement))) {
    await page.keyboard.press('Tab');
    tabs += 1;
  }
  assert.ok(await reload.evaluate((b) => b === document.activeElement), 'Tab reaches Reload');
  const reloaded = page.waitForEvent('load');
  await page.keyboard.press('Enter');
  await reloaded; await ready(page);
  assert.equal(await page.evaluate(() => window.__oldPage), undefined, 'the page reloaded');
  const caches2 = await controlled(page);
  assert.deepEqual(Object.keys(caches2), [`ih-offline-${next}`], 'only the new version\'s cache is left');
  assert.deepEqual(sorted(caches2[`ih-offline-${next}`]), sorted(sw.keys), 'it holds every file');
  assert.equal(await page.locator('.notice[data-topic="update"]').count(), 0, 'no notice after the switch');
  restore();
  ok(`a new sw.js is announced and waits; Reload (Tab × ${tabs}, Enter) activates it and drops the old cache`);

  // 5. Search, offline: a heading of another chapter, found and opened.
  await context.setOffline(true);
  await page.goto(BOOK_URL + '/ch/kvcache'); await ready(page);
  const other = toc.find((h) => h !== '/ch/kvcache');
  // The first heading of that chapter that this one does not also have.
  const heading = await page.evaluate(async (href) => {
    const text = (h) => h.textContent.replace(/#$/, '').trim();
    const here = new Set([...document.querySelectorAll('main.chapter h2')].map(text));
    const doc = new DOMParser().parseFromString(await (await fetch(href)).text(), 'text/html');
    return [...doc.querySelectorAll('main.chapter h2[id]')].map(text).find((t) => !here.has(t));
  }, other);
  assert.ok(heading, `${other} has a heading of its own`);
  await page.locator('body').press('/');
  const input = page.locator('#search-input');
  await input.waitFor({ timeout: 10000 });
  await input.fill(heading);
  const hit = page.locator(`a.search-result[href^="${other}"]`).first();
  await hit.waitFor({ timeout: 15000 });
  await hit.click();
  await page.waitForURL((u) => u.pathname === other); await ready(page);
  assert.ok(await page.locator('main.chapter h2', { hasText: heading }).count() > 0, 'the result opens the chapter');
  ok(`offline: search finds "${heading}" and opens ${other}`);

  assert.deepEqual(errors, [], 'no uncaught page errors');
  ok(`no page errors (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
} catch (e) {
  await page.screenshot({ path: 'target/e2e-offline-failure.png', fullPage: false }).catch(() => {});
  console.error('not ok - ' + (e.stack || e) + '\n(screenshot: target/e2e-offline-failure.png)');
  process.exitCode = 1;
} finally {
  restore();
  await context.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
