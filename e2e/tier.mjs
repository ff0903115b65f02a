// The workers' module run outside the browser, to see V8's tiers at work (a
// tool, not a test; #25): each demo at its defaults 40 times in a row through
// `worker_job`, printing the ms the module reports for each run. Run it on a
// quiet machine after `cargo xtask build`, with V8's flags to compare tiers:
//
//   node e2e/tier.mjs [dist/pkg] [routing,mhc]
//   node --no-liftoff e2e/tier.mjs        (TurboFan only)
//   node --liftoff-only e2e/tier.mjs      (the baseline compiler only)
import fs from 'node:fs';
import path from 'node:path';
const dir = path.resolve(process.argv[2] || new URL('../dist/pkg', import.meta.url).pathname);
const glue = await import('file://' + dir + '/app_worker.js');
glue.initSync({ module: fs.readFileSync(dir + '/app_worker_bg.wasm') });
const P = { routing: { seed: '1', vocab: '129,280', experts: '256', topk: '6', zipf: '1.1', batches: '256 4,096 65,536', chart_batch: '4,096' }, mhc: { seed: '1', depth: '60', noise: '0.15', iters: '20' } };
for (const demo of (process.argv[3] || 'routing,mhc').split(',')) {
  const ms = [];
  for (let i = 0; i < 40; i++) {
    const r = JSON.parse(glue.worker_job(JSON.stringify({ id: i + 1, job: { demo: { demo, params: P[demo], lang: 'en' } } })));
    if (i === 0 && !(r.reply.demo && r.reply.demo.result.Ok)) console.log(JSON.stringify(r).slice(0, 300));
    ms.push(r.reply.demo ? r.reply.demo.ms : NaN);
  }
  console.log(demo, ms.map((x) => x.toFixed(1)).join(' '));
}
