// Browser figures (not a test): time to first cell output, each cell's run time,
// exercise grading time. Prints a table; `cargo xtask bench` runs it.
import { execFileSync } from 'node:child_process';
import { BOOK_URL, launch, ready } from './browser.mjs';
import { PYTHON_SOLUTIONS, SOLUTIONS } from './solutions.mjs';

// `node e2e/bench.mjs | head`: a reader that stops reading ends the run quietly.
process.stdout.on('error', (e) => { if (e.code === 'EPIPE') process.exit(0); throw e; });

// Each cell's runs: the first WARM of them are V8's warm-up.
const RUNS = 16, WARM = 8;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// Python loads once per browser session (the service worker keeps it): the
// chapters after the first find it loaded, and their first run is not a cold
// one. Declared before the first await below, which calls python().
let pythonLoaded = false;
const browser = await launch();
// `BENCH_ONLY=compute node e2e/bench.mjs`: the browser/native section alone.
if (process.env.BENCH_ONLY === 'compute') {
  try { await compute(await browser.newPage()); } finally { await browser.close(); }
  process.exit(0);
}
try {
  // Cold navigation, five fresh pages (no cache). The page records, in
  // performance.now() from navigation start:
  // - text painted: the first contentful paint (the pre-rendered chapter text);
  // - first output: when a cell's output is first in the DOM (pre-rendered with
  //   the defaults' output, so it arrives with the HTML) and the frame after it;
  // - live: when the page has mounted its cells and the first cell shows an
  //   output computed in this page by the worker (the cells then answer input).
  // `mbps`: Chromium's network emulation at that many Mbit/s each way and 40 ms
  // latency (localhost alone hides what a module's size costs a reader).
  async function coldLoads(mbps) {
    const rows = { text: [], output: [], frame: [], ready: [], live: [] };
    for (let i = 0; i < 5; i++) {
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      if (mbps) {
        const cdp = await ctx.newCDPSession(page);
        const bytes = (mbps * 1e6) / 8;
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 40, downloadThroughput: bytes, uploadThroughput: bytes });
      }
      await page.addInitScript(() => {
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) {
            if (e.name === 'first-contentful-paint') window.__textPainted = e.startTime;
          }
        }).observe({ type: 'paint', buffered: true });
        const seen = () => {
          if (window.__firstOutput === undefined && document.querySelector('.cell-text')) {
            window.__firstOutput = performance.now();
            requestAnimationFrame(() => setTimeout(() => { window.__firstFrame = performance.now(); }));
          }
          if (window.__ready === undefined && document.documentElement.dataset.ready) window.__ready = performance.now();
          if (window.__live === undefined && document.querySelector('.cell-output > .cell-text, .cell-output > .table-wrap')) {
            window.__live = performance.now();
          }
        };
        new MutationObserver(seen).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-ready'] });
      });
      await page.goto(BOOK_URL + '/ch/newmodels');
      await page.waitForFunction(() => window.__ready !== undefined && window.__firstFrame !== undefined && window.__textPainted !== undefined);
      // A cell with its defaults runs when it comes near the screen: scroll
      // to the first one and time its first output computed in the page
      // (the workers' module fetched and compiled, the worker started, the
      // demo run), from the scroll.
      const scrolled = await page.evaluate(() => {
        document.querySelector('section.cell[data-cell]').scrollIntoView();
        return performance.now();
      });
      await page.waitForFunction(() => window.__live !== undefined);
      const r = await page.evaluate(() => [window.__textPainted, window.__firstOutput, window.__firstFrame, window.__ready, window.__live]);
      r[4] -= scrolled;
      ['text', 'output', 'frame', 'ready', 'live'].forEach((k, j) => rows[k].push(Math.round(r[j])));
      await ctx.close();
    }
    return rows;
  }
  const line = (label, xs) => console.log(`${label.padEnd(48)} median ${String(median(xs)).padStart(5)} ms (runs: ${xs.join(', ')})`);
  const rows = await coldLoads(0);
  line('navigation -> chapter text painted (FCP)', rows.text);
  line('navigation -> first cell output in the DOM', rows.output);
  line('navigation -> first frame after it', rows.frame);
  line('navigation -> live parts mounted (data-ready)', rows.ready);
  line('first cell scrolled to -> its output computed in the page', rows.live);
  // Floors for the first figure on this machine, loaded alternately right after
  // these (answered by the browser driver, not the server):
  // - a page of one sentence, no CSS, no script;
  // - the chapter cut before its third section (about 14 KB of body: header,
  //   contents, introduction, self-test, "at a glance"), with the book's
  //   stylesheet and no script: what a first screen with the book's look costs
  //   before any of the rest of the chapter or the app is there.
  {
    const chapter = await (await fetch(BOOK_URL + '/ch/newmodels')).text();
    const cut = chapter.indexOf('<h2', chapter.indexOf('<h2') + 1);
    const firstScreen = chapter.slice(0, chapter.indexOf('<h2', cut + 1))
      .replace(/<script[\s\S]*?<\/script>/g, '').replace(/<link rel="(modulepreload|preload)"[^>]*>/g, '');
    const pages = { sentence: '<!doctype html><p>Hello there.</p>', firstScreen };
    const floors = { sentence: [], firstScreen: [] };
    for (let i = 0; i < 7; i++) {
      for (const [name, body] of Object.entries(pages)) {
        const ctx = await browser.newContext();
        const page = await ctx.newPage();
        await page.route('**/__floor', (r) => r.fulfill({ contentType: 'text/html', body }));
        await page.goto(BOOK_URL + '/__floor');
        floors[name].push(Math.round(await page.evaluate(() => new Promise((res) => new PerformanceObserver((l) => {
          for (const e of l.getEntries()) if (e.name === 'first-contentful-paint') res(e.startTime);
        }).observe({ type: 'paint', buffered: true })))));
        await ctx.close();
      }
    }
    line('floor: a one-sentence page painted', floors.sentence);
    line('floor: first screen, book CSS, no script', floors.firstScreen);
  }
  const slow = await coldLoads(10);
  line('at 10 Mbit/s, 40 ms: text painted (FCP)', slow.text);
  line('at 10 Mbit/s, 40 ms: live parts mounted', slow.ready);
  line('at 10 Mbit/s, 40 ms: first output computed', slow.live);

  // Search: five fresh pages each open the dialog and type a two-word query
  // (the first search loads search.js, Pagefind and the index fragments it
  // needs); then, with the index loaded, seven more two-word queries. Time
  // from the input event to the results in the DOM (including the dialog's
  // 80 ms pause for typing), and the bytes the first search fetched.
  const typeAndWait = (p, q) => p.evaluate(async (q) => {
    const input = document.querySelector('#search-input');
    const d = document.querySelector('#search');
    const t0 = performance.now();
    input.value = q;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((r) => { const f = () => (d.dataset.query === q ? r() : requestAnimationFrame(f)); f(); });
    return performance.now() - t0;
  }, q);
  const cold = [], fetched = [], warm = [];
  for (let i = 0; i < 5; i++) {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    let bytes = 0;
    page.on('response', async (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/pagefind/') || path === '/search.js') {
        try { bytes += (await r.body()).length; } catch { /* a redirect has no body */ }
      }
    });
    await page.goto(BOOK_URL + '/ch/kvcache'); await ready(page);
    await page.keyboard.press('/');
    await page.waitForSelector('#search-input');
    cold.push(Math.round(await typeAndWait(page, 'sliding window')));
    fetched.push(bytes);
    if (i === 0) {
      for (const q of ['expert parallelism', 'hash routing', 'prefix cache', 'gated delta', 'decode step', 'vector quantization', 'latent attention']) {
        warm.push(Math.round(await typeAndWait(page, q)));
      }
    }
    await ctx.close();
  }
  // The Chinese edition's index (its own, segmented): first query, then five more.
  const zhCold = [], zhWarm = [];
  for (let i = 0; i < 3; i++) {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(BOOK_URL + '/zh/ch/kvcache'); await ready(page);
    await page.keyboard.press('/');
    await page.waitForSelector('#search-input');
    zhCold.push(Math.round(await typeAndWait(page, '滑动窗口')));
    if (i === 0) {
      for (const q of ['专家 并行', '缓存', '量化 误差', '线性 注意力', '解码']) zhWarm.push(Math.round(await typeAndWait(page, q)));
    }
    await ctx.close();
  }
  line('search: first two-word query (loads the index)', cold);
  line('search: two-word query, index loaded', warm);
  console.log(`${'search: bytes the first search fetched'.padEnd(48)} median ${median(fetched)} B (runs: ${fetched.join(', ')})`);
  line('search (Chinese): first query 滑动窗口', zhCold);
  line('search (Chinese): query, index loaded', zhWarm);

  // Every chapter the home page lists, in reading order.
  const page = await browser.newPage();
  await page.goto(BOOK_URL + '/'); await ready(page);
  const chapters = [...new Set(await page.locator('li.chapter-card > a').evaluateAll((as) => as.map((a) => a.getAttribute('href').split('#')[0])))];
  for (const path of chapters) {
    await page.goto(BOOK_URL + path); await ready(page);
    await page.locator('section.cell[data-cell]').first().scrollIntoViewIfNeeded();
    await page.locator('.cell-output > .cell-text').first().waitFor();
    // The service worker's first install (the whole book, in the background once
    // the page is up) ends before anything is timed.
    await page.evaluate(() => navigator.serviceWorker.ready);
    for (const cell of await page.locator('section.cell[data-cell]').all()) {
      const id = await cell.getAttribute('data-cell');
      const times = [];
      for (let i = 0; i < RUNS; i++) {
        // Each run starts once the page is idle (the last run's chart drawn),
        // as a reader's next click would: the worker's time, not the page's.
        await page.evaluate(() => new Promise((r) => requestIdleCallback(r, { timeout: 1000 })));
        await cell.getByRole('button', { name: 'Run', exact: true }).click();
        // The run happens in the worker: wait for its time to replace "running…".
        await cell.locator('.timing', { hasText: 'ran in' }).waitFor();
        const t = await cell.locator('.timing').textContent();
        times.push(parseFloat(t.replace(/[^0-9.]/g, '')));
      }
      // V8 runs a module's code first from its baseline compiler and optimises
      // each function once it is hot, on a background thread: the first runs
      // are slower, and are printed apart from the warm ones. How fast the
      // module computes once warm, against native, is measured apart below
      // (`compute`), without the clock's 0.1 ms steps.
      console.log(`browser cell ${id.padEnd(12)} first ${times[0].toFixed(1)} ms, runs 2–${WARM} median ${median(times.slice(1, WARM)).toFixed(1)} ms, warm (runs ${WARM + 1}–${RUNS}) median ${median(times.slice(WARM)).toFixed(1)} ms`);
    }
    for (const ex of await page.locator('section.exercise[data-exercise]').all()) {
      const id = await ex.getAttribute('data-exercise');
      const src = SOLUTIONS[id];
      if (!src) continue;
      await ex.locator('textarea.editor').fill(src);
      const times = [];
      for (let i = 0; i < 7; i++) {
        const before = Number(await ex.locator('.results').getAttribute('data-runs'));
        await ex.getByRole('button', { name: 'Run tests' }).click();
        await page.waitForFunction(([e, n]) => Number(e.getAttribute('data-runs')) > n,
          [await ex.locator('.results').elementHandle(), before]);
        const head = await ex.locator('.verdict-head').textContent();
        times.push(parseFloat(head.match(/\(([0-9.]+) ms\)/)[1]));
      }
      console.log(`browser grading ${id.padEnd(30)} median ${median(times).toFixed(1)} ms (all cases)`);
    }
    await python(page);
  }
  await compute(page);
} finally {
  await browser.close();
}

