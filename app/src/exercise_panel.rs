use std::sync::Arc;

use crate::lang::{status_text, tr, trf};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use exercises::Exercise;
use judge::{Answer, CaseResult, Kind, SolverError, Status, Value, Verdict};

use crate::now_ms;
use crate::progress::Progress;
use crate::progress::use_progress;
use crate::python;
use crate::scratch_cell::CODE_LIMIT_MS;
use crate::storage::Outcome;
use crate::storage::{self, code_key, fails_key, python_code_key, python_fails_key};
use crate::worker::{self, Lane, Stopped};
use exercises::jobs::Reply;
use exercises::panel::{Offer, Panel, Run, Store};

/// The window event that tells every exercise panel the reader now answers in `a`.
fn answer_event(a: Answer) -> String {
    format!("ih-answer-{}", a.tag())
}

/// Where an exercise's code, failed runs and last verdict are saved, in
/// `answer`'s language.
fn keys(id: &str, answer: Answer) -> (String, String, String) {
    match answer {
        Answer::Python => (
            python_code_key(id),
            python_fails_key(id),
            storage::python_verdict_key(id),
        ),
        _ => (code_key(id), fails_key(id), storage::verdict_key(id)),
    }
}

/// The panel of an exercise in one language, from what was saved for it.
fn panel_in(ex: &Exercise, answer: Answer, hints: usize) -> Panel {
    let lang = crate::lang::lang();
    let starter = match answer {
        Answer::Python => ex.starter_python_in(lang),
        _ => ex.starter_rhai_in(lang),
    };
    let (code, fails, _) = keys(ex.id, answer);
    Panel::new(
        starter,
        storage::get(&code),
        storage::get(&fails).as_deref(),
        hints,
    )
    .with_content(ex.content)
}

/// Makes the writes a change of the panel asks for.
fn store(id: &str, answer: Answer, progress: Progress, writes: Vec<Store>) {
    let (code_key, fails_key, verdict_key) = keys(id, answer);
    for w in writes {
        match w {
            Store::Code(code) => storage::save(&code_key, &code),
            Store::ForgetCode => storage::remove(&code_key),
            Store::Fails(n) => storage::save(&fails_key, &n.to_string()),
            Store::ForgetFails => storage::remove(&fails_key),
            Store::Progress(status) => progress.set(id, status),
            Store::ForgetProgress => progress.forget(id),
            Store::Verdict(json) => storage::save(&verdict_key, &json),
        }
    }
}

fn show_args(args: &[Value]) -> String {
    args.iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// What an exercise island is given (`data-props`, JSON), beside its
/// statement, which its own first render holds (for search and for a reader
/// without JavaScript).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ExerciseIsland {
    pub id: String,
    /// The title and hints in the page's language.
    pub title: String,
    pub hints: Vec<String>,
    /// How many test cases it has (counted at build time: the page's module
    /// has no cases), for a run the worker could not finish.
    pub cases: usize,
    /// The highlighted Rust reference, `solution.py` highlighted, and
    /// `solution.rhai` escaped: shown after a pass or on request.
    pub reference_html: String,
    pub reference_python_html: String,
    pub reference_rhai_html: String,
    /// The known mistakes (`[mistakes]`) in the page's language, by id: the
    /// line shown when a verdict names one.
    #[serde(default)]
    pub mistakes: Vec<(String, String)>,
}

