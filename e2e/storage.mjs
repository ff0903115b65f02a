// End-to-end: nothing saved is lost. Corrupt and old-format data, imports that are
// too big, partly unknown or older than what is saved, a full storage quota, and
// "Reset everything", in headless Chromium. Each case starts from empty storage.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { BOOK_URL, launch, ready } from './browser.mjs';
import { SOLUTIONS } from './solutions.mjs';

const ATT = 'ch_newmodels/attended';
const KV = 'ch_newmodels/v4_kv';
const CORRECT = SOLUTIONS[ATT];
const WRONG = `fn attended(pos, ratio, topk, window) {
    window
}`;
// The exercises of the chapter these steps use (each chapter's card counts its own).
const TOTAL = Object.keys(SOLUTIONS).filter((id) => id.startsWith('ch_newmodels/')).length;

const browser = await launch();
let step = 0;
const ok = (what) => console.log(`ok ${++step} - ${what}`);

// A fresh browser profile (empty localStorage) with `entries` saved before the app starts.
async function fresh(entries = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  await page.goto(BOOK_URL + '/nowhere'); await ready(page);
  // Wait for the app to start: it reads (and may migrate) storage as it starts.
  await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  await page.evaluate((e) => {
    localStorage.clear();
    for (const [k, v] of Object.entries(e)) localStorage.setItem(k, v);
  }, entries);
  return page;
}

// Every key the book saved, with its raw value.
const saved = (page) => page.evaluate(() => Object.fromEntries(
  Object.keys(localStorage).filter((k) => k.startsWith('ih:')).sort().map((k) => [k, localStorage.getItem(k)])));
const progressOf = async (page) => JSON.parse((await saved(page))['ih:v2:progress'] || '{}');
const editor = (page, id) => page.locator(`.exercise[data-exercise="${id}"] textarea.editor`);
const notice = (page, text) => page.locator('.notice', { hasText: text });
const textOf = (n) => n.locator('span').textContent();
const summary = (page, n) => page.locator('.chapter-card summary', { hasText: `Exercises: ${n} of ${TOTAL} passed` });
const importFile = (page, name, text) =>
  page.locator('#import-file').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
const file = (progress, code, version = 2) =>
  JSON.stringify({ format: 'inference-handbook-progress', version, progress, code });

async function done(page) {
  assert.deepEqual(page.errors, [], 'no uncaught page errors');
  await page.context().close();
}

