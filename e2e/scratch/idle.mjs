import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const all of [false, true]) {
  const p = await b.newPage();
  await p.goto('http://127.0.0.1:8099/ch/newmodels'); await p.waitForSelector('html[data-ready]', { state: 'attached' });
  if (all) { await p.evaluate(() => window.ihMountAll()); await p.waitForSelector('html[data-mounted-all]', { state: 'attached' }); }
  await p.waitForTimeout(3000);
  const r = await p.evaluate(() => new Promise((res) => {
    let frames = 0, busy = 0; const t0 = performance.now();
    const obs = new PerformanceObserver((l) => { for (const e of l.getEntries()) busy += e.duration; }); obs.observe({ entryTypes: ['longtask'] });
    // main-thread lag: a 10 ms timer's lateness
    let lag = 0, n = 0; let last = performance.now();
    const iv = setInterval(() => { const now = performance.now(); lag += Math.max(0, now - last - 10); last = now; n++; }, 10);
    const f = () => { frames++; if (performance.now() - t0 < 3000) requestAnimationFrame(f); else { clearInterval(iv); obs.disconnect(); res({ frames, longtask_ms: busy, timer_lag_ms: Math.round(lag), ticks: n }); } };
    requestAnimationFrame(f);
  }));
  console.log(all ? 'mounted all' : 'reader', JSON.stringify(r));
  await p.close();
}
await b.close();