// Python: bytes fetched for it, the first verdict cold (Python not loaded)
// and warm, each exercise's grading time from click to verdict, and how long
// a fresh Python takes to be ready after a time-out.
async function python(page) {
  let bytes = 0;
  page.on('response', async (r) => {
    if (!/\/(pyodide|python)\/|python-worker\.js/.test(r.url())) return;
    try { bytes += (await r.body()).length; } catch (_) {}
  });
  const clickToVerdict = async (ex, code) => {
    await ex.locator('textarea.editor').evaluate((t, v) => { t.value = v; t.dispatchEvent(new Event('input', { bubbles: true })); }, code);
    const before = Number(await ex.locator('.results').getAttribute('data-runs'));
    const t0 = Date.now();
    await ex.locator('button.run').click();
    await page.waitForFunction(([e, n]) => Number(e.getAttribute('data-runs')) > n,
      [await ex.locator('.results').elementHandle(), before], { timeout: 60000 });
    return Date.now() - t0;
  };
  let first = true;
  for (const ex of await page.locator('section.exercise[data-exercise]').all()) {
    const id = await ex.getAttribute('data-exercise');
    if (!PYTHON_SOLUTIONS[id]) continue;
    const b = ex.locator('button.lang-choice[data-answer="python"]');
    if ((await b.getAttribute('aria-pressed')) !== 'true') await b.click();
    const times = [];
    for (let i = 0; i < 7; i++) times.push(await clickToVerdict(ex, PYTHON_SOLUTIONS[id]));
    if (first && pythonLoaded) {
      console.log(`${'python: first run on this chapter'.padEnd(48)} ${times[0]} ms (Python already loaded; then warm median ${median(times.slice(1))} ms)`);
      first = false;
      times.shift();
    }
    if (first) {
      pythonLoaded = true;
      console.log(`${'python: Run → first verdict, cold'.padEnd(48)} ${times[0]} ms (Python not loaded; then warm median ${median(times.slice(1))} ms)`);
      console.log(`${'python: bytes fetched for Python'.padEnd(48)} ${bytes} B (as sent, decoded)`);
      const loop = 'def ' + PYTHON_SOLUTIONS[id].match(/def (\w+\([^)]*\))/)[1] + ':\n    while True:\n        pass\n';
      await clickToVerdict(ex, loop);
      const again = await clickToVerdict(ex, PYTHON_SOLUTIONS[id]);
      console.log(`${'python: after a time-out, the next verdict'.padEnd(48)} ${again} ms (a fresh Python loading in the background)`);
      first = false;
      times.shift();
    }
    console.log(`browser grading python ${id.padEnd(23)} median ${median(times)} ms (click to verdict, all cases)`);
  }
}

