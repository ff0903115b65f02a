//! Mounts the live parts of a pre-rendered page into their places.
//!
//! Every page of the book is HTML written at build time (`xtask/src/render.rs`):
//! text, math, tables, the self-test, and each cell with the output of its
//! defaults. The elements marked `data-island` are where this module mounts
//! Leptos components: the header's tools, the notices, the home page's
//! progress and saved work, each cell, exercise and scratch cell, and the
//! contents' progress marks. What the build already rendered (a cell's
//! highlighted source and first output, an exercise's statement) is taken from
//! the element before it is replaced, so the wasm carries no Markdown, LaTeX or
//! demo source.

use crate::lang::trf;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

use crate::cell::Cell;
use crate::exercise_panel::ExercisePanel;
use crate::home_page::HomePage;
use crate::progress::{mark, use_progress};
use crate::scratch_cell::ScratchCell;
use crate::shell::{Notices, ThemeSwitch};

/// How long one stretch of mounting may run before it yields to the browser
/// (input, paint), in ms. On a phone's slower CPU (Lighthouse's mobile
/// profile runs at a quarter of this machine's speed) a stretch stays near
/// the 50 ms past which a task counts as blocking.
const STRETCH_MS: f64 = 10.0;

/// Mounts the islands of the page a few at a time: after each stretch of
/// [`STRETCH_MS`] it yields (a zero-delay timeout), so the page keeps
/// answering and painting while it mounts. The small ones (the header's
/// tools, notices, progress marks, the home page) mount at once; the heavy
/// ones (cells, exercises, the scratch cell: [`is_heavy`]) only when they come
/// within a screen of the view, as a reader scrolls or jumps to them, so a
/// phone does not lay out a whole chapter's live parts before the reader
/// needs them (#24). Calls `done` with how many mounted once the first
/// screen's have; `window.ihMountAll()` mounts the rest at once.
pub fn mount_all(done: impl FnOnce(usize) + 'static) {
    let Some(doc) = crate::window().and_then(|w| w.document()) else {
        return done(0);
    };
    // One progress for the whole page, created outside every island's owner.
    let _ = use_progress();
    let _ = crate::scratch_cell::scratch_request();
    let _ = crate::share::hash();
    let Ok(list) = doc.query_selector_all("[data-island]") else {
        return done(0);
    };
    let islands: Vec<HtmlElement> = (0..list.length())
        .filter_map(|i| list.item(i).and_then(|n| n.dyn_into::<HtmlElement>().ok()))
        .collect();
    // The heavy islands near the view mount now, with the small ones; the
    // others wait for the reader (one layout here: the page is painted by
    // the time the app starts, and off-screen blocks are skipped).
    let screen = crate::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .unwrap_or(800.0);
    let (now, later): (Vec<HtmlElement>, Vec<HtmlElement>) = islands.into_iter().partition(|el| {
        let kind = el.get_attribute("data-island").unwrap_or_default();
        !is_heavy(&kind) || box_of(el).is_none_or(|b| near(&b, screen))
    });
    for el in later {
        wait_for_reader(el);
    }
    expose_mount_all();
    // Yield first: the task that instantiated the module ends here, and the
    // first stretch of mounting is a task of its own.
    let now = std::rc::Rc::new(now);
    gloo_timers::callback::Timeout::new(0, move || mount_from(now, 0, 0, Box::new(done))).forget();
}

/// Islands that mount only when the reader comes near them.
fn is_heavy(kind: &str) -> bool {
    matches!(kind, "cell" | "exercise" | "scratch")
}

/// The element that has the island's box: its first child (an island is
/// `display: contents`, which has none of its own).
fn box_of(el: &HtmlElement) -> Option<web_sys::Element> {
    el.first_element_child()
}

/// Whether `el` is within a screen of the view (as `ihWhenNeeded` counts it).
fn near(el: &web_sys::Element, screen: f64) -> bool {
    let r = el.get_bounding_client_rect();
    r.bottom() >= -screen && r.top() <= 2.0 * screen
}

