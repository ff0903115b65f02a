// The hostile-input suite in the browser: whatever a reader types, the page keeps
// responding (a 10 ms heartbeat inside the page records the longest gap between
// ticks), the verdict names its cause within 2.5 s, and saved work is intact.
import assert from 'node:assert/strict';
import { BOOK_URL, gap as gapOf, heartbeat, launch, layOut, quiet as quietOf, ready, resetGap as resetGapOf, scrollTo, settle as settleOf } from './browser.mjs';
import { SOLUTIONS } from './solutions.mjs';

const MAX_GAP_MS = 100;
const MAX_VERDICT_MS = 2500;

const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
// The heartbeat: installed before the app, read and reset around every case.
await page.addInitScript(heartbeat);
const resetGap = () => resetGapOf(page);
const gap = () => gapOf(page);

const results = [];
async function hostile(name, fn) {
  // What the case before it set going (its verdict's rendering, the editor's
  // marks) ends first: each case's gap is its own.
  await settle();
  await resetGap();
  const t0 = Date.now();
  const detail = await fn();
  const ms = Date.now() - t0;
  const g = await gap();
  assert.ok(ms <= MAX_VERDICT_MS + 500, `${name}: took ${ms} ms`);
  assert.ok(g < MAX_GAP_MS, `${name}: the page was blocked for ${g.toFixed(0)} ms`);
  results.push({ name, ms, gap: Math.round(g), detail });
  console.log(`ok ${results.length} - ${name} (${ms} ms, longest gap ${g.toFixed(0)} ms): ${detail}`);
}

const exercise = (id) => page.locator(`.exercise[data-exercise="ch_newmodels/${id}"]`);

// Does `act`, then waits until `el`'s data-runs counter has moved on (a reply
// arrived from the worker).
async function next(el, act) {
  const before = Number(await el.getAttribute('data-runs'));
  await act();
  await page.waitForFunction(([e, n]) => Number(e.getAttribute('data-runs')) > n,
    [await el.elementHandle(), before], { timeout: 5000 });
}

// Puts `text` into a field as one input event, as a paste arrives, without
// the browser's own editing command: for the 8,000 characters of the ledger
// case below that command alone took 18 ms of a 26 ms task on a quiet machine
// (the page's input handler 1.3 ms), and over 100 ms on a busy one. This suite
// bounds what the page does with hostile input, not what the browser's editor
// does. (An exercise's textarea hands a value set on it to its code editor.)
const put = (field, text) => field.evaluate((el, t) => {
  el.value = t;
  el.dispatchEvent(new Event('input', { bubbles: true }));
}, text);

// Grades `code` in an exercise; waits for a verdict; returns [status, message, prints].
async function grade(id, code) {
  const ex = exercise(id);
  const editor = ex.locator('textarea.editor');
  // Long code arrives as one input event, as a paste into the editor does
  // (see `put` below): the browser's own editing command for 10,000
  // characters is not what this suite bounds.
  if (code.length > 1000) await put(editor, code);
  else await editor.fill(code);
  await next(ex.locator('.results'), () => editor.press('Control+Enter'));
  const v = ex.locator('.verdict');
  const status = await v.getAttribute('data-status');
  const msg = await ex.locator('.verdict-msg').textContent();
  // Printed output is shown per case; a note says when hidden cases' is withheld.
  const prints = (await ex.locator('.prints, .withheld-note').allTextContents()).join('\n');
  return [status, msg, prints];
}

async function expectVerdict(name, id, code, status, cause) {
  await hostile(name, async () => {
    const [s, msg, prints] = await grade(id, code);
    assert.equal(s, status, `${name}: ${msg}`);
    assert.match(msg + prints, cause, `${name}: the message names the cause`);
    return `${s}: ${msg.slice(0, 90)}`;
  });
}

// Runs scratch code; returns the error or value text.
async function scratch(code) {
  const sc = page.locator('section.scratch');
  // The starter runs when the cell first comes near the screen: let that run
  // finish first, or its reply (late on a busy machine) is taken for this one.
  await scrollTo(page, 'section.scratch');
  await page.waitForFunction(() => Number(document.querySelector('section.scratch')?.dataset.runs) >= 1,
    null, { timeout: 10000 });
  await sc.locator('textarea').fill(code);
  await next(sc, () => sc.locator('textarea').press('Control+Enter'));
  return sc.locator('.scratch-out').textContent();
}

// Charts are drawn by plotly on the main thread when they come near the screen;
// draw them all first (after every load), so the heartbeat measures the reader's
// code, not plotly.
async function drawCharts() {
  await layOut(page);
  const n = await page.locator('.chart').count();
  for (let i = 0; i < n; i++) {
    await scrollTo(page, '.chart', i);
    await page.waitForFunction((i) => document.querySelectorAll('.chart')[i]?.querySelector('svg.main-svg'), i, { timeout: 15000 });
  }
  // Back to the page a scrolling reader has: blocks off screen skip layout
  // again, so a verdict's re-render lays out the blocks near it, not all of
  // the chapter (which the jumps above needed).
  await page.evaluate(() => document.documentElement.removeAttribute('data-settled'));
}

