//! The Python lane: a Web Worker of its own (`app/python-worker.js`) that runs
//! Pyodide and the judge's harness on a Python answer. It starts only when a
//! reader first runs Python (never on page load) and says how far its loading
//! got. It holds no test case and no expected value: [`grade`] asks the
//! grading worker for the cases' arguments ([`Job::Cases`]), runs them here one
//! job at a time, and gives the replies back to the grading worker
//! ([`Job::GradeReplies`]), which words the same verdict the CLI gives.
//!
//! A job that passes its time limit (counted from when Python starts it, not
//! while Python loads) ends the worker; the cases answered so far are graded,
//! the next one is told it ran out of time, and a fresh Python starts loading
//! in the background once that verdict is on the page ([`restart_soon`]): the
//! fresh worker's start (fetching and compiling Pyodide's 10 MB of wasm, then
//! starting CPython) takes both cores of a small machine for a while, and
//! rendering the verdict at the same time stretched it past the page's
//! 100 ms main-thread bound (137 ms measured once in CI).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use exercises::jobs::{Job, Reply};
use judge::replies::{CaseOutput, Printed};
use judge::{LimitHit, SolverError};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use crate::lang::{tr, trf};
use crate::worker::{self, Lane, Stopped};

/// How long Python may run one exercise's cases, in milliseconds: Rhai's
/// budget ([`exercises::jobs::CODE_DEADLINE_MS`]).
pub const PYTHON_LIMIT_MS: u32 = 2_000;

/// What a reader sees while Python gets ready.
#[derive(Debug, Clone, PartialEq)]
pub enum Loading {
    /// Fetching and starting Pyodide (the first time: about 14 MB).
    Python,
    /// Loading the judge's harness.
    Harness,
}

impl Loading {
    /// A line for the reader.
    pub fn message(&self) -> String {
        match self {
            Loading::Python => tr!(python_loading).to_owned(),
            Loading::Harness => tr!(python_loading_harness).to_owned(),
        }
    }
}

/// The replies a Python run gave before it ended.
#[derive(Debug, Clone, Default)]
struct Partial {
    replies: String,
    printed: Printed,
    answered: usize,
}

struct Running {
    id: u64,
    partial: Partial,
    done: Box<dyn FnOnce(Partial, Option<SolverError>)>,
    timer: Option<gloo_timers::callback::Timeout>,
}

struct Queued {
    request: String,
    id: u64,
    on_loading: Rc<dyn Fn(Option<Loading>)>,
    done: Box<dyn FnOnce(Partial, Option<SolverError>)>,
}

#[derive(Default)]
struct State {
    worker: Option<web_sys::Worker>,
    ready: bool,
    loading: Option<Loading>,
    running: Option<Running>,
    queue: VecDeque<Queued>,
    on_message: Option<Closure<dyn FnMut(web_sys::MessageEvent)>>,
    on_error: Option<Closure<dyn FnMut(web_sys::Event)>>,
    /// Told when loading moves on: the first queued job's panel.
    listener: Option<Rc<dyn Fn(Option<Loading>)>>,
    /// A job was ended with its worker: a fresh one is due once the job's
    /// verdict has been shown ([`restart_soon`]).
    restart_due: bool,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
    static NEXT_ID: std::cell::Cell<u64> = const { std::cell::Cell::new(1) };
}

