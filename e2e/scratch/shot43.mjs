// Screenshots of charts drawn from plot.rs's JSON (routing heatmap, mhc heatmap + lines), en/zh.
import { chromium } from 'playwright-core';
const URL = process.env.BOOK_URL || 'http://127.0.0.1:8099';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const [w, scheme, pre] of [[1280, 'light', ''], [375, 'dark', '/zh']]) {
  const ctx = await b.newContext({ viewport: { width: w, height: 900 }, colorScheme: scheme });
  const page = await ctx.newPage();
  await page.goto(URL + pre + '/ch/newmodels'); await page.waitForSelector('html[data-ready]', { state: 'attached' });
  for (const id of ['routing', 'mhc']) {
    const c = page.locator(`.cell[data-cell="${id}"]`);
    await c.scrollIntoViewIfNeeded();
    await c.locator('.timing').filter({ hasText: /ran in|用时|ms/ }).waitFor({ timeout: 30000 });
    await page.waitForTimeout(500);
    const charts = c.locator('.chart');
    const n = await charts.count();
    for (let i = 0; i < n; i++) {
      await charts.nth(i).scrollIntoViewIfNeeded();
      await page.waitForFunction(([id, i]) => document.querySelectorAll(`.cell[data-cell="${id}"] .chart`)[i]?.dataset.drawn, [id, i], { timeout: 30000 });
      await page.waitForTimeout(300);
      await charts.nth(i).screenshot({ path: `target/shots/shot43-${id}${i}-${w}-${scheme}.png` });
    }
    console.log(w, scheme, id, n, 'charts');
  }
  await ctx.close();
}
await b.close();
