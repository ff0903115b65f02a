// End-to-end: a reader who knows Python and no Rhai. Python loads only when
// they first pick it (never on page load), and says so while it loads; every
// exercise of the book is solved in Python (a wrong answer first); the choice
// and the code are kept across a reload; hostile Python ends in named limits
// while the page stays responsive, and a fresh Python is ready again; the
// Chinese edition speaks Chinese; and after a first run Python works offline.
// Runs against a real static host (nginx: its MIME types, the service worker).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BOOK_URL, gap, heartbeat, launchPersistent, offsiteRequests, quiet, ready, resetGap, settle } from './browser.mjs';
import { PYTHON_SOLUTIONS } from './solutions.mjs';

const ROOT = path.join(path.dirname(new URL(import.meta.url).pathname), '..');

// The CLI's verdicts (`judge <folder> --json`) on `sources` (slug → Python),
// graded by CPython: the judge binary the native tests built, else cargo's.
/** The judge CLI (`target/debug/judge`, else `cargo run`) with `args`, in
 * English: its standard output and exit status. */
function judgeCli(args) {
  const built = path.join(ROOT, 'target', 'debug', 'judge');
  const [cmd, pre] = fs.existsSync(built) ? [built, []] : ['cargo', ['run', '--quiet', '-p', 'judge-cli', '--']];
  try {
    const stdout = execFileSync(cmd, [...pre, ...args], { cwd: ROOT, env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: '' }, encoding: 'utf8' });
    return { stdout, status: 0 };
  } catch (e) {
    return { stdout: e.stdout, status: e.status }; // exit status 1: something failed, as some of these must
  }
}

