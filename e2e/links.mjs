// Search, permalinks and shared links (issue #11 §1 and §4), in headless Chromium
// against the served site (`cargo xtask serve`, or BOOK_URL).
//
// 1. A chapter's first load fetches nothing of search (no search.js, no index).
// 2. `/` opens the search dialog; for every chapter, a query made of one of its
//    section headings finds that section; an exercise's function name finds the
//    exercise; a scripting function of the chapter is found; ↓ + Enter opens a
//    result and lands on its heading. Ctrl+K opens the dialog from inside an input.
// 3. Every section, cell and exercise has a permalink, and opening one lands on it.
// 4. A cell's parameters shared as a link: the link opens the cell with them and
//    leaves the reader's saved parameters alone until they choose; "Back to mine"
//    and "Keep these" do what they say; a damaged link says so and changes nothing.
// 5. A solution shared as a link is offered, not loaded: the reader's saved code is
//    untouched until "Load it into the editor", and "Put my code back" restores it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as pagefind from 'pagefind';
import { launch, ready, BOOK_URL } from './browser.mjs';
import { SOLUTIONS } from './solutions.mjs';

const browser = await launch();
let failures = 0;
let n = 0;
async function step(name, f) {
  n += 1;
  try {
    await f();
    console.log(`ok ${n} - ${name}`);
  } catch (e) {
    failures += 1;
    console.log(`not ok ${n} - ${name}\n  ${String(e.stack || e).split('\n').slice(0, 4).join('\n  ')}`);
  }
}
function check(cond, msg) {
  if (!cond) throw new Error(msg);
}

// The chapters, from the home page (reading order).
const home = await browser.newPage();
await home.goto(BOOK_URL + '/');
const chapters = await home.$$eval('li.chapter-card > a', (as) => as.map((a) => a.getAttribute('href')));
await home.close();
check(chapters.length >= 3, `the home page lists ${chapters.length} chapters`);

async function fresh(opts = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...opts });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

async function search(page, query) {
  await page.fill('#search-input', query);
  await page.waitForFunction((q) => document.querySelector('#search')?.dataset.query === q, query, { timeout: 15000 });
  return page.$$eval('a.search-result', (as) => as.map((a) => ({
    href: a.getAttribute('href'),
    text: a.innerText.replace(/\s+/g, ' '),
    marks: [...a.querySelectorAll('mark')].map((m) => m.textContent),
  })));
}

// Whether the element `id` is at the top of the viewport (landed on).
const landed = (page, id) => page.waitForFunction((id) => {
  const el = document.getElementById(id);
  if (!el) return false;
  const top = el.getBoundingClientRect().top;
  return top > -5 && top < 150;
}, id, { timeout: 10000 });

const { context: sc, page, errors } = await fresh();

await step('a chapter\'s first load fetches nothing of search', async () => {
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await page.goto(BOOK_URL + chapters[0]);
  await ready(page);
  const searchy = fetched.filter((p) => p.startsWith('/pagefind/') || p === '/search.js');
  check(searchy.length === 0, `fetched ${searchy.join(', ')}`);
  check(await page.isVisible('button.search-open'), 'no Search button in the header');
});

await step('`/` opens the search dialog with the focus in its box; Esc closes it', async () => {
  await page.keyboard.press('/');
  await page.waitForSelector('#search[open]');
  check(await page.evaluate(() => document.activeElement?.id) === 'search-input', 'focus is not in the search box');
  // One Esc closes it, even with text in the box (a search box would clear itself first).
  await page.keyboard.type('kv');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#search:not([open])', { state: 'attached' });
  // Typing `/` in an input types it; Ctrl+K opens search from there.
  const input = page.locator('.cell input[type=text]').first();
  await input.focus();
  const before = await input.inputValue();
  await page.keyboard.press('/');
  check(await page.locator('#search[open]').count() === 0, '`/` in an input opened search');
  check(await input.inputValue() === before + '/', '`/` was not typed into the input');
  await input.fill(before);
  await page.keyboard.press('Control+k');
  await page.waitForSelector('#search[open]');
});

for (const href of chapters) {
  await step(`search finds a section of ${href} by its heading`, async () => {
    const html = await (await fetch(BOOK_URL + href)).text();
    const heads = [...html.matchAll(/<h2 id="([^"]+)">([^<]+)</g)].map((m) => ({ id: m[1], text: m[2] }));
    check(heads.length >= 4, `${href} has ${heads.length} plain h2 headings`);
    const h = heads[3];
    const found = await search(page, h.text.replace(/&[a-z]+;|[^\p{L}\p{N} ]/gu, ' '));
    check(found.some((r) => r.href === `${href}#${h.id}`),
      `“${h.text}”: no result for ${href}#${h.id} in\n    ${found.map((r) => r.href).join('\n    ')}`);
  });
}

