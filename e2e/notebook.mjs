// End-to-end: "Download notebook" (issue #11 §2). A changed parameter reaches its
// cell's call in the downloaded notebook and nothing else changes; it works
// before the page's wasm has mounted and from the keyboard; a failed fetch says
// so in the page; every chapter's notebook downloads, matches the chapter's
// cells, passes the nbformat 4 schema (Debian's python3-nbformat), and its code
// builds and runs, each call printing what the native demo prints for the
// values it holds (`cargo xtask notebooks FILE…`).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BOOK_URL, launch, ready } from './browser.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = await mkdtemp(join(tmpdir(), 'ih-notebooks-'));
const browser = await launch();
let step = 0;
const ok = (what) => console.log(`ok ${++step} - ${what}`);

const text = (cell) => (Array.isArray(cell.source) ? cell.source.join('') : cell.source);
const calls = (nb) => nb.cells.filter((c) => c.metadata?.inference_handbook?.cell);
// The notebook the build wrote, with the defaults.
async function built(slug) {
  const res = await fetch(`${BOOK_URL}/nb/${slug}.ipynb`);
  assert.equal(res.status, 200, `/nb/${slug}.ipynb`);
  return res.json();
}

async function open(path, { mount = true } = {}) {
  // page.route() below holds files back; a service worker would answer past it.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, serviceWorkers: 'block' });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  // Without the wasm the page stays as the build rendered it.
  if (!mount) await page.route('**/pkg/app_bg.wasm', (r) => r.abort());
  await page.goto(BOOK_URL + path);
  if (mount) await ready(page); else await page.locator('.cell').first().waitFor();
  return page;
}

// Presses `link` (with the keyboard when `keys`), saves the download; its notebook and path.
async function download(page, link, name, keys = false) {
  const waiting = page.waitForEvent('download');
  if (keys) { await link.focus(); await page.keyboard.press('Enter'); } else await link.click();
  const d = await waiting;
  const path = join(dir, name);
  await d.saveAs(path);
  return { nb: JSON.parse(await readFile(path, 'utf8')), path, suggested: d.suggestedFilename() };
}

// `got` is `want` (the build's notebook) but for `changes` (call-cell id →
// [param, old literal, new literal]); Markdown links made absolute.
function sameBut(got, want, changes) {
  assert.equal(got.cells.length, want.cells.length, 'same number of cells');
  const origin = new URL(BOOK_URL).origin;
  want.cells.forEach((w, i) => {
    const g = got.cells[i];
    assert.equal(g.id, w.id);
    let expect = text(w);
    if (w.cell_type === 'markdown') expect = expect.split('](/').join(`](${origin}/`);
    const change = changes[w.id];
    if (change) {
      const [param, from, to] = change;
      assert.ok(expect.includes(`("${param}", ${from})`), `${w.id} holds ${param}'s default ${from}`);
      expect = expect.replace(`("${param}", ${from})`, `("${param}", ${to})`);
    }
    assert.equal(text(g), expect, `cell ${w.id}`);
    assert.deepEqual(g.metadata, w.metadata, `metadata of ${w.id}`);
  });
}