/// Grades `source` as the Python answer to `exercise` (all cases, or case
/// `alone`): `on_loading` hears what Python is loading (`None` once it runs),
/// `done` gets the grading worker's reply or why there is none. Returns an id
/// for [`stop`].
pub fn grade(
    exercise: &'static str,
    slug: &str,
    source: String,
    alone: Option<usize>,
    on_loading: impl Fn(Option<Loading>) + 'static,
    done: impl FnOnce(Result<Reply, Stopped>) + 'static,
) -> u64 {
    let id = NEXT_ID.with(|n| {
        let id = n.get();
        n.set(id + 1);
        id
    });
    let file = format!("{slug}.py");
    let on_loading: Rc<dyn Fn(Option<Loading>)> = Rc::new(on_loading);
    let job = Job::Cases {
        exercise: exercise.to_owned(),
    };
    worker::run(
        Lane::Code,
        job,
        crate::scratch_cell::CODE_LIMIT_MS,
        move |reply| {
            let (function, arity, cases) = match reply {
                Ok(Reply::Cases {
                    function,
                    arity,
                    cases,
                }) => (function, arity, cases),
                Ok(Reply::Refused { message }) => return done(Err(Stopped::Crashed(message))),
                Ok(_) => return done(Err(Stopped::Crashed(tr!(worker_unexpected).to_owned()))),
                Err(e) => return done(Err(e)),
            };
            let cases: Vec<String> = match alone {
                Some(i) => cases
                    .into_iter()
                    .skip(i.saturating_sub(1))
                    .take(1)
                    .collect(),
                None => cases,
            };
            let asking = Rc::new(Asking {
                id,
                exercise,
                file,
                function,
                arity,
                source,
                on_loading: on_loading.clone(),
            });
            let request = asking.request(&cases);
            let finish = move |partial: Partial, ended: Option<SolverError>| {
                // A whole run that ended by itself and failed a generated
                // case is shrunk before its verdict is given (#29).
                let shrink = alone.is_none() && ended.is_none();
                let job = Job::GradeReplies {
                    exercise: exercise.to_owned(),
                    replies: partial.replies,
                    printed: partial.printed,
                    ended,
                    case: alone,
                };
                worker::run(
                    Lane::Code,
                    job,
                    crate::scratch_cell::CODE_LIMIT_MS,
                    move |reply| match reply {
                        Ok(Reply::Grade {
                            verdict,
                            printed,
                            ms,
                        }) if shrink && verdict.status != judge::Status::Passed => {
                            let graded = Graded {
                                verdict,
                                printed,
                                ms,
                                started: js_sys::Date::now(),
                                done: Box::new(done),
                            };
                            let job = Job::Shrink {
                                exercise: exercise.to_owned(),
                                from: judge::shrink::first_failing_generated(&graded.verdict),
                                search: None,
                                replies: String::new(),
                                ended: None,
                            };
                            worker::run(
                                Lane::Code,
                                job,
                                crate::scratch_cell::CODE_LIMIT_MS,
                                move |r| shrink_round(asking, graded, r),
                            );
                        }
                        other => {
                            done(other);
                            restart_soon();
                        }
                    },
                );
            };
            enqueue(Queued {
                request,
                id,
                on_loading,
                done: Box::new(finish),
            });
        },
    );
    id
}

/// How long a shrink may take in the page, all rounds together, in ms (the
/// CLI's bound, a safety: the search's own bound is its budget of calls,
/// `judge::shrink::EVALS`); past it the smallest failing input found so
/// far is shown.
const SHRINK_MS: f64 = 10_000.0;

/// What a shrink's rounds run in Pyodide: the answer and where to send it.
struct Asking {
    /// The Python job's id: the panel's Stop ends a round too.
    id: u64,
    exercise: &'static str,
    file: String,
    function: String,
    arity: usize,
    source: String,
    on_loading: Rc<dyn Fn(Option<Loading>)>,
}

impl Asking {
    /// The Python worker's request to run the answer on `cases` (each a JSON
    /// array in the wire encoding).
    fn request(&self, cases: &[String]) -> String {
        serde_json::json!({
            "id": self.id,
            "file": self.file,
            "function": self.function,
            "arity": self.arity,
            "source": self.source,
            "cases": cases,
        })
        .to_string()
    }
}

/// A verdict waiting for its shrunk case.
struct Graded {
    verdict: judge::Verdict,
    printed: Vec<String>,
    ms: f64,
    /// When the shrink started (`Date.now()`).
    started: f64,
    done: Box<dyn FnOnce(Result<Reply, Stopped>)>,
}

impl Graded {
    /// Gives the verdict, with the smallest failing input found, if any.
    fn give(self, shrunk: Option<Box<judge::shrink::Shrunk>>) {
        let mut verdict = self.verdict;
        verdict.shrunk = shrunk;
        (self.done)(Ok(Reply::Grade {
            verdict,
            printed: self.printed,
            ms: self.ms,
        }));
        restart_soon();
    }
}

/// One round of a shrink ([`Job::Shrink`]): runs the inputs the grading
/// worker asks for in Pyodide and sends their replies back, until it gives
/// the result, time runs out ([`SHRINK_MS`]) or a round is stopped.
fn shrink_round(asking: Rc<Asking>, graded: Graded, reply: Result<Reply, Stopped>) {
    let (search, cases, so_far) = match reply {
        Ok(Reply::ShrinkAsk {
            search,
            cases,
            so_far,
        }) => (search, cases, so_far),
        Ok(Reply::Shrunk { shrunk }) => return graded.give(shrunk),
        _ => return graded.give(None),
    };
    if js_sys::Date::now() - graded.started > SHRINK_MS {
        return graded.give(so_far);
    }
    let request = asking.request(&cases);
    let on_loading = asking.on_loading.clone();
    let id = asking.id;
    let finish = move |partial: Partial, ended: Option<SolverError>| {
        if ended.is_some() {
            // Stopped, or out of time: what was found so far.
            return graded.give(so_far);
        }
        let job = Job::Shrink {
            exercise: asking.exercise.to_owned(),
            from: None,
            search: Some(search),
            replies: partial.replies,
            ended: None,
        };
        worker::run(
            Lane::Code,
            job,
            crate::scratch_cell::CODE_LIMIT_MS,
            move |r| shrink_round(asking, graded, r),
        );
    };
    enqueue(Queued {
        request,
        id,
        on_loading,
        done: Box::new(finish),
    });
}

