use std::rc::Rc;

use leptos::prelude::*;

use crate::{now_ms, storage};

/// A Rhai cell where the reader calls the chapter's functions (`exercises::api`).
#[component]
pub fn ScratchCell(code: String) -> impl IntoView {
    let starter = code.clone();
    let text = RwSignal::new(storage::get("scratch").unwrap_or(code));
    let result = RwSignal::new(None::<(Result<String, String>, Vec<String>, f64)>);
    let run = move || {
        let t0 = now_ms();
        let deadline: judge::script::Deadline = Rc::new(move || now_ms() - t0 > 2_000.0);
        let (r, printed) = exercises::api::eval(
            &text.get_untracked(),
            judge::script::Limits::default(),
            Some(deadline),
        );
        let shown = r.map(|v| serde_json::to_string_pretty(&v).unwrap_or_default());
        result.set(Some((shown, printed, now_ms() - t0)));
    };
    run();
    let api = exercises::api::functions()
        .into_iter()
        .map(|f| view! { <li><code>{f.signature()}</code>" — "{f.doc}</li> })
        .collect_view();
    view! {
        <section class="cell scratch" id="scratch">
            <header class="cell-head">
                <span class="cell-kind">"Scratch"</span>
                <h3 class="cell-title">"Call the chapter's functions in Rhai"</h3>
            </header>
            <details class="cell-source">
                <summary>"The functions you can call"</summary>
                <ul class="api-list">{api}</ul>
            </details>
            <label class="sr-only" for="scratch-editor">"Rhai code"</label>
            <textarea id="scratch-editor" class="editor" rows="6" spellcheck="false" autocapitalize="off"
                prop:value=move || text.get()
                on:input=move |ev| {
                    let v = event_target_value(&ev);
                    storage::save("scratch", &v);
                    text.set(v);
                }
                on:keydown=move |ev: web_sys::KeyboardEvent| {
                    if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
                        ev.prevent_default();
                        run();
                    }
                }
            ></textarea>
            <div class="cell-actions">
                <button type="button" class="run" on:click=move |_| run()>"Run"</button>
                <button type="button" class="secondary" on:click=move |_| {
                    storage::remove("scratch");
                    text.set(starter.clone());
                    run();
                }>"Reset"</button>
                <span class="timing">{move || result.get().map(|(_, _, ms)| format!("ran in {ms:.1} ms"))}</span>
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
