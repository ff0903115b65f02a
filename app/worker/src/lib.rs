//! The wasm module the book's Web Workers run (`app/worker.js`): it serves one
//! JSON request at a time ([`exercises::jobs`]): a demo run, a grading run or a
//! scratch run.
//!
//! It is a module of its own so that the page's module (`app`) carries none of
//! what computes: the demos, the test cases and reference solutions, the
//! scripting functions and the Rhai sandbox are here, and only here. A page
//! loads this module when it first needs a worker; the page's own module
//! renders, mounts and talks to the workers.

use std::rc::Rc;

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// The worker's `performance.now()`, sub-millisecond.
    #[wasm_bindgen(catch, js_namespace = performance, js_name = now)]
    fn performance_now() -> Result<f64, JsValue>;
}

/// Serves one JSON request (see [`exercises::jobs`]) and returns the JSON reply.
/// The clock is the worker's `performance.now()`, or the date's when a host
/// has none.
#[wasm_bindgen]
pub fn worker_job(request: &str) -> String {
    let now: Rc<dyn Fn() -> f64> =
        Rc::new(|| performance_now().unwrap_or_else(|_| js_sys::Date::now()));
    exercises::jobs::handle(request, &now)
}
