import http from 'node:http'; import fs from 'node:fs'; import path from 'node:path';
const dist = path.resolve('dist');
const types = { js: 'text/javascript', wasm: 'application/wasm', html: 'text/html', css: 'text/css', json: 'application/json', webmanifest: 'application/manifest+json', svg: 'image/svg+xml', png: 'image/png', ipynb: 'application/json' };
http.createServer((q, r) => {
  let u = decodeURIComponent(q.url.split('?')[0]); if (u.endsWith('/')) u += 'index.html';
  let f = path.join(dist, u); if (!fs.existsSync(f) && fs.existsSync(f + '.html')) f += '.html';
  try { const b = fs.readFileSync(f); r.setHeader('content-type', types[f.split('.').pop()] || 'application/octet-stream'); r.end(b); } catch { r.statusCode = 404; r.setHeader('content-type', 'text/html'); r.end(fs.readFileSync(path.join(dist, '404.html'))); }
}).listen(Number(process.argv[2] || 8099), '127.0.0.1');
