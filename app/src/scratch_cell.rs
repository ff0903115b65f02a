use leptos::prelude::*;

use crate::lang::{tr, trf};
use exercises::jobs::Reply;

use crate::storage;
use crate::worker::{self, Lane, Stopped};

/// How long a scratch run may take before the page stops it: the worker's own
/// deadline (2 s) plus a margin for the reply to arrive.
pub const CODE_LIMIT_MS: u32 = 2_200;

thread_local! {
    static REQUEST: std::cell::OnceCell<RwSignal<Option<String>>> = const { std::cell::OnceCell::new() };
}

/// Code another part of the page sends to the scratch cell ("open in
/// scratch"): the cell takes it, saves it, runs it and scrolls into view.
/// Created on first use; [`crate::islands::mount_all`] makes it before
/// mounting, outside any island's owner.
pub fn scratch_request() -> RwSignal<Option<String>> {
    REQUEST.with(|r| *r.get_or_init(|| RwSignal::new(None)))
}

/// What a scratch island is given (`data-props`, JSON).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ScratchIsland {
    /// The chapter whose functions come first.
    pub chapter: String,
    /// The starter code.
    pub code: String,
}

/// A Rhai cell where the reader calls the book's functions (`exercises::api`).
/// Its code is saved per chapter (`scratch:<chapter>`); code saved before that
/// (`scratch`) is the fallback. `typed`: what the reader wrote into the page's
/// first copy before this mounted, which wins over both.
#[component]
pub fn ScratchCell(code: String, chapter: String, typed: Option<String>) -> impl IntoView {
    let starter = code.clone();
    let key = storage::scratch_key(&chapter);
    if let Some(t) = &typed {
        storage::save(&key, t);
    }
    let text = RwSignal::new(
        typed
            .or_else(|| storage::get(&key))
            .or_else(|| storage::get(storage::SCRATCH))
            .unwrap_or(code),
    );
    // Also the textarea's own text: what the built page shows before it
    // mounts (not in the browser, where it would put a focused field's
    // caret at its start).
    let first = cfg!(not(target_arch = "wasm32")).then(|| text.get_untracked());
    let key = StoredValue::new(key);
    let result = RwSignal::new(None::<(Result<String, String>, Vec<String>, f64)>);
    let running = RwSignal::new(None::<u64>);
    // Finished runs, shown as `data-runs` so tests can wait for the next result.
    let runs = RwSignal::new(0u32);
    let textarea = NodeRef::<leptos::html::Textarea>::new();
    crate::editor::enhance(textarea);
    // Whether anything has run this cell yet (the first run, whoever asks).
    let ran = StoredValue::new(false);
    let run = move || {
        ran.set_value(true);
        let job = exercises::jobs::Job::Eval {
            source: text.get_untracked(),
            lang: crate::lang::lang(),
        };
        let id = worker::run(Lane::Code, job, CODE_LIMIT_MS, move |reply| {
            running.try_set(None);
            let shown = match reply {
                Ok(Reply::Eval { value, printed, ms }) => (
                    value.map(|v| serde_json::to_string_pretty(&v).unwrap_or_default()),
                    printed,
                    ms,
                ),
                Ok(Reply::Refused { message }) => (Err(message), Vec::new(), 0.0),
                Ok(_) => (Err(tr!(worker_unexpected).to_owned()), Vec::new(), 0.0),
                Err(stopped) => (Err(stopped.message()), Vec::new(), 0.0),
            };
            crate::editor::mark(textarea, shown.0.as_ref().err().map_or("", |e| e.as_str()));
            result.try_set(Some(shown));
            runs.try_update(|n| *n += 1);
        });
        running.set(Some(id));
    };
    // The starter runs when the cell comes near the screen (as a cell with
    // its defaults does), so the workers' module is not fetched with the
    // first screen; code the reader saved runs at once.
    if text.get_untracked() == starter {
        crate::cell::run_when_needed("scratch", ran, run);
    } else {
        run();
    }
    // Code sent from an exercise's case: replace, save, run, show.
    Effect::new(move |_| {
        if let Some(sent) = scratch_request().get() {
            scratch_request().set(None);
            storage::save(&key.get_value(), &sent);
            text.set(sent);
            run();
            if let Some(el) = crate::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id("scratch-editor"))
            {
                el.scroll_into_view();
                if let Ok(t) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el) {
                    let _ = t.focus();
                }
            }
        }
    });
    // This chapter's functions first (what its exercises and text use), the
    // rest of the book's folded under them: all of them can be called.
    let item = |f: exercises::api::ApiFn| {
        view! { <li><code>{f.signature()}</code>" — "{f.doc_in(crate::lang::lang())}</li> }
    };
    let (own, others): (Vec<_>, Vec<_>) = exercises::api::by_chapter()
        .into_iter()
        .partition(|(ch, _)| *ch == chapter.as_str());
    let others: Vec<exercises::api::ApiFn> = others.into_iter().flat_map(|(_, f)| f).collect();
    let more = trf!(scratch_functions_other, n = others.len());
    let own = own
        .into_iter()
        .flat_map(|(_, f)| f)
        .map(item)
        .collect_view();
    let others = others.into_iter().map(item).collect_view();
    view! {
        <section class="cell scratch" id="scratch" data-runs=move || runs.get()>
            <header class="cell-head">
                <span class="cell-kind">{tr!(chrome_scratch_kind)}</span>
                <h3 class="cell-title" id="h-scratch">{tr!(chrome_scratch_title)}
                    <crate::cell::Permalink id="scratch".to_owned() label=tr!(chrome_scratch_link)/>
                </h3>
            </header>
            <details class="cell-source">
                <summary>{tr!(scratch_functions)}</summary>
                <ul class="api-list">{own}</ul>
                <details class="api-more" data-pagefind-ignore="">
                    <summary>{more}</summary>
                    <ul class="api-list">{others}</ul>
                </details>
            </details>
            <p class="muted small"><a href=format!("{}/rhai", crate::lang::lang().prefix())>{tr!(rhai_guide)}</a></p>
            <label class="sr-only" for="scratch-editor">{tr!(rhai_code)}</label>
            <div class="editor-wrap scratch-wrap" data-pagefind-ignore="">
            <textarea id="scratch-editor" class="editor" rows="6" spellcheck="false" autocapitalize="off" node_ref=textarea
                prop:value=move || text.get()
                on:input=move |ev| {
                    let v = event_target_value(&ev);
                    storage::save(&key.get_value(), &v);
                    text.set(v);
                }
                on:keydown=move |ev: web_sys::KeyboardEvent| {
                    if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
                        ev.prevent_default();
                        run();
                    }
                }
            >{first}</textarea>
            </div>
            <div class="cell-actions">
                <button type="button" class="run" on:click=move |_| run()>{tr!(chrome_run)}</button>
                {move || running.get().map(|id| view! {
                    <button type="button" class="stop" on:click=move |_| {
                        worker::stop(Lane::Code, id, Stopped::ByReader);
                    }>{tr!(stop)}</button>
                })}
                <button type="button" class="secondary" on:click=move |_| {
                    storage::remove(&key.get_value());
                    storage::remove(storage::SCRATCH);
                    text.set(starter.clone());
                    run();
                }>{tr!(reset)}</button>
                <span class="timing" aria-live="polite">{move || if running.get().is_some() {
                    Some(tr!(running).to_owned())
                } else {
                    result.get().map(|(_, _, ms)| trf!(ran_in, ms = format!("{ms:.1}")))
                }}</span>
            </div>
            {move || result.get().map(|(r, printed, _)| view! {
                <div class="scratch-out">
                    {(!printed.is_empty()).then(|| view! { <pre class="prints">{printed.join("\n")}</pre> })}
                    {match r {
                        Ok(v) => view! { <pre class="cell-text scratch-value">{v}</pre> }.into_any(),
                        Err(e) => view! { <p class="error scratch-error">{e}</p> }.into_any(),
                    }}
                </div>
            })}
        </section>
    }
}
