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
#[cfg(not(target_arch = "wasm32"))]
pub mod ssr;
pub mod storage;
pub mod worker;

/// The page's window; natively (the build's pre-rendering, the tests) none, so
/// that every path that asks for it (saved work, the address, the document)
/// finds nothing instead of calling into a browser that is not there.
pub(crate) fn window() -> Option<web_sys::Window> {
    #[cfg(target_arch = "wasm32")]
    return web_sys::window();
    #[cfg(not(target_arch = "wasm32"))]
    None
}

/// Starts the app when the module loads in a page. The Web Workers run a
/// module of their own (`app/worker`, package `app-worker`), so this one has
/// none of the demos', the judge's or Rhai's code.
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
    if let Some(doc) = crate::window().and_then(|w| w.document()) {
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
    if let Some(root) = crate::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-settled", "true");
    }
}

/// Mounting replaces pre-rendered parts with live ones of another height, which
/// moves the section a `#fragment` link pointed at: scroll to it again.
fn land_on_hash() {
    let Some(window) = crate::window() else {
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
    let Some(el) = crate::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    else {
        return;
    };
    settle();
    let place = kept_place(id);
    let land = move |el: &web_sys::Element| {
        el.scroll_into_view();
        if let Some(ratio) = place {
            into_place(el, ratio);
        }
    };
    land(&el);
    // Live panels are taller than their pre-rendered copies, and editors and
    // charts arrive over the next frames: land again once they have.
    for ms in [50, 200, 500] {
        let el = el.clone();
        gloo_timers::callback::Timeout::new(ms, move || land(&el)).forget();
    }
}

/// How far into section `id` the reader was on the other language's page, as
/// a fraction of the section's length: what the language switch (index.html)
/// keeps in `sessionStorage` for the next page, taken once, and only within
/// 10 s of the click.
fn kept_place(id: &str) -> Option<f64> {
    let store = crate::window()?.session_storage().ok()??;
    let text = store.get_item("ih:place").ok()??;
    let _ = store.remove_item("ih:place");
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let fresh = (js_sys::Date::now() - v["at"].as_f64()?).abs() < 10_000.0;
    (fresh && v["id"].as_str()? == id).then(|| v["ratio"].as_f64().unwrap_or(0.0).clamp(0.0, 1.0))
}

/// Scrolls so that `ratio` of `el`'s section (from it to the next section,
/// cell or exercise, as the switch measured it) is above the window's top.
fn into_place(el: &web_sys::Element, ratio: f64) {
    let Some(w) = crate::window() else {
        return;
    };
    let Some(doc) = w.document() else {
        return;
    };
    let top = el.get_bounding_client_rect().top();
    let Ok(all) = doc.query_selector_all(
        ".chapter h2[id], .chapter h3[id], section.cell[id], section.exercise[id]",
    ) else {
        return;
    };
    let at = (0..all.length()).find(|&i| all.item(i).is_some_and(|n| n.is_same_node(Some(el))));
    let next = at
        .and_then(|i| all.item(i + 1))
        .and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
        .map(|n| n.get_bounding_client_rect().top())
        .unwrap_or_else(|| {
            doc.document_element().map_or(top, |d| {
                d.scroll_height() as f64 - w.scroll_y().unwrap_or(0.0)
            })
        });
    w.scroll_by_with_x_and_y(0.0, top + ratio * (next - top).max(0.0));
}

/// Milliseconds since page load (monotonic where the browser has `performance`).
pub fn now_ms() -> f64 {
    crate::window()
        .and_then(|w| w.performance())
        .map_or_else(js_sys::Date::now, |p| p.now())
}
