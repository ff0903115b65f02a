import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const [path, w, dark, name] of [['/zh/ch/deploy', 375, true, 'zh-375-dark'], ['/ch/deploy', 1280, false, 'en-1280-light'], ['/ch/deploy', 375, false, 'en-375-light'], ['/zh/ch/deploy', 1280, true, 'zh-1280-dark']]) {
  const ctx = await b.newContext({ viewport: { width: w, height: 1400 }, colorScheme: dark ? 'dark' : 'light' });
  const p = await ctx.newPage(); const errs = []; p.on('pageerror', (e) => errs.push(String(e)));
  await p.goto('http://127.0.0.1:8099' + path); await p.waitForSelector('html[data-ready]', { state: 'attached' });
  await p.evaluate(() => window.ihMountAll()); await p.waitForSelector('html[data-mounted-all]', { state: 'attached' });
  const ex = p.locator('section.exercise[data-exercise="ch_deploy/decode_ms"]');
  await ex.scrollIntoViewIfNeeded();
  await ex.locator('button.lang-choice[data-answer="python"]').click();
  await ex.locator('textarea.editor').evaluate((t) => { t.value = 'def decode_ms(active_gb, kv_gb, bw_tb_s):\n    x = active_gb / 0\n    return x\n'; t.dispatchEvent(new Event('input', { bubbles: true })); });
  await ex.locator('button.run').click();
  await ex.locator('.verdict').waitFor({ timeout: 60000 });
  await p.waitForTimeout(500);
  await ex.evaluate((e) => e.scrollIntoView());
  const bb = await ex.boundingBox();
  await p.screenshot({ path: `/tmp/pyshot-${name}.png`, clip: { x: bb.x, y: bb.y, width: bb.width, height: Math.min(bb.height, 1300) } });
  const overflow = await p.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  console.log(name, 'errors', errs, 'overflow', overflow);
  await ctx.close();
}
await b.close();
