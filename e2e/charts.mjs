// End-to-end: charts follow the theme and the screen, carry their data as
// text, stay out of the keyboard's way, and print (issue: what a reader touches).
import assert from 'node:assert/strict';
import { BOOK_URL, launch, layOut, offsiteRequests, ready, runAllCells, scrollTo } from './browser.mjs';

const browser = await launch();
let step = 0;
const ok = (what) => console.log(`ok ${++step} - ${what}`);
const DARK_FG = 'rgb(230, 230, 230)';
const LIGHT_FG = 'rgb(31, 35, 40)';

// Requests to any origin but the book's, from every page below (plotly.js
// must not phone home).
const offsiteLists = [];
const watch = (page) => offsiteLists.push(offsiteRequests(page.context()));

async function open(opts) {
  const page = await browser.newPage(opts);
  watch(page);
  const warnings = [];
  page.on('console', (m) => { if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text()); });
  page.on('pageerror', (e) => warnings.push(e.message));
  await page.goto(BOOK_URL + '/ch/newmodels');
  await ready(page);
  await layOut(page);
  // Every cell has run in the page once (charts are drawn from that output);
  // a cell runs when it comes near the screen, or, here, when asked.
  await runAllCells(page, { scroll: false });
  return { page, warnings };
}

async function drawAll(page) {
  const n = await page.locator('.chart').count();
  for (let i = 0; i < n; i++) {
    await scrollTo(page, '.chart', i);
    await page.waitForFunction((i) => document.querySelectorAll('.chart')[i].dataset.drawn, i, { timeout: 20000 })
      .catch(async (e) => {
        const info = await page.locator('.chart').nth(i).evaluate((c) => ({ id: c.closest('section')?.id, fig: !!c._ihFigure, h: c.getBoundingClientRect().height, html: c.outerHTML.slice(0, 300) }));
        throw new Error(`chart ${i} not drawn: ${JSON.stringify(info)}\n${e.message}`);
      });
  }
  return n;
}

// The colour plotly gave a chart's title text.
const titleFill = (page, sel) => page.locator(sel).first().locator('.gtitle').evaluate((t) => getComputedStyle(t).fill);