/// Queues a Python job and starts it if Python is ready and idle.
fn enqueue(q: Queued) {
    STATE.with(|s| s.borrow_mut().queue.push_back(q));
    pump();
}

/// Stops Python job `id` (the reader pressed Stop): what it answered is graded,
/// the rest is reported as stopped.
pub fn stop(id: u64) {
    let queued = STATE.with(|s| {
        let mut s = s.borrow_mut();
        let at = s.queue.iter().position(|q| q.id == id);
        at.and_then(|i| s.queue.remove(i))
    });
    if let Some(q) = queued {
        (q.done)(
            Partial::default(),
            Some(SolverError::Runtime(Stopped::ByReader.message())),
        );
        return;
    }
    end_running(id, |_| SolverError::Runtime(Stopped::ByReader.message()));
}

/// Ends the running job `id`: its worker is terminated, and a fresh one is
/// due ([`restart_soon`]; at once if another job is waiting).
fn end_running(id: u64, why: impl FnOnce(usize) -> SolverError) {
    let running = STATE.with(|s| {
        let mut s = s.borrow_mut();
        if s.running.as_ref().is_none_or(|r| r.id != id) {
            return None;
        }
        let r = s.running.take();
        if let Some(w) = s.worker.take() {
            w.terminate();
        }
        s.ready = false;
        s.on_message = None;
        s.on_error = None;
        s.restart_due = true;
        r
    });
    let Some(r) = running else { return };
    let next = r.partial.answered + 1;
    (r.done)(r.partial, Some(why(next)));
    // A job already waiting starts a fresh Python now; otherwise it starts
    // after this job's verdict is on the page.
    pump();
}

/// How long after a time-out's verdict the fresh Python starts, in ms: the
/// verdict's render runs as several tasks (about 60 ms of them on a 2-core
/// machine), and an idle moment comes between them.
const RESTART_AFTER_MS: u32 = 500;

/// Starts the fresh Python that an ended job left due, [`RESTART_AFTER_MS`]
/// after the verdict and then when the page is idle (`requestIdleCallback`,
/// where a browser has it), so that its start does not compete with
/// rendering the verdict that ended it. A run asked for meanwhile starts it
/// at once ([`pump`]).
fn restart_soon() {
    if !STATE.with(|s| s.borrow().restart_due) {
        return;
    }
    gloo_timers::callback::Timeout::new(RESTART_AFTER_MS, || {
        let start = Closure::once_into_js(|| {
            if STATE.with(|s| std::mem::take(&mut s.borrow_mut().restart_due)) {
                start_worker();
            }
        });
        let Some(window) = crate::window() else {
            return;
        };
        let idle = js_sys::Reflect::get(&window, &JsValue::from_str("requestIdleCallback"))
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"timeout".into(), &JsValue::from_f64(1000.0));
        let asked = idle.is_some_and(|f| f.call2(&window, &start, &options).is_ok());
        if !asked {
            let _ = start
                .dyn_into::<js_sys::Function>()
                .map(|f| f.call0(&window));
        }
    })
    .forget();
}

/// Starts the next queued job when Python is ready and idle; starts Python
/// when there is work and no worker.
fn pump() {
    let next = STATE.with(|s| {
        let mut s = s.borrow_mut();
        if s.running.is_some() {
            return None;
        }
        if !s.ready {
            let listener = s.queue.front().map(|q| q.on_loading.clone());
            s.listener = listener;
            return None;
        }
        let q = s.queue.pop_front()?;
        let (on_loading, request) = (q.on_loading.clone(), q.request.clone());
        let id = q.id;
        let timer = gloo_timers::callback::Timeout::new(PYTHON_LIMIT_MS, move || {
            end_running(id, |case| {
                SolverError::Sandbox(LimitHit::ProcessTime {
                    seconds: f64::from(PYTHON_LIMIT_MS) / 1000.0,
                    case,
                })
            });
        });
        s.running = Some(Running {
            id,
            partial: Partial::default(),
            done: q.done,
            timer: Some(timer),
        });
        let worker = s.worker.clone();
        Some((worker, request, on_loading))
    });
    let has_work = STATE.with(|s| !s.borrow().queue.is_empty());
    match next {
        Some((Some(w), request, on_loading)) => {
            on_loading(None);
            let _ = w.post_message(&JsValue::from_str(&request));
        }
        _ if has_work => {
            start_worker();
            let (loading, listener) =
                STATE.with(|s| (s.borrow().loading.clone(), s.borrow().listener.clone()));
            if let (Some(l), Some(f)) = (loading, listener) {
                f(Some(l));
            }
        }
        _ => {}
    }
}

