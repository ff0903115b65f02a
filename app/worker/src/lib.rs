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

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// Serves one JSON request (see [`exercises::jobs`]) and returns the JSON reply.
/// The clock is the worker's `performance.now()` (sub-millisecond), or the
/// date's when a host has none.
#[wasm_bindgen]
pub fn worker_job(request: &str) -> String {
    let global = js_sys::global();
    let perf = js_sys::Reflect::get(&global, &JsValue::from_str("performance"))
        .ok()
        .filter(|p| p.is_object());
    let now_fn = perf.as_ref().and_then(|p| {
        js_sys::Reflect::get(p, &JsValue::from_str("now"))
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    });
    let now: Rc<dyn Fn() -> f64> = Rc::new(move || match (&perf, &now_fn) {
        (Some(p), Some(f)) => f
            .call0(p)
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or_else(js_sys::Date::now),
        _ => js_sys::Date::now(),
    });
    exercises::jobs::handle(request, &now)
}
