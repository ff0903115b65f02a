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
            settle_layout();
            land_on_hash();
        });
    }
}

/// Off-screen blocks skip layout until they come near (CSS `content-visibility:
/// auto`), which paints the first screen sooner but leaves their heights as
/// estimates: a jump far down the page (a contents link, a search hit) would
/// then land somewhere else as the blocks around it take their real sizes.
/// Once the page is up, lay the blocks out for real, a few at a time
/// (`[data-laid]`, each stretch at most [`SETTLE_STRETCH_MS`] of script and
/// layout, then a yield), then mark the page `html[data-settled]`. One switch
/// for the whole page was one layout of the whole chapter: about 300 ms on a
/// phone's CPU.
fn settle_layout() {
    gloo_timers::callback::Timeout::new(SETTLE_MS, || {
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let blocks: Vec<web_sys::HtmlElement> = doc
            .query_selector_all(
                ".chapter > .prose, .chapter > .selftest, .chapter section.cell, .chapter section.exercise",
            )
            .map(|list| {
                (0..list.length())
                    .filter_map(|i| list.item(i))
                    .filter_map(|n| wasm_bindgen::JsCast::dyn_into(n).ok())
                    .collect()
            })
            .unwrap_or_default();
        lay_out_from(std::rc::Rc::new(blocks), 0);
    })
    .forget();
}

fn lay_out_from(blocks: std::rc::Rc<Vec<web_sys::HtmlElement>>, mut next: usize) {
    let start = now_ms();
    while let Some(block) = blocks.get(next) {
        next += 1;
        let _ = block.set_attribute("data-laid", "");
        // Reading a size lays the block out now, inside this stretch's time.
        let _ = block.offset_height();
        if now_ms() - start > SETTLE_STRETCH_MS {
            break;
        }
    }
    if next < blocks.len() {
        gloo_timers::callback::Timeout::new(0, move || lay_out_from(blocks, next)).forget();
    } else if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-settled", "true");
        if let Some(el) = LANDING.with(|l| l.borrow_mut().take()) {
            el.scroll_into_view();
        }
    }
}

/// When [`settle_layout`] starts laying the page out, in ms after start-up.
const SETTLE_MS: u32 = 800;

/// How long one stretch of [`settle_layout`] may run before it yields, in ms.
const SETTLE_STRETCH_MS: f64 = 10.0;

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
    el.scroll_into_view();
    // Blocks off screen are laid out only when they come near (CSS
    // `content-visibility: auto`), so the sizes around the target settle over the
    // next frames: land again once they have.
    for ms in [50, 200, 500] {
        let el = el.clone();
        gloo_timers::callback::Timeout::new(ms, move || el.scroll_into_view()).forget();
    }
    // And once every block above it has its real size.
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element());
    if root.is_some_and(|r| r.has_attribute("data-settled")) {
        return;
    }
    LANDING.with(|l| *l.borrow_mut() = Some(el));
}

thread_local! {
    /// Where [`land_on`] last pointed, until the page has settled.
    static LANDING: std::cell::RefCell<Option<web_sys::Element>> = const { std::cell::RefCell::new(None) };
}

/// Milliseconds since page load (monotonic where the browser has `performance`).
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or_else(js_sys::Date::now, |p| p.now())
}
