// Correct Rhai and Python solutions, typed into the editor by the end-to-end tests and the bench:
// each exercise folder's `solution.rhai`, as the build lists them in
// target/e2e/manifest.json (xtask/src/manifest.rs, from the crates: no test parses
// the content files). `cargo test -p exercises` grades the same solutions natively.
// SOLUTIONS maps an exercise id (`chapter/slug`) to its source, chapter by chapter in
// reading order, then in the page's order.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MANIFEST = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'target', 'e2e', 'manifest.json');

function load(field) {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8'));
  } catch (e) {
    throw new Error(`${MANIFEST}: ${e.message} (\`cargo xtask build\` or \`cargo xtask serve\` writes it)`);
  }
  return Object.fromEntries(manifest.chapters.flatMap((ch) => ch.exercises.map((ex) => [ex.id, ex[field]])));
}

export const SOLUTIONS = load('solution');
// The same for Python: each folder's `solution.py`.
export const PYTHON_SOLUTIONS = load('python');
