import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const all of [false, true]) {
  const p = await b.newPage();
  await p.goto('http://127.0.0.1:8099/ch/newmodels'); await p.waitForSelector('html[data-ready]', { state: 'attached' });
  if (all) { await p.evaluate(() => window.ihMountAll()); await p.waitForSelector('html[data-mounted-all]', { state: 'attached' }); }
  await p.locator('section.cell[data-cell="mhc"]').scrollIntoViewIfNeeded();
  await p.waitForTimeout(3000);
  const ws = p.workers();
  const heap = await Promise.all(ws.map((w) => w.evaluate(() => performance.memory ? performance.memory.usedJSHeapSize : -1).catch(() => -2)));
  console.log(all ? 'mounted all' : 'reader', ws.length, 'workers', ws.map((w) => w.url().split('/').pop()).join(','), 'heaps', heap.join(','));
  await p.close();
}
await b.close();