/// An exercise: statement, editor, Run tests, per-case results, hints.
/// The statement arrives rendered in the page (`statement_html`, written at
/// build time from its Markdown), and so does the highlighted reference
/// solution (`reference_html`), shown only after a pass or on request. Its
/// state is an [`exercises::panel::Panel`]: this component renders it and
/// passes the reader's actions to its methods.
#[component]
pub fn ExercisePanel(
    ex: Exercise,
    /// Its props, as the island has them: title, hints, case count and the
    /// references, in the page's language.
    island: ExerciseIsland,
    statement_html: String,
    /// What the reader wrote into the page's first copy before this mounted:
    /// an edit, kept as one.
    typed: Option<String>,
) -> impl IntoView {
    let ExerciseIsland {
        title,
        hints,
        cases,
        reference_html,
        reference_python_html,
        reference_rhai_html,
        mistakes,
        ..
    } = island;
    let ex = Arc::new(ex);
    let id = ex.id;
    let progress = use_progress();
    // The language of the answer, the reader's last choice, with a panel per
    // language: the one on screen, and the other kept aside (its own code,
    // failed runs, hints and reveal).
    let answer = RwSignal::new(storage::answer_language());
    let panel = RwSignal::new(panel_in(&ex, answer.get_untracked(), hints.len()));
    let other_answer = |a: Answer| {
        if a == Answer::Python {
            Answer::Rhai
        } else {
            Answer::Python
        }
    };
    let aside = StoredValue::new(panel_in(
        &ex,
        other_answer(answer.get_untracked()),
        hints.len(),
    ));
    let loading = RwSignal::new(None::<python::Loading>);
    // Which lane the run under way went to.
    let running_python = StoredValue::new(false);
    // What each part of the view reads, so that a keystroke re-renders only
    // what shows the code.
    let code = Memo::new(move |_| panel.with(|p| p.code.clone()));
    let running = Memo::new(move |_| panel.with(|p| p.running));
    let runs = Memo::new(move |_| panel.with(|p| p.runs));
    let last = Memo::new(move |_| panel.with(|p| p.last.clone()));
    let offered = Memo::new(move |_| panel.with(|p| p.offered.clone()));
    let previous = Memo::new(move |_| panel.with(|p| p.previous.clone()));
    let hints_shown = Memo::new(move |_| panel.with(|p| p.hints_shown));
    let hints_done = Memo::new(move |_| panel.with(Panel::hints_done));
    // Hints and known mistakes opened (`data-help`).
    let help_used = Memo::new(move |_| panel.with(Panel::help_used));
    let reveal = Memo::new(move |_| panel.with(|p| p.reveal));
    // Whether the reveal button shows, without a pass and with one.
    let revealable = Memo::new(move |_| panel.with(|p| (p.can_reveal(false), p.can_reveal(true))));
    let change = move |f: &dyn Fn(&mut Panel) -> Vec<Store>| {
        if let Some(writes) = panel.try_update(|p| f(p)) {
            store(id, answer.get_untracked(), progress, writes);
        }
    };
    if let Some(t) = typed {
        change(&|p: &mut Panel| p.edit(t.clone()));
    }
    // Also the textarea's own text: what the built page shows before it
    // mounts (not in the browser, where it would put a focused field's
    // caret at its start).
    let first = cfg!(not(target_arch = "wasm32")).then(|| code.get_untracked());
    // Switches the answer's language (not while a run is under way).
    let switch_to = move |a: Answer| {
        if answer.get_untracked() == a || running.get_untracked().is_some() {
            return;
        }
        let shown = panel.get_untracked();
        panel.set(aside.get_value());
        aside.set_value(shown);
        answer.set(a);
    };
    // The reader's choice holds for every exercise: a switch here is saved
    // and told to the other panels on the page, which follow unless a run of
    // theirs is under way.
    let choose = move |a: Answer| {
        switch_to(a);
        if answer.get_untracked() == a {
            storage::save_answer_language(a);
            let _ = web_sys::Event::new(&answer_event(a)).and_then(|e| window().dispatch_event(&e));
        }
    };
    // (In a page only: the build's renderer has no window to listen on.)
    for a in [Answer::Python, Answer::Rhai]
        .into_iter()
        .filter(|_| crate::window().is_some())
    {
        let handle = window_event_listener_untyped(&answer_event(a), move |_| switch_to(a));
        on_cleanup(move || handle.remove());
    }
    let gutter = NodeRef::<leptos::html::Pre>::new();
    let textarea = NodeRef::<leptos::html::Textarea>::new();
    crate::editor::enhance(textarea);

    // Grades every case (`None`) or one case alone; only a whole run counts
    // for progress (`Panel::finish`).
    let grade = {
        let ex = ex.clone();
        move |case: Option<usize>| {
            if running.get_untracked().is_some() {
                return;
            }
            let spec_ex = ex.clone();
            let t0 = now_ms();
            let python = answer.get_untracked() == Answer::Python;
            let finish = move |reply: Result<Reply, Stopped>| {
                loading.set(None);
                // A Python run's time is the whole of it (Python's own
                // loading included), not the grading worker's share.
                let reply = match reply {
                    Ok(Reply::Grade {
                        verdict, printed, ..
                    }) if python => Ok(Reply::Grade {
                        verdict,
                        printed,
                        ms: now_ms() - t0,
                    }),
                    r => r,
                };
                let without = |e: SolverError| Err((e, now_ms() - t0));
                let done = match reply {
                    Ok(Reply::Grade {
                        verdict,
                        printed,
                        ms,
                    }) => Ok(Run {
                        verdict,
                        printed,
                        ms,
                        alone: case,
                    }),
                    Ok(Reply::Refused { message }) => without(SolverError::Runtime(message)),
                    Ok(_) => without(SolverError::Runtime(tr!(worker_unexpected).to_owned())),
                    Err(stopped) => without(match stopped {
                        Stopped::Timeout(_) => SolverError::Limit(stopped.message()),
                        _ => SolverError::Runtime(stopped.message()),
                    }),
                };
                change(&|p: &mut Panel| match &done {
                    Ok(r) => p.finish(r.clone()),
                    Err((e, ms)) => {
                        p.finish_without_verdict(spec_ex.id, cases, e.clone(), *ms, case)
                    }
                });
                if let Some(Some(message)) =
                    panel.try_with_untracked(|p| p.last.as_ref().map(|r| r.verdict.message.clone()))
                {
                    crate::editor::mark(textarea, &message);
                }
            };
            let job_id = if python {
                python::grade(
                    ex.id,
                    ex.slug(),
                    code.get_untracked(),
                    case,
                    move |l| loading.set(l),
                    finish,
                )
            } else {
                let job = exercises::jobs::Job::Grade {
                    exercise: ex.id.to_owned(),
                    source: code.get_untracked(),
                    case,
                };
                worker::run(Lane::Code, job, CODE_LIMIT_MS, finish)
            };
            running_python.set_value(python);
            panel.update(|p| {
                p.start(job_id);
            });
        }
    };
    let run = {
        let grade = grade.clone();
        move || grade(None)
    };
    // "Open in scratch": the learner's code and the case's call, run there.
    let function = ex.function;
    let open_in_scratch = move |call: String| {
        crate::scratch_cell::scratch_request().set(Some(format!(
            "{}\n\n// {}\n{call}\n",
            code.get_untracked().trim_end(),
            trf!(ex_scratch_comment, f = function)
        )));
    };
    let run2 = run.clone();
    // Escape arms a way out: the next Tab (or Shift+Tab) leaves the editor
    // instead of indenting (WCAG 2.1.2, no keyboard trap). Any other key disarms it.
    let leaving = StoredValue::new(false);
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let key = ev.key();
        if key == "Escape" {
            leaving.set_value(true);
            return;
        }
        if key == "Tab" && leaving.get_value() {
            leaving.set_value(false);
            return; // the browser moves focus on
        }
        if !matches!(key.as_str(), "Shift" | "Control" | "Alt" | "Meta") {
            leaving.set_value(false);
        }
        if key == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
            ev.prevent_default();
            run2();
        } else if key == "Tab"
            && !ev.shift_key()
            && !ev.ctrl_key()
            && !ev.meta_key()
            && !ev.alt_key()
        {
            // Tab indents; Escape then Tab leaves the editor (see the help line).
            let Some(t) = ev
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
            else {
                return;
            };
            ev.prevent_default();
            let (Ok(Some(a)), Ok(Some(b))) = (t.selection_start(), t.selection_end()) else {
                return;
            };
            let _ = t.set_range_text_with_start_and_end_and_mode("    ", a, b, "end");
            let v = t.value();
            change(&|p: &mut Panel| p.edit(v.clone()));
        }
    };

    let statement = statement_html;
    let hints = StoredValue::new(hints);
    let mistakes = StoredValue::new(mistakes);
    let open_mistake = move || panel.update(Panel::open_mistake);
    let reference = reference_html;
    let rhai_signature = format!(
        "fn {}({}) -> {}",
        ex.function,
        ex.params.join(", "),
        ex.returns
    );
    let python_signature = format!("def {}({})", ex.function, ex.params.join(", "));
    let signature = move || {
        if answer.get() == Answer::Python {
            python_signature.clone()
        } else {
            rhai_signature.clone()
        }
    };
    let editor_id = format!("editor-{}", ex.slug());
    // Code from a shared link (`#exercise-<slug>?s=…`): offered, never loaded
    // over the reader's own without their say. `Some(Ok(code))` is on offer;
    // after loading, `previous` holds the reader's code for "Put mine back".
    let anchor = format!("exercise-{}", ex.slug());
    let share_result = RwSignal::new(None);
    let watched = anchor.clone();
    Effect::new(move |_| {
        let Some(payload) = crate::share::incoming(&watched) else {
            return;
        };
        crate::share::decode(&payload, move |r| {
            let r = r.and_then(|json| {
                let (lang, code) = match serde_json::from_str::<serde_json::Value>(&json) {
                    Ok(serde_json::Value::String(code)) => (Answer::Rhai, code),
                    Ok(serde_json::Value::Object(m)) => match m.get("python") {
                        Some(serde_json::Value::String(code)) => (Answer::Python, code.clone()),
                        _ => return Err(tr!(share_not_code).to_owned()),
                    },
                    _ => return Err(tr!(share_not_code).to_owned()),
                };
                if code.len() > crate::share::MAX_VALUE {
                    return Err(tr!(share_code_long).to_owned());
                }
                Ok((lang, code))
            });
            // Offered in the language it was written in.
            let r = r.map(|(lang, code)| {
                switch_to(lang);
                code
            });
            let _ = panel.try_update(|p| {
                p.offer(match r {
                    Ok(code) => Offer::Code(code),
                    Err(why) => Offer::Damaged(why),
                });
            });
        });
    });

    view! {
        <section class="exercise" id=format!("exercise-{}", ex.slug()) data-exercise=ex.id data-help=move || help_used.get()>
            <header class="cell-head">
                <span class="cell-kind">{tr!(chrome_exercise_kind)}</span>
                <h3 class="cell-title" id=format!("h-exercise-{}", ex.slug())>{title}
                    <crate::cell::Permalink id=format!("exercise-{}", ex.slug()) label=tr!(chrome_exercise_link)/>
                </h3>
            </header>
            <div class="prose statement" inner_html=statement></div>
            <div class="answer-lang" role="group" aria-label=tr!(answer_lang_label) data-pagefind-ignore="">
                <span class="muted small">{tr!(answer_lang_label)}</span>
                {[(Answer::Python, "Python"), (Answer::Rhai, "Rhai")].map(|(a, name)| view! {
                    <button type="button" class="secondary small lang-choice" data-answer=a.tag()
                        aria-pressed=move || (answer.get() == a).to_string()
                        disabled=move || running.get().is_some() && answer.get() != a
                        on:click=move |_| choose(a)>{name}</button>
                })}
            </div>
            <p class="signature"><code>{signature}</code>" — "
                {move || if answer.get() == Answer::Python {
                    tr!(chrome_signature_note_python).into_any()
                } else {
                    view! {
                        {tr!(chrome_signature_note)}" "
                        <a class="guide-link" href=format!("{}/rhai", crate::lang::lang().prefix())>{tr!(rhai_guide)}</a>
                    }.into_any()
                }}
            </p>
            {move || offered.get().map(|o| {
                let anchor = anchor.clone();
                let anchor2 = anchor.clone();
                match o {
                    Offer::Code(shared) => {
                        let lines = shared.lines().count();
                        view! {
                            <div class="shared-note" role="status">
                                <span>{if lines == 1 { tr!(shared_code_one).to_owned() } else { trf!(shared_code_many, n = lines) }}</span>
                                <button type="button" class="secondary load-shared" on:click=move |_| {
                                    change(&Panel::load_offered);
                                    crate::share::forget(&anchor);
                                }>{tr!(load_shared)}</button>
                                <button type="button" class="secondary" on:click=move |_| {
                                    panel.update(Panel::dismiss_offer);
                                    crate::share::forget(&anchor2);
                                }>{tr!(dismiss)}</button>
                            </div>
                        }.into_any()
                    }
                    Offer::Damaged(e) => view! {
                        <crate::share::DamagedLink anchor
                            text=trf!(shared_code_damaged, why = e)
                            on_dismiss=Callback::new(move |()| panel.update(Panel::dismiss_offer))/>
                    }.into_any(),
                }
            })}
            {move || previous.get().map(|_| view! {
                <div class="shared-note" role="status">
                    <span>{tr!(shared_loaded)}</span>
                    <button type="button" class="secondary" on:click=move |_| change(&Panel::put_back)>{tr!(put_back)}</button>
                    <button type="button" class="secondary" on:click=move |_| panel.update(Panel::keep_loaded)>{tr!(keep_it)}</button>
                </div>
            })}
            <label class="sr-only" for=editor_id.clone()>{move || if answer.get() == Answer::Python { tr!(your_python) } else { tr!(your_rhai) }}</label>
            <div class="editor-wrap" data-pagefind-ignore="">
            <pre class="gutter" aria-hidden="true" node_ref=gutter>
                {move || (1..=code.read().lines().count().max(1) + usize::from(code.read().ends_with('\n'))).map(|n| n.to_string()).collect::<Vec<_>>().join("\n")}
            </pre>
            <textarea
                id=editor_id
                node_ref=textarea
                class="editor"
                data-lang=move || answer.get().tag()
                wrap="off"
                on:scroll=move |ev| {
                    if let (Some(g), Some(t)) = (gutter.get(), ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok())) {
                        g.set_scroll_top(t.scroll_top());
                    }
                }
                spellcheck="false"
                autocapitalize="off"
                autocomplete="off"
                rows="12"
                prop:value=move || code.get()
                on:input=move |ev| {
                    let v = event_target_value(&ev);
                    change(&|p: &mut Panel| p.edit(v.clone()));
                }
                on:keydown=on_key
            >{first}</textarea>
            </div>
            <p class="muted small" data-pagefind-ignore="">{tr!(editor_help)}</p>
            <div class="cell-actions" data-pagefind-ignore="">
                <button type="button" class="run" on:click={
                    let run = run.clone();
                    move |_| run()
                }>{move || if running.get().is_some() { tr!(tests_running) } else { tr!(run_tests) }}</button>
                {move || running.get().map(|job| view! {
                    <button type="button" class="stop" on:click=move |_| {
                        if running_python.get_value() {
                            python::stop(job);
                        } else {
                            worker::stop(Lane::Code, job, Stopped::ByReader);
                        }
                    }>{tr!(stop)}</button>
                })}
                <button type="button" class="secondary" on:click=move |_| {
                    let ok = crate::window()
                        .and_then(|w| w.confirm_with_message(tr!(confirm_reset_exercise)).ok())
                        .unwrap_or(false);
                    if ok {
                        change(&Panel::reset);
                    }
                }>{tr!(reset_exercise)}</button>
                <button type="button" class="secondary share" title=tr!(share_code_title)
                    on:click={
                        let anchor = format!("exercise-{}", ex.slug());
                        move |_| {
                            // Rhai code is a JSON string (as links made before
                            // Python have it); Python code says its language.
                            let json = match answer.get_untracked() {
                                Answer::Python => serde_json::json!({ "python": code.get_untracked() }).to_string(),
                                _ => serde_json::to_string(&code.get_untracked()).unwrap_or_default(),
                            };
                            crate::share::share(&anchor, &json, share_result);
                        }
                    }>{tr!(share_code)}</button>
                <button type="button" class="secondary" disabled=move || hints_done.get()
                    on:click=move |_| panel.update(Panel::next_hint)>
                    {move || if hints_shown.get() == 0 { tr!(show_hint).to_owned() } else { trf!(next_hint, shown = hints_shown.get(), total = hints.with_value(Vec::len)) }}
                </button>
            </div>
            {move || loading.get().map(|l| view! {
                <p class="muted small python-loading" role="status">{l.message()}</p>
            })}
            <crate::share::ShareResult result=share_result/>
            <ol class="hints">
                {move || hints.with_value(|h| h.iter().take(hints_shown.get()).map(|h| view! { <li>{h.clone()}</li> }).collect_view())}
            </ol>
            <div class="results" aria-live="polite" data-runs=move || runs.get()>
                {move || match last.get() {
                    Some(Run { verdict, ms, alone, .. }) => {
                        // The scratch cell runs Rhai: a Python answer is not opened there.
                        let scratch = (answer.get_untracked() != Answer::Python).then_some(open_in_scratch);
                        // The named mistake's line in the page's language.
                        let mistake = verdict.misconception.as_ref().map(|m| {
                            mistakes.with_value(|all| {
                                all.iter()
                                    .find(|(id, _)| *id == m.id)
                                    .map_or_else(|| m.text.clone(), |(_, t)| t.clone())
                            })
                        });
                        results_view(verdict, ms, alone, function, grade.clone(), scratch, mistake.map(|m| (m, open_mistake))).into_any()
                    }
                    // Before a run in this visit: what was saved last time.
                    None => match progress.outcome(id) {
                        Outcome::NotAttempted => ().into_any(),
                        Outcome::Passed => view! {
                            <p class="saved-outcome ok">{tr!(saved_passed)}</p>
                        }.into_any(),
                        o => view! {
                            <p class="saved-outcome bad">{trf!(last_run, outcome = crate::lang::outcome_text(o))}</p>
                        }.into_any(),
                    },
                }}
            </div>
            {move || {
                let passed = progress.status(id) == "passed";
                let (without_pass, with_pass) = revealable.get();
                (if passed { with_pass } else { without_pass }).then(|| view! {
                    <button type="button" class="secondary reveal" on:click=move |_| {
                        let ok = passed || crate::window()
                            .and_then(|w| w.confirm_with_message(tr!(confirm_reveal)).ok())
                            .unwrap_or(false);
                        if ok { panel.update(Panel::show_reference); }
                    }>{if passed { tr!(compare_reference) } else { tr!(show_reference) }}</button>
                })
            }}
            {move || reveal.get().then(|| if answer.get() == Answer::Python {
                view! {
                    <div class="reference">
                        <p class="muted small">{tr!(reference_note_python)}</p>
                        <pre class="code"><code class="python" inner_html=reference_python_html.clone()></code></pre>
                        <details class="reference-rust">
                            <summary>{tr!(rust_reference)}</summary>
                            <pre class="code"><code class="rust" inner_html=reference.clone()></code></pre>
                        </details>
                    </div>
                }.into_any()
            } else {
                view! {
                    <div class="reference">
                        <p class="muted small">{tr!(reference_note_rhai)}</p>
                        <pre class="code"><code class="rhai" inner_html=reference_rhai_html.clone()></code></pre>
                        <details class="reference-rust">
                            <summary>{tr!(rust_reference)}</summary>
                            <pre class="code"><code class="rust" inner_html=reference.clone()></code></pre>
                        </details>
                    </div>
                }.into_any()
            })}
        </section>
    }
}