// Compute, browser against native: each cell's run at its defaults, as the
// request the page's worker gets, through the workers' module in a worker of
// this bench's own (`worker_job`) and natively through the same Rust function
// (`exercises::jobs::handle`, the native bench's `--cells`, built in the
// workers' module's profile). Both sides measure alike: warmed up (300 ms, at
// least 3 runs, so V8 has optimised the hot code), then the median of five
// batch means, each batch at least 100 ms. The machine's speed drifts (it is
// shared), so the two alternate, ROUNDS times, and each cell's ratio is the
// median of its rounds' ratios.
async function compute(page) {
  const bin = process.env.NATIVE_BENCH;
  if (!bin) {
    console.log('compute: NATIVE_BENCH is not set (`cargo xtask bench` sets it): no browser/native ratios');
    return;
  }
  const ROUNDS = 5;
  // BENCH_PKG: another build of the workers' module under dist/ (its
  // `app_worker.js` and `_bg.wasm`), to compare a variant with the same native
  // binary; `pkg` (the module the book ships) by default.
  await page.goto(BOOK_URL + '/404.html');
  await page.evaluate((pkg) => {
    const src = `
      import init, { worker_job } from '${location.origin}/${pkg}/app_worker.js';
      const ready = init({ module_or_path: '${location.origin}/${pkg}/app_worker_bg.wasm' });
      const time = (f, ms) => { const t0 = performance.now(); let n = 0; while (performance.now() - t0 < ms) { f(); n++; } return (performance.now() - t0) / n; };
      onmessage = async (e) => {
        await ready;
        postMessage(e.data.map((request) => {
          const f = () => worker_job(request);
          const t0 = performance.now(); let n = 0;
          while (performance.now() - t0 < 300 || n < 3) { f(); n++; }
          const means = [0, 1, 2, 3, 4].map(() => time(f, 100)).sort((a, b) => a - b);
          return means[2];
        }));
      };`;
    window.__compute = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })), { type: 'module' });
  }, process.env.BENCH_PKG || 'pkg');
  const rows = {};
  for (let r = 0; r < ROUNDS; r++) {
    const native = JSON.parse(execFileSync(bin, ['--cells'], { encoding: 'utf8' }));
    const browser = await page.evaluate((requests) => new Promise((resolve) => {
      window.__compute.onmessage = (e) => resolve(e.data);
      window.__compute.postMessage(requests);
    }), native.map((c) => c.request));
    native.forEach((c, i) => {
      const row = (rows[c.id] ??= { native: [], browser: [], ratio: [] });
      row.native.push(c.ms); row.browser.push(browser[i]); row.ratio.push(browser[i] / c.ms);
    });
  }
  console.log(`compute: browser / native, each cell's run at its defaults, warm, median of ${ROUNDS} paired rounds`);
  const ratios = [];
  for (const [id, { native, browser, ratio }] of Object.entries(rows)) {
    const sorted = [...ratio].sort((a, b) => a - b);
    ratios.push(median(ratio));
    console.log(`compute cell ${id.padEnd(12)} browser ${median(browser).toFixed(3).padStart(8)} ms, native ${median(native).toFixed(3).padStart(8)} ms = ${median(ratio).toFixed(2)}× (rounds ${sorted.map((x) => x.toFixed(2)).join(', ')})`);
  }
  const geo = Math.exp(ratios.reduce((a, x) => a + Math.log(x), 0) / ratios.length);
  console.log(`compute: geometric mean of the cells' ratios ${geo.toFixed(2)}×, largest ${Math.max(...ratios).toFixed(2)}×`);
}
