// End-to-end: walk the whole book in reading order, as a reader who does every
// exercise would. For each chapter (found from the home page, then by each
// chapter's "next" link): every cell has run in the page, every exercise passes
// with its known-good solution (`solution.rhai`, via solutions.mjs), a wrong
// answer shows expected against actual, the contents mark the chapter's
// progress, and the 404 page is a real one. Every island (cell, exercise,
// scratch cell) mounts with the markup the build rendered from the same
// component (`app/src/ssr.rs`): one renderer, checked element by element.
import assert from 'node:assert/strict';
import { BOOK_URL, launch, offsiteRequests, ready, scrollTo } from './browser.mjs';
import { SOLUTIONS } from './solutions.mjs';

const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
// Nothing the book does asks any other origin for anything.
const offsite = offsiteRequests(page.context());
let step = 0;
const ok = (what) => console.log(`ok ${++step} - ${what}`);

// How an island's element `id` as built (rendered natively at build time)
// differs from the same element mounted live (one component's markup): the
// same elements, attributes and text, but for what a run fills in (its time)
// and what plotly draws into a chart. Null when they agree.
async function builtDiff(live, id) {
  return live.evaluate(async (live, id) => {
    // The page as served, parsed once per page.
    if (window.__built?.path !== location.pathname) {
      const html = await (await fetch(location.pathname)).text();
      window.__built = { path: location.pathname, doc: new DOMParser().parseFromString(html, 'text/html') };
    }
    const built = window.__built.doc.getElementById(id);
    const shape = (el) => {
      if (el.nodeType === Node.TEXT_NODE) return el.textContent.trim() ? [el.textContent] : [];
      if (el.nodeType !== Node.ELEMENT_NODE) return [];
      // A wrapper that only holds the first output (display: contents).
      if (el.classList.contains('prerendered')) return [...el.childNodes].flatMap(shape);
      // The code editor the page lays over a textarea once it mounts, and
      // what the scratch cell's run printed.
      if (el.classList.contains('cm-editor') || el.classList.contains('scratch-out')) return [];
      const attrs = [...el.attributes]
        // What drawing sets: the mark, and the height a legend needs; how
        // many runs the scratch cell made.
        .filter((a) => !['data-drawn', 'data-runs'].includes(a.name) && !(a.name === 'style' && el.classList.contains('chart')))
        .map((a) => a.name === 'class' ? `class=${[...el.classList].filter((c) => !c.startsWith('js-plotly') && c !== 'has-cm').sort().join(' ')}`
          // One declaration list, however it was written ("a:b" or "a:b;").
          : a.name === 'style' ? `style=${el.style.cssText}` : `${a.name}=${a.value}`)
        // A field: the value it shows, whether its markup holds it
        // (the built page) or its property (the live cell, where the
        // markup's would put a focused field's caret at its start).
        .filter((a) => !(el.tagName === 'INPUT' && a.startsWith('value=')))
        // The textarea the code editor stands in for, hidden from a reader.
        .filter((a) => !(el.tagName === 'TEXTAREA' && el.parentElement?.classList.contains('has-cm') && /^(aria-hidden|tabindex)=/.test(a)))
        .concat(['INPUT', 'TEXTAREA'].includes(el.tagName) ? [`value=${el.value}`] : [])
        .sort();
      const inside = el.tagName === 'TEXTAREA' ? [] : el.classList.contains('chart') ? [...el.querySelectorAll(':scope > .chart-pending')]
        : el.classList.contains('timing') ? [] : [...el.childNodes];
      return [{ tag: el.tagName, attrs, kids: inside.flatMap(shape) }];
    };
    const first = (a, b, path) => {
      if (typeof a === 'string' || typeof b === 'string') return a === b ? null : `${path}: ${JSON.stringify(a)} against ${JSON.stringify(b)}`;
      if (a.tag !== b.tag || a.attrs.join() !== b.attrs.join()) return `${path}: <${a.tag} ${a.attrs.join(' ')}> against <${b.tag} ${b.attrs.join(' ')}>`;
      for (let i = 0; i < Math.max(a.kids.length, b.kids.length); i++) {
        if (!a.kids[i] || !b.kids[i]) return `${path} > ${a.tag}: child ${i} only in ${a.kids[i] ? 'the built page' : 'the live one'}`;
        const d = first(a.kids[i], b.kids[i], `${path} > ${a.tag}`);
        if (d) return d;
      }
      return null;
    };
    return built ? first(shape(built)[0], shape(live)[0], id) : `${id}: not in the built page`;
  }, id);
}