// After a reload, start-up work is the page's own: see `quiet` in browser.mjs.
const settle = () => settleOf(page);
const quiet = () => quietOf(page);

const sig = 'fn attended(pos, ratio, topk, window)';
try {
  await page.goto(BOOK_URL + '/ch/newmodels'); await ready(page);
  await page.locator('.cell[data-cell="routing"] .cell-text').first().waitFor();
  await drawCharts();
  // A first visit's service worker downloads the whole book in the background
  // (index.html registers it once the page is up): let that finish before the
  // heartbeat measures anything.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await settle();
  // A passed exercise whose progress must survive everything below.
  const pr = exercise('prefix_reuse');
  await pr.locator('textarea.editor').fill(SOLUTIONS['ch_newmodels/prefix_reuse']);
  await pr.locator('textarea.editor').press('Control+Enter');
  await pr.locator('.verdict[data-status="passed"]').waitFor();

  await expectVerdict('endless loop', 'attended', `${sig} { loop {} }`, 'limit exceeded', /limit exceeded/);
  await expectVerdict('endless recursion', 'attended', `fn r(n) { r(n + 1) } ${sig} { r(0) }`, 'limit exceeded', /call depth/);
  await expectVerdict('array bomb', 'attended', `${sig} { let a = [1]; loop { a += a; } }`, 'limit exceeded', /size limit/);
  await expectVerdict('nested array bomb', 'attended', `${sig} { let a = []; a.pad(50000, 0); let b = []; loop { b.push(a); } }`, 'limit exceeded', /size limit/);
  await expectVerdict('string bomb', 'attended', `${sig} { let s = "x"; loop { s += s; } }`, 'limit exceeded', /size limit/);
  await expectVerdict('map bomb', 'attended', `${sig} { let m = #{}; let i = 0; loop { m[\`k\${i}\`] = i; i += 1; } }`, 'limit exceeded', /limit exceeded/);
  await expectVerdict('heavy built-in in a loop', 'attended', `${sig} { let a = []; a.pad(100000, 3); loop { a.sort(); a.reverse(); } }`, 'limit exceeded', /limit exceeded/);
  await expectVerdict('huge printed output', 'attended', `${sig} { for i in 0..2000 { print(i); } 0 }`, 'failed', /output cut at 200 lines/);
  await expectVerdict('wrong return type', 'attended', `${sig} { "many" }`, 'error', /wrong return type/);
  await expectVerdict('wrong arity', 'attended', 'fn attended(pos) { 0 }', 'error', /must take 4 parameters/);
  await expectVerdict('syntax error', 'attended', `${sig} {\n  let x = ;\n}`, 'error', /syntax error at line 2/);
  // 2,000 levels (the limit is 64): the parser's limit is what this case is
  // about. At 5,000 levels (10,000 characters on one line) its longest gap
  // was 24-62 ms on a quiet machine and once 104 ms in CI; at 2,000, 21-41 ms
  // (five runs each). The ledger case below holds a longer line.
  await expectVerdict('deep nesting', 'attended', `${sig} { ${'('.repeat(2000)}1${')'.repeat(2000)} }`, 'limit exceeded', /nested too deeply/);
  await expectVerdict('NaN', 'kv_request', 'fn kv_request(c4, c128, swa_only, idx_bytes, tokens) { 0.0 / 0.0 }', 'failed', /NaN.*values differ/);
  await expectVerdict('infinity', 'kv_request', 'fn kv_request(c4, c128, swa_only, idx_bytes, tokens) { 1.0 / 0.0 }', 'failed', /values differ/);
  await hostile('print in a hidden case is withheld', async () => {
    const [s, msg, prints] = await grade('v4_kv', 'fn v4_kv(c4, c128, swa_only, idx_bytes) { print(`secret ${c4}-${c128}-${swa_only}-${idx_bytes}`); [0.0, 0] }');
    assert.equal(s, 'failed', msg);
    assert.match(prints, /withheld/);
    assert.ok(!prints.includes('secret 1-0-0-0'), 'a hidden input leaked');
    return 'hidden output withheld';
  });
  await hostile('Stop ends a run at once', async () => {
    const ex = exercise('attended');
    await ex.locator('textarea.editor').fill(`${sig} { loop {} }`);
    await next(ex.locator('.results'), async () => {
      await ex.locator('textarea.editor').press('Control+Enter');
      await ex.getByRole('button', { name: 'Stop' }).click();
    });
    const msg = await ex.locator('.verdict-msg').textContent();
    assert.match(msg, /you pressed Stop/);
    return msg;
  });
  await hostile('scratch: heavy API calls in a loop', async () => {
    const out = await scratch('let m = []; for i in 0..64 { let r = []; for j in 0..64 { r.push(1.0 * ((i * j) % 7)); } m.push(r); } for k in 0..1000 { sinkhorn(m, 10000); }');
    assert.match(out, /limit exceeded/);
    return out.trim().slice(0, 90);
  });
  await hostile('scratch: endless loop', async () => {
    const out = await scratch('let n = 0; loop { n += 1; }');
    assert.match(out, /limit exceeded/);
    return out.trim().slice(0, 90);
  });
  await hostile('scratch: wrong arity', async () => {
    const out = await scratch('attended(1, 2)');
    assert.match(out, /the API has attended\(pos, ratio, topk, window\)/);
    return out.trim().slice(0, 90);
  });

  // Cells: hostile parameters are refused before any work, naming the limit.
  const cell = (id) => page.locator(`.cell[data-cell="${id}"]`);
  async function param(id, label, value) {
    await cell(id).getByLabel(label, { exact: true }).fill(value);
  }
  await hostile('routing: the 2^32 overflow case', async () => {
    await param('routing', 'vocabulary', '1');
    await param('routing', 'routed experts', '4096');
    await param('routing', 'experts per token', '4096');
    await param('routing', 'batch sizes', '524288 524288');
    await param('routing', 'batch to chart', '524288');
    const err = cell('routing').locator('.param.invalid .param-error').first();
    await err.waitFor();
    const text = await cell('routing').locator('.param.invalid .param-error').allTextContents();
    assert.ok(text.join(' ').match(/131,072|budget/), text.join(' | '));
    // Refused parameters ran nothing, so the cell gives no run time (#30).
    const timing = await cell('routing').locator('.timing').textContent();
    assert.doesNotMatch(timing, /ran in/, `a refused run says "${timing}"`);
    return text.join(' | ').slice(0, 120);
  });
  await hostile('compressor: tokens 4096, D 512', async () => {
    await param('compressor', 'tokens', '4096');
    await param('compressor', 'KV dimension D', '512');
    const err = cell('compressor').locator('.param.invalid .param-error').first();
    await err.waitFor();
    const t = await err.textContent();
    assert.match(t, /256/);
    return t;
  });
  await hostile('compressor: typing 4096 with D 256 (debounced, budgeted)', async () => {
    await param('compressor', 'KV dimension D', '256');
    const input = cell('compressor').getByLabel('tokens', { exact: true });
    await input.fill('');
    await input.pressSequentially('4096', { delay: 30 });
    const err = cell('compressor').locator('.param.invalid .param-error', { hasText: 'budget' });
    await err.waitFor();
    return err.textContent();
  });
  const ledgerBox = cell('ledger').locator('textarea');
  const ledgerBefore = await ledgerBox.inputValue();
  await hostile('ledger: 4,000 nested parentheses', async () => {
    await put(ledgerBox, ledgerBefore + '\nDeep | ' + '('.repeat(4000) + '1' + ')'.repeat(4000) + ' | 0 | 1048576');
    const err = cell('ledger').locator('.param.invalid .param-error').first();
    await err.waitFor();
    return (await err.textContent()).slice(0, 100);
  });
  await hostile('ledger: 40 nested parentheses (the limit is 32)', async () => {
    await ledgerBox.fill(ledgerBefore + '\nDeep | ' + '('.repeat(40) + '1' + ')'.repeat(40) + ' | 0 | 1048576');
    const err = cell('ledger').locator('.param.invalid .param-error', { hasText: 'nested' });
    await err.waitFor();
    return (await err.textContent()).slice(0, 100);
  });
  // Back to a good models box (this redraws the chart: not part of a case).
  await ledgerBox.fill(ledgerBefore);
  await page.waitForFunction(() => !document.querySelector('.cell[data-cell="ledger"] .param.invalid'));
  await hostile('a trap inside a cell is contained', async () => {
    await page.evaluate(() => { window.__ihTrapNextJob = true; });
    await param('attended', 'sliding window', '256');
    const problem = cell('attended').locator('.cell-problem');
    await problem.waitFor();
    const t = await problem.textContent();
    assert.match(t, /crashed/);
    return t.slice(0, 100);
  });
  // The next run works in a fresh worker.
  await param('attended', 'sliding window', '128');
  await page.waitForFunction(() => !document.querySelector('.cell[data-cell="attended"] .cell-problem')
    && document.querySelector('.cell[data-cell="attended"] .cell-text').textContent.includes('C4 layer 640'));
  console.log('ok - after the trap, the cell runs again in a fresh worker');

  // Saved work is intact: reload and look.
  await page.reload(); await ready(page);
  await exercise('attended').locator('textarea.editor').waitFor();
  assert.ok((await exercise('attended').locator('textarea.editor').inputValue()).includes('loop {}'), 'the last code typed is kept');
  assert.equal(await page.locator('[data-progress="ch_newmodels/prefix_reuse"] .mark').getAttribute('title'), 'passed');
  console.log('ok - after reload the typed code and the earlier pass are intact');

  // Oversized saved code (100 KB) loads, and grading it names the size limit.
  await page.evaluate(() => {
    const big = '// ' + 'x'.repeat(100000) + '\nfn attended(pos, ratio, topk, window) { 0 }';
    localStorage.setItem('ih:v2:code:ch_newmodels/attended', JSON.stringify(big));
  });
  await page.reload(); await ready(page);
  await exercise('attended').locator('textarea.editor').waitFor();
  await drawCharts();
  // Laying out a 100 KB line in the editor is the page's own work when it shows
  // the saved code: let that finish, then measure grading it.
  await exercise('attended').locator('textarea.editor').scrollIntoViewIfNeeded();
  await settle();
  await quiet();
  await hostile('oversized saved code', async () => {
    const ex = exercise('attended');
    await next(ex.locator('.results'), () => ex.locator('textarea.editor').press('Control+Enter'));
    const msg = await ex.locator('.verdict-msg').textContent();
    assert.equal(await ex.locator('.verdict').getAttribute('data-status'), 'limit exceeded', msg);
    assert.match(msg, /source too large/);
    return msg;
  });

  // Saved scratch code that loops does not freeze the page when it loads. The
  // loop runs into the scratch cell's time limit (2.2 s from when the page
  // asks for the run), so the page's own start-up (mounting, the cells' first
  // outputs) can end before the measuring starts, while the loop still runs.
  await page.evaluate(() => {
    const loop = 'let a = []; a.pad(100000, 3); loop { a.sort(); a.reverse(); }';
    for (const k of Object.keys(localStorage)) {
      if (k.includes(':scratch')) localStorage.setItem(k, JSON.stringify(loop));
    }
  });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.reload(); await ready(page);
  await page.locator('#scratch-editor').waitFor();
  await quiet();
  assert.equal(await page.locator('section.scratch .scratch-out').count(), 0,
    'the saved loop ended before the page was quiet: nothing left to measure');
  await hostile('saved looping scratch code on load', async () => {
    const out = page.locator('section.scratch .scratch-out');
    await out.waitFor({ timeout: 5000 });
    const t = await out.textContent();
    assert.match(t, /time limit/);
    return t.trim().slice(0, 90);
  });

  // The workers' module cannot be downloaded (a server or network failing):
  // each cell says why, the text and the pre-rendered outputs stay, and the
  // next run downloads it again and works.
  {
    const ctx = await browser.newContext({ serviceWorkers: 'block' });
    const p = await ctx.newPage();
    p.on('pageerror', (e) => errors.push(e.message));
    let refuse = true;
    await p.route('**/pkg/app_worker_bg.wasm', (r) => (refuse ? r.fulfill({ status: 503, body: 'down' }) : r.continue()));
    await p.goto(BOOK_URL + '/ch/newmodels'); await ready(p);
    const attended = p.locator('.cell[data-cell="attended"]');
    const problem = attended.locator('.cell-problem');
    // The cell runs, and asks for the module, when it comes near the screen.
    await attended.scrollIntoViewIfNeeded();
    await problem.waitFor();
    const said = await problem.textContent();
    assert.match(said, /could not start the worker that runs it \(.*HTTP 503\); the next run tries again/, said);
    assert.ok((await attended.locator('.cell-output').textContent()).includes('C4 layer'), 'the pre-rendered output stays');
    refuse = false;
    await attended.getByLabel('sliding window', { exact: true }).fill('128');
    await p.waitForFunction(() => !document.querySelector('.cell[data-cell="attended"] .cell-problem')
      && document.querySelector('.cell[data-cell="attended"] .cell-text').textContent.includes('C4 layer 640'));
    console.log(`ok - the workers' module refused (503): "${said.trim()}"; the next run downloads it and works`);
    await ctx.close();
  }

  assert.deepEqual(errors, [], 'no uncaught errors in the page');
  console.log(`\n${results.length} hostile cases passed; slowest ${Math.max(...results.map((r) => r.ms))} ms, longest main-thread gap ${Math.max(...results.map((r) => r.gap))} ms`);
} catch (e) {
  console.log(`not ok - ${e.message}`);
  await page.screenshot({ path: 'target/e2e-hostile-failure.png', fullPage: false });
  await browser.close();
  process.exit(1);
}
await browser.close();
