// The book's Web Worker. It runs the workers' wasm module (app/worker, built as
// /pkg/app_worker.js + app_worker_bg.wasm: the demos, the judge and Rhai, none
// of which the page's module has). The first message is that module, compiled
// once by the page (ihWorkerModule in web/page.js) for all its workers; the
// worker answers "ready". Then each message is one JSON request
// (exercises::jobs::Request), answered with one JSON reply.
import init, { worker_job } from "/pkg/app_worker.js";

let ready = null;
self.onmessage = (e) => {
  if (ready === null) {
    ready = init({ module_or_path: e.data }).then(
      () => self.postMessage("ready"),
      (err) => self.postMessage(JSON.stringify({ id: 0, trap: "could not start: " + err })),
    );
    return;
  }
  const request = e.data;
  ready.then(() => {
    let reply;
    try {
      reply = worker_job(request);
    } catch (err) {
      // A trap (a panic) leaves the module unusable: the page replaces this worker.
      let id = 0;
      try { id = JSON.parse(request).id; } catch (_) {}
      reply = JSON.stringify({ id, trap: String(err) });
    }
    self.postMessage(reply);
  });
};
