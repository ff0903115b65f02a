// Lighthouse (npm `lighthouse`, pinned; Debian's Chromium) on every chapter
// in both languages, mobile (Lighthouse's default: slow 4G, 4x CPU
// slowdown) and desktop, against BOOK_URL (`cargo xtask bench` points it at
// nginx serving dist/ as the README's "Publishing" section says). Prints a
// table: performance score, FCP, LCP, TBT, CLS and bytes transferred, each the
// median of LH_RUNS runs (default 3: on this machine one run's TBT moves by
// hundreds of ms from the next). Figures, not a test: it asserts nothing.
//
//   LH_RUNS=5 LH_FORMS=mobile node e2e/lighthouse.mjs [route…]
//   (default: every chapter, en and zh; both forms)
import fs from 'node:fs';
import path from 'node:path';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import * as chromeLauncher from 'chrome-launcher';
import { BOOK_URL } from './browser.mjs';

process.stdout.on('error', (e) => { if (e.code === 'EPIPE') process.exit(0); throw e; });

const DIST = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'dist');
const slugs = fs.readdirSync(path.join(DIST, 'ch')).filter((f) => /^[a-z0-9-]+\.html$/.test(f))
  .map((f) => f.replace(/\.html$/, '')).sort();
const routes = process.argv.slice(2).length ? process.argv.slice(2)
  : slugs.flatMap((s) => [`/ch/${s}`, `/zh/ch/${s}`]);

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM || '/usr/bin/chromium',
  chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const RUNS = Math.max(1, Number(process.env.LH_RUNS || 3));
const FORMS = (process.env.LH_FORMS || 'mobile,desktop').split(',');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
try {
  for (const form of FORMS) {
    for (const route of routes) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const result = await lighthouse(BOOK_URL + route, {
          port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'],
        }, form === 'desktop' ? desktopConfig : undefined);
        const lhr = result.lhr;
        const a = (id) => lhr.audits[id] && lhr.audits[id].numericValue;
        runs.push({
          score: Math.round(lhr.categories.performance.score * 100),
          fcp: a('first-contentful-paint'), lcp: a('largest-contentful-paint'),
          tbt: a('total-blocking-time'), cls: a('cumulative-layout-shift'),
          kib: a('total-byte-weight') / 1024,
          error: lhr.runtimeError ? lhr.runtimeError.message : '',
        });
      }
      const m = (k) => median(runs.map((r) => r[k]));
      const row = {
        form, route, score: m('score'), fcp: m('fcp'), lcp: m('lcp'), tbt: m('tbt'), cls: m('cls'), kib: m('kib'),
        error: runs.map((r) => r.error).filter(Boolean).join('; '),
        scores: runs.map((r) => r.score).join('/'),
      };
      rows.push(row);
      console.log(`${form.padEnd(8)} ${route.padEnd(18)} performance ${String(row.score).padStart(3)}  `
        + `FCP ${(row.fcp / 1000).toFixed(2)} s  LCP ${(row.lcp / 1000).toFixed(2)} s  `
        + `TBT ${Math.round(row.tbt)} ms  CLS ${row.cls.toFixed(3)}  ${Math.round(row.kib)} KiB  (medians of ${RUNS}; scores ${row.scores})${row.error ? '  ' + row.error : ''}`);
    }
  }
  for (const form of FORMS) {
    const r = rows.filter((x) => x.form === form);
    const worst = (k, f) => r.reduce((m, x) => f(m, x[k]), r[0][k]);
    console.log(`${form}, medians: lowest performance ${worst('score', Math.min)}, highest LCP ${(worst('lcp', Math.max) / 1000).toFixed(2)} s, `
      + `TBT ${Math.round(worst('tbt', Math.max))} ms, CLS ${worst('cls', Math.max).toFixed(3)}, most bytes ${Math.round(worst('kib', Math.max))} KiB`);
  }
} finally {
  await chrome.kill();
}
