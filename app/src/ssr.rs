//! The islands' HTML for the page as built: the same components that run in
//! the browser, rendered natively (Leptos' `ssr`) with their first state.
//! `cargo xtask build` writes what these return into the pages, and
//! [`crate::islands`] mounts the live component in its place with the same
//! props, so each piece of markup is written once, in the component.
//!
//! Natively nothing reaches for a browser: there is no saved work, no
//! address and no worker ([`crate::window`] is `None`), and effects do not
//! run, so a component renders what a first-time reader sees before it runs.

use leptos::prelude::*;

use chapters::Lang;
use chapters::demo::{Demo, Output};

use crate::cell::{Cell, CellIsland};
pub use crate::exercise_panel::ExerciseIsland;
use crate::exercise_panel::ExercisePanel;
use crate::scratch_cell::{ScratchCell, ScratchIsland};

/// An island: the element [`crate::islands`] mounts `kind` into, with its
/// props as JSON (`data-props`) and the component's first render inside.
fn island(kind: &str, id: Option<&str>, props: &impl serde::Serialize, inner: String) -> String {
    let props = serde_json::to_string(props).unwrap_or_default();
    view! {
        <div class="island" data-island=kind.to_owned() data-id=id.map(str::to_owned)
            data-props=props inner_html=inner></div>
    }
    .to_html()
        + "\n"
}

/// Renders `f`'s view to HTML in `lang`, under an owner of its own.
fn render<V: IntoView + 'static>(lang: Lang, f: impl FnOnce() -> V) -> String {
    // The page's shared state, outside every island's owner (as
    // [`crate::islands::mount_all`] makes it): empty here.
    let _ = crate::progress::use_progress();
    let _ = crate::scratch_cell::scratch_request();
    let _ = crate::share::hash();
    crate::lang::rendering_in(lang, || Owner::new().with(|| f().into_view().to_html()))
}

/// A cell as the page is built: its parameters at their defaults, the
/// highlighted source (`source_html`, from the build's highlighter, of
/// `demo.source`) and `output`, what its defaults computed.
pub fn cell(
    demo: Demo,
    output: Output,
    source_html: String,
    answers: Option<(String, String)>,
    lang: Lang,
) -> String {
    let props = CellIsland {
        id: demo.id.to_owned(),
        answers: answers.clone(),
    };
    let source_lines = demo.source.lines().count();
    let inner = render(lang, move || {
        let initial = crate::cell::blocks_view(output.blocks, RwSignal::new(false)).to_html();
        let typed = Default::default();
        view! { <Cell demo source_html source_lines initial answers typed/> }
    });
    island("cell", Some(demo.id), &props, inner)
}

/// The scratch cell of `chapter` as the page is built, with `code` in it.
pub fn scratch(chapter: &str, code: &str, lang: Lang) -> String {
    let props = ScratchIsland {
        chapter: chapter.to_owned(),
        code: code.to_owned(),
    };
    let ScratchIsland { chapter, code } = props.clone();
    let inner = render(
        lang,
        move || view! { <ScratchCell code chapter typed=None/> },
    );
    island("scratch", None, &props, inner)
}

/// An exercise as the page is built: its statement (`statement_html`, the
/// build's rendering of its Markdown) and the editor with the starter code.
pub fn exercise(
    ex: exercises::Exercise,
    statement_html: String,
    props: ExerciseIsland,
    lang: Lang,
) -> String {
    let id = ex.id;
    let island_props = props.clone();
    let inner = render(lang, move || {
        view! { <ExercisePanel ex island=island_props statement_html typed=None/> }
    });
    island("exercise", Some(id), &props, inner)
}
