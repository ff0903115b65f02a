// Browser figures (not a test): time to first cell output, each cell's run time,
// exercise grading time. Prints a table; `cargo xtask bench` runs it.
import { BOOK_URL, launch } from './browser.mjs';
import { SOLUTIONS } from './solutions.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const browser = await launch();
try {
  // Cold navigation to the first cell output, three fresh pages.
  const firsts = [];
  for (let i = 0; i < 3; i++) {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const t0 = Date.now();
    await page.goto(BOOK_URL + '/ch/newmodels');
    await page.locator('.cell-text').first().waitFor();
    firsts.push(Date.now() - t0);
    await ctx.close();
  }
  console.log(`navigation -> first cell output: median ${median(firsts)} ms (runs: ${firsts.join(', ')})`);

  const page = await browser.newPage();
  await page.goto(BOOK_URL + '/ch/newmodels');
  await page.locator('.cell-text').first().waitFor();
  for (const cell of await page.locator('section.cell[data-cell]').all()) {
    const id = await cell.getAttribute('data-cell');
    const times = [];
    for (let i = 0; i < 7; i++) {
      await cell.getByRole('button', { name: 'Run', exact: true }).click();
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
      await ex.getByRole('button', { name: 'Run tests' }).click();
      const head = await ex.locator('.verdict-head').textContent();
      times.push(parseFloat(head.match(/\(([0-9.]+) ms\)/)[1]));
    }
    console.log(`browser grading ${id.padEnd(30)} median ${median(times).toFixed(1)} ms (all cases)`);
  }
} finally {
  await browser.close();
}