try {
  // 1. Theme switch, then a chart drawn for the first time takes the new theme;
  // a chart drawn before the switch is restyled.
  {
    const { page, warnings } = await open({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    const first = '#cell-attended .chart';
    await scrollTo(page, first);
    await page.locator(first + '[data-drawn]').waitFor();
    assert.equal(await titleFill(page, first), LIGHT_FG);
    // system (light) → light → dark
    await page.locator('.theme-switch').click();
    await page.locator('.theme-switch').click();
    assert.equal(await page.locator('html').getAttribute('data-theme'), 'dark');
    // The browser's bar follows the chosen theme, not the (light) system.
    const barColour = () => page.evaluate(() => [...document.querySelectorAll('meta[name=theme-color]')]
      .filter((m) => matchMedia(m.media || 'all').matches).map((m) => m.content));
    assert.deepEqual(await barColour(), ['#16181c'], 'theme-color is the dark theme\'s');
    await page.waitForFunction((sel) => getComputedStyle(document.querySelector(sel + ' .gtitle')).fill === 'rgb(230, 230, 230)', first);
    const later = '#cell-mhc .chart';
    assert.equal(await page.locator(later + '[data-drawn]').count(), 0, 'the mhc chart is not drawn before it is scrolled to');
    await scrollTo(page, later);
    await page.locator(later + '[data-drawn]').first().waitFor();
    assert.equal(await titleFill(page, later), DARK_FG);
    const grid = await page.locator(later).first().locator('.gridlayer path').first().evaluate((p) => getComputedStyle(p).stroke);
    assert.equal(grid, 'rgb(47, 51, 58)', 'grid lines take the dark theme\'s rule colour');
    await page.reload();
    await page.waitForSelector('html[data-ready]', { state: 'attached' });
    assert.deepEqual(await barColour(), ['#16181c'], 'theme-color is the dark theme\'s after a reload');
    ok('a chart first drawn after light → dark is dark; one drawn before is restyled; the browser bar\'s theme-color follows the choice');
    assert.deepEqual(warnings, []);
    await page.close();
  }

  // 2. At 375 px: every chart drawn, titles inside the chart, legends clear of the
  // axis titles, no plotly warnings.
  {
    const { page, warnings } = await open({ viewport: { width: 375, height: 800 }, colorScheme: 'dark' });
    const n = await drawAll(page);
    assert.ok(n >= 8, `${n} charts`);
    const report = await page.locator('.chart').evaluateAll((charts) => charts.map((c) => {
      const box = c.getBoundingClientRect();
      const title = c.querySelector('.gtitle').getBoundingClientRect();
      const xt = c.querySelector('.g-xtitle')?.getBoundingClientRect();
      const legend = c.querySelector('.legend')?.getBoundingClientRect();
      const overlap = (a, b) => a && b && a.width > 0 && b.width > 0 && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      return {
        title: c.querySelector('.gtitle').textContent,
        inside: title.left >= box.left - 1 && title.right <= box.right + 1 && title.top >= box.top - 1,
        legendClear: !overlap(xt, legend),
        heatmapTicksClear: (() => {
          const ticks = [...c.querySelectorAll('.xtick text')].map((t) => t.getBoundingClientRect());
          return ticks.every((t, i) => i === 0 || t.left >= ticks[i - 1].right - 1);
        })(),
      };
    }));
    for (const r of report) {
      assert.ok(r.inside, `title inside its chart at 375 px: ${r.title}`);
      assert.ok(r.legendClear, `legend clear of the x-axis title: ${r.title}`);
      assert.ok(r.heatmapTicksClear, `x tick labels do not overlap: ${r.title}`);
    }
    assert.deepEqual(warnings, [], 'no console warnings (plotly: "Too many auto-margin redraws")');
    await page.screenshot({ path: process.env.SHOTS ? `${process.env.SHOTS}/charts-375.png` : '/tmp/charts-375.png', fullPage: false });
    ok(`${n} charts at 375 px: titles inside, legends and ticks clear, no warnings`);
    await page.close();
  }

  // 3. Keyboard and text alternatives: no chart control takes Tab; each chart has
  // its data as a table under a fold.
  {
    const { page } = await open({ viewport: { width: 1280, height: 900 } });
    const n = await drawAll(page);
    const focusable = await page.locator('.chart').evaluateAll((cs) => cs.flatMap((c) =>
      [...c.querySelectorAll('a, button, input, [tabindex]')].filter((e) => e.tabIndex >= 0)).length);
    assert.equal(focusable, 0, 'chart controls in the tab order');
    const tables = await page.locator('.chart-figure').evaluateAll((fs) => fs.map((f) => ({
      summary: f.querySelector('details.chart-data > summary')?.textContent ?? '',
      rows: f.querySelectorAll('details.chart-data tbody tr').length,
    })));
    assert.equal(tables.length, n);
    for (const t of tables) assert.ok(t.rows > 0 && /^Data of the chart/.test(t.summary), JSON.stringify(t));
    ok(`${n} charts: none in the tab order, each with its data table`);

    // The mhc chart plots exactly the layers asked for.
    const mhc = page.locator('section.cell[data-cell="mhc"]');
    await mhc.locator('input[name="depth"]').first().fill('10');
    await mhc.locator('button.run').click();
    await page.waitForFunction(() => {
      const f = document.querySelector('section.cell[data-cell="mhc"] .chart-figure');
      return f && f.querySelectorAll('details.chart-data tbody tr').length === 10;
    }, null, { timeout: 20000 });
    ok('mhc with 10 layers charts 10 layers');
    await page.close();
  }

  // 4. Print keeps everything. A reader who has seen a chart (plotly.js loaded):
  // every chart is drawn in the PDF. One who has not: every chart prints its data.
  {
    const { page } = await open({ viewport: { width: 1280, height: 900 } });
    await page.evaluate(() => addEventListener('beforeprint', () => {
      // Runs after the page's own handler: what the print is laid out with.
      window.__print = {
        charts: document.querySelectorAll('.chart').length,
        drawn: [...document.querySelectorAll('.chart[data-drawn]')].filter((c) => c.querySelector('svg.main-svg')).length,
        tables: document.querySelectorAll('.chart:not([data-drawn]) ~ details.chart-data[open]').length,
        answers: document.querySelectorAll('.selftest details[open]').length,
        questions: document.querySelectorAll('.selftest details').length,
      };
    }));
    const textOnly = await page.pdf({ format: 'A4' });
    const before = await page.evaluate(() => window.__print);
    assert.equal(before.drawn + before.tables, before.charts, JSON.stringify(before));
    assert.equal(before.answers, before.questions, 'self-test answers print open');
    assert.equal(await page.locator('.selftest details[open]').count(), 0, 'folds close again after printing');

    await scrollTo(page, '#cell-attended .chart');
    await page.locator('#cell-attended .chart[data-drawn]').waitFor();
    await page.reload(); await ready(page);
    await layOut(page);
    // Cells that have not run (they run when they come near the screen) have
    // no figure yet and print their data tables, as above: run them all.
    await runAllCells(page, { scroll: false });
    await page.evaluate(() => addEventListener('beforeprint', () => {
      window.__print = { charts: document.querySelectorAll('.chart').length, drawn: [...document.querySelectorAll('.chart[data-drawn]')].filter((c) => c.querySelector('svg.main-svg')).length };
    }));
    await scrollTo(page, '#cell-attended .chart');
    await page.locator('#cell-attended .chart[data-drawn]').waitFor();
    const withCharts = await page.pdf({ format: 'A4' });
    const after = await page.evaluate(() => window.__print);
    assert.equal(after.drawn, after.charts, `every chart drawn for print: ${JSON.stringify(after)}`);
    const pages = (pdf) => (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) || []).length;
    console.log(`# print: ${pages(textOnly)} A4 pages with data tables (no chart seen), ${pages(withCharts)} with all ${after.charts} charts drawn`);
    ok('print: every chart drawn (or its data printed), self-test answers open');
    await page.close();
  }

  // 5. A chart has no toolbar, nothing focusable inside its role="img" (a
  // screen reader must find no control there; axe-core's nested-interactive),
  // and never offers plotly.js 4's "Share chart..." (an upload to Plotly
  // Cloud), in either language.
  {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    watch(page);
    const errs = [];
    page.on('pageerror', (e) => errs.push(e.message));
    for (const path of ['/ch/newmodels', '/zh/ch/newmodels']) {
      await page.goto(BOOK_URL + path);
      await ready(page);
      await layOut(page);
      // The cell's first run in the page (when it comes near the screen)
      // replaces the pre-rendered output (and its chart).
      await scrollTo(page, '#cell-attended');
      await page.waitForFunction(() => !document.querySelector('#cell-attended .prerendered'), null, { timeout: 30000 });
      await scrollTo(page, '#cell-attended .chart');
      await page.locator('#cell-attended .chart[data-drawn]').waitFor();
      const inside = await page.locator('#cell-attended .chart[data-drawn]').evaluate((c) => [c.getAttribute('role'),
        c.querySelectorAll('.modebar-btn, a, button, input, select, textarea, [tabindex]').length]);
      assert.deepEqual(inside, ['img', 0], `${path}: the chart's role and its focusable parts`);
    }
    assert.deepEqual(errs, []);
    ok('a chart is one image with no control inside it (no toolbar), in both languages');
    await page.close();
  }
  assert.deepEqual(offsiteLists.flat(), [], 'requests to other origins');
  ok('drawing, restyling and printing the charts asked no other origin for anything');
} finally {
  await browser.close();
}
