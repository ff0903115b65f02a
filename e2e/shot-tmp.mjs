import { launch, ready, BOOK_URL } from './browser.mjs';
const browser = await launch();
const shots = [
  ['/', 375, 0, 'home-375'],
  ['/ch/deploy', 1280, 0, 'deploy-1280'],
  ['/ch/deploy', 375, 2500, 'deploy-375-a'],
  ['/ch/kvcache', 375, 6000, 'kv-375-b'],
  ['/nb/', 1280, 0, 'nb'],
  ['/nope', 375, 0, '404'],
];
for (const [path, w, y, name] of shots) {
  const ctx = await browser.newContext({ viewport: { width: w, height: w < 500 ? 800 : 900 }, serviceWorkers: 'block' });
  const page = await ctx.newPage();
  await page.goto(BOOK_URL + path);
  try { await ready(page); } catch {}
  await page.waitForTimeout(1200);
  await page.evaluate((y) => window.scrollTo(0, y), y);
  await page.waitForTimeout(600);
  await page.screenshot({ path: `/tmp/${name}.png` });
  await ctx.close();
}
await browser.close();
