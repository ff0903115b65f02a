// Where a page's load spends the main thread (a tool, not a test): loads
// `node e2e/load-trace.mjs <path> [runs]` in a fresh 412 px context per run,
// traces it, and prints the medians of the time in Layout, style, HTML parsing,
// and blocking (each task's time over 50 ms), with each run's blocking time.
// `RATE=4` slows the CPU four times, as Lighthouse's mobile profile counts it
// (default 1: the machine's own speed, less noisy); `WAIT` ms traced (2500).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BOOK_URL, launch } from './browser.mjs';

const route = process.argv[2] || '/ch/newmodels';
const runs = Number(process.argv[3] || 7);
const file = path.join(os.tmpdir(), `load-trace-${process.pid}.json`);
const browser = await launch();
const rows = [];
for (let i = 0; i < runs; i++) {
  const ctx = await browser.newContext({ viewport: { width: 412, height: 823 } });
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.RATE || 1) });
  await browser.startTracing(page, { path: file, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  await page.goto(BOOK_URL + route);
  await page.waitForTimeout(Number(process.env.WAIT || 2500));
  await browser.stopTracing();
  await ctx.close();
  const events = JSON.parse(fs.readFileSync(file, 'utf8')).traceEvents;
  // The page's main thread: the one that parsed its HTML.
  const tid = events.find((e) => e.name === 'ParseHTML')?.tid;
  const on = events.filter((e) => e.tid === tid && e.ph === 'X');
  const ms = (name) => Math.round(on.filter((e) => e.name === name).reduce((a, e) => a + e.dur / 1000, 0));
  const blocking = Math.round(on.filter((e) => e.name === 'RunTask').reduce((a, e) => a + Math.max(0, e.dur / 1000 - 50), 0));
  rows.push({ layout: ms('Layout'), style: ms('UpdateLayoutTree'), parse: ms('ParseHTML'), blocking });
}
fs.rmSync(file, { force: true });
await browser.close();
const median = (k) => rows.map((r) => r[k]).sort((a, b) => a - b)[Math.floor(rows.length / 2)];
console.log(`${route}: medians of ${runs} (ms) layout ${median('layout')}, style ${median('style')}, parse ${median('parse')}, blocking ${median('blocking')}; blocking per run ${rows.map((r) => r.blocking).join(', ')}`);
