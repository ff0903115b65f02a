import { BOOK_URL, launch } from './browser.mjs';
const paths = process.argv.slice(3);
const N = Number(process.argv[2]);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const browser = await launch();
const res = Object.fromEntries(paths.map((p) => [p, []]));
for (let i = 0; i < N; i++) {
  for (const p of paths) {
    const ctx = await browser.newContext({ serviceWorkers: 'block' });
    const page = await ctx.newPage();
    await page.addInitScript(() => {
      new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') window.__fcp = e.startTime; }).observe({ type: 'paint', buffered: true });
    });
    await page.goto(BOOK_URL + p);
    await page.waitForFunction(() => window.__fcp !== undefined);
    res[p].push(Math.round(await page.evaluate(() => window.__fcp)));
    await ctx.close();
  }
}
for (const p of paths) { const s=[...res[p]].sort((a,b)=>a-b); console.log(p.padEnd(40), 'median', median(res[p]), 'q1', s[Math.floor(s.length/4)], 'q3', s[Math.floor(3*s.length/4)]); }
await browser.close();
