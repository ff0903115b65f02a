import { launch, ready, BOOK_URL } from './browser.mjs';
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const errors = [];
page.on('pageerror', (e) => errors.push(String(e)));
page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text()); });
await page.goto(BOOK_URL + '/ch/kvcache'); await ready(page);
await page.waitForTimeout(1500);
for (const id of ['csa_window', 'ssm_scan', 'delta_rule', 'quant', 'cla', 'kv_calc']) {
  const cell = page.locator(`#cell-${id}`);
  await cell.scrollIntoViewIfNeeded();
  await page.waitForTimeout(1200);
  await cell.screenshot({ path: `/tmp/cell-${id}.png` });
}
await page.screenshot({ path: '/tmp/kv-top.png' });
await page.goto(BOOK_URL + '/ch/kvcache'); await ready(page);
await page.screenshot({ path: '/tmp/kv-head.png' });
console.log(errors);
await browser.close();
