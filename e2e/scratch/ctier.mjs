// tier.mjs in Chromium (WORKER=1: in a module worker): worker_job N times per demo.
import { chromium } from 'playwright-core';
import http from 'node:http'; import fs from 'node:fs'; import path from 'node:path';
const dir = path.resolve(process.argv[2] || 'dist/pkg');
const demos = (process.argv[3] || 'routing,mhc').split(',');
const flags = process.argv[4] ? process.argv[4].split(' ') : [];
const srv = http.createServer((q, r) => { const f = path.join(dir, q.url.split('?')[0]); if (q.url === '/') { r.setHeader('content-type', 'text/html'); return r.end('<!doctype html><p>x'); } try { const b = fs.readFileSync(f); r.setHeader('content-type', f.endsWith('.js') ? 'text/javascript' : f.endsWith('.wasm') ? 'application/wasm' : 'text/plain'); r.end(b); } catch { r.statusCode = 404; r.end(); } }).listen(0);
const port = srv.address().port;
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', ...(flags.length ? ['--js-flags=' + flags.join(' ')] : [])] });
const p = await b.newPage(); await p.goto(`http://127.0.0.1:${port}/`);
const fn = `async (demos, mod) => {
  const g = await import(location.origin + '/app_worker.js'); await g.default({ module_or_path: mod || (location.origin + '/app_worker_bg.wasm') });
  const P = ${fs.readFileSync('e2e/scratch/params.json','utf8')};
  const res = {};
  for (const demo of demos) { const ms = []; for (let i = 0; i < ${process.env.N || 30}; i++) { const r = JSON.parse(g.worker_job(JSON.stringify({ id: i + 1, job: { demo: { demo, params: P[demo], lang: 'en' } } }))); if (!r.reply.demo || !r.reply.demo.result.Ok) { res[demo] = JSON.stringify(r).slice(0, 200); break; } ms.push(r.reply.demo.ms); await new Promise((r) => setTimeout(r, 20)); } if (!res[demo]) { const s = ms.slice(-10).sort((a, b) => a - b); res[demo] = 'late med ' + ((s[4] + s[5]) / 2).toFixed(2) + ' | ' + ms.map((x) => x.toFixed(1)).join(' '); } }
  return res;
}`;
const out = process.env.WORKER === '1' ? await p.evaluate(async ([src, DEMOS, SHARED]) => {
  const w = new Worker(URL.createObjectURL(new Blob([`self.onmessage = async (e) => { const f = (${src}); postMessage(await f(e.data[0], e.data[1])); }`], { type: 'text/javascript' })), { type: 'module' });
  const mod = SHARED ? await WebAssembly.compileStreaming(fetch('/app_worker_bg.wasm')) : null; return await new Promise((res) => { w.onmessage = (e) => res(e.data); w.postMessage([DEMOS, mod]); });
}, [fn, demos, process.env.SHARED === '1']) : await p.evaluate(`(${fn})(${JSON.stringify(demos)})`);
for (const [k, v] of Object.entries(out)) console.log(k, v);
await b.close(); srv.close();
