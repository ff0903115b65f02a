import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const [path, w, dark, name] of [['/zh/ch/newmodels', 375, true, 'zh-375-dark'], ['/ch/kvcache', 1280, false, 'en-1280-light']]) {
  const ctx = await b.newContext({ viewport: { width: w, height: 900 }, colorScheme: dark ? 'dark' : 'light' });
  const p = await ctx.newPage(); const errs = []; p.on('pageerror', (e) => errs.push(String(e)));
  await p.goto('http://127.0.0.1:8099' + path); await p.waitForSelector('html[data-ready]', { state: 'attached' });
  const s = p.locator('.scratch, section.scratch, [data-scratch]').first();
  const n = await s.count();
  if (n) { await s.scrollIntoViewIfNeeded(); await p.waitForTimeout(1500); await s.screenshot({ path: `/tmp/shot-${name}-scratch.png` }); }
  const chart = p.locator('.js-plotly-plot').first();
  await p.locator('section.cell[data-cell]').nth(3).scrollIntoViewIfNeeded(); await p.waitForTimeout(2500);
  if (await chart.count()) { await chart.scrollIntoViewIfNeeded(); await chart.hover(); await p.waitForTimeout(500); await p.screenshot({ path: `/tmp/shot-${name}-chart.png` }); }
  console.log(name, 'scratch', n, 'errors', errs.length, errs.slice(0, 2));
  await ctx.close();
}
await b.close();