function cliVerdicts(chapter, sources) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ih-python-cli-'));
  const folder = path.join(dir, chapter);
  fs.mkdirSync(folder);
  for (const [slug, src] of Object.entries(sources)) fs.writeFileSync(path.join(folder, `${slug}.py`), src);
  const { stdout } = judgeCli([folder, '--json']);
  fs.rmSync(dir, { recursive: true, force: true });
  return JSON.parse(stdout);
}

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ih-python-'));
const context = await launchPersistent(profile, { viewport: { width: 1280, height: 900 } });
const page = context.pages()[0] || await context.newPage();
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
const offsite = offsiteRequests(context);
const pyRequests = [];
context.on('request', (r) => { if (/\/pyodide\//.test(r.url())) pyRequests.push(r.url()); });
let step = 0;
const ok = (what) => console.log(`ok ${++step} - ${what}`);

const panel = (id) => page.locator(`section.exercise[data-exercise="${id}"]`);
const runs = (id) => page.evaluate((id) => Number(document.querySelector(`section.exercise[data-exercise="${id}"] .results`).dataset.runs), id);

// Types `code` into the exercise's editor (the textarea the editor mirrors)
// and runs it; resolves with the verdict's status and message once this run
// (not an earlier one) has its verdict.
async function run(id, code, timeout = 60000) {
  const ex = panel(id);
  const before = await runs(id);
  await ex.locator('textarea.editor').evaluate((t, v) => {
    t.value = v;
    t.dispatchEvent(new Event('input', { bubbles: true }));
  }, code);
  await ex.locator('button.run').click();
  await page.waitForFunction(([id, n]) => Number(document.querySelector(`section.exercise[data-exercise="${id}"] .results`).dataset.runs) > n, [id, before], { timeout });
  const v = ex.locator('.verdict');
  return { status: await v.getAttribute('data-status'), message: await v.locator('.verdict-msg').textContent() };
}

async function choosePython(id) {
  const b = panel(id).locator('button.lang-choice[data-answer="python"]');
  if ((await b.getAttribute('aria-pressed')) !== 'true') await b.click();
  await page.waitForFunction((id) => document.querySelector(`section.exercise[data-exercise="${id}"] textarea.editor`).dataset.lang === 'python', id);
}

try {
  // The service worker first, so that Python's files go through it.
  await page.goto(BOOK_URL + '/'); await ready(page, { all: false });
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
    }
  });

  const order = await page.locator('ol.chapters > li > a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  let solved = 0;
  for (const [i, href] of order.entries()) {
    await page.goto(BOOK_URL + href); await ready(page);
    if (i === 0) {
      assert.equal(pyRequests.length, 0, 'no Python is fetched on page load');
      ok('a chapter loads without fetching Python');
    }
    const ids = await page.locator('section.exercise[data-exercise]').evaluateAll((els) => els.map((e) => e.dataset.exercise));
    for (const [j, id] of ids.entries()) {
      assert.ok(PYTHON_SOLUTIONS[id], `${id} has a solution.py`);
      await panel(id).scrollIntoViewIfNeeded();
      await choosePython(id);
      if (i === 0 && j === 0) {
        // One choice holds for the whole book: the other panels follow at once.
        const langs = await page.locator('section.exercise textarea.editor').evaluateAll((ts) => ts.map((t) => t.dataset.lang));
        assert.ok(langs.length === ids.length && langs.every((l) => l === 'python'), `every panel switched: ${langs}`);
        ok(`choosing Python in one panel switched all ${ids.length} on the page`);
      }
      const starter = await panel(id).locator('textarea.editor').inputValue();
      assert.match(starter, /^def \w+\([^)]*\)[^\n]*:\n\s+"""[\s\S]*raise NotImplementedError/, `${id}: the Python starter`);
      assert.match(await panel(id).locator('.signature code').textContent(), /^def /, `${id}: a Python signature`);
      if (i === 0 && j === 0) {
        // The first run: Python loads, and the panel says so.
        const ex = panel(id);
        const t0 = Date.now();
        await ex.locator('button.run').click();
        await ex.locator('.python-loading').waitFor({ timeout: 10000 });
        const said = await ex.locator('.python-loading').textContent();
        await ex.locator('.verdict').waitFor({ timeout: 60000 });
        assert.equal(await ex.locator('.verdict').getAttribute('data-status'), 'not attempted', `${id}: the untouched starter`);
        ok(`the first Python run said "${said.trim()}" and gave a verdict after ${Date.now() - t0} ms`);
      }
      const wrong = await run(id, starter.replace(/raise NotImplementedError.*/, 'return 0'));
      assert.ok(['failed', 'error'].includes(wrong.status), `${id}: returning 0 is ${wrong.status}`);
      const right = await run(id, PYTHON_SOLUTIONS[id]);
      assert.equal(right.status, 'passed', `${id}: ${right.message}`);
      assert.equal(await page.locator(`.toc [data-progress="${id}"] .mark`).textContent(), '✓', `${id} marked in the contents`);
      solved += 1;
    }
    ok(`${href}: ${ids.length} exercises solved in Python (a wrong answer failed first)`);
  }
  assert.equal(solved, Object.keys(PYTHON_SOLUTIONS).length, 'every exercise of the book');

  // After a pass, the reference is the Python one; Rust is a click away.
  const id = 'ch_deploy/decode_ms';
  await panel(id).locator('button.reveal').click();
  const ref = panel(id).locator('.reference');
  assert.match(await ref.locator('code.python').textContent(), /def decode_ms/, 'a Python reference');
  assert.equal(await ref.locator('details.reference-rust').count(), 1, 'the Rust reference folded beside it');
  ok('after a pass, the reference solution is shown in Python');

  // The choice and the code survive a reload; Rhai keeps its own code.
  await page.reload(); await ready(page);
  assert.equal(await panel(id).locator('textarea.editor').getAttribute('data-lang'), 'python');
  assert.equal((await panel(id).locator('textarea.editor').inputValue()).trim(), PYTHON_SOLUTIONS[id].trim(), 'the Python code is kept');
  await panel(id).locator('button.lang-choice[data-answer="rhai"]').click();
  assert.match(await panel(id).locator('textarea.editor').inputValue(), /^\/\/[\s\S]*fn decode_ms/, 'Rhai has its own (starter) code');
  await panel(id).locator('button.lang-choice[data-answer="python"]').click();
  ok('Python stays chosen after a reload, with its code; Rhai keeps its own');

  // Hostile Python: each ends in a verdict that names it, the page keeps
  // answering (a 10 ms heartbeat), and the next run works.
  await page.evaluate(heartbeat);
  const def = 'def decode_ms(active_gb, kv_gb, bw_tb_s):\n';
  const hostile = [
    ['an endless loop', def + '    while True:\n        pass\n', 'limit exceeded', /time limit exceeded \(2 s for all cases; case 1 was still running\)/],
    ['endless recursion', def + '    return decode_ms(active_gb, kv_gb, bw_tb_s)\n', 'limit exceeded', /call depth limit exceeded/],
    ['a memory bomb', def + '    x = [0] * 10**9\n    return 1.0\n', 'limit exceeded', /memory limit exceeded/],
    // 10^10 bytes do not fit a 32-bit size: Python says so, or runs out of memory.
    ['a huge string', def + '    x = "x" * 10**10\n    return 1.0\n', ['error', 'limit exceeded'], /(MemoryError|OverflowError|memory limit)/],
    ['import js', 'import js\n' + def + '    return 1.0\n', 'error', /ImportError: `js` is not available to answers/],
    ['pyodide_js from a function', def + '    import pyodide_js\n    return 1.0\n', 'error', /line 2: ImportError: `pyodide_js`/],
    ['sys.exit', def + '    import sys\n    sys.exit(3)\n', 'error', /called sys\.exit\(3\)/],
    ['a generator', def + '    return (x for x in [1.0])\n', 'error', /returned a generator/],
    ['an int beyond 64 bits', def + '    return 10 ** 30\n', 'error', /does not fit in 64 bits/],
    ['NaN', def + '    return float("nan")\n', 'failed', /NaN/],
    ['a syntax error', def + '    return (active_gb +\n', 'error', /decode_ms\.py, line 2/],
  ];
  // Each case starts from a quiet page, as in hostile.mjs: what the step
  // before set going (a language switch re-highlights the editor, a verdict
  // renders its cases) ends first, so that each gap is the case's own.
  for (const [name, code, status, said] of hostile) {
    await settle(page);
    await quiet(page);
    await resetGap(page);
    const t0 = Date.now();
    const v = await run(id, code);
    const longest = await gap(page);
    assert.ok([status].flat().includes(v.status), `${name}: ${v.status}: ${v.message}`);
    assert.match(v.message, said, name);
    assert.ok(longest < 100, `${name}: the page stalled for ${longest.toFixed(0)} ms`);
    ok(`${name}: "${v.message.trim().slice(0, 90)}" (${Date.now() - t0} ms, longest main-thread gap ${longest.toFixed(0)} ms)`);
    // A time-out ends the Python worker and starts a fresh one, which
    // compiles Pyodide again in the background. The next case starts from
    // that state (a fresh Python ready), so that its gap is its own and not
    // the browser compiling 10 MB of wasm on a machine that is busy.
    if (/time limit/.test(v.message)) {
      const again = await run(id, PYTHON_SOLUTIONS[id]);
      assert.equal(again.status, 'passed', `after ${name}: ${again.message}`);
    }
  }
  // 100,000 lines on the first case (all cases would pass the time limit).
  const flood = await run(id, 'FLOODED = []\n\n' + def + '    if not FLOODED:\n        FLOODED.append(1)\n        for i in range(100000):\n            print("spam", i)\n    return -1.0\n');
  const printed = await panel(id).locator('.case.fail .prints').first().textContent();
  assert.equal(flood.status, 'failed', flood.message);
  assert.match(printed, /bytes printed in all/, 'a print flood is cut');
  assert.ok(printed.split('\n').length <= 21, 'at most 21 lines shown');
  ok('a print flood is cut to its first and last lines');
  const back = await run(id, PYTHON_SOLUTIONS[id]);
  assert.equal(back.status, 'passed', 'after all that, Python runs again');
  ok('a fresh Python passes the exercise again');

  // Parity: the browser (Pyodide) and the CLI (CPython) give the same
  // verdict JSON. The page saves each whole run's verdict as the judge wrote
  // it (it goes into "Export progress"); the CLI's `--json` adds `language`
  // and `elapsed_ms` to that same value. The words shown agree too.
  const fixtures = {
    correct: PYTHON_SOLUTIONS[id],
    wrong: def + '    return active_gb / bw_tb_s\n',
    nan: def + '    return float("nan")\n',
    printing: def + '    print("reading", active_gb + kv_gb, "GB")\n    return 0.0\n',
    raising: def + '    parts = [active_gb, kv_gb]\n    return parts[2] / bw_tb_s\n',
    partial: def + '    if active_gb > 100:\n        raise NotImplementedError\n    return (active_gb + kv_gb) / bw_tb_s\n',
  };
  const browserSide = {};
  for (const [name, code] of Object.entries(fixtures)) {
    const v = await run(id, code);
    const head = await panel(id).locator('.verdict-head').textContent();
    const saved = await page.evaluate((key) => localStorage.getItem(key), `ih:v2:verdict.py:${id}`);
    assert.ok(saved, `${name}: the page saved the verdict`);
    const receipt = JSON.parse(JSON.parse(saved));
    assert.equal(receipt.code, code, `${name}: the receipt holds the code graded`);
    const json = receipt.verdict;
    assert.equal(json.message, v.message, `${name}: the saved verdict is the one shown`);
    assert.equal(json.passed, Number(head.match(/(\d+) of \d+ cases/)[1]), `${name}: the cases passed shown`);
    browserSide[name] = json;
  }
  for (const [name, code] of Object.entries(fixtures)) {
    const [v] = cliVerdicts('ch_deploy', { decode_ms: code }).filter((x) => x.language === 'python');
    delete v.language;
    delete v.elapsed_ms;
    assert.deepEqual(browserSide[name], v, `${name}: the browser and the CLI give the same verdict JSON`);
  }
  ok(`the browser and the CLI give the same verdict JSON for ${Object.keys(fixtures).join(', ')}`);

  // "Export progress" carries the last whole run's receipt, per language: the
  // code graded, the verdict, the judge's version and the exercise's content
  // hash. `judge verify` grades it again and agrees; an edited verdict is named.
  await page.goto(BOOK_URL + '/'); await ready(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export progress' }).click()]);
  const exportPath = await download.path();
  const exported = JSON.parse(fs.readFileSync(exportPath, 'utf8'));
  const receipt = exported.receipts[id].python;
  assert.deepEqual(receipt.verdict, browserSide.partial, 'the export holds the last Python verdict');
  assert.equal(receipt.code, fixtures.partial, 'the receipt holds the code graded');
  assert.match(receipt.content, /^fnv1a128:[0-9a-f]{32}$/, 'the receipt names the exercise content');
  assert.match(receipt.judge, /^\d+\.\d+\.\d+$/, 'the receipt names the judge version');
  assert.ok(exported.receipts[id].rhai === undefined || exported.receipts[id].rhai.verdict.exercise === id, 'a Rhai receipt, if any, is its own');
  const checked = judgeCli(['verify', exportPath, '--json']);
  const report = JSON.parse(checked.stdout);
  assert.equal(checked.status, 0, `judge verify accepts the page's export: ${checked.stdout}`);
  assert.ok(report.receipts.length >= 1 && report.receipts.every((c) => c.ok), checked.stdout);
  const forged = structuredClone(exported);
  forged.receipts[id].python.verdict.status = 'passed';
  forged.receipts[id].python.verdict.passed = forged.receipts[id].python.verdict.total;
  const forgedPath = path.join(profile, 'forged.json');
  fs.writeFileSync(forgedPath, JSON.stringify(forged));
  const caught = judgeCli(['verify', forgedPath]);
  assert.equal(caught.status, 1, caught.stdout);
  assert.match(caught.stdout, new RegExp(`✗ ${id} \\[python\\]: the verdict differs: the file says passed`), caught.stdout);
  ok(`"Export progress" holds receipts; judge verify agrees with ${report.receipts.length} of them and names a forged pass`);

  // The Chinese edition: the same panel, Chinese words.
  await page.goto(BOOK_URL + '/zh/ch/deploy'); await ready(page);
  await choosePython(id);
  const zh = await run(id, def + '    return 1 / 0\n');
  assert.match(zh.message, /第 2 行抛出了 ZeroDivisionError/, zh.message);
  assert.match(await panel(id).locator('.answer-lang').textContent(), /作答语言/);
  ok(`the Chinese edition: "${zh.message.trim()}"`);
  // ...and every exercise of the Chinese edition is solved in Python, its
  // verdict in Chinese.
  let zhSolved = 0;
  for (const href of order) {
    await page.goto(BOOK_URL + '/zh' + href); await ready(page);
    const ids = await page.locator('section.exercise[data-exercise]').evaluateAll((els) => els.map((e) => e.dataset.exercise));
    for (const id of ids) {
      await panel(id).scrollIntoViewIfNeeded();
      await choosePython(id);
      const v = await run(id, PYTHON_SOLUTIONS[id]);
      assert.equal(v.status, 'passed', `zh ${id}: ${v.message}`);
      assert.match(v.message, /全部 \d+ 个用例通过/, `zh ${id}: ${v.message}`);
      zhSolved += 1;
    }
  }
  assert.equal(zhSolved, Object.keys(PYTHON_SOLUTIONS).length, 'every exercise of the Chinese edition');
  ok(`the Chinese edition: all ${zhSolved} exercises solved in Python, verdicts in Chinese`);

  // Offline: Python comes from the service worker's cache.
  await context.setOffline(true);
  await page.goto(BOOK_URL + '/ch/kvcache'); await ready(page);
  const offId = 'ch_kvcache/gqa_bytes';
  await panel(offId).scrollIntoViewIfNeeded();
  await choosePython(offId);
  const off = await run(offId, PYTHON_SOLUTIONS[offId]);
  assert.equal(off.status, 'passed', `offline: ${off.message}`);
  await context.setOffline(false);
  ok('offline, after a first visit, a Python answer is graded');

  assert.deepEqual(offsite, [], 'no request to any other origin');
  assert.deepEqual(errors, [], 'no page errors');
  ok('no request left the book\'s origin, and no page error');
  console.log(`\npython: ${step} checks passed`);
} finally {
  await context.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
