import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu'] });
const r = await lighthouse(process.env.BOOK_URL + (process.argv[2] || '/ch/newmodels'), { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
const lhr = r.lhr;
for (const id of ['layout-shifts', 'long-tasks', 'bootup-time', 'mainthread-work-breakdown', 'network-requests', 'largest-contentful-paint-element']) {
  const a = lhr.audits[id]; if (!a) continue;
  console.log('==', id, a.displayValue || '');
  const items = (a.details && a.details.items) || [];
  for (const it of items.slice(0, 14)) {
    const o = {};
    for (const [k, v] of Object.entries(it)) { if (k === 'node' && v) o.node = (v.selector || '') + ' ' + (v.snippet || '').slice(0, 100); else if (typeof v !== 'object') o[k] = typeof v === 'number' ? Math.round(v) : v; else if (k === 'items') o.sub = JSON.stringify(v).slice(0, 300); }
    console.log(JSON.stringify(o));
  }
}
await chrome.kill();
