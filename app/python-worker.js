// The Python lane's Web Worker: Pyodide (CPython built for wasm, from npm,
// served from the book's own origin under /pyodide/, its .mjs files renamed
// .js: xtask/src/site.rs) running the judge's
// harness (/python/harness.py, the file the CLI runs with python3) on one
// exercise's cases. It has no test cases and no expected values: the page
// asks the grading worker for the arguments, sends them here, and hands the
// replies back to the grading worker for the verdict (app/src/python.rs).
//
// Out: {"loading": what} while Python starts, {"ready": ms} once; then for each
// job, {"id", "case", "reply", "printed"} per case as it ends (case 0: the file
// did not load), and {"id", "done": true}. A job is
// {"id", "file", "function", "arity", "source", "cases": [json array, ...]}.
// A runaway loop is the page's to end: it terminates this worker.
import { loadPyodide } from "/pyodide/pyodide.js";

// The head and tail of what a case prints, as judge::replies::Printed keeps
// them: the first KEEP bytes, then up to 2 × KEEP more, cut to the last KEEP.
const KEEP = 4096;
let current = { head: [], tail: [], total: 0 };
function push(bytes) {
  const c = current;
  c.total += bytes.length;
  const room = Math.max(0, KEEP - c.head.length);
  const head = Math.min(room, bytes.length);
  for (let i = 0; i < head; i++) c.head.push(bytes[i]);
  for (let i = head; i < bytes.length; i++) c.tail.push(bytes[i]);
  if (c.tail.length > 2 * KEEP) c.tail.splice(0, c.tail.length - KEEP);
}

const say = (message) => self.postMessage(JSON.stringify(message));

const started = (async () => {
  const t0 = performance.now();
  say({ loading: "python" });
  const py = await loadPyodide({ indexURL: "/pyodide/" });
  const write = { write: (bytes) => { push(bytes); return bytes.length; } };
  py.setStdout(write);
  py.setStderr(write);
  say({ loading: "harness" });
  const response = await fetch("/python/harness.py");
  if (!response.ok) throw new Error(`/python/harness.py: HTTP ${response.status}`);
  py.FS.writeFile("/home/pyodide/harness.py", await response.text());
  const harness = py.pyimport("harness");
  harness.close_the_page();
  say({ ready: Math.round(performance.now() - t0) });
  return harness;
})();
started.catch((err) => say({ id: 0, trap: "Python could not start: " + err }));

self.onmessage = async (e) => {
  const harness = await started;
  const job = JSON.parse(e.data);
  const send = (i, reply) => say({ id: job.id, case: i, reply: harness.reply_line(i, reply), printed: current });
  current = { head: [], tail: [], total: 0 };
  const session = harness.Session(job.source, job.file, job.function, job.arity);
  try {
    const failed = session.load();
    if (failed !== undefined && failed !== null) {
      send(0, failed);
    } else {
      for (let i = 0; i < job.cases.length; i++) {
        current = { head: [], tail: [], total: 0 };
        send(i + 1, session.call(job.cases[i]));
      }
    }
  } catch (err) {
    // Not the learner's exception (the harness catches those): Pyodide itself.
    say({ id: job.id, trap: String(err) });
    return;
  } finally {
    session.destroy();
  }
  say({ id: job.id, done: true });
};
