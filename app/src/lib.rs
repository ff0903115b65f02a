//! The Leptos app that renders the Inference Handbook: routes, chapter pages,
//! runnable cells, exercise panels. The only crate that touches the DOM; the
//! logic it shows lives in `chapters`, `exercises` and `judge`.

mod app;
mod cell;
mod chapter_page;
mod exercise_panel;
mod home_page;
mod plot;
mod progress;
mod scratch_cell;
pub mod storage;
pub mod worker;

pub use app::App;

/// Starts the app when the module loads in a page; in the Web Worker (no
/// window) it does nothing, and the worker calls [`worker::worker_job`].
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
    if web_sys::window().is_some() {
        worker::warm();
        leptos::mount::mount_to_body(App);
    }
}

/// Milliseconds since page load (monotonic where the browser has `performance`).
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or_else(js_sys::Date::now, |p| p.now())
}
