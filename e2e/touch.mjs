// End-to-end: what a reader touches holds up — the keyboard reaches every
// exercise's Run button and leaves the editor (no trap), a cell's source that
// answers an exercise stays folded with a warning until it is passed, a passed
// exercise shows it after a reload, and cell parameters persist per cell until
// "Reset to defaults".
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
    editor: a.classList.contains('editor'),
  };
});

try {
  await page.goto(BOOK_URL + '/ch/newmodels'); await ready(page);

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
  assert.equal((await editor.inputValue()).length, before.length + 4, 'Tab inserted four spaces');
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
  await editor.focus();
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
  await ledger.locator('.timing').filter({ hasText: 'ran in' }).waitFor();
  await page.waitForTimeout(300);
  await page.reload(); await ready(page);
  assert.equal(await ledger.locator(`[name="${name}"]`).inputValue(), '12345', `${name} kept after a reload`);
  await ledger.getByRole('button', { name: 'Reset to defaults' }).click();
  assert.equal(await ledger.locator(`[name="${name}"]`).inputValue(), def);
  await page.reload(); await ready(page);
  assert.equal(await ledger.locator(`[name="${name}"]`).inputValue(), def, 'defaults after reset and reload');
  ok(`the attended cell keeps ${name} = 12345 across a reload; Reset to defaults restores ${def}`);

  assert.deepEqual(errors, []);
  ok('no page errors');
} finally {
  await browser.close();
}
