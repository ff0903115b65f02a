// Click Run N times on every cell of the chapters; print each run's ms.
import { chromium } from 'playwright-core';
import http from 'node:http'; import fs from 'node:fs'; import path from 'node:path';
const dist = path.resolve('dist');
const N = Number(process.argv[2] || 15);
const only = process.argv[3] ? process.argv[3].split(',') : null;
const types = { js: 'text/javascript', wasm: 'application/wasm', html: 'text/html', css: 'text/css', json: 'application/json', webmanifest: 'application/manifest+json' };
const srv = http.createServer((q, r) => {
  let u = decodeURIComponent(q.url.split('?')[0]); if (u.endsWith('/')) u += 'index.html';
  let f = path.join(dist, u); if (!fs.existsSync(f) && fs.existsSync(f + '.html')) f += '.html';
  try { const b = fs.readFileSync(f); r.setHeader('content-type', types[f.split('.').pop()] || 'application/octet-stream'); r.end(b); } catch { r.statusCode = 404; r.end(); }
}).listen(0);
const URL0 = `http://127.0.0.1:${srv.address().port}`;
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await b.newPage();
for (const ch of ['/ch/newmodels', '/ch/kvcache', '/ch/deploy']) {
  await page.goto(URL0 + ch); await page.waitForSelector('[data-ready]'); await page.locator('section.cell[data-cell]').first().scrollIntoViewIfNeeded(); await page.locator('.cell-output > .cell-text').first().waitFor(); await page.evaluate(() => navigator.serviceWorker.ready); if (process.env.MOUNTALL === '1') { await page.evaluate(() => window.ihMountAll && window.ihMountAll()); await page.waitForSelector('html[data-mounted-all]', { state: 'attached' }); }
  for (const cell of await page.locator('section.cell[data-cell]').all()) {
    const id = await cell.getAttribute('data-cell');
    if (only && !only.includes(id)) continue;
    await cell.scrollIntoViewIfNeeded();
    const ts = [];
    for (let i = 0; i < N; i++) {
      await page.waitForTimeout(Number(process.env.PAUSE || 0)); await cell.getByRole('button', { name: 'Run', exact: true }).click();
      await cell.locator('.timing', { hasText: 'ran in' }).waitFor();
      ts.push(parseFloat((await cell.locator('.timing').textContent()).replace(/[^0-9.]/g, '')));
    }
    const s = [...ts].sort((a, b) => a - b);
    console.log(id.padEnd(12), 'first7 med', [...ts.slice(0, 7)].sort((a, b) => a - b)[3], 'last8 med', [...ts.slice(-8)].sort((a, b) => a - b)[4], '|', ts.join(' '));
  }
}
await b.close(); srv.close();
