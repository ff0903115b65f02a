// Shared launch settings for headless Debian Chromium on this kind of machine.
import { chromium } from 'playwright-core';

export const BOOK_URL = process.env.BOOK_URL || 'http://127.0.0.1:8080';

const OPTIONS = {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run'],
};

export async function launch() {
  return chromium.launch(OPTIONS);
}

// A browser with a profile in `dir` (a real profile, not an incognito context:
// what installing the book as an app needs); returns its one context.
export async function launchPersistent(dir, options = {}) {
  return chromium.launchPersistentContext(dir, { ...OPTIONS, ...options });
}

// Pages arrive pre-rendered; the page's wasm then mounts the live parts and
// marks <html data-ready> once those on the first screens have. Cells,
// exercises and the scratch cell further down mount as the reader comes near
// them (app/src/islands.rs). Interacting with one before that would type into
// the pre-rendered copy that the mount replaces, so by default this mounts
// them all (`ihMountAll`) and waits until they are (<html data-mounted-all>);
// `{ all: false }` leaves them to the reader, as a page does.
export async function ready(page, { all = true } = {}) {
  await page.waitForSelector('html[data-ready]', { state: 'attached' });
  if (!all) return;
  await page.evaluate(() => window.ihMountAll());
  await page.waitForSelector('html[data-mounted-all]', { state: 'attached' });
}

// Collects every request `context` (its pages, their workers, its service
// worker) makes to an origin other than the book's: the book has no server but
// the one serving its files, so a test expects this to stay empty.
export function offsiteRequests(context) {
  const offsite = [];
  const home = new URL(BOOK_URL).origin;
  context.on('request', (r) => {
    const u = new URL(r.url());
    if (/^(https?|wss?):$/.test(u.protocol) && u.origin !== home) offsite.push(r.url());
  });
  return offsite;
}

// A cell that still has its defaults shows the output the build computed and
// runs in the page only when it comes near the screen (`ihWhenNeeded` in
// index.html). Scrolls each cell of the page into view in turn (or, with
// `scroll: false`, asks them all to run where they are) and waits until each
// has run (its timing says so: `ran in …` or `用时 …`).
export async function runAllCells(page, { scroll = true } = {}) {
  if (!scroll) {
    // Without scrolling (which would draw every chart on the way).
    await page.evaluate(() => window.ihWhenNeeded.all());
    await page.waitForFunction(() => [...document.querySelectorAll('section.cell[data-cell] .timing')]
      .every((t) => /ran in|用时/.test(t.textContent)), null, { timeout: 30000 });
    return;
  }
  const n = await page.locator('section.cell[data-cell]').count();
  for (let i = 0; i < n; i++) {
    await scrollTo(page, 'section.cell[data-cell]', i);
    await page.waitForFunction((i) => /ran in|用时/.test(document.querySelectorAll('section.cell[data-cell]')[i]
      ?.querySelector('.timing')?.textContent || ''), i, { timeout: 15000 });
  }
}

// Scrolls the `index`th element matching `selector` to the middle of the
// view, in one step in the page. A locator's scrollIntoViewIfNeeded finds the
// element, then scrolls to it, and fails ("Element is not attached to the
// DOM") when a mount or a cell's run replaces it in between, which a busy
// machine makes likely: a chart is replaced by its cell's first run, a
// pre-rendered section by its live island. Here the element is looked up and
// scrolled to in the same task; the caller then waits for the state it needs
// (`.chart[data-drawn]`, a timing), not for the element it scrolled to.
export async function scrollTo(page, selector, index = 0) {
  await page.waitForFunction(([sel, i]) => {
    const el = document.querySelectorAll(sel)[i];
    if (!el || !el.isConnected) return false;
    el.scrollIntoView({ block: 'center' });
    return true;
  }, [selector, index], { timeout: 20000 });
}

// Blocks off screen skip layout (`content-visibility: auto`) until they come
// near, or until the page lays everything out before a jump (an in-page link,
// an address with a #section: `html[data-settled]`). A test that jumps with
// scrollIntoViewIfNeeded to something inside such a block, then waits for it
// (a chart to draw), lays the page out first, as a link would: a one-shot
// scroll to an estimated position may otherwise stop short of it.
export async function layOut(page) {
  await page.evaluate(() => document.documentElement.setAttribute('data-settled', 'true'));
}

// The main-thread heartbeat of the suites that bound it (hostile, python): a
// 10 ms timer in the page that records the longest gap between its ticks.
// Install it with `page.addInitScript(heartbeat)` (before the app) or
// `page.evaluate(heartbeat)`.
export function heartbeat() {
  window.__hb = { last: performance.now(), max: 0 };
  setInterval(() => {
    const t = performance.now();
    window.__hb.max = Math.max(window.__hb.max, t - window.__hb.last);
    window.__hb.last = t;
  }, 10);
}

// Starts a new measurement of the heartbeat's longest gap.
export const resetGap = (page) => page.evaluate(() => { window.__hb.max = 0; window.__hb.last = performance.now(); });

// The longest gap since the last reset, the one still open included.
export const gap = (page) => page.evaluate(() => Math.max(window.__hb.max, performance.now() - window.__hb.last));

// Two animation frames and a quiet moment: rendering already under way ends.
export async function settle(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 300)))));
}

// Waits (up to 5 s) until the page has gone 400 ms with no gap over 50 ms:
// start-up work (the workers' instantiation, charts, laying out a long editor
// line, a fresh Python) is the page's own and not what a case measures.
export async function quiet(page) {
  for (let i = 0; i < 12; i++) {
    await resetGap(page);
    await page.waitForTimeout(400);
    if ((await gap(page)) < 50) return;
  }
}
