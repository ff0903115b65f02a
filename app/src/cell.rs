use leptos::prelude::*;

use chapters::demo::{Block, Demo, Output, ParamError, defaults};

use crate::lang::{lang, tr, trf};
use crate::plot::{Chart, DataTable};
use crate::storage;
use crate::worker::{self, Lane};
use exercises::jobs::Reply;

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// `window.ihWhenNeeded(id, cb)` (web/page.js): calls `cb` once the element
    /// `id` comes within a screen of the view.
    #[wasm_bindgen(catch, js_namespace = window, js_name = ihWhenNeeded)]
    pub(crate) fn when_needed(
        id: &str,
        cb: &wasm_bindgen::JsValue,
    ) -> Result<(), wasm_bindgen::JsValue>;
}

/// Calls `run` once the element `id` (mounted by then) comes within a screen
/// of the view, unless something has run it by then (`ran`, which `run`
/// sets); at once when the page's script cannot tell.
pub(crate) fn run_when_needed(id: &str, ran: StoredValue<bool>, run: impl Fn() + Copy + 'static) {
    let id = id.to_owned();
    let first = move || {
        if !ran.get_value() {
            run();
        }
    };
    // After the mount, when the element is in the document.
    Effect::new(move |_| {
        let cb = wasm_bindgen::closure::Closure::once_into_js(first);
        if when_needed(&id, &cb).is_err() {
            first();
        }
    });
}

/// What a cell island is given (`data-props`, JSON), beside what its own
/// pre-rendered markup holds (the highlighted source, the defaults' output).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CellIsland {
    /// The demo's id.
    pub id: String,
    /// The exercise (id, title) this cell's source answers, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<(String, String)>,
}

/// A demo's output blocks: text, tables, charts and folds. The page's first
/// copy is this, rendered at build time with the defaults' output. A fold is
/// closed until the reader opens it; `open` keeps it as the reader left it
/// when a new run replaces the output.
pub fn blocks_view(blocks: Vec<Block>, open: RwSignal<bool>) -> impl IntoView {
    blocks
        .into_iter()
        .map(|b| block_view(b, open))
        .collect_view()
}

/// One block of [`blocks_view`].
fn block_view(block: Block, open: RwSignal<bool>) -> AnyView {
    match block {
        Block::Text(t) => view! { <pre class="cell-text" tabindex="0">{t}</pre> }.into_any(),
        Block::Table { header, rows } => view! { <DataTable header rows/> }.into_any(),
        Block::Plot(p) => view! { <Chart plot=p/> }.into_any(),
        Block::Details { summary, blocks } => {
            let inside = blocks
                .into_iter()
                .map(|b| block_view(b, open))
                .collect_view();
            let toggled = move |ev| {
                let now = event_target::<web_sys::Element>(&ev).has_attribute("open");
                if now != open.get_untracked() {
                    open.set(now);
                }
            };
            view! {
                <details class="cell-details" prop:open=move || open.get() on:toggle=toggled>
                    <summary>{summary}</summary>
                    {inside}
                </details>
            }
            .into_any()
        }
    }
}

/// How long a cell waits after the last keystroke before it runs.
const DEBOUNCE_MS: u32 = 150;

/// How long one demo run may take in the worker before it is stopped. Every demo
/// refuses parameters past its work budget, so this is a backstop.
const CELL_LIMIT_MS: u32 = 5_000;

/// The `#` link after a cell's, exercise's or heading's title: where the
/// reader copies a permalink from. Search leaves it out of headings and
/// snippets.
#[component]
pub fn Permalink(id: String, #[prop(into)] label: String) -> impl IntoView {
    view! { <a class="anchor" href=format!("#{id}") aria-label=label data-pagefind-ignore="">"#"</a> }
}