const files = [];
let page;
try {
  // 1. A changed parameter reaches its call cell; every other cell is as built.
  {
    page = await open('/ch/kvcache');
    const input = page.locator('#cell-kv_calc-contexts');
    const before = await input.inputValue();
    const after = '8,192 65,536';
    assert.notEqual(before, after);
    assert.ok(!/["\\\n]/.test(before), 'the default needs no escapes');
    await input.fill(after);
    const link = page.locator('.notebook-download.top a');
    assert.match(await link.getAttribute('title'), /evcxr Rust kernel/);
    const { nb, path, suggested } = await download(page, link, 'kvcache-contexts.ipynb');
    assert.equal(suggested, 'kvcache.ipynb');
    assert.equal(nb.nbformat, 4);
    assert.equal(nb.metadata.kernelspec.name, 'rust');
    sameBut(nb, await built('kvcache'), { 'run-kv_calc': ['contexts', `"${before}"`, `"${after}"`] });
    await page.locator('.notebook-download.top .notebook-status', { hasText: 'with your values in 1 cell' }).waitFor();
    assert.deepEqual(page.errors, []);
    files.push(path);
    await page.context().close();
    ok('kvcache: the changed context lengths are in kv_calc\'s call cell, every other cell as built');
  }

  // 2. Before the wasm mounts: the pre-rendered inputs count; several lines make a raw string.
  {
    page = await open('/ch/kvcache', { mount: false });
    const box = page.locator('#cell-kv_calc-models');
    const before = await box.inputValue();
    const added = 'Tiny "test": gqa layers=2 kv_heads=1 head_dim=64 bytes=1';
    await box.fill(before + '\n' + added);
    const { nb, path } = await download(page, page.locator('.notebook-download.footer a'), 'kvcache-models.ipynb');
    assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-ready')), false, 'the wasm never mounted');
    assert.ok(!before.includes('"'), 'the default has no quote, so it is a plain raw string');
    sameBut(nb, await built('kvcache'), {
      'run-kv_calc': ['models', `r"${before}"`, `r#"${before}\n${added}"#`],
    });
    files.push(path);
    await page.context().close();
    ok('before the page\'s wasm mounts, the pre-rendered inputs go into the notebook (several lines as a raw string)');
  }

  // 3. A failed fetch is said in the page.
  {
    page = await open('/ch/deploy');
    await page.route('**/nb/deploy.ipynb', (r) => r.fulfill({ status: 503, body: 'down' }));
    await page.locator('.notebook-download.top a').click();
    const alert = page.locator('.notebook-download.top .notebook-status[role="alert"]');
    await alert.waitFor();
    assert.match(await alert.textContent(), /could not be downloaded: the server answered 503/);
    await page.context().close();
    // The Chinese edition says it in Chinese.
    page = await open('/zh/ch/deploy');
    await page.route('**/nb/deploy.ipynb', (r) => r.fulfill({ status: 503, body: 'down' }));
    await page.locator('.notebook-download.top a').click();
    const zhAlert = page.locator('.notebook-download.top .notebook-status[role="alert"]');
    await zhAlert.waitFor();
    assert.match(await zhAlert.textContent(), /^notebook 没能下载：服务器返回了 503/);
    await page.context().close();
    ok('a notebook the server does not give is an alert in the page, in the page\'s language');
  }

  // 4. Every chapter's notebook downloads, from the keyboard, with a call cell per cell of the page.
  {
    const home = await open('/');
    const slugs = await home.locator('.chapter-card > a').evaluateAll((as) => as.map((a) => a.getAttribute('href').replace('/ch/', '')));
    await home.context().close();
    assert.ok(slugs.length >= 3, `chapters: ${slugs}`);
    for (const slug of slugs) {
      page = await open(`/ch/${slug}`);
      const cells = await page.locator('section.cell[data-cell]').evaluateAll((s) => s.map((e) => e.dataset.cell));
      const { nb, path, suggested } = await download(page, page.locator('.notebook-download.footer a'), `${slug}.ipynb`, true);
      assert.equal(suggested, `${slug}.ipynb`);
      assert.deepEqual(calls(nb).map((c) => c.metadata.inference_handbook.cell), cells, `${slug}: a call cell per cell, in order`);
      sameBut(nb, await built(slug), {});
      assert.deepEqual(page.errors, []);
      files.push(path);
      await page.context().close();
    }
    ok(`every chapter's notebook downloads from the keyboard with the page's cells (${slugs.join(', ')})`);
  }

  // 5. The schema, then the code: built, run, and compared with the native demos.
  {
    for (const f of files) {
      // nbformat repairs a missing or repeated cell id with a warning: an error here.
      execFileSync('/usr/bin/python3', ['-c', [
        'import sys, warnings, nbformat',
        "warnings.filterwarnings('error', module=r'nbformat(\\.|$)')",
        'nbformat.validate(nbformat.read(sys.argv[1], as_version=4))'].join('\n'), f], { stdio: 'inherit' });
    }
    ok(`the downloaded notebooks pass the nbformat 4 schema (${files.length} files)`);
    const t = Date.now();
    execFileSync('cargo', ['xtask', 'notebooks', ...files], { cwd: ROOT, stdio: 'inherit' });
    ok(`the downloaded notebooks build and run, each call printing what the native demo prints for its values (${((Date.now() - t) / 1000).toFixed(0)} s)`);
  }
} catch (e) {
  if (page) await page.screenshot({ path: join(ROOT, 'target/e2e-failure.png'), fullPage: true }).catch(() => {});
  console.error('not ok - ' + (e.stack || e) + '\n(screenshot: target/e2e-failure.png)');
  process.exitCode = 1;
} finally {
  await browser.close();
  await rm(dir, { recursive: true, force: true });
}
