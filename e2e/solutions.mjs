// Correct Rhai solutions, typed into the editor by the end-to-end tests and the bench:
// each exercise folder's `solution.rhai` (chapters/src/<chapter>/exercises/<slug>/),
// read from disk. `cargo test -p exercises` grades the same files natively (exercises/src/check.rs).
// SOLUTIONS maps an exercise id (`chapter/slug`) to its source, chapter by chapter in
// reading order (chapters/SUMMARY.md), then in the order of the manifests' `position`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CHAPTERS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'chapters');
const SRC = path.join(CHAPTERS, 'src');

// The reading order: the `- <folder>` lines of chapters/SUMMARY.md.
function readingOrder() {
  const text = fs.readFileSync(path.join(CHAPTERS, 'SUMMARY.md'), 'utf8').replace(/<!--[\s\S]*?-->/g, '');
  return [...text.matchAll(/^\s*- +([a-z_][a-z0-9_]*)\/?\s*$/gm)].map((m) => m[1]);
}

function load() {
  const order = readingOrder();
  const found = [];
  for (const chapter of order) {
    const chDir = path.join(SRC, chapter, 'exercises');
    if (!fs.existsSync(chDir) || !fs.statSync(chDir).isDirectory()) continue;
    for (const slug of fs.readdirSync(chDir).sort()) {
      const dir = path.join(chDir, slug);
      if (!fs.statSync(dir).isDirectory()) continue;
      const manifest = fs.readFileSync(path.join(dir, 'exercise.toml'), 'utf8');
      const position = Number((manifest.match(/^position\s*=\s*(\d+)/m) || [])[1]);
      // Without the file's last newline, as the Rust side reads it (check::known_good).
      const source = fs.readFileSync(path.join(dir, 'solution.rhai'), 'utf8').replace(/\n$/, '');
      found.push({ id: `${chapter}/${slug}`, chapter, position, source });
    }
  }
  found.sort((a, b) => order.indexOf(a.chapter) - order.indexOf(b.chapter) || a.position - b.position);
  return Object.fromEntries(found.map((e) => [e.id, e.source]));
}

export const SOLUTIONS = load();