try {
  await page.goto(BOOK_URL + '/'); await ready(page);
  const order = await page.locator('ol.chapters > li > a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.ok(order.length >= 1, 'the home page lists the chapters');
  ok(`the home page lists ${order.length} chapter(s): ${order.join(', ')}`);

  const solved = new Set();
  let href = order[0];
  for (let i = 0; i < order.length; i++) {
    assert.equal(href, order[i], `chapter ${i + 1} in reading order`);
    await page.goto(BOOK_URL + href); await ready(page);
    const chapter = await page.locator('main.chapter').getAttribute('data-chapter');

    // The contents list every chapter, this one expanded with its sections.
    const listed = await page.locator('.toc .book-toc > li > a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.deepEqual(listed, order, 'the contents list the book in reading order');
    assert.ok(await page.locator('.toc li.current ol a').count() >= 3, 'sections of this chapter');

    // Every cell runs in the page (its timing shows, its output is live).
    const cells = await page.locator('section.cell[data-cell]').evaluateAll((els) => els.map((e) => e.dataset.cell));
    for (const id of cells) {
      const c = page.locator(`.cell[data-cell="${id}"]`);
      // A cell runs in the page when it comes near the screen.
      await scrollTo(page, `.cell[data-cell="${id}"]`);
      await c.locator('.timing', { hasText: 'ran in' }).waitFor({ timeout: 15000 });
      assert.equal(await c.locator('.cell-output > .prerendered').count(), 0, `${id}: output computed in the page`);
      assert.equal(await c.locator('.cell-problem').count(), 0, `${id}: no problem shown`);
      // The page as built and the mounted cell are one component's markup.
      assert.equal(await builtDiff(c, `cell-${id}`), null, `${id}: the built cell is the live one`);
    }

    // A table column of sentences reads left-aligned, its values right-aligned
    // (the planner's "how" beside its numbers).
    if (cells.includes('planner')) {
      const align = await page.locator('.cell[data-cell="planner"] .cell-table tbody tr').first()
        .evaluate((tr) => [...tr.cells].map((c) => getComputedStyle(c).textAlign));
      assert.deepEqual(align.slice(0, 3), ['left', 'left', 'right'], `planner's columns: ${align}`);
    }

    // A long audit does not bury the result: the planner and request_kv
    // open with their headline text, and the step-by-step part is folded.
    for (const id of ['planner', 'request_kv'].filter((id) => cells.includes(id))) {
      const shape = await page.locator(`.cell[data-cell="${id}"] .cell-output`).evaluate((out) => {
        const first = out.querySelector('.cell-text, .table-wrap, details.cell-details');
        const fold = out.querySelector('details.cell-details');
        return { first: first && first.className, folded: !!fold && !fold.open, inside: fold ? fold.querySelectorAll('.cell-text, .cell-table').length : 0 };
      });
      assert.ok(/cell-text/.test(shape.first) && shape.folded && shape.inside > 0, `${id} leads with its headline, the audit folded: ${JSON.stringify(shape)}`);
    }

    // The scratch cell too, before anything is typed into it.
    if (await page.locator('#scratch').count()) {
      await scrollTo(page, '#scratch');
      await page.locator('.island[data-mounted] #scratch').waitFor();
      // It runs its first code once mounted; compared once that run is over.
      await page.waitForFunction(() => document.querySelector('#scratch')?.dataset.runs === '1'
        && !document.querySelector('#scratch button.stop'));
      assert.equal(await builtDiff(page.locator('#scratch'), 'scratch'), null, `${chapter}: the built scratch cell is the live one`);
    }

    // Every exercise passes with its known-good solution; a wrong answer shows its diff.
    const exs = await page.locator('section.exercise[data-exercise]').evaluateAll((els) => els.map((e) => e.dataset.exercise));
    for (const id of exs) {
      assert.ok(SOLUTIONS[id], `${id} has a known-good solution`);
      const ex = page.locator(`.exercise[data-exercise="${id}"]`);
      const editor = ex.locator('textarea.editor');
      await editor.scrollIntoViewIfNeeded();
      // Mounted, untouched: the same markup as the page was built with.
      await page.locator(`.island[data-mounted] .exercise[data-exercise="${id}"]`).waitFor();
      const anchor = await ex.getAttribute('id');
      assert.equal(await builtDiff(ex, anchor), null, `${id}: the built exercise is the live one`);
      // A plausible wrong answer: the right signature returning 0.
      const sig = (await ex.locator('.signature code').textContent()).match(/^fn (\w+)\(([^)]*)\)/);
      await editor.fill(`fn ${sig[1]}(${sig[2]}) { 0 }`);
      await editor.press('Control+Enter');
      // 0 has the wrong type where a list or map is due: "error", else "failed".
      const verdict = ex.locator('.verdict[data-status="failed"], .verdict[data-status="error"]');
      await verdict.waitFor();
      const first = ex.locator('.case.fail .case-detail[open]').first();
      assert.match(await first.textContent(), /input: .*expected: .*actual: /s, `${id}: a failing case shows input, expected and actual`);
      await editor.fill(SOLUTIONS[id]);
      await editor.press('Control+Enter');
      await ex.locator('.verdict[data-status="passed"]').waitFor();
      assert.equal(await page.locator(`.toc [data-progress="${id}"] .mark`).textContent(), '✓', `${id} marked in the contents`);
      solved.add(id);
    }
    const progress = await page.locator(`.toc [data-chapter="${chapter}"]`).textContent();
    assert.equal(progress, `${exs.length}/${exs.length}`, `${chapter}: contents show every exercise passed`);
    ok(`${chapter}: ${cells.length} cells ran, ${exs.length} exercises solved (a wrong answer showed its diff first); each island mounted with its built markup`);

    // On to the next chapter by its link (the last has none).
    const next = page.locator('.prev-next a[rel="next"]');
    if (i + 1 < order.length) {
      href = await next.getAttribute('href');
    } else {
      assert.equal(await next.count(), 0, 'the last chapter has no next link');
    }
  }
  assert.deepEqual([...solved].sort(), Object.keys(SOLUTIONS).sort(), 'every known-good solution was used on its chapter');
  ok(`walked the book in reading order; all ${solved.size} exercises solved`);

  await page.goto(BOOK_URL + '/'); await ready(page);
  for (const [i, h] of order.entries()) {
    const card = page.locator('ol.chapters > li').nth(i);
    assert.match(await card.locator('summary').textContent(), /Exercises: (\d+) of \1 passed/, `${h} shows its progress`);
  }
  ok('the home page shows every chapter complete');

  const resp = await page.goto(BOOK_URL + '/ch/no-such-chapter'); await ready(page);
  assert.equal(resp.status(), 404);
  await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  assert.ok(await page.locator('main a[href^="/ch/"]').count() >= order.length, 'the 404 page lists the chapters');
  ok('an unknown path is a 404 page that lists the chapters');

  assert.deepEqual(errors, [], 'no uncaught page errors');
  ok('no page errors');
  assert.deepEqual(offsite, [], 'requests to other origins');
  ok('no request left the book\'s origin');
} catch (e) {
  await page.screenshot({ path: 'target/e2e-book-failure.png', fullPage: false }).catch(() => {});
  console.error('not ok - ' + (e.stack || e) + '\n(screenshot: target/e2e-book-failure.png)');
  process.exitCode = 1;
} finally {
  await browser.close();
}
