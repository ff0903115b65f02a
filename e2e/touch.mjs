// End-to-end: what a reader touches holds up — the keyboard reaches every
// exercise's Run button and leaves the editor (no trap), a cell's source that
// answers an exercise stays folded with a warning until it is passed, a passed
// exercise shows it after a reload, and cell parameters persist per cell until
// "Reset to defaults"; a case can be run alone or opened in the scratch cell,
// and prints show per case, never for hidden ones.
import assert from 'node:assert/strict';
import { BOOK_URL, launch, ready } from './browser.mjs';
import { SOLUTIONS } from './solutions.mjs';

const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
let step = 0;
const ok = (what) => console.log(`ok ${++step} - ${what}`);
const active = () => page.evaluate(() => {
  const a = document.activeElement;
  return {
    tag: a.tagName, text: (a.textContent || '').trim().slice(0, 40), id: a.id,
    exercise: a.closest('section.exercise')?.id ?? null, inChart: !!a.closest('.chart'),
    // The code editor (CodeMirror's content, in front of the app's textarea).
    editor: !!a.closest('.editor-wrap') && a.isContentEditable,
  };
});

try {
  await page.goto(BOOK_URL + '/ch/newmodels'); await ready(page);

  // The code editor loads when the first editor comes near the screen.
  await page.locator('section.exercise').first().scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelectorAll('.cm-editor').length === document.querySelectorAll('textarea.editor').length);
  ok(`CodeMirror in front of all ${await page.locator('.cm-editor').count()} editors once the first comes into view`);

  // 1. Keyboard only, from the top: Tab until the first exercise's editor.
  await page.locator('h1').click();
  let presses = 0, a;
  do {
    await page.keyboard.press('Tab'); presses++;
    a = await active();
    assert.ok(!a.inChart, 'focus never enters a chart');
    assert.ok(presses < 400, `editor not reached after ${presses} Tabs (at ${JSON.stringify(a)})`);
  } while (!a.editor || !a.exercise);
  const exercise = a.exercise;
  ok(`the first exercise's editor is reached in ${presses} Tabs from the top`);

  // Tab indents inside the editor and keeps focus there.
  const editor = page.locator(`#${exercise} textarea.editor`);
  const before = await editor.inputValue();
  await page.keyboard.press('Tab');
  assert.equal((await active()).editor, true, 'Tab keeps focus in the editor');
  assert.equal((await editor.inputValue()).length, before.length + 4, 'Tab indented by four spaces (and the app saw it)');
  // Escape, then Tab leaves: the next stop is Run tests.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  a = await active();
  assert.equal(a.tag, 'BUTTON'); assert.equal(a.text, 'Run tests', JSON.stringify(a));
  await page.keyboard.press('Enter');
  await page.locator(`#${exercise} .results [class*="verdict"], #${exercise} .results .verdict, #${exercise} .results > *`).first().waitFor({ timeout: 15000 });
  await page.keyboard.press('Tab');
  a = await active();
  assert.equal(a.exercise, exercise); assert.notEqual(a.text, 'Run tests');
  assert.ok(!a.editor);
  ok('Tab indents, Escape then Tab reaches Run tests, Enter runs it, Tab goes past it');
  // Shift+Tab after Escape leaves backwards too.
  await page.locator(`#${exercise} .cm-content`).focus();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Shift+Tab');
  assert.equal((await active()).editor, false, 'Escape then Shift+Tab leaves the editor');
  ok('Escape then Shift+Tab leaves the editor backwards');

  // 2. The attended cell's source is the attended exercise's answer: folded,
  // with a warning, until the exercise is passed.
  const source = page.locator('section.cell[data-cell="attended"] details.cell-source');
  assert.equal(await source.getAttribute('open'), null, 'folded');
  assert.match(await source.locator('summary').textContent(), /answers the exercise “Entries a query attends to”/);
  const ex = page.locator('section.exercise[data-exercise="ch_newmodels/attended"], section.exercise#exercise-attended').first();
  await ex.locator('textarea.editor').fill(SOLUTIONS['ch_newmodels/attended']);
  await ex.locator('button.run').click();
  await ex.locator('.results .ok').first().waitFor({ timeout: 15000 });
  await page.waitForFunction(() => !/answers the exercise/.test(document.querySelector('section.cell[data-cell="attended"] details.cell-source summary').textContent));
  ok('the attended cell warns that its source is an answer until the exercise is passed');

  // 3. After a reload the passed exercise says so before any run.
  await page.reload(); await ready(page);
  const saved = page.locator('#exercise-attended .saved-outcome');
  await saved.waitFor();
  assert.match(await saved.textContent(), /Passed/);
  assert.doesNotMatch(await source.locator('summary').textContent(), /answers the exercise/);
  ok('a passed exercise shows it passed after a reload');

  // 4. Cell parameters persist per cell; Reset to defaults clears them.
  const ledger = page.locator('section.cell[data-cell="attended"]');
  const ctx = ledger.locator('input[type="text"]').first();
  const name = await ctx.getAttribute('name');
  const def = await ctx.inputValue();
  await ctx.fill('12345');
  // The parameters are saved when a run with them succeeds: wait for that
  // (the cell's earlier run already shows "ran in", so that says nothing).
  await page.waitForFunction(() => (localStorage.getItem('ih:v2:params:attended') || '').includes('12345'), null, { timeout: 15000 });
  await page.reload(); await ready(page);
  assert.equal(await ledger.locator(`[name="${name}"]`).inputValue(), '12345', `${name} kept after a reload`);
  await ledger.getByRole('button', { name: 'Reset to defaults' }).click();
  assert.equal(await ledger.locator(`[name="${name}"]`).inputValue(), def);
  await page.reload(); await ready(page);
  assert.equal(await ledger.locator(`[name="${name}"]`).inputValue(), def, 'defaults after reset and reload');
  ok(`the attended cell keeps ${name} = 12345 across a reload; Reset to defaults restores ${def}`);

  // 4b. Typing while the editor arrives: the code editor loads on first use
  // and takes the focus from the textarea. Held back until the reader has
  // selected the whole starter, it must keep that selection, so what they type
  // next replaces the starter instead of landing at its start.
  {
    // No service worker: a request it answered would never reach page.route.
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
    const p = await ctx.newPage();
    let release;
    const gate = new Promise((r) => { release = r; });
    await p.route('**/editor.js', async (route) => { await gate; await route.continue(); });
    await p.goto(BOOK_URL + '/ch/newmodels#exercise-attended'); await ready(p);
    const area = p.locator('#exercise-attended textarea.editor');
    await area.scrollIntoViewIfNeeded();
    await area.focus();
    await area.evaluate((t) => t.select());
    release();
    await p.locator('#exercise-attended .cm-editor').waitFor();
    await p.keyboard.insertText('fn attended(pos, ratio, topk, window) { 0 }');
    assert.equal(await area.inputValue(), 'fn attended(pos, ratio, topk, window) { 0 }', 'typed text replaced the selected starter');
    await ctx.close();
  }
  ok('text typed as the editor arrives replaces the selection the reader made');

  // 5. Per-case help. A solution that prints its input and is wrong on most
  // cases: each visible case shows its own print; hidden cases show no input,
  // no print, only pass/fail; one case runs alone; a case opens in scratch.
  const kv = page.locator('#exercise-v4_kv');
  const kvCode = 'fn v4_kv(c4, c128, swa_only, idx_bytes) {\n    print(`secret ${c4}-${c128}-${swa_only}-${idx_bytes}`);\n    [1.0, 2]\n}';
  await kv.locator('textarea.editor').fill(kvCode);
  await kv.locator('button.run').click();
  await kv.locator('.verdict').waitFor({ timeout: 15000 });
  const cases = await kv.locator('li.case').evaluateAll((lis) => lis.map((li) => ({
    name: li.querySelector('.case-name').textContent,
    prints: [...li.querySelectorAll('.prints')].map((p) => p.textContent).join(''),
    text: li.textContent,
    actions: li.querySelectorAll('.case-actions button').length,
  })));
  const hidden = cases.filter((c) => /hidden/.test(c.name));
  const shown = cases.filter((c) => !/hidden/.test(c.name));
  assert.ok(hidden.length > 0 && shown.length > 0, JSON.stringify(cases.map((c) => c.name)));
  for (const c of hidden) {
    assert.equal(c.prints, '', `${c.name} shows no print`);
    assert.ok(!/secret|input:/.test(c.text), `${c.name} reveals nothing: ${c.text}`);
    assert.equal(c.actions, 0, `${c.name} cannot be run alone or opened`);
  }
  for (const c of shown) {
    assert.match(c.prints, /^secret \d+-\d+-\d+-\d+$/, `${c.name} shows its own print`);
    assert.equal(c.actions, 2);
  }
  assert.match(await kv.locator('.withheld-note').textContent(), /hidden cases is withheld/);
  const allText = await kv.locator('.results').textContent();
  assert.equal((allText.match(/secret /g) || []).length, shown.length, 'prints appear once per visible case, never for hidden ones');
  ok(`per-case prints: ${shown.length} visible cases show their own, ${hidden.length} hidden cases show none`);

  // Run the second visible case alone.
  const second = kv.locator('li.case').filter({ hasText: shown[1].name });
  await second.locator('details').evaluate((d) => { d.open = true; });
  const progressBefore = await page.evaluate(() => JSON.stringify(Object.entries(localStorage).filter(([k]) => k.includes('progress'))));
  await second.getByRole('button', { name: 'Run this case alone' }).click();
  await kv.locator('.verdict[data-alone]').waitFor({ timeout: 15000 });
  const alone = await kv.locator('.verdict').evaluate((v) => ({ head: v.querySelector('.verdict-head').textContent, cases: v.querySelectorAll('li.case').length, at: v.dataset.alone }));
  assert.equal(alone.cases, 1);
  assert.match(alone.head, new RegExp(`^case ${alone.at} alone: failed`));
  assert.equal(await page.evaluate(() => JSON.stringify(Object.entries(localStorage).filter(([k]) => k.includes('progress')))), progressBefore, 'a case run alone does not change progress');
  ok(`case ${alone.at} runs alone (1 case graded, progress untouched)`);

  // Open it in the scratch cell: the code and the call, run there.
  const one = kv.locator('li.case').first();
  await one.locator('details').evaluate((d) => { d.open = true; });
  await one.getByRole('button', { name: 'Open in scratch' }).click();
  const sc = page.locator('section.scratch');
  await page.waitForFunction(() => /The case from the exercise `v4_kv`/.test(document.querySelector('#scratch-editor').value));
  const scratchCode = await sc.locator('textarea').inputValue();
  assert.ok(scratchCode.startsWith(kvCode.trim()), scratchCode);
  assert.match(scratchCode, /\nv4_kv\(\d+, \d+, \d+, \d+\)\n$/);
  await page.waitForFunction(() => /secret \d+-\d+-\d+-\d+/.test(document.querySelector('section.scratch').textContent), null, { timeout: 15000 });
  assert.equal(await page.evaluate(() => document.activeElement.id), 'scratch-editor');
  ok('a case opens in the scratch cell with the code and its call, and runs there');

  // 6. The editor marks the line of a syntax error, and a value the app sets
  // (Reset exercise) shows in the editor.
  const att = page.locator('#exercise-attended');
  await att.locator('textarea.editor').fill('fn attended(pos, ratio, topk, window) {\n    let x = ;\n}');
  await att.locator('button.run').click();
  await att.locator('.verdict[data-status="error"]').waitFor({ timeout: 15000 });
  assert.equal(await att.locator('.cm-error-line').count(), 1);
  assert.equal(await att.locator('.cm-line').nth(1).evaluate((l) => l.classList.contains('cm-error-line')), true, 'line 2 is marked');
  assert.match(await att.locator('.cm-content').textContent(), /let x = ;/);
  page.once('dialog', (d) => d.accept());
  await att.getByRole('button', { name: 'Reset exercise' }).click();
  await page.waitForFunction(() => /todo\(\)/.test(document.querySelector('#exercise-attended .cm-content').textContent));
  assert.equal(await att.locator('.cm-error-line').count(), 0);
  ok('a syntax error marks its line; Reset exercise shows the starter in the editor');

  // 7. On a 375 px phone each glossary term is a block: its definition gets
  // the page's width, not a column. (That nothing on any page is wider than
  // its column, at 375 px and 1280 px, and the axe-core scan of every page
  // fully drawn, are e2e/drawn.mjs.)
  {
    const ctx = await browser.newContext({ viewport: { width: 375, height: 800 }, serviceWorkers: 'block' });
    const p = await ctx.newPage();
    for (const path of ['/glossary', '/zh/glossary']) {
      await p.goto(BOOK_URL + path); await ready(p);
      const def = await p.locator('.glossary-table tbody tr').first().locator('td').nth(1).evaluate((td) => td.getBoundingClientRect().width);
      assert.ok(def >= 300, `${path}: a definition is ${def} px wide at 375 px`);
    }
    ok('at 375 px the glossary\'s definitions take the page\'s width, in both languages');
    await ctx.close();
  }

  // 8. On a phone the heavy live parts (cells, exercises, the scratch cell)
  // mount only as the reader comes near them. What the reader typed into a
  // pre-rendered cell before its mount, and the focus, carry over; a link to
  // the last exercise lands on a mounted exercise.
  {
    const ctx = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const p = await ctx.newPage();
    p.on('pageerror', (e) => errors.push(e.message));
    await p.goto(BOOK_URL + '/ch/deploy'); await ready(p, { all: false });
    const waiting = () => p.evaluate(() => document.querySelectorAll('[data-island]:not([data-mounted])').length);
    const before = await waiting();
    assert.ok(before >= 10, `${before} islands wait for the reader on the first screen`);
    const cell = '#cell-decode_step';
    const field = await p.evaluate((cell) => {
      const input = document.querySelector(`${cell} form.params input[type=text]`);
      input.focus({ preventScroll: true });
      input.value = '250,000';
      return { id: input.id, value: input.value, mounted: input.closest('[data-island]').hasAttribute('data-mounted') };
    }, cell);
    assert.equal(field.mounted, false, 'the cell is not mounted while off screen');
    await p.evaluate((cell) => document.querySelector(cell).scrollIntoView(), cell);
    await p.locator(`${cell} .timing`).filter({ hasText: /ran in/ }).waitFor();
    const live = await p.evaluate((id) => ({ value: document.getElementById(id).value, focused: document.activeElement.id,
      mounted: document.getElementById(id).closest('[data-island]').hasAttribute('data-mounted') }), field.id);
    assert.deepEqual(live, { value: field.value, focused: field.id, mounted: true }, 'typed value and focus carried into the live cell');
    assert.ok(await waiting() < before, 'scrolling mounted what came near');
    await p.goto(BOOK_URL + '/ch/deploy#exercise-best_plan'); await ready(p, { all: false });
    await p.locator('#exercise-best_plan button.run').waitFor();
    const box = await p.locator('#exercise-best_plan').boundingBox();
    assert.ok(box.y < 800 && box.y + box.height > 0, `the linked exercise is on screen (y = ${box.y})`);
    await p.evaluate(() => window.ihMountAll());
    await p.waitForSelector('html[data-mounted-all]', { state: 'attached' });
    assert.equal(await waiting(), 0);
    ok(`at 375 px ${before} islands wait for the reader; typed value and focus survive a cell's mount; a link lands on a mounted exercise`);
    await ctx.close();
  }

  assert.deepEqual(errors, []);
  ok('no page errors');
} finally {
  await browser.close();
}