fn status_class(s: Status) -> &'static str {
    match s {
        Status::Passed => "ok",
        Status::Failed => "bad",
        Status::Error | Status::LimitExceeded => "err",
        Status::NotAttempted => "idle",
    }
}

fn results_view(
    v: Verdict,
    ms: f64,
    alone: Option<usize>,
    function: &'static str,
    grade: impl Fn(Option<usize>) + Clone + 'static,
    open_in_scratch: Option<impl Fn(String) + Copy + 'static>,
    // The named mistake's line, with what opening its fold does.
    mistake: Option<(String, impl Fn() + Copy + 'static)>,
) -> impl IntoView {
    let head = match alone {
        Some(i) => trf!(
            verdict_alone,
            i = i,
            status = status_text(v.status),
            ms = format!("{ms:.1}")
        ),
        None => trf!(
            verdict_head,
            status = status_text(v.status),
            passed = v.passed,
            total = v.total,
            ms = format!("{ms:.1}")
        ),
    };
    let said = v.message_in(crate::lang::lang());
    let first_fail = v.cases.iter().position(|c| !c.passed);
    let withheld = v.cases.iter().any(|c| c.printed_withheld > 0);
    // What failed leads, identical errors as one row each; the cases that
    // passed are folded under it.
    let rows = v.fail_rows();
    // The smallest failing input shrunk from a generated case leads, beside
    // the case and seed it came from (`judge::shrink`).
    let shrunk = v.shrunk.as_deref().map(|s| {
        let head = trf!(shrunk_head, case = s.case, seed = s.seed);
        let call = short(judge::call_text(function, &s.input));
        let expected = short(s.expected.to_string());
        let actual = s.actual.as_ref().map(|a| short(a.to_string()));
        let error = s.error.as_ref().map(|e| e.message_in(crate::lang::lang()));
        view! {
            <div class="shrunk">
                <p><strong>{head}</strong></p>
                <span class="case-io">
                    <span><code>{call}</code></span>
                    <span>{tr!(case_expected)} <code>{expected}</code></span>
                    {actual.map(|a| view! { <span>{tr!(case_actual)} <code>{a}</code></span> })}
                    {error.map(|e| view! { <span class="case-error">{e}</span> })}
                </span>
            </div>
        }
    });
    let mut failing = Vec::new();
    let mut passing = Vec::new();
    for (i, c) in v.cases.into_iter().enumerate() {
        let open = Some(i) == first_fail || alone.is_some();
        if c.passed {
            passing.push(case_view(c, open, function, grade.clone(), open_in_scratch).into_any());
        } else if let Some(row) = rows.iter().find(|r| r.shown == i) {
            failing.push(case_view(c, open, function, grade.clone(), open_in_scratch).into_any());
            if !row.same.is_empty() {
                let list = row
                    .same
                    .iter()
                    .map(|n| n.to_string())
                    .collect::<Vec<_>>()
                    .join(", ");
                let n = row.same.len();
                let text = if row.withheld {
                    trf!(same_error_hidden, n = n, list = list)
                } else {
                    trf!(same_error_more, n = n, list = list)
                };
                failing.push(view! { <li class="same-error">{text}</li> }.into_any());
            }
        }
    }
    let passed_fold = (!passing.is_empty()).then(|| {
        let summary = trf!(cases_passed_fold, n = passing.len());
        view! {
            <details class="cases-passed">
                <summary>{summary}</summary>
                <ul class="cases">{passing}</ul>
            </details>
        }
    });
    view! {
        <div class=format!("verdict {}", status_class(v.status)) data-status=v.status.label() data-alone=alone.map(|i| i.to_string())>
            <p class="verdict-head"><strong>{head}</strong></p>
            <p class="verdict-msg">{said}</p>
            {withheld.then(|| view! {
                <p class="muted small withheld-note">{tr!(withheld_note)}</p>
            })}
            {shrunk}
            <ul class="cases">{failing}</ul>
            // After the diff: the known mistake the results match, folded
            // like a hint; opening it counts as one (`Panel::open_mistake`).
            {mistake.map(|(text, open_mistake)| view! {
                <details class="misconception" on:toggle=move |ev| {
                    let open = ev
                        .target()
                        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                        .is_some_and(|d| d.has_attribute("open"));
                    if open {
                        open_mistake();
                    }
                }>
                    <summary>{tr!(mistake_fold)}</summary>
                    <p><span class="muted small">{tr!(mistake_note)}</span>" "{text}</p>
                </details>
            })}
            {passed_fold}
        </div>
    }
}

/// A value for display, cut after 300 characters.
fn short(text: String) -> String {
    const MAX: usize = 300;
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!(
            "{}{}",
            &text[..cut],
            trf!(more_chars, n = text[cut..].chars().count())
        ),
        None => text,
    }
}