fn start_worker() {
    if STATE.with(|s| s.borrow().worker.is_some()) {
        return;
    }
    let opts = web_sys::WorkerOptions::new();
    opts.set_type(web_sys::WorkerType::Module);
    let worker = match web_sys::Worker::new_with_options("/python-worker.js", &opts) {
        Ok(w) => w,
        Err(e) => return fail_all(&format!("{e:?}")),
    };
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            if let Some(text) = ev.data().as_string() {
                received(&text);
            }
        });
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
        let msg = ev
            .dyn_ref::<web_sys::ErrorEvent>()
            .map(|e| e.message())
            .unwrap_or_else(|| tr!(python_no_load).to_owned());
        fail_all(&msg);
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        s.worker = Some(worker);
        s.ready = false;
        s.restart_due = false;
        s.loading = Some(Loading::Python);
        s.on_message = Some(on_message);
        s.on_error = Some(on_error);
    });
}

/// Python could not start: every job waiting for it ends with `why`.
fn fail_all(why: &str) {
    let (queued, running) = STATE.with(|s| {
        let mut s = s.borrow_mut();
        if let Some(w) = s.worker.take() {
            w.terminate();
        }
        s.ready = false;
        s.loading = None;
        s.on_message = None;
        s.on_error = None;
        (std::mem::take(&mut s.queue), s.running.take())
    });
    let why = trf!(python_no_start, why = why);
    for q in queued {
        (q.on_loading)(None);
        (q.done)(Partial::default(), Some(SolverError::Runtime(why.clone())));
    }
    if let Some(r) = running {
        (r.done)(r.partial, Some(SolverError::Runtime(why)));
    }
}

fn received(text: &str) {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else {
        return;
    };
    if let Some(what) = v.get("loading").and_then(|l| l.as_str()) {
        let l = if what == "harness" {
            Loading::Harness
        } else {
            Loading::Python
        };
        let listener = STATE.with(|s| {
            let mut s = s.borrow_mut();
            s.loading = Some(l.clone());
            s.listener.clone()
        });
        if let Some(f) = listener {
            f(Some(l));
        }
        return;
    }
    if v.get("ready").is_some() {
        STATE.with(|s| {
            let mut s = s.borrow_mut();
            s.ready = true;
            s.loading = None;
        });
        pump();
        return;
    }
    let id = v["id"].as_u64().unwrap_or(0);
    if let Some(trap) = v.get("trap").and_then(|t| t.as_str()) {
        if id == 0 {
            return fail_all(trap);
        }
        let trap = trap.to_owned();
        return end_running(id, move |_| {
            SolverError::Runtime(Stopped::Crashed(trap).message())
        });
    }
    if v.get("done").is_some() {
        let finished = STATE.with(|s| {
            let mut s = s.borrow_mut();
            if s.running.as_ref().is_some_and(|r| r.id == id) {
                s.running.take()
            } else {
                None
            }
        });
        if let Some(mut r) = finished {
            if let Some(t) = r.timer.take() {
                t.cancel();
            }
            (r.done)(r.partial, None);
        }
        pump();
        return;
    }
    let (Some(case), Some(reply)) = (v["case"].as_u64(), v["reply"].as_str()) else {
        return;
    };
    let printed: CaseOutput = serde_json::from_value(v["printed"].clone()).unwrap_or_default();
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        let Some(r) = s.running.as_mut().filter(|r| r.id == id) else {
            return;
        };
        r.partial.replies.push_str(reply);
        r.partial.replies.push('\n');
        let cases = &mut r.partial.printed.cases;
        let case = case as usize;
        if cases.len() <= case {
            cases.resize(case + 1, CaseOutput::default());
        }
        cases[case] = printed;
        if case > 0 {
            r.partial.answered = case;
        }
    });
}
