//! The page shell's live parts: the header's tools and the notices.

use crate::lang::tr;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// `window.ihThemeColor()` (index.html's head script).
    #[wasm_bindgen(catch, js_namespace = window, js_name = ihThemeColor)]
    fn theme_color() -> Result<(), JsValue>;
}

use crate::storage;

/// The notices under the header (storage problems, import results, ...).
#[component]
pub fn Notices() -> impl IntoView {
    let notices = storage::notices();
    view! {
        {move || notices.get().into_iter().map(|n| {
            let topic = n.topic.clone();
            view! {
                <div class="notice" class:alert=n.alert role=if n.alert { "alert" } else { "status" } data-topic=n.topic>
                    <span>{n.text}</span>
                    <button type="button" class="secondary" on:click=move |_| storage::dismiss(&topic)>{tr!(dismiss)}</button>
                </div>
            }
        }).collect_view()}
    }
}

/// Light, dark, or follow the system; the choice is saved.
#[component]
pub fn ThemeSwitch() -> impl IntoView {
    let theme = RwSignal::new(storage::theme().unwrap_or_else(|| "system".to_owned()));
    let next = move || match theme.get().as_str() {
        "system" => "light",
        "light" => "dark",
        _ => "system",
    };
    let apply = move |t: &str| {
        let root = crate::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element());
        if let Some(el) = root {
            let _ = if t == "system" {
                el.remove_attribute("data-theme")
            } else {
                el.set_attribute("data-theme", t)
            };
        }
        storage::save_theme((t != "system").then_some(t));
        // The head script's `ihThemeColor` points `<meta name=theme-color>` at
        // the chosen theme (the browser's bar on phones).
        // Without the head script (an old cached page), the colour stays.
        let _ = theme_color();
        crate::plot::restyle_all();
    };
    view! {
        <button type="button" class="theme-switch secondary"
            title=tr!(theme_title)
            on:click=move |_| {
                let t = next();
                theme.set(t.to_owned());
                apply(t);
            }>
            {move || match theme.get().as_str() {
                "light" => tr!(theme_light),
                "dark" => tr!(theme_dark),
                _ => tr!(theme_system),
            }}
        </button>
    }
}
