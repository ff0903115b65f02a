use crate::lang::{say, tr, trf};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::progress::{mark, use_progress};
use crate::storage;

fn all_ids() -> Vec<&'static str> {
    exercises::all().iter().map(|e| e.id).collect()
}

/// Offers `text` as a file download.
fn download(name: &str, text: &str) -> Result<(), String> {
    let doc = crate::window()
        .and_then(|w| w.document())
        .ok_or(tr!(dl_no_document))?;
    let parts = js_sys::Array::of1(&text.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)
        .map_err(|_| tr!(dl_no_file))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| tr!(dl_no_file))?;
    let a: web_sys::HtmlAnchorElement = doc
        .create_element("a")
        .map_err(|_| tr!(dl_no_link))?
        .dyn_into()
        .map_err(|_| tr!(dl_no_link))?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// The home page's content in the page's language, taken from the
/// pre-rendered page (the build writes it in English or Chinese): each chapter
/// card's link, title and summary, each exercise's title. (The page's own
/// strings come from the locale files.)
#[derive(Clone, Default)]
pub struct HomeTexts {
    /// Chapter id → (address, title, summary).
    cards: std::collections::HashMap<String, (String, String, String)>,
    /// Exercise id → title.
    titles: std::collections::HashMap<String, String>,
    /// The glossary link (address, text).
    glossary: Option<(String, String)>,
}

impl HomeTexts {
    /// Reads them from the pre-rendered home page inside `el`.
    pub fn from_page(el: &web_sys::HtmlElement) -> HomeTexts {
        let all = |sel: &str| -> Vec<web_sys::Element> {
            let Ok(list) = el.query_selector_all(sel) else {
                return Vec::new();
            };
            (0..list.length())
                .filter_map(|i| list.item(i).and_then(|n| n.dyn_into().ok()))
                .collect()
        };
        let mut t = HomeTexts::default();
        for card in all("li.chapter-card[data-chapter]") {
            let a = card.query_selector("a").ok().flatten();
            let href = a.as_ref().and_then(|a| a.get_attribute("href"));
            let title = a.and_then(|a| a.text_content());
            let summary = card
                .query_selector("p")
                .ok()
                .flatten()
                .and_then(|p| p.text_content());
            if let (Some(id), Some(href), Some(title), Some(summary)) =
                (card.get_attribute("data-chapter"), href, title, summary)
            {
                t.cards.insert(id, (href, title, summary));
            }
        }
        for li in all("li[data-progress][data-title]") {
            if let (Some(id), Some(title)) = (
                li.get_attribute("data-progress"),
                li.get_attribute("data-title"),
            ) {
                t.titles.insert(id, title);
            }
        }
        if let Some(a) = el.query_selector(".home-glossary a").ok().flatten() {
            t.glossary = a.get_attribute("href").zip(a.text_content());
        }
        t
    }
}

/// The home page: the book's chapters with their exercise progress, and the
/// reader's saved work (export, import, reset).
#[component]
pub fn HomePage(texts: HomeTexts) -> impl IntoView {
    let progress = use_progress();
    let chapters = chapters::all()
        .into_iter()
        .map(|c| {
            let (href, title, summary) = texts.cards.get(c.id).cloned().unwrap_or_else(|| {
                (
                    format!("/ch/{}", c.slug),
                    c.title.to_owned(),
                    c.summary.to_owned(),
                )
            });
            let exs = exercises::for_chapter(c.id);
            let total = exs.len();
            let list = exs
                .iter()
                .map(|e| {
                    let id = e.id;
                    let title = texts
                        .titles
                        .get(id)
                        .cloned()
                        .unwrap_or_else(|| e.title.to_owned());
                    let status = move || progress.status(id);
                    view! {
                        <li data-progress=id>
                            <span class="mark" aria-hidden="true">{move || mark(&status())}</span>
                            " " {title} " — " <span class="status">{move || crate::lang::outcome_label(&status())}</span>
                        </li>
                    }
                })
                .collect_view();
            let ids: Vec<&'static str> = exs.iter().map(|e| e.id).collect();
            let done = move || progress.passed(&ids);
            view! {
                <li class="chapter-card" data-chapter=c.id>
                    <a href=href>{title}</a>
                    <p>{summary}</p>
                    <details>
                        <summary class="muted">{move || trf!(chapter_passed, done = done(), total = total)}</summary>
                        <ul class="progress-list">{list}</ul>
                    </details>
                </li>
            }
        })
        .collect_view();
    let on_export = move |_| {
        let ids = all_ids();
        let e = storage::export(&ids, &progress.map.get_untracked());
        let text = serde_json::to_string_pretty(&e).unwrap_or_default();
        if let Err(msg) = download("inference-handbook-progress.json", &text) {
            storage::notify("export", trf!(export_failed, why = msg), true);
        }
    };
    let on_import = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        input.set_value("");
        // The size is known before reading: a huge file is refused unread.
        if let Err(e) = storage::check_import_size(file.size() as u64) {
            storage::notify("import", trf!(import_failed, why = say(&e)), true);
            return;
        }
        leptos::task::spawn_local(async move {
            let text = wasm_bindgen_futures::JsFuture::from(file.text())
                .await
                .ok()
                .and_then(|v| v.as_string());
            let result = match text {
                None => Err(tr!(import_not_text).to_owned()),
                Some(t) => storage::import(&t, &all_ids(), &progress.map.get_untracked()),
            };
            match result {
                Ok((map, msg)) => {
                    progress.map.set(map);
                    storage::notify("import", msg, false);
                }
                Err(e) => storage::notify("import", trf!(import_failed, why = e), true),
            }
        });
    };
    let on_reset = move |_| {
        let ok = crate::window()
            .and_then(|w| w.confirm_with_message(tr!(confirm_reset_all)).ok())
            .unwrap_or(false);
        if ok {
            let n = storage::clear_all();
            progress.map.set(Default::default());
            storage::notify("reset", trf!(reset_done, n = n), false);
        }
    };
    view! {
        <main class="page home">
            <h1>{tr!(book)}</h1>
            <p class="lede">{tr!(lede)}</p>
            <h2>{tr!(chapters)}</h2>
            <ol class="chapters">{chapters}</ol>
            {texts.glossary.clone().map(|(href, text)| view! { <p class="home-glossary"><a href=href>{text}</a></p> })}
            <h2>{tr!(your_work)}</h2>
            <p>{tr!(your_work_text)}</p>
            <div class="cell-actions">
                <button type="button" class="secondary" on:click=on_export>{tr!(export_progress)}</button>
                <label class="button secondary">
                    {tr!(import_progress)}
                    <input id="import-file" class="sr-only" type="file" accept="application/json,.json" on:change=on_import/>
                </label>
                <button type="button" class="secondary danger" on:click=on_reset>{tr!(reset_everything)}</button>
            </div>
        </main>
    }
}
