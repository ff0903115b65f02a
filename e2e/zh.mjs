// End-to-end: the Chinese edition (#12). A reader with a Chinese browser lands on
// /zh/; the whole Chinese book is walked in reading order (every page is
// `zh-CN`, its text Chinese, every cell runs, every exercise shows its Chinese
// title and hints and passes with its known-good solution after a wrong answer
// showed its diff); glossary links land on their term; two Chinese characters
// inside a sentence are found by search; the language switch keeps the reader's
// place and is remembered; an explicit /zh/ address is honoured for a reader
// whose browser is English.
import assert from 'node:assert/strict';
import { BOOK_URL, launch, ready, scrollTo } from './browser.mjs';
import { SOLUTIONS } from './solutions.mjs';

const browser = await launch();
const CJK = /[\u4e00-\u9fff]/;
let step = 0;
const ok = (what) => console.log(`ok ${++step} - ${what}`);

async function context(locale) {
  const c = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
  const page = await c.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  return { c, page };
}

try {
  const { c, page } = await context('zh-CN');
  await page.goto(BOOK_URL + '/'); await ready(page);
  assert.equal(new URL(page.url()).pathname, '/zh/', 'a Chinese browser\'s first visit goes to /zh/');
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  const order = await page.locator('ol.chapters > li > a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.ok(order.length >= 3 && order.every((h) => h.startsWith('/zh/ch/')), `chapters: ${order}`);
  assert.match(await page.locator('ol.chapters > li > a').first().textContent(), CJK, 'chapter titles in Chinese');
  // The live home page's own strings are Chinese too.
  assert.equal(await page.locator('main.home h2').last().textContent(), '你的代码与进度');
  for (const name of ['导出进度', '全部重置']) await page.getByRole('button', { name }).waitFor();
  assert.match(await page.locator('.chapter-card summary').first().textContent(), /^练习：\d+ 道中已通过 \d+ 道$/);
  assert.match(await page.locator('.theme-switch').textContent(), /^主题：/);
  ok(`a Chinese browser lands on /zh/, which lists ${order.length} Chinese chapters, with Chinese buttons and progress`);

  for (const href of order) {
    await page.goto(BOOK_URL + href); await ready(page);
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN', `${href}: lang`);
    const chapter = await page.locator('main.chapter').getAttribute('data-chapter');
    const prose = await page.locator('main.chapter .prose').first().textContent();
    assert.ok((prose.match(/[\u4e00-\u9fff]/g) || []).length > 50, `${href}: the text is Chinese`);
    const cells = await page.locator('section.cell[data-cell]').evaluateAll((els) => els.map((e) => e.dataset.cell));
    for (const id of cells) {
      const cell = page.locator(`.cell[data-cell="${id}"]`);
      // A cell runs in the page when it comes near the screen.
      await scrollTo(page, `.cell[data-cell="${id}"]`);
      await cell.locator('.timing', { hasText: /用时 [0-9.]+ 毫秒/ }).waitFor({ timeout: 15000 });
      assert.equal(await cell.locator('.cell-problem').count(), 0, `${id}: no problem shown`);
      // The live cell's chrome and its parameters' labels and help are Chinese.
      assert.equal(await cell.locator('.cell-kind').textContent(), '动手运行', `${id}: cell kind`);
      assert.match(await cell.locator('.cell-title').textContent(), CJK, `${id}: title in Chinese`);
      assert.equal(await cell.locator('button.run').textContent(), '运行', `${id}: Run button`);
      // Labels are Chinese, or a name that Chinese writes the same way (GPU).
      for (const label of await cell.locator('.param label').allTextContents()) {
        assert.match(label, /[\u4e00-\u9fff]|^[A-Z0-9 ]+$/, `${id}: parameter label "${label}" in Chinese`);
      }
      // What the cell computed is written in Chinese too (the same numbers:
      // chapters/tests/outputs_in_both_languages.rs compares them).
      const written = (await cell.locator('.cell-output').textContent()).replace(/\s+/g, ' ');
      assert.match(written, CJK, `${id}: output in Chinese: ${written.slice(0, 200)}`);
      assert.doesNotMatch(written, /\b(the|of|and|per|with)\b/, `${id}: English words left in its output: ${written.slice(0, 300)}`);
      const helps = await cell.locator('.param-help').allTextContents();
      assert.ok(helps.some((h) => CJK.test(h)), `${id}: parameter help in Chinese: ${helps}`);
    }
    // A bad value gets a Chinese message, and the cell recovers.
    if (cells.length) {
      const cell = page.locator(`.cell[data-cell="${cells[0]}"]`);
      const input = cell.locator('.param input[type="text"]').first();
      const before = await input.inputValue();
      await input.fill('abc');
      const err = cell.locator('.param.invalid .param-error');
      await err.waitFor();
      assert.match(await err.textContent(), CJK, `${cells[0]}: parameter error in Chinese: ${await err.textContent()}`);
      assert.match(await cell.locator('p.error').last().textContent(), CJK);
      await input.fill(before);
      await page.waitForFunction((id) => !document.querySelector(`.cell[data-cell="${id}"] .param.invalid`), cells[0]);
    }
    const exs = await page.locator('section.exercise[data-exercise]').evaluateAll((els) => els.map((e) => e.dataset.exercise));
    for (const id of exs) {
      const ex = page.locator(`.exercise[data-exercise="${id}"]`);
      assert.match(await ex.locator('.cell-title').textContent(), CJK, `${id}: title in Chinese`);
      await ex.locator('button', { hasText: '显示提示' }).click();
      assert.match(await ex.locator('.hints li').first().textContent(), CJK, `${id}: hints in Chinese`);
      const editor = ex.locator('textarea.editor');
      assert.match(await editor.inputValue(), /^\/\/ .*[\u4e00-\u9fff]/, `${id}: the starter's comments are Chinese`);
      const sig = (await ex.locator('.signature code').textContent()).match(/^fn (\w+)\(([^)]*)\)/);
      await editor.fill(`fn ${sig[1]}(${sig[2]}) { 0 }`);
      await editor.press('Control+Enter');
      await ex.locator('.verdict[data-status="failed"], .verdict[data-status="error"]').waitFor();
      // The wrong answer's diff, and what the verdict says of it, in Chinese.
      assert.match(await ex.locator('.case.fail .case-detail[open]').first().textContent(), /输入：.*期望：.*实际：/s);
      assert.match(await ex.locator('.verdict-head').textContent(), /个用例中通过 \d+ 个/);
      const said = await ex.locator('.verdict-msg').textContent();
      assert.match(said, /^第 \d+ 个用例/, `${id}: verdict message in Chinese: ${said}`);
      assert.match(await ex.locator('.case.fail .case-name').first().textContent(), /^第 \d+ 个用例/);
      await editor.fill(SOLUTIONS[id]);
      await editor.press('Control+Enter');
      await ex.locator('.verdict[data-status="passed"]').waitFor();
    }
    assert.equal(await page.locator(`.toc [data-chapter="${chapter}"]`).textContent(), `${exs.length}/${exs.length}`);
    // The first glossary link lands on its term in the Chinese glossary.
    const g = page.locator('main.chapter a[href^="/zh/glossary#"]').first();
    const target = await g.getAttribute('href');
    await page.goto(BOOK_URL + target); await ready(page);
    const term = target.split('#')[1];
    assert.equal(await page.locator(`tr#${term}`).count(), 1, `${target}: the term's row`);
    assert.match(await page.locator(`tr#${term} th`).textContent() + await page.locator(`tr#${term} td`).last().textContent(), /\S/);
    ok(`${href}: Chinese text, ${cells.length} cells ran, ${exs.length} exercises with Chinese titles and hints solved, glossary link ${target} lands`);
  }

  // Rhai's errors in Chinese: the kind and the place, and for the kinds a
  // learner meets most the cause too; the editor still marks the line.
  await page.goto(BOOK_URL + order[0]); await ready(page);
  {
    const att = page.locator('#exercise-attended');
    await att.locator('textarea.editor').fill('fn attended(pos, ratio, topk, window) {\n    let x = ;\n}');
    await att.locator('button.run').click();
    await att.locator('.verdict[data-status="error"]').waitFor({ timeout: 15000 });
    const said = await att.locator('.verdict-msg').textContent();
    assert.match(said, /语法错误（第 2 行第 \d+ 列）：这里不应出现 ';'/, said);
    assert.doesNotMatch(said, /syntax error/, said);
    const sc = page.locator('section.scratch');
    await sc.locator('.cm-content').waitFor();
    await sc.locator('textarea').fill('let a = [1, 2];\na[5]');
    await sc.locator('textarea').press('Control+Enter');
    await page.waitForFunction(() => /下标越界/.test(document.querySelector('section.scratch .scratch-error')?.textContent || ''));
    const err = await sc.locator('.scratch-error').textContent();
    assert.match(err, /^运行出错（第 2 行第 \d+ 列）：下标越界：长度为 2 的值没有下标 5$/, err);
    assert.equal(await sc.locator('.cm-line').nth(1).evaluate((l) => l.classList.contains('cm-error-line')), true, 'line 2 of the scratch code is marked');
  }
  ok(`Rhai's errors read in Chinese: "${'语法错误（第 2 行…）'}" in a verdict, "运行出错（第 2 行…）：下标越界…" in the scratch cell, whose line 2 is marked`);

  // A damaged shared link is explained in Chinese, the browser's part included.
  await page.goto(BOOK_URL + '/zh/ch/kvcache#cell-cla?s=zAAAA-not-deflate'); await ready(page);
  {
    const note = page.locator('#cell-cla .shared-note.error');
    await note.waitFor();
    const said = await note.textContent();
    assert.match(said, /已损坏|不是一个有效的链接/, said);
    assert.doesNotMatch(said, /damaged|valid link/, said);
  }
  ok('a damaged shared link is explained in Chinese');

  // Search: two characters inside a sentence with no spaces.
  await page.goto(BOOK_URL + order[1]); await ready(page);
  await page.keyboard.press('/');
  await page.waitForSelector('#search-input');
  for (const q of ['缓存', '专家']) {
    await page.fill('#search-input', q);
    await page.waitForFunction((q) => document.querySelector('#search')?.dataset.query === q, q);
    const found = await page.$$eval('a.search-result', (as) => as.map((a) => ({
      href: a.getAttribute('href'),
      marked: a.querySelector('.search-excerpt').innerHTML.replace(/<\/mark><mark>/g, ''),
    })));
    assert.ok(found.length > 0, `${q}: no results`);
    assert.ok(found.every((r) => r.href.startsWith('/zh/')), `${q}: results outside the Chinese edition: ${found.map((r) => r.href)}`);
    assert.ok(found.some((r) => r.marked.includes(`<mark>${q}</mark>`)), `${q}: not marked in ${JSON.stringify(found.slice(0, 2))}`);
  }
  await page.keyboard.press('Escape');
  ok('search in the Chinese edition finds 缓存 and 专家 inside sentences, and only Chinese pages');

  // The switch keeps the place, and the choice is remembered.
  const id = await page.locator('main.chapter h2[id]').nth(3).getAttribute('id');
  await page.goto(BOOK_URL + order[1] + '#' + id); await ready(page);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/zh/')), page.click('a.lang-switch')]);
  await ready(page);
  const u = new URL(page.url());
  assert.equal(u.pathname + u.hash, order[1].replace('/zh', '') + '#' + id, 'the switch keeps the section');
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  await page.goto(BOOK_URL + '/ch/deploy'); await ready(page);
  assert.equal(new URL(page.url()).pathname, '/ch/deploy', 'the choice of English is remembered');
  // Deep in a section with no #anchor in the address: the switch keeps the
  // section and how far into it the reader was, as a fraction of its length
  // (the two editions' sections differ in height).
  const place = () => {
    const els = [...document.querySelectorAll('.chapter h2[id], .chapter h3[id], section.cell[id], section.exercise[id]')];
    let at = -1;
    for (let i = 0; i < els.length && els[i].getBoundingClientRect().top <= 8; i++) at = i;
    if (at < 0) return null;
    const top = els[at].getBoundingClientRect().top;
    const next = at + 1 < els.length ? els[at + 1].getBoundingClientRect().top : document.documentElement.scrollHeight - scrollY;
    return { id: els[at].id, ratio: -top / (next - top), y: scrollY };
  };
  await page.goto(BOOK_URL + '/ch/kvcache'); await ready(page);
  const h = await page.locator('main.chapter h2[id]').nth(4).getAttribute('id');
  // 40% into it; editors and panels mounting above may move the page, so
  // scroll again until the place holds (each look waits for the 2 s stay).
  let before = null;
  for (let i = 0; i < 4 && !(before && before.id === h && Math.abs(before.ratio - 0.4) < 0.1); i++) {
    await page.evaluate((h) => {
      document.documentElement.dataset.place = '';
      const el = document.getElementById(h);
      const all = [...document.querySelectorAll('.chapter h2[id], .chapter h3[id], section.cell[id], section.exercise[id]')];
      const next = all[all.indexOf(el) + 1];
      const top = el.getBoundingClientRect().top + scrollY;
      window.scrollTo(0, top + 0.4 * (next.getBoundingClientRect().top + scrollY - top));
    }, h);
    // The page takes a place as read once the reader stays there (2 s); then
    // the click, which scrolls the header's switch into view first.
    await page.waitForSelector(`html[data-place="${h}"]`, { state: 'attached' });
    before = await page.evaluate(place);
  }
  assert.equal(before.id, h, `scrolled into ${before.id}, not ${h}`);
  assert.equal(new URL(page.url()).hash, '', 'the address has no #anchor');
  await Promise.all([page.waitForURL((u) => u.pathname === '/zh/ch/kvcache'), page.click('a.lang-switch')]);
  await ready(page);
  assert.equal(new URL(page.url()).hash, '#' + h, 'the switch names the section');
  // The app lands there again as the live parts mount (50, 200, 500 ms): wait
  // for the place, not for a time.
  const after = await page.waitForFunction(([h, place, ratio]) => {
    const p = new Function(`return (${place})()`)();
    return p && p.id === h && Math.abs(p.ratio - ratio) < 0.1 && p;
  }, [h, place.toString(), before.ratio], { timeout: 10000 }).then((r) => r.jsonValue()).catch(() => page.evaluate(place));
  assert.ok(after && after.id === h && Math.abs(after.ratio - before.ratio) < 0.1,
    `on /zh/ch/kvcache the reader is at ${JSON.stringify(after)}, not where they were in ${h} on /ch/kvcache (${JSON.stringify(before)})`);
  assert.deepEqual(page.errors, [], 'no page errors');
  await c.close();
  ok(`the language switch keeps the section and the place in it (${before.ratio.toFixed(2)} of ${h} in English, ${after.ratio.toFixed(2)} in Chinese), and is remembered`);

  const en = await context('en-US');
  await en.page.goto(BOOK_URL + '/zh/ch/kvcache'); await ready(en.page);
  assert.equal(new URL(en.page.url()).pathname, '/zh/ch/kvcache', 'a /zh/ address is honoured');
  await en.page.goto(BOOK_URL + '/'); await ready(en.page);
  assert.equal(new URL(en.page.url()).pathname, '/', 'an English browser stays in English');
  await en.c.close();
  ok('an English browser reads /zh/ when it asks for it, and English otherwise');
} finally {
  await browser.close();
}
console.log(`\nall ${step} steps passed`);
