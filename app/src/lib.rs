//! The Leptos app that brings the Inference Handbook's pre-rendered pages to
//! life: runnable cells, exercise panels, the scratch cell, progress, saved
//! work. The only crate that touches the DOM; the logic it shows lives in
//! `chapters`, `exercises` and `judge`, and the text is HTML written at build
//! time (`cargo xtask build`), into which [`islands`] mounts the live parts.

mod cell;
mod editor;
mod exercise_panel;
mod home_page;
pub mod islands;
mod lang;
mod plot;
mod progress;
mod python;
mod scratch_cell;
mod share;
mod shell;
pub mod storage;
pub mod worker;

/// Starts the app when the module loads in a page. The Web Workers run a
/// module of their own (`app/worker`, package `app-worker`), so this one has
/// none of the demos', the judge's or Rhai's code.
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
    if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
        // The workers start with the first job (a cell near the screen, a
        // parameter changed, code run), not with the page (#24).
        storage::migrate();
        islands::mount_all(move |_| {
            // Tests and tools wait for this before they interact with the page.
            if let Some(root) = doc.document_element() {
                let _ = root.set_attribute("data-ready", "true");
            }
            land_on_hash();
        });
    }
}

/// Off-screen blocks skip layout until they come near (CSS `content-visibility:
/// auto`), which paints the first screen sooner but leaves their heights as
/// estimates: a jump far down the page (a contents link, a search hit, a
/// shared link) would then land somewhere else as the blocks around it take
/// their real sizes. Before such a jump the page lays everything out for real
/// (`html[data-settled]`; web/page.js does it on a click on an in-page link).
/// Not before: on a phone's CPU that is one layout of the whole chapter,
/// about 300 ms, which a reader who scrolls never needs.
fn settle() {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-settled", "true");
    }
}

/// Mounting replaces pre-rendered parts with live ones of another height, which
/// moves the section a `#fragment` link pointed at: scroll to it again.
fn land_on_hash() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let hash = window.location().hash().unwrap_or_default();
    // A shared link's fragment is `#<anchor>?s=<payload>`: land on the anchor.
    let Some(id) = hash
        .strip_prefix('#')
        .map(share::anchor_of)
        .filter(|h| !h.is_empty())
    else {
        return;
    };
    let id = js_sys::decode_uri_component(id)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| id.to_owned());
    land_on(&id);
}

/// Scrolls to the element `id`, and again as the sizes around it settle.
pub(crate) fn land_on(id: &str) {
    let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    else {
        return;
    };
    settle();
    el.scroll_into_view();
    // Live panels are taller than their pre-rendered copies, and editors and
    // charts arrive over the next frames: land again once they have.
    for ms in [50, 200, 500] {
        let el = el.clone();
        gloo_timers::callback::Timeout::new(ms, move || el.scroll_into_view()).forget();
    }
}

/// Milliseconds since page load (monotonic where the browser has `performance`).
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or_else(js_sys::Date::now, |p| p.now())
}
