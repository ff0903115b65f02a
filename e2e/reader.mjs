// End-to-end: a reader's path through the book in headless Chromium.
import assert from 'node:assert/strict';
import { BOOK_URL, launch } from './browser.mjs';

const CORRECT = `fn attended(pos, ratio, topk, window) {
    let swa = if window < pos + 1 { window } else { pos + 1 };
    if ratio <= 1 { return swa; }
    let done = (pos + 1) / ratio;
    swa + if topk > 0 && done > topk { topk } else { done }
}`;
const WRONG = `fn attended(pos, ratio, topk, window) {
    if ratio > 1 { window + (pos + 1) / ratio } else { window }
}`;
const LOOP = `fn attended(pos, ratio, topk, window) {
    let n = 0;
    loop { n += 1; }
}`;

const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
let step = 0;
const ok = (what) => console.log(`ok ${++step} - ${what}`);

try {
  // Home page lists the chapters; follow the link.
  await page.goto(BOOK_URL + '/');
  await page.getByRole('link', { name: 'New-generation open models' }).click();
  await page.waitForURL('**/ch/newmodels');
  await page.waitForSelector('h1#new-generation-open-models');
  ok('home page links to the chapter');

  assert.ok(await page.locator('.prose table td').count() > 10, 'the overview table renders');
  assert.ok(await page.locator('.prose math').count() > 3, 'formulas render as MathML');
  ok('text, table and formulas render');

  // The cell ran on load with its defaults.
  const cell = page.locator('.cell[data-cell="attended"]');
  const text = cell.locator('.cell-text');
  await assert.doesNotReject(text.waitFor());
  const out = await text.textContent();
  for (const s of ['C4 layer 640', 'C128 layer 160', 'C128 layer 1,152', 'C128 layer 8,320', 'window-only 128']) {
    assert.ok(out.includes(s), `cell output has "${s}":\n${out}`);
  }
  ok('cell output shows 640, 160 / 1,152 / 8,320 and 128');

  await cell.locator('.chart[data-drawn="true"] svg.main-svg').first().waitFor({ timeout: 15000 });
  assert.equal(await cell.locator('.chart .scatterlayer .trace').count(), 4, 'four curves');
  ok('chart drawn with four curves');

  assert.ok((await cell.locator('.cell-source code').textContent()).includes('pub fn attended(pos: u64'), 'real source shown');
  ok('cell shows its Rust source');

  // Change a parameter: output re-runs.
  const win = cell.getByLabel('sliding window');
  await win.fill('256');
  await page.waitForFunction(() => document.querySelector('.cell[data-cell="attended"] .cell-text').textContent.includes('C4 layer 768'));
  ok('changing the window re-runs the cell (768)');

  // Bad parameters: a message next to the input, the page keeps working.
  for (const bad of ['-5', '', 'abc']) {
    await win.fill(bad);
    const err = cell.locator('.param.invalid .param-error');
    await err.waitFor();
    assert.ok((await err.textContent()).length > 5, `message for "${bad}"`);
  }
  await win.fill('128');
  await page.waitForFunction(() => !document.querySelector('.cell[data-cell="attended"] .param.invalid'));
  assert.ok((await text.textContent()).includes('C4 layer 640'));
  ok('bad parameters show a message and the cell recovers');

  // The exercise: a correct solution passes with Ctrl+Enter.
  const ex = page.locator('.exercise[data-exercise="ch_newmodels/attended"]');
  const editor = ex.locator('textarea.editor');
  await editor.fill(CORRECT);
  await editor.press('Control+Enter');
  await ex.locator('.verdict[data-status="passed"]').waitFor();
  assert.match(await ex.locator('.verdict-head').textContent(), /20 of 20 cases passed/);
  ok('a correct solution passes all cases');

  // A wrong one fails with the diff on a public case.
  await editor.fill(WRONG);
  await ex.getByRole('button', { name: 'Run tests' }).click();
  await ex.locator('.verdict[data-status="failed"]').waitFor();
  const failed = await ex.locator('.case.fail').first().textContent();
  assert.ok(failed.includes('expected: 640') && failed.includes('actual: 262272'), failed);
  assert.ok(await ex.locator('.case.fail .case-name', { hasText: 'hidden' }).count() > 0, 'hidden cases listed');
  assert.equal(await ex.locator('.case:has(.case-name:text-matches("hidden")) .case-io').count(), 0, 'hidden cases show no values');
  ok('a wrong solution fails with expected vs actual; hidden cases stay hidden');

  // Reload: the code is kept.
  await page.reload();
  await ex.locator('textarea.editor').waitFor();
  assert.equal(await ex.locator('textarea.editor').inputValue(), WRONG);
  ok('code survives a reload');

  // A syntax error names the line.
  await editor.fill('fn attended(pos, ratio, topk, window) {\n  let x = ;\n}');
  await editor.press('Control+Enter');
  await ex.locator('.verdict[data-status="error"]').waitFor();
  assert.match(await ex.locator('.verdict-msg').textContent(), /syntax error at line 2/);
  ok('a syntax error is reported with its line');

  // A runaway loop becomes "limit exceeded" within 2 s, and the page still responds.
  await editor.fill(LOOP);
  const t0 = Date.now();
  await editor.press('Control+Enter');
  await ex.locator('.verdict[data-status="limit exceeded"]').waitFor({ timeout: 5000 });
  const took = Date.now() - t0;
  assert.ok(took < 2500, `limit verdict took ${took} ms`);
  await win.fill('512');
  await page.waitForFunction(() => document.querySelector('.cell[data-cell="attended"] .cell-text').textContent.includes('C4 layer 1,024'));
  ok(`an endless loop is stopped (${took} ms) and the page keeps working`);

  // Deep link straight to the chapter (SPA fallback) and an unknown page.
  await page.goto(BOOK_URL + '/ch/newmodels');
  await page.locator('.cell-text').waitFor();
  await page.goto(BOOK_URL + '/nowhere');
  await page.getByText('Page not found').waitFor();
  ok('deep links work; unknown pages say so');

  assert.deepEqual(errors, [], 'no uncaught page errors');
  ok('no page errors');
} catch (e) {
  await page.screenshot({ path: 'target/e2e-failure.png', fullPage: true }).catch(() => {});
  console.error('not ok - ' + (e.stack || e) + '\n(screenshot: target/e2e-failure.png)');
  process.exitCode = 1;
} finally {
  await browser.close();
}