/// One case; the values of the first failing case are shown, the others fold.
/// A case the learner may see can be run alone or opened in the scratch cell,
/// and shows what the code printed during it; a hidden case shows only whether
/// it passed.
fn case_view(
    c: CaseResult,
    open: bool,
    function: &'static str,
    grade: impl Fn(Option<usize>) + 'static,
    open_in_scratch: Option<impl Fn(String) + 'static>,
) -> impl IntoView {
    let index = c.index;
    let call = c
        .input
        .as_ref()
        .map(|args| judge::call_text(function, args));
    let printed = (!c.printed.is_empty()).then(|| {
        view! { <pre class="prints" aria-label=trf!(printed_during, i = index)>{c.printed.join("\n")}</pre> }
    });
    let actions = call.map(|call| {
        view! {
            <span class="case-actions">
                <button type="button" class="secondary small" on:click=move |_| grade(Some(index))>{tr!(run_case_alone)}</button>
                {open_in_scratch.map(|open| view! {
                    <button type="button" class="secondary small" on:click=move |_| open(call.clone())>{tr!(open_in_scratch)}</button>
                })}
            </span>
        }
    });
    let mark = if c.passed { "✓" } else { "✗" };
    let kind = match c.kind {
        Kind::Public => tr!(case_public).to_owned(),
        Kind::Hidden => tr!(case_hidden).to_owned(),
        Kind::Generated { seed } => trf!(case_generated, seed = seed),
    };
    let detail = match (&c.input, &c.expected) {
        (Some(input), Some(want)) => {
            let got = c
                .actual
                .as_ref()
                .map(|v| short(v.to_string()))
                .or_else(|| c.passed.then(|| short(want.to_string())));
            let diff = c.mismatch.as_ref().map(|m| {
                let at = if m.path.is_empty() {
                    String::new()
                } else {
                    trf!(diff_at, path = m.path)
                };
                let errs = match (m.abs_err, m.rel_err) {
                    (Some(a), Some(r)) => {
                        trf!(diff_abs_rel, a = format!("{a:.3e}"), r = format!("{r:.3e}"))
                    }
                    (Some(a), None) => trf!(diff_abs, a = format!("{a:.3e}")),
                    _ => String::new(),
                };
                format!("{at}{}{errs}", m.reason_in(crate::lang::lang()))
            });
            Some(view! {
                <details class="case-detail" open=open>
                    <summary>{tr!(case_values)}</summary>
                    <span class="case-io">
                        <span>{tr!(case_input)} <code>{short(show_args(input))}</code></span>
                        <span>{tr!(case_expected)} <code>{short(want.to_string())}</code></span>
                        {got.map(|g| view! { <span>{tr!(case_actual)} <code>{g}</code></span> })}
                        {diff.map(|d| view! { <span class="diff">{d}</span> })}
                    </span>
                    {printed}
                    {actions}
                </details>
            })
        }
        _ => None,
    };
    view! {
        <li class=if c.passed { "case pass" } else { "case fail" }>
            <span class="mark">{mark}</span>
            <span class="case-name">{trf!(case_name, i = c.index, kind = kind)}</span>
            {detail}
            {c.error_in(crate::lang::lang()).map(|e| view! { <span class="case-error">{e}</span> })}
        </li>
    }
}