thread_local! {
    /// Heavy islands not mounted yet, and those asked for, to mount in turn.
    static WAITING: std::cell::RefCell<Vec<HtmlElement>> = const { std::cell::RefCell::new(Vec::new()) };
    static QUEUE: std::cell::RefCell<std::collections::VecDeque<HtmlElement>> =
        const { std::cell::RefCell::new(std::collections::VecDeque::new()) };
    static DRAINING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Mounts `el` when the reader comes near it (at once if the page cannot tell).
fn wait_for_reader(el: HtmlElement) {
    let Some(id) = box_of(&el).map(|b| b.id()).filter(|id| !id.is_empty()) else {
        return ask(el);
    };
    WAITING.with(|w| w.borrow_mut().push(el.clone()));
    let target = el.clone();
    let cb = wasm_bindgen::closure::Closure::once_into_js(move || ask(target));
    if crate::cell::when_needed(&id, &cb).is_err() {
        ask(el);
    }
}

/// Queues `el` for mounting (once), and mounts the queue in stretches.
fn ask(el: HtmlElement) {
    if el.has_attribute("data-mounted") || QUEUE.with(|q| q.borrow().contains(&el)) {
        return;
    }
    QUEUE.with(|q| q.borrow_mut().push_back(el));
    if !DRAINING.with(|d| d.replace(true)) {
        gloo_timers::callback::Timeout::new(0, drain).forget();
    }
}

fn drain() {
    let start = crate::now_ms();
    while let Some(el) = QUEUE.with(|q| q.borrow_mut().pop_front()) {
        mount_el(&el);
        WAITING.with(|w| w.borrow_mut().retain(|x| x != &el));
        if crate::now_ms() - start > STRETCH_MS {
            gloo_timers::callback::Timeout::new(0, drain).forget();
            return;
        }
    }
    DRAINING.with(|d| d.set(false));
    if WAITING.with(|w| w.borrow().is_empty())
        && let Some(root) = crate::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-mounted-all", "true");
    }
}

/// `window.ihMountAll()`: mounts every island still waiting, wherever it is
/// (the e2e tests use it), then marks
/// `html[data-mounted-all]`.
fn expose_mount_all() {
    let all = wasm_bindgen::closure::Closure::<dyn Fn()>::new(|| {
        for el in WAITING.with(|w| w.borrow().clone()) {
            ask(el);
        }
        if WAITING.with(|w| w.borrow().is_empty()) && !DRAINING.with(|d| d.get()) {
            drain();
        }
    });
    if let Some(w) = crate::window() {
        let _ = js_sys::Reflect::set(&w, &"ihMountAll".into(), all.as_ref());
    }
    all.forget();
}

fn mount_from(
    islands: std::rc::Rc<Vec<HtmlElement>>,
    mut next: usize,
    mut mounted: usize,
    done: Box<dyn FnOnce(usize)>,
) {
    let start = crate::now_ms();
    while let Some(el) = islands.get(next) {
        next += 1;
        if mount_el(el) {
            mounted += 1;
        }
        if crate::now_ms() - start > STRETCH_MS {
            break;
        }
    }
    if next < islands.len() {
        gloo_timers::callback::Timeout::new(0, move || mount_from(islands, next, mounted, done))
            .forget();
    } else {
        done(mounted);
    }
}

