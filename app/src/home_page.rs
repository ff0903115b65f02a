use leptos::prelude::*;
use leptos_router::components::A;

use crate::storage;

/// The home page: the book's chapters with their exercise progress.
#[component]
pub fn HomePage() -> impl IntoView {
    let progress = storage::load_progress();
    let chapters = chapters::all()
        .into_iter()
        .map(|c| {
            let exs = exercises::for_chapter(c.id);
            let done = exs
                .iter()
                .filter(|e| progress.get(e.id).map(String::as_str) == Some("passed"))
                .count();
            let total = exs.len();
            view! {
                <li class="chapter-card">
                    <A href=format!("/ch/{}", c.slug)>{c.title}</A>
                    <p>{c.summary}</p>
                    <p class="muted">{format!("Exercises: {done} of {total} passed")}</p>
                </li>
            }
        })
        .collect_view();
    view! {
        <main class="page home">
            <h1>"Inference Handbook"</h1>
            <p class="lede">
                "A book about LLM inference systems that you read, run and practise in the browser. "
                "Every demo is Rust compiled to WebAssembly; every exercise is graded on your machine."
            </p>
            <h2>"Chapters"</h2>
            <ol class="chapters">{chapters}</ol>
        </main>
    }
}
