// End-to-end: every page of the book once everything on it is there (the
// islands mounted, every cell run, every code editor and chart drawn), in both
// languages. axe-core finds no serious or critical violation in either theme
// (every impact is printed), and at 375 px and 1280 px nothing is wider than
// the column unless it sits in a box that scrolls and shows that it does.
import assert from 'node:assert/strict';
import { BOOK_URL, launch, ready, runAllCells, scrollTo } from './browser.mjs';

const AXE = new URL('../node_modules/axe-core/axe.min.js', import.meta.url).pathname;
const PATHS = ['/', '/glossary', '/rhai'];
for (const ch of ['newmodels', 'kvcache', 'deploy']) PATHS.push(`/ch/${ch}`);
PATHS.push(...PATHS.map((p) => (p === '/' ? '/zh/' : '/zh' + p)));

const browser = await launch();
const errors = [];
let step = 0;
const ok = (what) => console.log(`ok ${++step} - ${what}`);

// Opens `path` and brings everything on it into being: what a reader who
// scrolled through the whole page has. Waits for states, never for an
// element a mount or a run may replace.
async function drawn(p, path) {
  await p.goto(BOOK_URL + path); await ready(p);
  // Lay out the blocks off screen (content-visibility), as a jump does.
  await p.evaluate(() => document.documentElement.setAttribute('data-settled', 'true'));
  if (await p.locator('section.cell[data-cell]').count()) await runAllCells(p, { scroll: false });
  if (await p.locator('textarea.editor, textarea#scratch-editor').count()) {
    // CodeMirror arrives for every editor once the first comes near the screen.
    await scrollTo(p, 'textarea.editor, textarea#scratch-editor');
    await p.waitForFunction(() => [...document.querySelectorAll('textarea.editor, textarea#scratch-editor')]
      .every((t) => t.closest('.has-cm')), null, { timeout: 30000 });
  }
  if (await p.locator('.chart').count()) {
    // What a print does: draw every chart now, open the folds, then close them.
    await p.evaluate(() => { dispatchEvent(new Event('beforeprint')); dispatchEvent(new Event('afterprint')); });
    await p.waitForFunction(() => [...document.querySelectorAll('.chart')]
      .every((c) => c.dataset.drawn && c.querySelector('svg.main-svg')), null, { timeout: 30000 });
  }
  await p.evaluate(() => window.scrollTo(0, 0));
}

try {
  // 1–2. axe-core on every page, drawn, in each theme.
  for (const scheme of ['light', 'dark']) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: scheme });
    const seen = new Map();
    for (const path of PATHS) {
      const p = await ctx.newPage();
      p.on('pageerror', (e) => errors.push(`${path}: ${e.message}`));
      await drawn(p, path);
      const counts = await p.evaluate(() => ({
        charts: document.querySelectorAll('.chart[data-drawn]').length,
        editors: document.querySelectorAll('.has-cm').length,
      }));
      await p.addScriptTag({ path: AXE });
      const r = await p.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
      for (const v of r.violations) {
        console.log(`  ${scheme} ${path}: ${v.impact} ${v.id} ×${v.nodes.length} [${v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(' | ')}]`);
        seen.set(`${v.impact} ${v.id}`, (seen.get(`${v.impact} ${v.id}`) || 0) + v.nodes.length);
      }
      const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.impact} ${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
      assert.deepEqual(bad, [], `axe-core, ${scheme} theme, ${path} (${counts.charts} charts, ${counts.editors} editors drawn)`);
      if (/\/ch\//.test(path)) assert.ok(counts.charts > 0 && counts.editors > 0, `${path}: ${JSON.stringify(counts)}`);
      await p.close();
    }
    const others = [...seen].map(([k, n]) => `${k} ×${n}`);
    ok(`axe-core, ${scheme} theme, ${PATHS.length} pages fully drawn: no serious or critical violations${others.length ? ` (others: ${others.join(', ')})` : ', none of any impact'}`);
    await ctx.close();
  }

  // 3–4. At a phone's and a desktop's width, nothing is wider than the
  // column but inside a box that scrolls (a formula, a table, code, a
  // chart), and each such box that has more to show carries the edge shadow
  // (a background) that says so. Nothing is cut off by a hidden overflow.
  for (const width of [375, 1280]) {
    const ctx = await browser.newContext({ viewport: { width, height: 900 }, serviceWorkers: 'block' });
    let boxes = 0;
    for (const path of PATHS) {
      const p = await ctx.newPage();
      p.on('pageerror', (e) => errors.push(`${path}: ${e.message}`));
      await drawn(p, path);
      const r = await p.evaluate(() => {
        const col = document.querySelector('main') || document.body;
        const right = col.getBoundingClientRect().right;
        const scrolls = (e) => /auto|scroll/.test(getComputedStyle(e).overflowX);
        const inScroll = (e) => { for (let a = e.parentElement; a && a !== col; a = a.parentElement) if (scrolls(a)) return true; return false; };
        const name = (e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${typeof e.className === 'string' && e.className ? '.' + e.className.split(' ').join('.') : ''}`;
        const bad = [];
        let shown = 0;
        for (const e of col.querySelectorAll('*')) {
          if (e.closest('.sr-only, .chart, .cm-editor')) continue;
          const box = e.getBoundingClientRect();
          if (box.width && box.right > right + 1 && !inScroll(e)) bad.push(`${name(e)} ends ${Math.round(box.right - right)} px past the column: "${(e.textContent || '').trim().slice(0, 50)}"`);
          const o = getComputedStyle(e).overflowX;
          // (Visually hidden text, 1 px square, is for screen readers only.)
          if ((o === 'hidden' || o === 'clip') && e.clientWidth > 1 && e.scrollWidth > e.clientWidth + 1 && !(e.tagName === 'MATH' && scrolls(e)))
            bad.push(`${name(e)} cuts ${e.scrollWidth - e.clientWidth} px off (overflow-x: ${o})`);
          // A formula or table that scrolls shows its shadow (book.css).
          if (e.matches('math[display="block"], .prose > table, .cell .table-wrap') && e.scrollWidth > e.clientWidth + 1) {
            shown++;
            if (!/gradient/.test(getComputedStyle(e).backgroundImage)) bad.push(`${name(e)} scrolls with no cue`);
          }
        }
        return { bad: bad.slice(0, 5), n: bad.length, page: document.documentElement.scrollWidth, shown };
      });
      assert.ok(r.page <= width, `${path} is ${r.page} px wide at ${width} px`);
      assert.deepEqual(r.bad, [], `${path} at ${width} px: ${r.n} problems`);
      boxes += r.shown;
      await p.close();
    }
    ok(`at ${width} px nothing on ${PATHS.length} pages is wider than its column or cut off; ${boxes} formulas and tables scroll in their own box, each with its edge shadow`);
    await ctx.close();
  }

  assert.deepEqual(errors, []);
  ok('no page errors');
} finally {
  await browser.close();
}