/// Mounts one island in place of its pre-rendered copy, or an error there;
/// keeps the reader's focus on the control it was on. True if it mounted.
fn mount_el(el: &HtmlElement) -> bool {
    let kind = el.get_attribute("data-island").unwrap_or_default();
    let focused = crate::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
        .filter(|a| el.contains(Some(a)))
        .map(|a| (a.id(), selection(&a)))
        .filter(|(id, _)| !id.is_empty());
    let ok = match mount_one(&kind, el) {
        Ok(()) => true,
        Err(message) => {
            replace(el, move || {
                view! { <p class="error" role="alert">{message.clone()}</p> }
            });
            false
        }
    };
    let _ = el.set_attribute("data-mounted", "true");
    if let Some((id, caret)) = focused
        && let Some(input) = el
            .owner_document()
            .and_then(|d| d.get_element_by_id(&id))
            .and_then(|e| e.dyn_into::<HtmlElement>().ok())
    {
        let _ = input.focus();
        // The caret where it was (a focused field whose value came from its
        // markup would have it at the start).
        if let Some((start, end)) = caret {
            let f = js_sys::Reflect::get(&input, &"setSelectionRange".into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
            if let Some(f) = f {
                let _ = f.call2(&input, &start.into(), &end.into());
            }
        }
    }
    ok
}

/// A text field's selection (start, end), if `el` has one.
fn selection(el: &web_sys::Element) -> Option<(f64, f64)> {
    let at = |name: &str| {
        js_sys::Reflect::get(el, &name.into())
            .ok()
            .and_then(|v| v.as_f64())
    };
    Some((at("selectionStart")?, at("selectionEnd")?))
}

/// What the reader changed in a pre-rendered cell's parameters before it
/// mounted (name → value), which the live cell takes over.
fn typed_params(el: &HtmlElement) -> std::collections::BTreeMap<String, String> {
    let mut typed = std::collections::BTreeMap::new();
    let Ok(list) = el.query_selector_all("form.params [name]") else {
        return typed;
    };
    for node in (0..list.length()).filter_map(|i| list.item(i)) {
        let Some(field) = node.dyn_ref::<web_sys::Element>() else {
            continue;
        };
        let name = field.get_attribute("name").unwrap_or_default();
        let value = js_sys::Reflect::get(&node, &"value".into())
            .ok()
            .and_then(|v| v.as_string());
        let default = match field.tag_name().as_str() {
            "SELECT" => find(field, "option[selected]").and_then(|o| o.get_attribute("value")),
            "TEXTAREA" => field.text_content(),
            _ => field.get_attribute("value"),
        };
        if let Some(v) = value.filter(|v| Some(v) != default.as_ref()) {
            typed.insert(name, v);
        }
    }
    typed
}

/// The first element under `el` matching `selector`.
fn find(el: &web_sys::Element, selector: &str) -> Option<web_sys::Element> {
    el.query_selector(selector).ok().flatten()
}

/// The inner HTML of the first element under `el` matching `selector`.
fn inner(el: &HtmlElement, selector: &str) -> String {
    find(el, selector)
        .map(|e| e.inner_html())
        .unwrap_or_default()
}

/// Replaces `el`'s children with a component; the component lives as long as the page.
fn replace<F, N>(el: &HtmlElement, f: F)
where
    F: FnOnce() -> N + 'static,
    N: IntoView,
{
    el.set_inner_html("");
    leptos::mount::mount_to(el.clone(), f).forget();
}

/// An island's props: its `data-props`, as [`crate::ssr`] wrote them.
fn props<T: serde::de::DeserializeOwned>(el: &HtmlElement) -> Result<T, String> {
    let json = el.get_attribute("data-props").unwrap_or_default();
    serde_json::from_str(&json).map_err(|e| {
        trf!(
            stale_island,
            kind = el.get_attribute("data-island").unwrap_or_default(),
            why = e
        )
    })
}

fn mount_one(kind: &str, el: &HtmlElement) -> Result<(), String> {
    match kind {
        "header" => replace(el, ThemeSwitch),
        "notices" => replace(el, Notices),
        "home" => {
            let texts = crate::home_page::HomeTexts::from_page(el);
            replace(el, move || view! { <HomePage texts/> });
        }
        "mark" => {
            let ex = el.get_attribute("data-exercise").unwrap_or_default();
            let progress = use_progress();
            let target = el.clone();
            replace(el, move || {
                let status = {
                    let ex = ex.clone();
                    move || progress.status(&ex)
                };
                let s2 = status.clone();
                Effect::new(move |_| {
                    let _ = target.set_attribute("title", crate::lang::outcome_label(&s2()));
                });
                move || mark(&status())
            });
        }
        "chapter-progress" => {
            let chapter = el.get_attribute("data-chapter").unwrap_or_default();
            let ids: Vec<&'static str> = exercises::for_chapter(&chapter)
                .iter()
                .map(|e| e.id)
                .collect();
            let progress = use_progress();
            replace(el, move || {
                move || format!("{}/{}", progress.passed(&ids), ids.len())
            });
        }
        "cell" => {
            let props: crate::cell::CellIsland = props(el)?;
            let id = props.id;
            let demo = chapters::demo(&id).ok_or_else(|| trf!(stale_cell, id = id))?;
            let source = find(el, ".cell-source code");
            let source_html = source.as_ref().map(|c| c.inner_html()).unwrap_or_default();
            let source_lines = source
                .and_then(|c| c.text_content())
                .map_or(0, |t| t.lines().count());
            let initial = inner(el, ".cell-output > .prerendered");
            let answers = props.answers;
            let typed = typed_params(el);
            replace(
                el,
                move || view! { <Cell demo source_html source_lines initial answers typed/> },
            );
        }
        "exercise" => {
            let island: crate::exercise_panel::ExerciseIsland = props(el)?;
            let id = island.id.clone();
            let ex = exercises::by_id(&id).ok_or_else(|| trf!(stale_exercise, id = id))?;
            let statement_html = inner(el, ".statement");
            // What the reader wrote before it mounted.
            let typed = find(el, "textarea.editor")
                .and_then(|t| js_sys::Reflect::get(&t, &"value".into()).ok())
                .and_then(|v| v.as_string())
                .filter(|v| {
                    Some(v.as_str())
                        != find(el, "textarea.editor")
                            .and_then(|t| t.text_content())
                            .as_deref()
                });
            replace(
                el,
                move || view! { <ExercisePanel ex island statement_html typed/> },
            );
        }
        "scratch" => {
            let crate::scratch_cell::ScratchIsland { chapter, code } = props(el)?;
            // What the reader wrote before it mounted.
            let typed = find(el, "#scratch-editor")
                .and_then(|t| js_sys::Reflect::get(&t, &"value".into()).ok())
                .and_then(|v| v.as_string())
                .filter(|v| *v != code);
            replace(el, move || view! { <ScratchCell code chapter typed/> });
        }
        other => {
            return Err(trf!(unknown_island, kind = other));
        }
    }
    Ok(())
}
