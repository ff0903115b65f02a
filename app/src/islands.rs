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

/// Mounts every island of the page, in page order, a few at a time: after
/// each stretch of [`STRETCH_MS`] it yields (a zero-delay timeout), so the
/// page keeps answering and painting while it mounts. Calls `done` with how
/// many were mounted once all are.
pub fn mount_all(done: impl FnOnce(usize) + 'static) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
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
    mount_from(std::rc::Rc::new(islands), 0, 0, Box::new(done));
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
        let kind = el.get_attribute("data-island").unwrap_or_default();
        match mount_one(&kind, el) {
            Ok(()) => mounted += 1,
            Err(message) => replace(el, move || {
                view! { <p class="error" role="alert">{message.clone()}</p> }
            }),
        }
        let _ = el.set_attribute("data-mounted", "true");
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

/// The first element under `el` matching `selector`.
fn find(el: &HtmlElement, selector: &str) -> Option<web_sys::Element> {
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

fn mount_one(kind: &str, el: &HtmlElement) -> Result<(), String> {
    let id = el.get_attribute("data-id").unwrap_or_default();
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
            let demo = chapters::demo(&id).ok_or_else(|| trf!(stale_cell, id = id))?;
            let source = find(el, ".cell-source code");
            let source_html = source.as_ref().map(|c| c.inner_html()).unwrap_or_default();
            let source_lines = source
                .and_then(|c| c.text_content())
                .map_or(0, |t| t.lines().count());
            let initial = inner(el, ".cell-output > .prerendered");
            // The exercise this cell's source answers, if any (id, title).
            let answers = el
                .get_attribute("data-answers")
                .zip(el.get_attribute("data-answers-title"));
            replace(
                el,
                move || view! { <Cell demo source_html source_lines initial answers/> },
            );
        }
        "exercise" => {
            let ex = exercises::by_id(&id).ok_or_else(|| trf!(stale_exercise, id = id))?;
            let statement_html = inner(el, ".statement");
            let reference_html = inner(el, "template.reference");
            // The title and hints in the page's language (`data-title`,
            // `data-hints`: a JSON list), else the English ones.
            let title = el
                .get_attribute("data-title")
                .unwrap_or_else(|| ex.title.to_owned());
            let hints: Vec<String> = el
                .get_attribute("data-hints")
                .and_then(|h| serde_json::from_str(&h).ok())
                .unwrap_or_else(|| ex.hints.iter().map(|h| h.to_string()).collect());
            let cases = el
                .get_attribute("data-cases")
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(0);
            replace(
                el,
                move || view! { <ExercisePanel ex title hints statement_html reference_html cases/> },
            );
        }
        "scratch" => {
            let chapter = el.get_attribute("data-chapter").unwrap_or_default();
            let code = find(el, ".scratch-starter")
                .and_then(|c| c.text_content())
                .unwrap_or_default();
            replace(el, move || view! { <ScratchCell code chapter/> });
        }
        other => {
            return Err(trf!(unknown_island, kind = other));
        }
    }
    Ok(())
}
