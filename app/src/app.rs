use leptos::prelude::*;
use leptos_router::components::{A, Route, Router, Routes};
use leptos_router::path;

use crate::chapter_page::ChapterPage;
use crate::home_page::HomePage;

/// The whole app: header and routes.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <Router>
            <header class="site-header">
                <A href="/" attr:class="brand">"Inference Handbook"</A>
            </header>
            <Routes fallback=|| view! { <NotFound/> }>
                <Route path=path!("/") view=HomePage/>
                <Route path=path!("/ch/:slug") view=ChapterPage/>
            </Routes>
        </Router>
    }
}

/// Unknown paths.
#[component]
fn NotFound() -> impl IntoView {
    view! {
        <main class="page">
            <h1>"Page not found"</h1>
            <p>"There is no page at this address. " <A href="/">"Back to the contents"</A></p>
        </main>
    }
}
