// End-to-end: `cargo xtask serve` watches the sources. An edit to the style
// is rendered again and the open page reloads itself with it (no service
// worker keeps the old one); a failure shows its error over the page, which
// keeps the last good build, until a build succeeds again; while a cargo
// build runs, the page says so. Edits real sources (style/book.css, a
// chapter's Markdown, index.html, xtask/src/search.rs) and puts them back.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from './browser.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
// A port nothing else listens on (another book served on a fixed port would
// answer in this server's place and the test would wait for a reload that
// never comes).
const freePort = () => new Promise((resolve, reject) => {
  const probe = net.createServer();
  probe.once('error', reject);
  probe.listen(0, '127.0.0.1', () => { const { port } = probe.address(); probe.close(() => resolve(port)); });
});
const PORT = Number(process.env.WATCH_PORT || await freePort());
const url = `http://127.0.0.1:${PORT}`;
const files = {
  css: path.join(root, 'style/book.css'),
  template: path.join(root, 'index.html'),
  text: path.join(root, 'chapters/src/ch_deploy/chapter.md'),
  code: path.join(root, 'xtask/src/search.rs'),
};
const original = Object.fromEntries(Object.entries(files).map(([k, f]) => [k, fs.readFileSync(f, 'utf8')]));
let step = 0;
const ok = (what) => console.log(`ok ${++step} - ${what}`);

const server = spawn('cargo', ['xtask', 'serve', '--no-build', '--port', String(PORT)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
let log = '';
server.stdout.on('data', (d) => { log += d; });
let exited = null;
server.on('exit', (code) => { exited = code; });
const browser = await launch();
try {
  for (let i = 0; ; i++) {
    assert.equal(exited, null, `cargo xtask serve stopped (exit ${exited}) before it answered on port ${PORT}`);
    try { if ((await fetch(url + '/')).ok) break; } catch { /* not up yet */ }
    assert.ok(i < 600, 'the server answers within 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url + '/ch/deploy');
  // The page has asked for the next build (its first answer came back).
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((r) => r.name.includes('/__book/changes')));
  assert.equal(await (await fetch(url + '/ch/deploy')).text().then((t) => t.includes('/__book/changes')), true, 'pages carry the reload script while watching');

  // 1. A good edit: rendered again, the page reloads and has the new style.
  // The page's service worker (cache first) has had time to install.
  await page.waitForSelector('html[data-ready]', { state: 'attached' });
  await page.waitForTimeout(1000);
  await page.evaluate(() => { window.__before = true; });
  const rule = `.watch-test-${Date.now()}`;
  const t0 = Date.now();
  fs.writeFileSync(files.css, original.css + `${rule} { color: red; }\n`);
  await page.waitForFunction(() => !window.__before, null, { timeout: 240000, polling: 100 });
  const seconds = (Date.now() - t0) / 1000;
  await page.waitForSelector('main');
  const has = await page.evaluate((rule) => [...document.styleSheets].some((s) => { try { return [...s.cssRules].some((r) => r.selectorText === rule); } catch { return false; } }), rule);
  assert.equal(has, true, 'the reloaded page has the edited style');
  ok(`an edit to style/book.css: the open page reloads with it in ${seconds.toFixed(1)} s`);

  // 2. One word more in the chapter's Markdown: rendered again, the open
  // chapter reloads and shows it; undone, it reloads without it.
  const word = `watchword${Date.now()}`;
  const lines = original.text.split('\n');
  const at = lines.findIndex((l, i) => i > 0 && /^[A-Za-z]/.test(l));
  lines[at] += ` ${word}`;
  await page.evaluate(() => { window.__before = true; });
  const t1 = Date.now();
  fs.writeFileSync(files.text, lines.join('\n'));
  await page.waitForFunction((w) => !window.__before && document.querySelector('main')?.textContent.includes(w), word, { timeout: 240000, polling: 50 });
  const textSeconds = (Date.now() - t1) / 1000;
  await page.evaluate(() => { window.__before = true; });
  fs.writeFileSync(files.text, original.text);
  await page.waitForFunction((w) => !window.__before && document.querySelector('main') && !document.querySelector('main').textContent.includes(w), word, { timeout: 240000, polling: 50 });
  ok(`a word added to ch_deploy's chapter.md: the open chapter reloads with it in ${textSeconds.toFixed(1)} s, and without it once undone`);

  // 3. A build that fails: its error shows over the page, which is not reloaded.
  await page.evaluate(() => { window.__before = true; });
  fs.writeFileSync(files.template, original.template.replace('<!--ih:body-->', ''));
  const alert = page.locator('pre[role=alert]').filter({ hasText: 'failed' });
  await alert.waitFor({ timeout: 240000 });
  assert.match(await alert.textContent(), /index\.html has no <!--ih:body--> marker/);
  assert.equal(await page.evaluate(() => window.__before), true, 'a failed build does not reload the page');
  ok('a failed build shows its error over the page and keeps it');

  // 4. Fixed (and the first edit undone): the next build reloads the page, without the error.
  fs.writeFileSync(files.template, original.template);
  fs.writeFileSync(files.css, original.css);
  await page.waitForFunction(() => !window.__before, null, { timeout: 240000, polling: 200 });
  await page.waitForSelector('main');
  assert.equal(await page.locator('pre[role=alert]').count(), 0);
  ok('once fixed, the next build reloads the page without the error');
  assert.deepEqual(errors, []);

  // 5. A change to code runs a cargo build, which the page announces while it
  // runs (a first `serve` on a fresh machine serves the text during its
  // build); this one fails to compile, and its error replaces the notice.
  // The server stops before the file is put back, so no second build runs.
  await page.evaluate(() => {
    window.__status = false;
    new MutationObserver(() => { if (document.querySelector('p[role=status]')) window.__status = true; })
      .observe(document.body, { childList: true });
  });
  fs.writeFileSync(files.code, original.code + '\nfn watch_test_does_not_compile( {}\n');
  const failed = page.locator('pre[role=alert]').filter({ hasText: 'failed' });
  await failed.waitFor({ timeout: 240000 });
  assert.match(await failed.textContent(), /search\.rs/);
  assert.equal(await page.evaluate(() => window.__status), true, 'the page said a build was running');
  assert.equal(await page.locator('p[role=status]').count(), 0, 'the notice goes when the build ends');
  ok('a change to code: the page says a build runs, then shows its compile error');
} finally {
  // The server first, so that putting the files back starts no build.
  try { process.kill(-server.pid); } catch { /* gone */ }
  for (const [k, f] of Object.entries(files)) if (fs.readFileSync(f, 'utf8') !== original[k]) fs.writeFileSync(f, original[k]);
  await browser.close();
  if (process.exitCode) console.log(log.slice(-3000));
}
