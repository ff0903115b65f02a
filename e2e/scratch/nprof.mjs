// Node: run one demo N times via worker_job (defaults from params.json).
import fs from 'node:fs';
const dir = process.argv[2]; const demo = process.argv[3]; const N = Number(process.argv[4] || 200);
const glue = await import('file://' + dir + '/app_worker.js');
glue.initSync({ module: fs.readFileSync(dir + '/app_worker_bg.wasm') });
const P = JSON.parse(fs.readFileSync('/work/main/e2e/scratch/params.json', 'utf8'));
const ms = [];
for (let i = 0; i < N; i++) { const r = JSON.parse(glue.worker_job(JSON.stringify({ id: i + 1, job: { demo: { demo, params: P[demo], lang: 'en' } } }))); ms.push(r.reply.demo.ms); }
const s = ms.slice(-20).sort((a, b) => a - b); console.log(demo, 'late med', s[10].toFixed(2));