let page;
try {
  // 1. Corrupt progress JSON: backed up, the notice names the copy, the code is kept.
  {
    const corrupt = '{"ch_newmodels/attended": 42';
    page = await fresh({ 'ih:v2:progress': corrupt, [`ih:v2:code:${ATT}`]: JSON.stringify(CORRECT) });
    await page.goto(BOOK_URL + '/ch/newmodels'); await ready(page);
    const n = notice(page, 'could not be read and was reset');
    await n.waitFor();
    assert.equal(await n.getAttribute('role'), 'alert');
    const text = await textOf(n);
    assert.ok(text.includes('The saved copy of your progress could not be read and was reset'), text);
    assert.ok(text.includes('"ih:v2:progress.corrupt-1"'), `notice names the backup key: ${text}`);
    assert.ok(text.includes('Your code is untouched.'), text);
    const s = await saved(page);
    assert.equal(s['ih:v2:progress.corrupt-1'], corrupt, 'the backup is a verbatim copy');
    assert.equal(s['ih:v2:progress'], undefined, 'the corrupt entry was reset');
    assert.equal(await editor(page, ATT).inputValue(), CORRECT, 'code kept in the editor');
    assert.equal(s[`ih:v2:code:${ATT}`], JSON.stringify(CORRECT), 'code kept in storage');
    await done(page);
    ok('corrupt progress is backed up under a named key; the code is kept');
  }

  // 2. The first format (labels, raw code under ih:v1:) migrates on load.
  {
    page = await fresh({
      'ih:v1:progress': JSON.stringify({ [ATT]: 'passed', [KV]: 'limit exceeded' }),
      [`ih:v1:code:${ATT}`]: CORRECT,
      'ih:v1:scratch': 'ledger_models()',
    });
    await page.goto(BOOK_URL + '/'); await ready(page);
    await summary(page, 1).waitFor();
    assert.equal(await page.locator(`[data-progress="${ATT}"] .status`).textContent(), 'passed');
    assert.equal(await page.locator(`[data-progress="${KV}"] .status`).textContent(), 'limit exceeded');
    assert.equal(await page.locator('.notice[role="alert"]').count(), 0, 'no alarm for a clean migration');
    const s = await saved(page);
    assert.deepEqual(JSON.parse(s['ih:v2:progress']), { [ATT]: 'passed', [KV]: 'limit_exceeded' }, 'stored as codes');
    assert.equal(s[`ih:v2:code:${ATT}`], JSON.stringify(CORRECT));
    assert.equal(s['ih:v2:scratch'], JSON.stringify('ledger_models()'));
    assert.equal(s['ih:v1:progress'], undefined, 'old progress key removed');
    assert.equal(s[`ih:v1:code:${ATT}`], undefined, 'old code key removed');
    await page.goto(BOOK_URL + '/ch/newmodels'); await ready(page);
    assert.equal(await editor(page, ATT).inputValue(), CORRECT, 'migrated code in the editor');
    assert.equal(await page.locator('#scratch-editor').inputValue(), 'ledger_models()');
    await done(page);
    ok('old-format progress (labels) and code migrate to codes under ih:v2:');
  }

  // 3. A 2 MB import is refused before it is read; nothing changes.
  {
    page = await fresh({
      'ih:v2:progress': JSON.stringify({ [ATT]: 'passed' }),
      [`ih:v2:code:${ATT}`]: JSON.stringify(CORRECT),
    });
    await page.goto(BOOK_URL + '/'); await ready(page);
    await summary(page, 1).waitFor();
    const before = await saved(page);
    const big = file({ [ATT]: 'failed' }, { [ATT]: 'x'.repeat(2_000_000 - 300) });
    await importFile(page, 'big.json', big.padEnd(2_000_000, ' '));
    const n = notice(page, 'Import failed, nothing was changed');
    await n.waitFor();
    assert.equal(await n.getAttribute('role'), 'alert');
    assert.equal(await textOf(n),
      'Import failed, nothing was changed: the file is 1.9 MiB (2,000,000 bytes); a progress file may be at most 1 MiB (1,048,576 bytes).');
    assert.deepEqual(await saved(page), before, 'storage unchanged');
    await summary(page, 1).waitFor();
    await done(page);
    ok('a 2 MB import is refused with its size and the 1 MiB limit; nothing changes');
  }

  // 4. An import with one unknown id imports the rest and names the unknown one.
  {
    page = await fresh();
    await page.goto(BOOK_URL + '/'); await ready(page);
    await summary(page, 0).waitFor();
    await importFile(page, 'partly.json', file(
      { [ATT]: 'passed', 'ch_old/removed': 'passed' },
      { [ATT]: CORRECT, 'ch_old/removed': 'fn removed() {}' }));
    const n = notice(page, 'Imported progress for');
    await n.waitFor();
    assert.equal(await n.getAttribute('role'), 'status');
    assert.equal(await textOf(n),
      'Imported progress for 1 exercises and code for 1. Skipped exercises this book does not have: ch_old/removed.');
    await summary(page, 1).waitFor();
    const s = await saved(page);
    assert.deepEqual(JSON.parse(s['ih:v2:progress']), { [ATT]: 'passed' });
    assert.equal(s[`ih:v2:code:${ATT}`], JSON.stringify(CORRECT));
    assert.ok(!Object.keys(s).some((k) => k.includes('ch_old')), 'nothing stored for the unknown id');
    // A malformed file changes nothing and says why.
    await importFile(page, 'bad.json', '{"format": "inference-handbook-progress", "version": 2, "code": {"x": 1}');
    await notice(page, 'Import failed, nothing was changed: not a progress file').waitFor();
    assert.deepEqual(await saved(page), s, 'a malformed file changes nothing');
    await page.goto(BOOK_URL + '/ch/newmodels'); await ready(page);
    assert.equal(await editor(page, ATT).inputValue(), CORRECT, 'imported code in the editor');
    await done(page);
    ok('an import with an unknown id imports the rest and names the unknown one; a malformed one changes nothing');
  }

  // 5. An older export does not remove a newer pass (nor progress it does not mention).
  {
    page = await fresh({
      'ih:v2:progress': JSON.stringify({ [ATT]: 'failed', [KV]: 'passed' }),
      [`ih:v2:code:${ATT}`]: JSON.stringify(WRONG),
      [`ih:v2:code:${KV}`]: JSON.stringify(SOLUTIONS[KV]),
    });
    await page.goto(BOOK_URL + '/'); await ready(page);
    await summary(page, 1).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export progress' }).click()]);
    const older = await readFile(await download.path(), 'utf8');
    assert.equal(JSON.parse(older).progress[ATT], 'failed');
    // Later, the reader passes the exercise here.
    await page.goto(BOOK_URL + '/ch/newmodels'); await ready(page);
    const panel = page.locator(`.exercise[data-exercise="${ATT}"]`);
    await panel.scrollIntoViewIfNeeded();
    await editor(page, ATT).fill(CORRECT);
    await panel.getByRole('button', { name: 'Run tests' }).click();
    await panel.locator('.verdict[data-status="passed"]').waitFor();
    // Then imports the older file.
    await page.goto(BOOK_URL + '/'); await ready(page);
    await summary(page, 2).waitFor();
    const olderFile = JSON.parse(older);
    olderFile.progress[KV] = 'failed';
    olderFile.code[KV] = '// an older attempt';
    await importFile(page, 'older.json', JSON.stringify(olderFile));
    const n = notice(page, 'Imported progress for');
    await n.waitFor();
    const text = await textOf(n);
    assert.ok(text.includes(`Kept this browser's pass and code for ${ATT}, ${KV} (the file has not passed them).`), text);
    await summary(page, 2).waitFor();
    const s = await saved(page);
    assert.deepEqual(JSON.parse(s['ih:v2:progress']), { [ATT]: 'passed', [KV]: 'passed' }, 'both passes kept');
    assert.equal(s[`ih:v2:code:${ATT}`], JSON.stringify(CORRECT), 'the passing code is kept');
    assert.equal(s[`ih:v2:code:${KV}`], JSON.stringify(SOLUTIONS[KV]));
    await done(page);
    ok('an older export does not remove a newer pass or its code');
  }

  // 5b. Python code is exported and imported beside the Rhai code.
  {
    page = await fresh({
      [`ih:v2:code.py:${ATT}`]: JSON.stringify('def attended(pos, ratio, topk, window):\n    return 0\n'),
      [`ih:v2:code:${ATT}`]: JSON.stringify(WRONG),
    });
    await page.goto(BOOK_URL + '/'); await ready(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export progress' }).click()]);
    const file = JSON.parse(await readFile(await download.path(), 'utf8'));
    assert.match(file.python[ATT], /^def attended/, 'the Python code is in the export');
    assert.equal(file.code[ATT], WRONG, 'and the Rhai code beside it');
    file.python[KV] = 'def v4_kv(c4, c128, swa_only, idx_bytes):\n    return 1\n';
    await importFile(page, 'with-python.json', JSON.stringify(file));
    await notice(page, 'Imported progress for').waitFor();
    const s = await saved(page);
    assert.equal(JSON.parse(s[`ih:v2:code.py:${KV}`]), file.python[KV], 'imported Python code is saved under its own key');
    await done(page);
    ok('Python code is exported and imported beside the Rhai code');
  }

  // 6. A full storage quota: the notice appears and the editor keeps the typed code.
  {
    page = await fresh({ 'ih:v2:progress': JSON.stringify({ [KV]: 'passed' }) });
    await page.goto(BOOK_URL + '/ch/newmodels'); await ready(page);
    const box = editor(page, ATT);
    await box.scrollIntoViewIfNeeded();
    const starter = await box.inputValue();
    const fillers = await page.evaluate(() => {
      let chunk = 'x'.repeat(1 << 20);
      let i = 0;
      while (chunk.length > 0) {
        try { localStorage.setItem('filler-' + i, chunk); i += 1; } catch (e) { chunk = chunk.slice(0, chunk.length >> 1); }
      }
      return i;
    });
    assert.ok(fillers > 0);
    const typed = starter.replace('todo()', 'window // typed while storage is full');
    await box.fill(typed);
    const n = notice(page, 'Could not save');
    await n.waitFor();
    assert.equal(await n.getAttribute('role'), 'alert');
    const text = await textOf(n);
    assert.ok(text.startsWith(`Could not save your code for ${ATT}: this browser's storage for the site is full.`), text);
    assert.ok(text.includes('the editor keeps your code'), text);
    assert.equal(await box.inputValue(), typed, 'the editor still shows the typed code');
    assert.ok(await n.isVisible() && await box.isVisible(), 'the notice is on screen next to the editor');
    await page.screenshot({ path: 'target/e2e-storage-full-1280.png' });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: 'target/e2e-storage-full-375.png' });
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(await progressOf(page), { [KV]: 'passed' }, 'saved progress intact');
    // Once there is room again, the next keystroke saves and the notice says so.
    await page.evaluate((n) => { for (let i = 0; i < n; i += 1) localStorage.removeItem('filler-' + i); }, fillers);
    await box.press('End');
    await box.press('Enter');
    await notice(page, 'Saving works again').waitFor();
    assert.equal((await saved(page))[`ih:v2:code:${ATT}`], JSON.stringify(typed + '\n'));
    await done(page);
    ok('a full quota shows an alert, the editor keeps the code, saving resumes when there is room');
  }

  // 7. Reset everything clears progress, all code, counters and the scratch code.
  {
    page = await fresh({
      'ih:v2:progress': JSON.stringify({ [ATT]: 'passed' }),
      [`ih:v2:code:${ATT}`]: JSON.stringify(CORRECT),
      [`ih:v2:fails:${ATT}`]: JSON.stringify('2'),
      'ih:v2:progress.corrupt-1': '{',
      'ih:v1:theme': 'dark',
    });
    await page.goto(BOOK_URL + '/ch/newmodels'); await ready(page);
    const scratch = page.locator('#scratch-editor');
    await scratch.scrollIntoViewIfNeeded();
    const scratchStarter = await scratch.inputValue();
    await scratch.fill('ledger_models() // mine');
    assert.equal((await saved(page))['ih:v2:scratch:ch_newmodels'], JSON.stringify('ledger_models() // mine'));
    await page.goto(BOOK_URL + '/'); await ready(page);
    await summary(page, 1).waitFor();
    page.once('dialog', (d) => d.accept());
    await page.getByRole('button', { name: 'Reset everything' }).click();
    const n = notice(page, 'Everything this book saved in this browser was forgotten');
    await n.waitFor();
    assert.equal(await textOf(n),
      'Everything this book saved in this browser was forgotten (5 entries): progress, code, counts, scratch code and backups.');
    await summary(page, 0).waitFor();
    // The settings stay: the theme, and the language the head script noted on the first visit.
    assert.deepEqual(await saved(page), { 'ih:v1:theme': 'dark', 'ih:v1:lang': 'en' }, 'only the settings are left');
    await page.goto(BOOK_URL + '/ch/newmodels'); await ready(page);
    assert.equal(await page.locator('#scratch-editor').inputValue(), scratchStarter, 'scratch code is back to the starter');
    assert.match(await editor(page, ATT).inputValue(), /todo\(\)/, 'exercise code is back to the starter');
    await done(page);
    ok('reset everything clears progress, code, counters, backups and the scratch code (after a confirmation)');
  }
} catch (e) {
  await page?.screenshot({ path: 'target/e2e-storage-failure.png', fullPage: true }).catch(() => {});
  console.error('not ok - ' + (e.stack || e) + '\n(screenshot: target/e2e-storage-failure.png)');
  process.exitCode = 1;
} finally {
  await browser.close();
}
