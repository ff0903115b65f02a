use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

use chapters::doc::Block;

use crate::cell::Cell;
use crate::exercise_panel::ExercisePanel;
use crate::progress::{mark, use_progress};
use crate::scratch_cell::ScratchCell;

/// Where "edit this page" links point: the repository's file view, one place only.
pub const EDIT_BASE_URL: &str =
    "https://github.com/inference-handbook/inference-handbook/blob/main/";

/// Whether the contents start unfolded (they sit beside the text on wide screens).
fn wide_screen() -> bool {
    web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|v| v.as_f64())
        .is_none_or(|w| w > 860.0)
}

/// A chapter: table of contents, text, cells and exercises.
#[component]
pub fn ChapterPage() -> impl IntoView {
    let params = use_params_map();
    move || {
        let slug = params.read().get("slug").unwrap_or_default();
        let all = chapters::all();
        let Some(pos) = all.iter().position(|c| c.slug == slug) else {
            return view! {
                <main class="page"><h1>"No such chapter"</h1><p><A href="/">"Back to the contents"</A></p></main>
            }
            .into_any();
        };
        let ch = all[pos];
        let doc = match ch.doc() {
            Ok(d) => d,
            Err(e) => {
                return view! {
                    <main class="page"><p class="error">{format!("This chapter could not be rendered ({}, {e}).", ch.repo_path)}</p></main>
                }
                .into_any();
            }
        };
        let toc = doc
            .headings
            .iter()
            .filter(|h| h.level == 2)
            .map(|h| view! { <li><a href=format!("#{}", h.id)>{h.text.clone()}</a></li> })
            .collect_view();
        let blocks = doc
            .blocks
            .into_iter()
            .map(|b| match b {
                Block::Html(html) => view! { <div class="prose" inner_html=html></div> }.into_any(),
                Block::Scratch { code } => view! { <ScratchCell code/> }.into_any(),
                Block::SelfTest(items) => view! {
                    <ol class="selftest">
                        {items.into_iter().map(|(q, a)| view! {
                            <li>
                                <div class="prose" inner_html=q></div>
                                <details><summary>"Show the answer"</summary><div class="prose" inner_html=a></div></details>
                            </li>
                        }).collect_view()}
                    </ol>
                }.into_any(),
                Block::Cell { id, line } => match chapters::demo(&id) {
                    Some(demo) => view! { <Cell demo/> }.into_any(),
                    None => view! { <p class="error">{format!("Unknown cell `{id}` ({} line {line}).", ch.repo_path)}</p> }.into_any(),
                },
                Block::Exercise { id, line } => match exercises::by_id(&id) {
                    Some(ex) => view! { <ExercisePanel ex/> }.into_any(),
                    None => view! { <p class="error">{format!("Unknown exercise `{id}` ({} line {line}).", ch.repo_path)}</p> }.into_any(),
                },
            })
            .collect_view();
        let progress = use_progress();
        let exercise_toc = exercises::for_chapter(ch.id)
            .into_iter()
            .map(|e| {
                let id = e.id;
                let status = move || progress.status(id);
                view! {
                    <li data-progress=id>
                        <span class="mark" title=status>{move || mark(&status())}</span>
                        <a href=format!("#exercise-{}", e.slug())>{e.title}</a>
                    </li>
                }
            })
            .collect_view();
        let prev = pos.checked_sub(1).map(|i| all[i]);
        let next = all.get(pos + 1).copied();
        let nav_link = |c: Option<chapters::Chapter>, rel: &'static str, label: &'static str| {
            c.map(|c| view! { <A href=format!("/ch/{}", c.slug) attr:rel=rel>{format!("{label} {}", c.title)}</A> })
        };
        view! {
            <div class="chapter-layout">
                <nav class="toc" aria-label="Contents of this chapter">
                    <details open=wide_screen()>
                        <summary class="toc-title">{ch.title}</summary>
                        <ol>{toc}</ol>
                        <p class="toc-title toc-exercises">"Exercises"</p>
                        <ul class="progress-list">{exercise_toc}</ul>
                    </details>
                </nav>
                <main class="page chapter" id="chapter">
                    {blocks}
                    <footer class="chapter-footer">
                        <nav class="prev-next">
                            {nav_link(prev, "prev", "←")}
                            <A href="/">"Contents"</A>
                            {nav_link(next, "next", "→")}
                        </nav>
                        <a class="edit-link" href=format!("{EDIT_BASE_URL}{}", ch.repo_path)>"Edit this page"</a>
                    </footer>
                </main>
            </div>
        }
        .into_any()
    }
}
