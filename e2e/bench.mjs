// Browser figures (not a test): time to first cell output, each cell's run time,
// exercise grading time. Prints a table; `cargo xtask bench` runs it.
import { BOOK_URL, launch } from './browser.mjs';
import { SOLUTIONS } from './solutions.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const browser = await launch();
try {
  // Cold navigation to the first cell output, five fresh pages. The page records
  // (performance.now(), from navigation start) when the first output enters the
  // DOM and when the browser first paints after that.
  const firsts = [];
  const paints = [];
  for (let i = 0; i < 5; i++) {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.addInitScript(() => {
      new MutationObserver((_, obs) => {
        if (document.querySelector('.cell-text')) {
          window.__firstOutput = performance.now();
          requestAnimationFrame(() => setTimeout(() => { window.__firstPaint = performance.now(); }));
          obs.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(BOOK_URL + '/ch/newmodels');
    await page.waitForFunction(() => window.__firstPaint !== undefined);
    firsts.push(Math.round(await page.evaluate(() => window.__firstOutput)));
    paints.push(Math.round(await page.evaluate(() => window.__firstPaint)));
    await ctx.close();
  }
  console.log(`navigation -> first cell output in the DOM: median ${median(firsts)} ms (runs: ${firsts.join(', ')})`);
  console.log(`navigation -> first frame after it: median ${median(paints)} ms (runs: ${paints.join(', ')})`);

  const page = await browser.newPage();
  await page.goto(BOOK_URL + '/ch/newmodels');
  await page.locator('.cell-text').first().waitFor();
  for (const cell of await page.locator('section.cell[data-cell]').all()) {
    const id = await cell.getAttribute('data-cell');
    const times = [];
    for (let i = 0; i < 7; i++) {
      await cell.getByRole('button', { name: 'Run', exact: true }).click();
      // The run happens in the worker: wait for its time to replace "running…".
      await cell.locator('.timing', { hasText: 'ran in' }).waitFor();
      const t = await cell.locator('.timing').textContent();
      times.push(parseFloat(t.replace(/[^0-9.]/g, '')));
    }
    console.log(`browser cell ${id.padEnd(12)} median ${median(times).toFixed(1)} ms`);
  }
  for (const ex of await page.locator('section.exercise[data-exercise]').all()) {
    const id = await ex.getAttribute('data-exercise');
    const src = SOLUTIONS[id];
    if (!src) continue;
    await ex.locator('textarea.editor').fill(src);
    const times = [];
    for (let i = 0; i < 7; i++) {
      const before = Number(await ex.locator('.results').getAttribute('data-runs'));
      await ex.getByRole('button', { name: 'Run tests' }).click();
      await page.waitForFunction(([e, n]) => Number(e.getAttribute('data-runs')) > n,
        [await ex.locator('.results').elementHandle(), before]);
      const head = await ex.locator('.verdict-head').textContent();
      times.push(parseFloat(head.match(/\(([0-9.]+) ms\)/)[1]));
    }
    console.log(`browser grading ${id.padEnd(30)} median ${median(times).toFixed(1)} ms (all cases)`);
  }
} finally {
  await browser.close();
}
