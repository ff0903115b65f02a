use leptos::prelude::*;

use chapters::demo::{Block, Demo, Output, ParamError, defaults};
use chapters::highlight::highlight_rust;

use crate::now_ms;
use crate::plot::Chart;

/// A runnable cell: the demo's Rust source, its parameters, Run, and the output.
/// Runs once on load with the defaults and again whenever a parameter changes.
#[component]
pub fn Cell(demo: Demo) -> impl IntoView {
    let raw = RwSignal::new(defaults(demo.params));
    let output = RwSignal::new(None::<Output>);
    let errors = RwSignal::new(Vec::<ParamError>::new());
    let elapsed = RwSignal::new(None::<f64>);
    let run = move || {
        let t0 = now_ms();
        let r = (demo.run)(&raw.get_untracked());
        elapsed.set(Some(now_ms() - t0));
        match r {
            Ok(o) => {
                output.set(Some(o));
                errors.set(Vec::new());
            }
            Err(e) => errors.set(e),
        }
    };
    run();

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
                    .map(|e| e.message.clone())
            };
            let value = move || raw.read().get(name).cloned().unwrap_or_default();
            let invalid = move || if err().is_some() { "true" } else { "false" };
            let on_input = move |ev: leptos::ev::Event| {
                raw.update(|r| {
                    r.insert(name.to_owned(), event_target_value(&ev));
                });
                run();
            };
            let control = if !p.choices.is_empty() {
                let options = p
                    .choices
                    .iter()
                    .map(
                        |c| view! { <option value=*c selected=move || value() == *c>{*c}</option> },
                    )
                    .collect_view();
                view! { <select id=input_id name=name on:change=on_input>{options}</select> }
                    .into_any()
            } else if p.multiline {
                let rows = p.default.lines().count().max(3);
                view! {
                    <textarea id=input_id name=name rows=rows spellcheck="false" autocomplete="off"
                        prop:value=value aria-invalid=invalid on:input=on_input></textarea>
                }
                .into_any()
            } else {
                view! {
                    <input id=input_id name=name type="text" autocomplete="off" spellcheck="false"
                        prop:value=value aria-invalid=invalid on:input=on_input />
                }
                .into_any()
            };
            view! {
                <div class="param" class:invalid=move || err().is_some() class:wide=p.multiline>
                    <label for=format!("cell-{}-{}", demo.id, name)>{p.label}</label>
                    {control}
                    <span class="param-help">{p.help}</span>
                    <span class="param-error" role="alert">{err}</span>
                </div>
            }
        })
        .collect_view();

    let out_view = move || {
        output.get().map(|o| {
            o.blocks
                .into_iter()
                .map(|b| match b {
                    Block::Text(t) => view! { <pre class="cell-text">{t}</pre> }.into_any(),
                    Block::Table { header, rows } => view! {
                        <div class="table-wrap">
                            <table class="cell-table">
                                <thead><tr>{header.into_iter().map(|h| view! { <th>{h}</th> }).collect_view()}</tr></thead>
                                <tbody>
                                    {rows.into_iter().map(|r| view! {
                                        <tr>{r.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}</tr>
                                    }).collect_view()}
                                </tbody>
                            </table>
                        </div>
                    }
                    .into_any(),
                    Block::Plot(p) => view! { <Chart plot=p/> }.into_any(),
                })
                .collect_view()
        })
    };

    let source_lines = demo.source.lines().count();
    view! {
        <section class="cell" id=format!("cell-{}", demo.id) data-cell=demo.id>
            <header class="cell-head">
                <span class="cell-kind">"Run it"</span>
                <h3 class="cell-title">{demo.title}</h3>
            </header>
            <details class="cell-source">
                <summary>{format!("Rust source ({source_lines} lines)")}</summary>
                <pre class="code"><code class="rust" inner_html=highlight_rust(demo.source)></code></pre>
            </details>
            <form class="params" on:submit=move |ev| { ev.prevent_default(); run(); }>
                {inputs}
                <div class="cell-actions">
                    <button type="submit" class="run">"Run"</button>
                    <button type="button" class="secondary" on:click=move |_| { raw.set(defaults(demo.params)); run(); }>"Defaults"</button>
                    <span class="timing" aria-live="polite">
                        {move || elapsed.get().map(|ms| format!("ran in {ms:.1} ms"))}
                    </span>
                </div>
            </form>
            <div class="cell-output" class:stale=move || !errors.read().is_empty() aria-live="polite">
                {move || (!errors.read().is_empty()).then(|| view! {
                    <p class="error">"Fix the highlighted parameter to run again; the output below is from the last good run."</p>
                })}
                {out_view}
            </div>
        </section>
    }
}