await step('an exercise\'s function name finds the exercise, with the name marked', async () => {
  const id = Object.keys(SOLUTIONS).find((k) => k.startsWith('ch_kvcache/'));
  const fn = SOLUTIONS[id].match(/fn\s+([a-z_0-9]+)\s*\(/)[1];
  const slug = id.split('/')[1];
  const found = await search(page, fn);
  const hit = found.find((r) => r.href === `/ch/kvcache#h-exercise-${slug}`);
  check(hit, `${fn}: no result for the exercise in ${found.map((r) => r.href).join(', ')}`);
  check(hit.marks.some((m) => m.includes(fn)), `${fn} is not marked in “${hit.text}”`);
});

await step('a scripting function of a chapter is found on that chapter', async () => {
  const html = await (await fetch(BOOK_URL + '/ch/deploy')).text();
  // The chapter's own list (the rest of the book's is folded after it).
  const names = [...html.matchAll(/<details class="cell-source"><summary>[^<]*<\/summary><ul class="api-list"><li><code>([a-z_0-9]+)\(/g)].map((m) => m[1]);
  check(names.length === 1, 'no pre-rendered list of the chapter\'s functions');
  const found = await search(page, names[0]);
  check(found.some((r) => r.href.startsWith('/ch/deploy#') && r.marks.some((m) => m.includes(names[0]))),
    `${names[0]}: ${JSON.stringify(found.slice(0, 4))}`);
});

await step('↓ and Enter open a result and land on its heading', async () => {
  const found = await search(page, 'hash routing');
  check(found.length > 0, 'no results for “hash routing”');
  const target = found[0].href;
  await page.focus('#search-input');
  await page.keyboard.press('ArrowDown');
  check(await page.evaluate(() => document.activeElement?.classList.contains('search-result')), '↓ did not move to the first result');
  await Promise.all([page.waitForURL((u) => u.pathname + u.hash === target), page.keyboard.press('Enter')]);
  await ready(page);
  await landed(page, target.split('#')[1]);
});

await step('a query with no real match says so (no result matched on a stray letter)', async () => {
  await page.keyboard.press('Control+k');
  await page.waitForSelector('#search[open]');
  for (const q of ['xqzzvv', 'zqxjw kvzzq']) {
    const found = await search(page, q);
    check(found.length === 0, `${q}: ${JSON.stringify(found.slice(0, 3))}`);
    const status = await page.textContent('#search .search-status');
    check(status === `Nothing found for “${q}”.`, `${q}: the status says “${status}”`);
  }
  // Stemmed words still match: Pagefind marks “cache” for “caches”.
  const found = await search(page, 'caches');
  check(found.length > 0, 'no results for “caches”');
  await page.keyboard.press('Escape');
});

await step('every section, cell and exercise has a permalink, and a permalink lands', async () => {
  await page.goto(BOOK_URL + '/ch/kvcache');
  await ready(page);
  const missing = await page.evaluate(() => {
    const out = [];
    document.querySelectorAll('.chapter h2[id], .chapter h3[id]').forEach((h) => {
      const a = h.querySelector('a.anchor');
      const target = a && a.getAttribute('href').slice(1);
      if (!a || !document.getElementById(target)) out.push(h.id);
    });
    document.querySelectorAll('section.cell[id], section.exercise[id]').forEach((s) => {
      if (!s.querySelector(`.cell-title a.anchor[href="#${s.id}"]`)) out.push(s.id);
    });
    return out;
  });
  check(missing.length === 0, `no permalink: ${missing.join(', ')}`);
  const p2 = await sc.newPage();
  await p2.goto(BOOK_URL + '/ch/kvcache#cell-quant');
  await ready(p2);
  await landed(p2, 'cell-quant');
  await p2.close();
});

await step('Chinese: Pagefind (the version the book builds with) finds two characters inside a sentence', async () => {
  // The book has no Chinese page yet (#12): index one with the same Pagefind
  // through its Node API and search it in the browser, served by route().
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ih-zh-'));
  const html = '<!doctype html><html lang="zh"><head><meta charset="utf-8"><title>键值缓存</title></head><body>'
    + '<main data-pagefind-body><h1 id="top">键值缓存</h1><h2 id="window">滑动窗口</h2>'
    + '<p>每个请求的键值缓存随上下文长度线性增长，滑动窗口把它限制在固定的大小之内。</p></main></body></html>';
  const { index } = await pagefind.createIndex({});
  await index.addHTMLFile({ url: '/zh/', content: html });
  await index.writeFiles({ outputPath: path.join(dir, 'pagefind') });
  await pagefind.close();
  const { context, page: p } = await fresh();
  await context.route('http://zh.test/**', (route) => {
    const u = new URL(route.request().url());
    if (u.pathname === '/zh/') return route.fulfill({ contentType: 'text/html; charset=utf-8', body: html });
    const file = path.join(dir, u.pathname);
    if (!file.startsWith(dir) || !fs.existsSync(file)) return route.fulfill({ status: 404, body: '' });
    const type = file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream';
    return route.fulfill({ contentType: type, body: fs.readFileSync(file) });
  });
  await p.goto('http://zh.test/zh/');
  const found = await p.evaluate(async () => {
    const pf = await import('/pagefind/pagefind.js');
    await pf.init();
    const out = {};
    for (const q of ['缓存', '窗口', '长度']) {
      const r = await pf.search(q);
      const d = await Promise.all(r.results.map((x) => x.data()));
      out[q] = d.flatMap((x) => x.sub_results.map((s) => s.excerpt));
    }
    return out;
  });
  for (const [q, excerpts] of Object.entries(found)) {
    // Pagefind marks CJK matches character by character.
    const marked = (e) => e.replace(/<\/mark><mark>/g, '').includes(`<mark>${q}</mark>`);
    check(excerpts.some(marked), `${q}: ${JSON.stringify(excerpts)}`);
  }
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

// Shared parameters: made in one browser, opened in another that has its own.
const layers = '#cell-cla-layers';
const cellText = (p) => p.locator('#cell-cla .cell-output').innerText();
let sharedCell = '';
await step('Share copies a link carrying the cell\'s parameters', async () => {
  const { context, page: p } = await fresh({ permissions: ['clipboard-read', 'clipboard-write'] });
  await p.goto(BOOK_URL + '/ch/kvcache');
  await ready(p);
  await p.fill(layers, '61');
  await p.waitForFunction(() => /61/.test(document.querySelector('#cell-cla .cell-output').innerText));
  await p.bringToFront();
  await p.click('#cell-cla button.share');
  await p.waitForSelector('#cell-cla .share-result .share-url');
  sharedCell = await p.inputValue('#cell-cla .share-url');
  check(/#cell-cla\?s=z[A-Za-z0-9_-]+$/.test(sharedCell), `link ${sharedCell}`);
  // The link shows at once; what the clipboard said follows (at most 3 s).
  await p.waitForFunction(() => !/Copying/.test(document.querySelector('#cell-cla .share-result').textContent));
  check((await p.textContent('#cell-cla .share-result')).includes('Link copied'), 'not copied');
  check(await p.evaluate(() => navigator.clipboard.readText()) === sharedCell, 'the clipboard holds something else');
  await context.close();
});

await step('a clipboard that never answers: the link shows at once, then says to copy it by hand', async () => {
  const { context, page: p, errors: errs } = await fresh();
  await p.addInitScript(() => {
    if (navigator.clipboard) navigator.clipboard.writeText = () => new Promise(() => {});
  });
  await p.goto(BOOK_URL + '/ch/kvcache');
  await ready(p);
  await p.click('#cell-cla button.share');
  await p.waitForSelector('#cell-cla .share-result .share-url');
  check(/Copying/.test(await p.textContent('#cell-cla .share-result')), 'no word that the copy is under way');
  check(/#cell-cla\?s=z/.test(await p.inputValue('#cell-cla .share-url')), 'no link shown while copying');
  await p.waitForFunction(() => /Copy this link/.test(document.querySelector('#cell-cla .share-result').textContent), null, { timeout: 6000 });
  check(errs.length === 0, errs.join('; '));
  await context.close();
});

await step('a shared cell link shows its parameters and keeps the reader\'s own', async () => {
  const { context, page: p, errors: errs } = await fresh();
  await p.goto(BOOK_URL + '/ch/kvcache');
  await ready(p);
  await p.fill(layers, '40');
  await p.waitForFunction(() => localStorage.getItem('ih:v2:params:cla')?.includes('40'));
  const own = await p.evaluate(() => localStorage.getItem('ih:v2:params:cla'));
  await p.goto(sharedCell);
  await ready(p);
  await p.waitForSelector('#cell-cla .shared-note');
  await p.waitForFunction((s) => document.querySelector(s).value === '61', layers);
  await p.waitForFunction(() => /61/.test(document.querySelector('#cell-cla .cell-output').innerText));
  await landed(p, 'cell-cla');
  await p.waitForTimeout(400);
  check(await p.evaluate(() => localStorage.getItem('ih:v2:params:cla')) === own, 'the shared parameters were saved over the reader\'s');
  await p.click('#cell-cla .shared-note button:has-text("Back to mine")');
  await p.waitForFunction((s) => document.querySelector(s).value === '40', layers);
  check(!(await p.evaluate(() => location.hash)).includes('?s='), 'the link\'s payload stayed in the address');
  check((await cellText(p)).includes('40'), 'the output is not the reader\'s');
  // Again, and this time keep them.
  await p.goto('about:blank');
  await p.goto(sharedCell);
  await ready(p);
  await p.click('#cell-cla .shared-note button:has-text("Keep these")');
  await p.waitForFunction(() => localStorage.getItem('ih:v2:params:cla')?.includes('61'));
  check(errs.length === 0, errs.join('; '));
  await context.close();
});

await step('a damaged shared link says so and shows the reader\'s parameters', async () => {
  const { context, page: p } = await fresh();
  await p.goto(BOOK_URL + '/ch/kvcache#cell-cla?s=zAAAA-not-deflate');
  await ready(p);
  await p.waitForSelector('#cell-cla .shared-note.error');
  const note = await p.textContent('#cell-cla .shared-note.error');
  check(/damaged|not a valid link/.test(note), note);
  check(await p.inputValue(layers) === '80', 'the parameter changed');
  await context.close();
});

await step('a shared solution is offered, loaded only on request, and can be put back', async () => {
  const id = Object.keys(SOLUTIONS).find((k) => k.startsWith('ch_kvcache/'));
  const slug = id.split('/')[1];
  const sel = `#exercise-${slug}`;
  const a = await fresh();
  await a.page.goto(BOOK_URL + '/ch/kvcache');
  await ready(a.page);
  await a.page.locator(`${sel} textarea.editor`).fill(SOLUTIONS[id]);
  await a.page.click(`${sel} button.share`);
  await a.page.waitForSelector(`${sel} .share-url`);
  const link = await a.page.inputValue(`${sel} .share-url`);
  // Whether the clipboard takes it without the permission depends on focus;
  // either way its answer replaces "Copying…".
  await a.page.waitForFunction((s) => /Link copied|Copy this link/.test(document.querySelector(`${s} .share-result`).textContent), sel);
  await a.context.close();

  const b = await fresh();
  const mine = '// my own attempt\nfn nothing() { 0 }';
  await b.page.goto(BOOK_URL + '/ch/kvcache');
  await ready(b.page);
  await b.page.locator(`${sel} textarea.editor`).fill(mine);
  await b.page.goto(link);
  await ready(b.page);
  await b.page.waitForSelector(`${sel} .shared-note .load-shared`);
  await landed(b.page, `exercise-${slug}`);
  const key = `ih:v2:code:${id}`;
  const saved = () => b.page.evaluate((k) => JSON.parse(localStorage.getItem(k) || 'null'), key);
  const inEditor = () => b.page.locator(`${sel} textarea.editor`).inputValue();
  check(await inEditor() === mine, 'the editor does not hold the reader\'s code');
  check(JSON.stringify(await saved()).includes('my own attempt'), `saved: ${JSON.stringify(await saved())}`);
  await b.page.click(`${sel} .load-shared`);
  check(await inEditor() === SOLUTIONS[id], 'the shared code is not in the editor');
  await b.page.click(`${sel} button.run`);
  await b.page.waitForSelector(`${sel} .verdict.ok`, { timeout: 15000 });
  await b.page.click(`${sel} .shared-note button:has-text("Put my code back")`);
  check(await inEditor() === mine, 'the reader\'s code did not come back');
  check(JSON.stringify(await saved()).includes('my own attempt'), 'the reader\'s code is not saved again');
  check(b.errors.length === 0, b.errors.join('; '));
  await b.context.close();
});

check(errors.length === 0, `page errors: ${errors.join('; ')}`);
await browser.close();
if (failures) {
  console.log(`\n${failures} of ${n} steps failed`);
  process.exit(1);
}
console.log(`\nall ${n} steps passed`);
