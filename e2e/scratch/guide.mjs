import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const [path, w, dark, name] of [['/rhai', 1280, false, 'en-1280-light'], ['/zh/rhai', 375, true, 'zh-375-dark'], ['/rhai', 375, false, 'en-375-light'], ['/zh/rhai', 1280, true, 'zh-1280-dark']]) {
  const ctx = await b.newContext({ viewport: { width: w, height: 900 }, colorScheme: dark ? 'dark' : 'light' });
  const p = await ctx.newPage(); const errs = []; p.on('pageerror', (e) => errs.push(String(e)));
  await p.goto('http://127.0.0.1:8099' + path); await p.waitForTimeout(800);
  await p.screenshot({ path: `/tmp/guide-${name}.png`, fullPage: true });
  const over = await p.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  console.log(name, 'errors', errs.length, 'overflow', over);
  await ctx.close();
}
// The exercise panel's link.
const ctx = await b.newContext({ viewport: { width: 1280, height: 900 } });
const p = await ctx.newPage();
await p.goto('http://127.0.0.1:8099/ch/kvcache');
const ex = p.locator('section.exercise').first(); await ex.scrollIntoViewIfNeeded();
await p.waitForSelector('section.exercise textarea.editor, section.exercise .cm-editor', { timeout: 20000 });
await ex.screenshot({ path: '/tmp/guide-panel.png' });
console.log('panel link', await ex.locator('a.guide-link').count());
await b.close();
