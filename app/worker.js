// The book's Web Worker: the app's own wasm module, without the page. The first
// message is the compiled WebAssembly.Module; then each message is one JSON
// request (exercises::jobs::Request) answered with one JSON reply.
import init, { worker_job } from "/pkg/app.js";

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