/// A runnable cell: the demo's Rust source, its parameters, Run, and the output.
/// Runs once when it comes near the screen (at once with saved parameters),
/// and again whenever a parameter changes (after a short pause in typing).
/// The demo runs in the page's worker: a newer run supersedes an older one
/// still in flight, and the page never blocks.
///
/// The page arrives with this component rendered at build time
/// ([`crate::ssr::cell`]): its highlighted source (`source_html`) and the
/// output of its defaults (`initial`, [`blocks_view`] of what the same demo
/// code computed), shown until the first run in the page replies.
#[component]
pub fn Cell(
    demo: Demo,
    source_html: String,
    source_lines: usize,
    initial: String,
    /// The exercise (id, title) this cell's source answers: until it is passed,
    /// the folded source says so.
    answers: Option<(String, String)>,
    /// What the reader typed into the pre-rendered copy before it mounted.
    typed: std::collections::BTreeMap<String, String>,
) -> impl IntoView {
    let progress = crate::progress::use_progress();
    let answers = StoredValue::new(answers);
    let spoils = move || {
        answers.with_value(|a| {
            a.as_ref()
                .filter(|(id, _)| progress.outcome(id) != storage::Outcome::Passed)
                .map(|(_, title)| title.clone())
        })
    };
    let summary =
        move || chapters::demo::source_summary_in(lang(), source_lines, spoils().as_deref());
    // The reader's last parameters for this cell, over the defaults; a saved
    // value for a parameter the cell no longer has is left out.
    let key = storage::params_key(demo.id);
    let mut start = defaults(demo.params);
    if let Some(saved) = storage::get(&key)
        .and_then(|s| serde_json::from_str::<std::collections::BTreeMap<String, String>>(&s).ok())
    {
        for (k, v) in saved {
            if let Some(slot) = start.get_mut(&k) {
                *slot = v;
            }
        }
    }
    for (k, v) in typed {
        if let Some(slot) = start.get_mut(&k) {
            *slot = v;
        }
    }
    let own = StoredValue::new(start.clone());
    let raw = RwSignal::new(start);
    // Parameters from a shared link (`#cell-<id>?s=…`) are shown but not saved
    // until the reader keeps them: while `shared` is set, nothing is remembered.
    let shared = RwSignal::new(None::<Result<(), String>>);
    let anchor = format!("cell-{}", demo.id);
    let share_result = RwSignal::new(None);
    // Keeps the parameters of a run that succeeded, for the next visit (the
    // defaults are not stored).
    let remember = move |now: chapters::demo::Raw| {
        if shared.get_untracked().is_some() {
            return;
        }
        if now == defaults(demo.params) {
            storage::remove(&storage::params_key(demo.id));
        } else if let Ok(json) = serde_json::to_string(&now) {
            storage::save(&storage::params_key(demo.id), &json);
        }
    };
    let output = RwSignal::new(None::<Output>);
    let errors = RwSignal::new(Vec::<ParamError>::new());
    let elapsed = RwSignal::new(None::<f64>);
    let problem = RwSignal::new(None::<String>);
    let running = RwSignal::new(false);
    // The newest run; replies to older ones are ignored.
    let generation = StoredValue::new(0u64);
    let debounce = StoredValue::new_local(None::<gloo_timers::callback::Timeout>);
    // Whether anything has run this cell yet (the first run, whoever asks).
    let ran = StoredValue::new(false);
    let run = move || {
        ran.set_value(true);
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        let sent = raw.get_untracked();
        let job = exercises::jobs::Job::Demo {
            demo: demo.id.to_owned(),
            params: sent.clone(),
            lang: lang(),
        };
        running.set(true);
        worker::run(Lane::Cells, job, CELL_LIMIT_MS, move |reply| {
            if generation.try_get_value() != Some(mine) {
                return;
            }
            running.try_set(false);
            match reply {
                Ok(Reply::Demo { result, ms }) => {
                    problem.try_set(None);
                    match result {
                        Ok(o) => {
                            elapsed.try_set(Some(ms));
                            output.try_set(Some(o));
                            errors.try_set(Vec::new());
                            remember(sent);
                        }
                        Err(e) => {
                            // Refused parameters ran nothing: no "ran in
                            // 0.0 ms" (#30).
                            elapsed.try_set(None);
                            errors.try_set(e);
                        }
                    }
                }
                Ok(Reply::Refused { message }) => {
                    problem.try_set(Some(message));
                }
                Ok(_) => {
                    problem.try_set(Some(tr!(worker_unexpected).to_owned()));
                }
                Err(stopped) => {
                    problem.try_set(Some(stopped.message()));
                }
            }
        });
    };
    let run_soon = move || {
        let t = gloo_timers::callback::Timeout::new(DEBOUNCE_MS, run);
        // Dropping the previous timer cancels it.
        debounce.set_value(Some(t));
    };
    let watched = anchor.clone();
    Effect::new(move |_| {
        let Some(payload) = crate::share::incoming(&watched) else {
            return;
        };
        // Until the link is read, the cell shows the reader's own parameters,
        // which "Back to mine" returns to.
        if shared.get_untracked().is_none() {
            own.set_value(raw.get_untracked());
        }
        shared.set(Some(Ok(())));
        crate::share::decode(&payload, move |r| {
            let taken = r.and_then(|json| {
                let got: std::collections::BTreeMap<String, String> =
                    serde_json::from_str(&json).map_err(|_| tr!(share_not_params).to_owned())?;
                let mut next = defaults(demo.params);
                for (k, v) in got {
                    match next.get_mut(&k) {
                        Some(slot) if v.len() <= crate::share::MAX_VALUE => *slot = v,
                        Some(_) => return Err(trf!(share_value_long, k = k)),
                        None => return Err(trf!(share_no_param, k = k)),
                    }
                }
                Ok(next)
            });
            match taken {
                Ok(next) => {
                    raw.try_set(next);
                    run();
                }
                Err(e) => {
                    shared.try_set(Some(Err(e)));
                }
            }
        });
    });
    // The page came with the defaults' output: a cell that still has them
    // runs when it comes near the screen (`ihWhenNeeded` in web/page.js), so
    // the workers' module is not fetched with the first screen. Saved
    // parameters run at once; so does a shared link's (the effect above).
    if raw.get_untracked() == defaults(demo.params) {
        run_when_needed(&anchor, ran, run);
    } else {
        run();
    }

    let inputs = demo
        .params
        .iter()
        .map(|p| {
            let name = p.name;
            let input_id = format!("cell-{}-{}", demo.id, name);
            let err = move || {
                errors
                    .read()
                    .iter()
                    .find(|e| e.param == name)
                    .map(|e| e.message_in(lang()))
            };
            let value = move || raw.read().get(name).cloned().unwrap_or_default();
            // The first value also as the markup's own (`value`, a textarea's
            // text, `selected`): what the page shows before it mounts. Only
            // in the built page: in the browser the markup's value would
            // leave a focused field's caret at its start.
            let first = value();
            let markup = cfg!(not(target_arch = "wasm32")).then(|| first.clone());
            let invalid = move || if err().is_some() { "true" } else { "false" };
            let on_input = move |ev: leptos::ev::Event| {
                raw.update(|r| {
                    r.insert(name.to_owned(), event_target_value(&ev));
                });
                run_soon();
            };
            let control = if !p.choices.is_empty() {
                let options = p
                    .choices
                    .iter()
                    .map(
                        |c| view! { <option value=*c selected=first == *c prop:selected=move || value() == *c>{*c}</option> },
                    )
                    .collect_view();
                view! { <select id=input_id name=name on:change=on_input>{options}</select> }
                    .into_any()
            } else if p.multiline {
                let rows = p.default.lines().count().max(3);
                view! {
                    <textarea id=input_id name=name rows=rows spellcheck="false" autocomplete="off"
                        prop:value=value aria-invalid=invalid on:input=on_input>{markup}</textarea>
                }
                .into_any()
            } else {
                view! {
                    <input id=input_id name=name type="text" autocomplete="off" spellcheck="false"
                        value=markup prop:value=value aria-invalid=invalid on:input=on_input />
                }
                .into_any()
            };
            view! {
                <div class="param" class:invalid=move || err().is_some() class:wide=p.multiline>
                    <label for=format!("cell-{}-{}", demo.id, name)>{demo.label_in(p.name, lang())}</label>
                    {control}
                    <span class="param-help">{demo.help_in(p.name, lang())}</span>
                    <span class="param-error" role="alert">{err}</span>
                </div>
            }
        })
        .collect_view();

    // Whether the reader has the output's fold open, across runs.
    let folds_open = RwSignal::new(false);
    let out_view = move || {
        let Some(o) = output.get() else {
            return view! { <div class="prerendered" inner_html=initial.clone()></div> }.into_any();
        };
        blocks_view(o.blocks, folds_open).into_any()
    };

    view! {
        <section class="cell" id=format!("cell-{}", demo.id) data-cell=demo.id>
            <header class="cell-head">
                <span class="cell-kind">{tr!(chrome_cell_kind)}</span>
                <h3 class="cell-title" id=format!("h-cell-{}", demo.id)>{demo.title_in(lang())}
                    <Permalink id=format!("cell-{}", demo.id) label=tr!(chrome_cell_link)/>
                </h3>
            </header>
            {let anchor = anchor.clone(); move || shared.get().map(|s| {
                let anchor = anchor.clone();
                let anchor2 = anchor.clone();
                match s {
                    Ok(()) => view! {
                        <div class="shared-note" role="status">
                            <span>{tr!(shared_params_note)}</span>
                            <button type="button" class="secondary" on:click=move |_| {
                                shared.set(None);
                                crate::share::forget(&anchor);
                                remember(raw.get_untracked());
                            }>{tr!(keep_these)}</button>
                            <button type="button" class="secondary" on:click=move |_| {
                                shared.set(None);
                                crate::share::forget(&anchor2);
                                raw.set(own.get_value());
                                run();
                            }>{tr!(back_to_mine)}</button>
                        </div>
                    }.into_any(),
                    Err(e) => view! {
                        <crate::share::DamagedLink anchor
                            text=trf!(shared_params_damaged, why = e)
                            on_dismiss=Callback::new(move |()| shared.set(None))/>
                    }.into_any(),
                }
            })}
            <details class="cell-source" class:spoiler=move || spoils().is_some() data-pagefind-ignore="">
                <summary>{summary}</summary>
                <pre class="code"><code class="rust" inner_html=source_html></code></pre>
            </details>
            <form class="params" data-pagefind-ignore="" on:submit=move |ev| { ev.prevent_default(); run(); }>
                {inputs}
                <div class="cell-actions">
                    <button type="submit" class="run">{tr!(chrome_run)}</button>
                    <button type="button" class="secondary" on:click=move |_| { raw.set(defaults(demo.params)); remember(defaults(demo.params)); run(); }>{tr!(chrome_reset)}</button>
                    <button type="button" class="secondary share" title=tr!(share_cell_title)
                        on:click={
                            let anchor = anchor.clone();
                            move |_| {
                                let json = serde_json::to_string(&raw.get_untracked()).unwrap_or_default();
                                crate::share::share(&anchor, &json, share_result);
                            }
                        }>{tr!(share)}</button>
                    <span class="timing" aria-live="polite">
                        {move || if running.get() {
                            Some(tr!(running).to_owned())
                        } else {
                            elapsed.get().map(|ms| trf!(ran_in, ms = format!("{ms:.1}")))
                        }}
                    </span>
                </div>
            </form>
            <crate::share::ShareResult result=share_result/>
            <div class="cell-output" class:stale=move || !errors.read().is_empty() aria-live="polite" data-pagefind-ignore="">
                {move || problem.get().map(|m| view! { <p class="error cell-problem" role="alert">{m}</p> })}
                {move || (!errors.read().is_empty()).then(|| view! {
                    <p class="error">{tr!(fix_param)}</p>
                })}
                {out_view}
            </div>
        </section>
    }
}
