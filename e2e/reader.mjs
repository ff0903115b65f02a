// End-to-end: a reader's path through the book in headless Chromium.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BOOK_URL, launch, layOut, ready, scrollTo } from './browser.mjs';
import { SOLUTIONS } from './solutions.mjs';

const CORRECT = SOLUTIONS['ch_newmodels/attended'];
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
  await page.goto(BOOK_URL + '/'); await ready(page);
  await page.getByRole('link', { name: 'New-generation open models' }).click();
  await page.waitForURL('**/ch/newmodels');
  await page.waitForSelector('h1#new-generation-open-models');
  ok('home page links to the chapter');

  assert.ok(await page.locator('.prose table td').count() > 10, 'the overview table renders');
  assert.ok(await page.locator('.prose math').count() > 3, 'formulas render as MathML');
  ok('text, table and formulas render');

  await layOut(page);
  // The cell shows the output of its defaults (computed by the build; it runs
  // in the page when it comes near the screen).
  const cell = page.locator('.cell[data-cell="attended"]');
  const text = cell.locator('.cell-text');
  await assert.doesNotReject(text.waitFor());
  const out = await text.textContent();
  for (const s of ['C4 layer 640', 'C128 layer 160', 'C128 layer 1,152', 'C128 layer 8,320', 'window-only 128']) {
    assert.ok(out.includes(s), `cell output has "${s}":\n${out}`);
  }
  ok('cell output shows 640, 160 / 1,152 / 8,320 and 128');

  await scrollTo(page, '.cell[data-cell="attended"] .chart');
  await cell.locator('.chart[data-drawn="true"] svg.main-svg').first().waitFor({ timeout: 15000 });
  assert.equal(await cell.locator('.chart .scatterlayer .trace').count(), 4, 'four curves');
  ok('chart drawn with four curves');

  assert.ok((await cell.locator('.cell-source code').textContent()).includes('pub fn attended(pos: u64'), 'real source shown');
  ok('cell shows its Rust source');

  // Every cell ran in the page (when it came near the screen), shows its
  // source, and drew its chart.
  const expected = {
    compressor: ['streaming: 5 entries, 2 tokens left in the partial state', 'all at once: 5 entries'],
    attended: ['C4 layer 640'],
    ledger: ['DeepSeek-V4-Pro: 5.4 KiB per token', '1M-token request 5.40 GiB', 'DeepSeek-V3.2', 'not supported'],
    mhc: ['sublayer input [64]; residual streams [4, 64]', 'doubly stochastic 0.9999'],
    routing: ['batch of 65,536 tokens: busiest expert carries'],
  };
  const ids = await page.locator('section.cell[data-cell]').evaluateAll((els) => els.map((e) => e.dataset.cell));
  assert.deepEqual([...ids].sort(), Object.keys(expected).sort(), 'every demo has a cell');
  for (const [id, needles] of Object.entries(expected)) {
    const c = page.locator(`.cell[data-cell="${id}"]`);
    const t = await c.locator('.cell-text').first().textContent();
    for (const n of needles) assert.ok(t.includes(n), `${id} output has "${n}":\n${t}`);
    await scrollTo(page, `.cell[data-cell="${id}"] .chart`);
    await c.locator('.chart[data-drawn="true"] svg.main-svg').first().waitFor({ timeout: 15000 });
    assert.ok((await c.locator('.cell-source code').textContent()).includes('pub fn'), `${id} shows its source`);
    assert.match(await c.locator('.timing').textContent(), /ran in [0-9.]+ ms/);
  }
  const routingTables = await page.locator('.cell[data-cell="routing"] table').allTextContents();
  assert.ok(routingTables.some((t) => t.includes('42') && t.includes('112')), 'dispatch table: 42 and 112 KiB');
  ok("all five cells ran in the page with their figures, sources and charts");

  // The ledger accepts a new model line and names a bad one.
  const ledger = page.locator('.cell[data-cell="ledger"]');
  const models = ledger.locator('textarea');
  const original = await models.inputValue();
  await models.fill(original + '\nMy model | 1000 | 2 * 1024 | 4096');
  await page.waitForFunction(() => document.querySelector('.cell[data-cell="ledger"] .cell-text').textContent.includes('My model'));
  await models.fill(original + '\nBroken | 1 + | 0 | 5');
  await ledger.locator('.param.invalid .param-error', { hasText: 'line 7, bytes per token' }).waitFor();
  await models.fill(original);
  await ledger.getByLabel('units').selectOption('decimal');
  await page.waitForFunction(() => document.querySelector('.cell[data-cell="ledger"] .cell-text').textContent.includes('kB per token'));
  ok('the ledger takes a new model, names a bad line, switches units');

  // Self-test answers stay folded until opened.
  const answer = page.locator('.selftest details').first();
  assert.equal(await answer.getAttribute('open'), null);
  await answer.locator('summary').click();
  assert.ok((await answer.textContent()).includes('640'), 'answer 1 quotes the computed figure');
  ok('self-test answers unfold');

  // The scratch cell calls the chapter's functions.
  const scratch = page.locator('section.scratch');
  // Its starter runs when it comes near the screen.
  await scratch.scrollIntoViewIfNeeded();
  await scratch.locator('.scratch-value').waitFor();
  assert.ok((await scratch.locator('.scratch-value').textContent()).includes('1468060672'));
  await scratch.locator('textarea').fill('attended(1048575, 128, 0, 128)');
  await scratch.locator('textarea').press('Control+Enter');
  await page.waitForFunction(() => document.querySelector('.scratch-value')?.textContent.trim() === '8320');
  await scratch.locator('textarea').fill('attended(1, 2.5, 0, 128)');
  await scratch.getByRole('button', { name: 'Run' }).click();
  assert.match(await scratch.locator('.scratch-error').textContent(), /attended: argument 2 \(`ratio`\) must be an int/);
  // A range is named as Rhai names it, with the way to an array (#30).
  await scratch.locator('textarea').fill('0..3');
  await scratch.getByRole('button', { name: 'Run' }).click();
  await page.waitForFunction(() => /returned a range/.test(document.querySelector('.scratch-error')?.textContent || ''));
  assert.ok(!(await scratch.locator('.scratch-error').textContent()).includes('core::ops'));
  // The chapter's own functions lead the list; the book's others are folded under it.
  const own = await scratch.locator('.cell-source > .api-list > li code').allTextContents();
  assert.ok(own.length > 0 && own.every((f) => !f.startsWith('request_gb(')), `own list: ${own.join(', ')}`);
  assert.ok(own.some((f) => f.startsWith('attended(')), `attended is not first-level: ${own.join(', ')}`);
  const others = await scratch.locator('.api-more .api-list > li code').allTextContents();
  assert.ok(others.some((f) => f.startsWith('request_gb(')), `the other chapters' list: ${others.join(', ')}`);
  assert.equal(await scratch.locator('.api-more').getAttribute('open'), null);
  ok('the scratch cell evaluates the scripting API, names bad arguments and ranges, and lists the chapter\'s functions first');

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
  assert.match(await ex.locator('.verdict-head').textContent(), /23 of 23 cases passed/);
  // The passing cases are folded under the verdict (#30).
  assert.equal(await ex.locator('.cases-passed > summary').textContent(), 'Cases passed: 23');
  assert.equal(await ex.locator('.cases-passed').getAttribute('open'), null);
  ok('a correct solution passes all cases, listed under a fold');

  // One error on every case: the first case shows it, the rest are one line.
  await editor.fill('fn attended(pos, ratio, topk, window) {\n    throw "no";\n}');
  await ex.getByRole('button', { name: 'Run tests' }).click();
  await ex.locator('.verdict[data-status="error"]').waitFor();
  const rows = await ex.locator('.cases > li.case.fail').count();
  const same = await ex.locator('.cases > li.same-error').allTextContents();
  assert.ok(rows >= 1 && rows <= 2, `${rows} failing rows for one error on 23 cases`);
  assert.ok(same.some((t) => /^The same error again in \d+(, \d+)* \(\d+ more\)$/.test(t)), JSON.stringify(same));
  assert.equal(await ex.locator('.cases-passed').count(), 0, 'no fold of passed cases when none passed');
  ok(`one error on 23 cases: ${rows} rows and “${same[0]}”`);

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
  await page.reload(); await ready(page);
  await ex.locator('textarea.editor').waitFor();
  assert.equal(await ex.locator('textarea.editor').inputValue(), WRONG);
  ok('code survives a reload');

  // A known mistake is named after the diff, folded; opening it counts as
  // help. The plain wrong answer above matches none (or says which).
  {
    const known = readFileSync(new URL('../chapters/src/ch_newmodels/exercises/attended/wrong/off_by_one_position.rhai', import.meta.url), 'utf8');
    const named = await ex.locator('details.misconception').count();
    await editor.fill(known);
    await ex.getByRole('button', { name: 'Run tests' }).click();
    await page.waitForFunction(() => document.querySelector('#exercise-attended .verdict[data-status="failed"]')
      && document.querySelector('#exercise-attended details.misconception'));
    const fold = ex.locator('details.misconception');
    assert.equal(await fold.evaluate((d) => d.open), false, 'the named mistake starts folded');
    const help = Number(await ex.getAttribute('data-help') || 0);
    await fold.locator('summary').click();
    assert.match(await fold.textContent(), /one short/);
    await page.waitForFunction((h) => Number(document.querySelector('#exercise-attended').dataset.help || 0) === h + 1, help);
    ok(`a known mistake is named after the diff, folded, and opening it counts as help (the plain wrong answer: ${named ? 'named too' : 'none named'})`);
  }

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

  // Solve every exercise of this chapter with its known-good solution typed
  // into the editor (book.mjs does the same for every chapter).
  const here = Object.entries(SOLUTIONS).filter(([id]) => id.startsWith('ch_newmodels/'));
  for (const [id, src] of here) {
    const panel = page.locator(`.exercise[data-exercise="${id}"]`);
    await panel.scrollIntoViewIfNeeded();
    await panel.locator('textarea.editor').fill(src);
    await panel.locator('textarea.editor').press('Control+Enter');
    await panel.locator('.verdict[data-status="passed"]').waitFor({ timeout: 5000 }).catch(async () => {
      throw new Error(`${id} did not pass: ${await panel.locator('.verdict').textContent()}`);
    });
  }
  assert.equal(await page.locator('section.exercise[data-exercise]').count(), here.length, 'a solution for every exercise');
  ok(`all ${here.length} exercises of the chapter pass with typed-in solutions`);

  // After a pass the reference solution can be compared.
  await ex.getByRole('button', { name: 'Compare with the reference solution' }).click();
  // In the language of the answer (Rhai here), the Rust reference folded beside it.
  assert.ok((await ex.locator('.reference code.rhai').textContent()).includes('fn attended(pos, ratio, topk, window)'));
  assert.ok((await ex.locator('.reference details.reference-rust code').textContent()).includes('pub fn attended'));
  ok('the reference solution is revealed after a pass, in Rhai, with the Rust one folded');

  // Progress survives a reload and shows in the contents.
  await page.reload(); await ready(page);
  await page.locator('.toc [data-progress]').first().waitFor();
  for (const [id] of here) {
    assert.equal(await page.locator(`.toc [data-progress="${id}"] .mark`).textContent(), '✓', `${id} marked passed`);
  }
  ok('progress is kept across a reload and shown in the contents');

  // The home page lists progress; export gives a JSON file; a bad import changes nothing.
  await page.goto(BOOK_URL + '/'); await ready(page);
  await page.locator('.chapter-card summary', { hasText: `Exercises: ${here.length} of ${here.length} passed` }).waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export progress' }).click()]);
  const exported = JSON.parse(await (await import('node:fs/promises')).readFile(await download.path(), 'utf8'));
  assert.equal(exported.format, 'inference-handbook-progress');
  assert.equal(exported.progress['ch_newmodels/attended'], 'passed');
  await page.locator('#import-file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"other"}') });
  await page.locator('.notice', { hasText: 'Import failed, nothing was changed' }).waitFor();
  await page.locator('#import-file').setInputFiles({ name: 'good.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) });
  await page.locator('.notice', { hasText: 'Imported progress for' }).waitFor();
  ok('export and import of progress, with a clear error for a bad file');

  // Corrupt saved progress is reset with a notice, never a crash.
  await page.evaluate(() => localStorage.setItem('ih:v1:progress', '{"ch_newmodels/attended": 42'));
  await page.goto(BOOK_URL + '/ch/newmodels'); await ready(page);
  await page.locator('.notice', { hasText: 'could not be read and was reset' }).waitFor();
  assert.equal(await page.locator('.exercise[data-exercise="ch_newmodels/attended"] textarea.editor').inputValue(), SOLUTIONS['ch_newmodels/attended'], 'code kept');
  ok('corrupt progress is reset with a notice and the code is kept');

  // Reset one exercise: code back to the starter, progress forgotten (after a confirmation).
  const panel = page.locator('.exercise[data-exercise="ch_newmodels/v4_kv"]');
  await panel.scrollIntoViewIfNeeded();
  await panel.locator('textarea.editor').press('Control+Enter');
  await panel.locator('.verdict[data-status="passed"]').waitFor();
  page.once('dialog', (d) => d.accept());
  await panel.getByRole('button', { name: 'Reset exercise' }).click();
  await page.waitForFunction(() => document.querySelector('.toc [data-progress="ch_newmodels/v4_kv"] .mark').textContent === '·');
  assert.match(await panel.locator('textarea.editor').inputValue(), /todo\(\)/);
  ok('one exercise can be reset');

  // Deep link straight to the chapter (SPA fallback) and an unknown page.
  await page.goto(BOOK_URL + '/ch/newmodels'); await ready(page);
  await page.locator('.cell-text').first().waitFor();
  await page.goto(BOOK_URL + '/nowhere'); await ready(page);
  await page.getByText('Page not found').waitFor();
  ok('deep links work; unknown pages say so');

  // Every page is pre-rendered: with JavaScript off the chapter reads, with its
  // math, tables, self-test, statements and each cell's default output.
  {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const p = await ctx.newPage();
    const resp = await p.goto(BOOK_URL + '/ch/newmodels');
    assert.equal(resp.status(), 200);
    assert.ok(await p.locator('.prose math').count() > 10, 'math');
    assert.ok(await p.locator('.prose table').count() >= 1, 'tables');
    assert.equal(await p.locator('section.cell[data-cell]').count(), 5, 'cells');
    assert.match(await p.locator('.cell[data-cell="attended"] .cell-text').first().textContent(), /C4 layer 640/);
    assert.equal(await p.locator('section.exercise .statement').count(), 10, 'statements');
    assert.ok(await p.locator('ol.selftest details').count() >= 5, 'self-test');
    const nf = await p.goto(BOOK_URL + '/nowhere');
    assert.equal(nf.status(), 404);
    assert.ok(await p.getByText('Page not found').isVisible());
    await ctx.close();
  }
  ok('pages are pre-rendered: the chapter reads with JavaScript off; unknown paths are a 404 page');

  // A link to a section lands on it when opened fresh, after the live parts mount.
  for (const hash of ['exercise-sinkhorn', 'cell-routing', 'the-new-kv-ledger']) {
    const p = await browser.newPage();
    await p.goto(BOOK_URL + '/ch/newmodels#' + hash); await ready(p);
    // Lands once the page has settled (layout of the blocks above is final).
    await p.waitForSelector('html[data-settled]', { state: 'attached' });
    const landed = await p.waitForFunction((h) => Math.abs(document.getElementById(h).getBoundingClientRect().top) < 150, hash, { timeout: 5000 }).then(() => true, () => false);
    const top = await p.evaluate((h) => document.getElementById(h).getBoundingClientRect().top, hash);
    assert.ok(landed, `#${hash} is ${top}px from the top`);
    await p.close();
  }
  ok('links to sections land when opened fresh');

  // A glossary term's definition shows in place on hover and on keyboard
  // focus, in both languages; Esc hides it; the link still goes to the glossary.
  for (const [path, word] of [['/ch/kvcache', 'query'], ['/zh/ch/kvcache', '查询']]) {
    const p = await browser.newPage({ viewport: { width: 375, height: 800 } });
    await p.goto(BOOK_URL + path); await ready(p);
    const term = p.locator('.prose .term').filter({ has: p.locator('a[href$="#gqa"]') }).first();
    const link = term.locator('a');
    const def = term.locator('.term-def');
    assert.equal(await link.getAttribute('href'), `${path.startsWith('/zh') ? '/zh' : ''}/glossary#gqa`);
    assert.equal(await link.getAttribute('aria-describedby'), await def.getAttribute('id'), 'the definition describes the link');
    assert.ok(!(await def.isVisible()), 'hidden until asked for');
    await term.scrollIntoViewIfNeeded();
    await link.hover();
    await def.waitFor({ state: 'visible' });
    assert.match(await def.textContent(), new RegExp(word), `${path}: the definition is in the page's language`);
    // Inside the window, even at 375 px.
    await p.waitForFunction((el) => { const r = el.getBoundingClientRect(); return r.left >= 0 && r.right <= document.documentElement.clientWidth; }, await def.elementHandle());
    await p.keyboard.press('Escape');
    await def.waitFor({ state: 'hidden' });
    await p.mouse.move(0, 0);
    await link.focus();
    await p.keyboard.press('Shift+Tab');
    await p.keyboard.press('Tab');
    await def.waitFor({ state: 'visible' });
    await p.keyboard.press('Escape');
    await def.waitFor({ state: 'hidden' });
    await p.close();
  }
  ok('a glossary term shows its definition on hover and focus, inside the window, in both languages; Esc hides it');

  // A generated case that fails is shrunk: the smallest failing input leads,
  // with the case and seed it came from, the same in the page (both
  // languages) as in the CLI's verdict JSON.
  {
    const id = 'ch_deploy/kda_state_bytes';
    const file = new URL('../chapters/src/ch_deploy/exercises/kda_state_bytes/wrong/in_mib.rhai', import.meta.url);
    const known = readFileSync(file, 'utf8');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ih-shrunk-'));
    mkdirSync(path.join(dir, 'ch_deploy'));
    writeFileSync(path.join(dir, 'ch_deploy', 'kda_state_bytes.rhai'), known);
    const root = new URL('..', import.meta.url).pathname;
    const built = path.join(root, 'target', 'debug', 'judge');
    const [cmd, pre] = existsSync(built) ? [built, []] : ['cargo', ['run', '--quiet', '-p', 'judge-cli', '--']];
    let out;
    try { out = execFileSync(cmd, [...pre, path.join(dir, 'ch_deploy'), '--json'], { cwd: root, encoding: 'utf8' }); } catch (e) { out = e.stdout; }
    rmSync(dir, { recursive: true, force: true });
    const cli = JSON.parse(out).find((v) => v.exercise === id).shrunk;
    assert.ok(cli, 'the CLI shrinks this answer\'s failing generated case');
    const call = `kda_state_bytes(${cli.input.join(', ')})`;
    for (const [prefix, head] of [['', `Smallest failing input found (shrunk from case ${cli.case}, seed ${cli.seed}):`],
      ['/zh', `找到的最小失败输入（由第 ${cli.case} 个用例缩小而来，种子 ${cli.seed}）：`]]) {
      const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await p.goto(BOOK_URL + prefix + '/ch/deploy'); await ready(p);
      const panel = p.locator('section.exercise[data-exercise="' + id + '"]');
      await panel.scrollIntoViewIfNeeded();
      const ed = panel.locator('textarea.editor');
      await ed.waitFor();
      await ed.fill(known);
      await panel.locator('button.run').click();
      await p.waitForFunction((sel) => document.querySelector(sel + ' .verdict[data-status="failed"] .shrunk'),
        'section.exercise[data-exercise="' + id + '"]');
      const shrunk = panel.locator('.shrunk');
      assert.equal((await shrunk.locator('strong').textContent()).trim(), head);
      assert.equal(await shrunk.locator('code').first().textContent(), call);
      assert.match(await shrunk.textContent(), new RegExp(String(cli.expected)));
      // It leads: before the first failing case.
      assert.ok(await p.evaluate((sel) => {
        const s = document.querySelector(sel + ' .shrunk');
        const c = document.querySelector(sel + ' .case.fail');
        return !c || (s.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
      }, 'section.exercise[data-exercise="' + id + '"]'), 'the shrunk case comes before the failing case');
      await p.close();
    }
    ok(`a failing generated case is shrunk to ${call} (case ${cli.case}), the same in the page, in both languages, as in the CLI`);
  }

  assert.deepEqual(errors, [], 'no uncaught page errors');
  ok('no page errors');
} catch (e) {
  await page.screenshot({ path: 'target/e2e-failure.png', fullPage: true }).catch(() => {});
  console.error('not ok - ' + (e.stack || e) + '\n(screenshot: target/e2e-failure.png)');
  process.exitCode = 1;
} finally {
  await browser.close();
}
