//! Heavy work off the page's main thread: a Web Worker (`app/worker.js`) runs
//! the workers' wasm module (`app/worker`, package `app-worker`: the demos, the
//! judge and Rhai, none of which the page's module has) and serves
//! [`exercises::jobs`] requests.
//!
//! Two lanes, each with its own worker, so a cell never waits behind a
//! learner's loop: [`Lane::Cells`] for demos, [`Lane::Code`] for grading and the
//! scratch cell. A job that passes its time limit is stopped by terminating its
//! worker; a fresh one starts and the lane's other jobs are sent to it again.
//! A trap inside the worker (a panic) is handled the same way.

use crate::lang::{tr, trf};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use exercises::jobs::{Job, Reply, Request, Response};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// Which worker a job goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// Demo runs.
    Cells,
    /// Grading and scratch runs.
    Code,
}

/// How a job ended when the worker gave no reply.
#[derive(Debug, Clone, PartialEq)]
pub enum Stopped {
    /// Past its time limit; the worker was replaced.
    Timeout(f64),
    /// The worker trapped; the message says why.
    Crashed(String),
    /// No worker could be started (its script or module did not load); the
    /// message says why.
    NoStart(String),
    /// The reader pressed Stop.
    ByReader,
}

impl Stopped {
    /// A sentence for the reader.
    pub fn message(&self) -> String {
        match self {
            Stopped::Timeout(ms) => trf!(stopped_timeout, s = format!("{:.1}", ms / 1000.0)),
            Stopped::Crashed(m) => trf!(stopped_crashed, why = m),
            Stopped::NoStart(m) => trf!(stopped_no_start, why = m),
            Stopped::ByReader => tr!(stopped_by_reader).to_owned(),
        }
    }
}

type Done = Box<dyn FnOnce(Result<Reply, Stopped>)>;

struct Pending {
    request: String,
    done: Done,
    timer: Option<gloo_timers::callback::Timeout>,
}

#[derive(Default)]
struct LaneState {
    worker: Option<web_sys::Worker>,
    ready: bool,
    /// Requests in the order they were made.
    pending: BTreeMap<u64, Pending>,
    /// Keeps the message handler alive as long as its worker.
    on_message: Option<Closure<dyn FnMut(web_sys::MessageEvent)>>,
    on_error: Option<Closure<dyn FnMut(web_sys::Event)>>,
}

thread_local! {
    static LANES: RefCell<[Rc<RefCell<LaneState>>; 2]> = RefCell::new(Default::default());
    static NEXT_ID: std::cell::Cell<u64> = const { std::cell::Cell::new(1) };
}

fn lane_state(lane: Lane) -> Rc<RefCell<LaneState>> {
    LANES.with(|l| l.borrow()[lane as usize].clone())
}

/// Runs `job` in `lane`'s worker; `done` gets the reply, or why there is none.
/// The time limit counts from now, queueing included. Returns the job's id.
pub fn run(
    lane: Lane,
    job: Job,
    limit_ms: u32,
    done: impl FnOnce(Result<Reply, Stopped>) + 'static,
) -> u64 {
    let id = NEXT_ID.with(|n| {
        let id = n.get();
        n.set(id + 1);
        id
    });
    let job = if take_trap_flag() { Job::Trap } else { job };
    let request = serde_json::to_string(&Request { id, job }).unwrap_or_default();
    let state = lane_state(lane);
    let timer = gloo_timers::callback::Timeout::new(limit_ms, move || {
        stop(lane, id, Stopped::Timeout(f64::from(limit_ms)));
    });
    state.borrow_mut().pending.insert(
        id,
        Pending {
            request: request.clone(),
            done: Box::new(done),
            timer: Some(timer),
        },
    );
    ensure_worker(lane);
    let s = state.borrow();
    if s.ready
        && let Some(w) = &s.worker
    {
        let _ = w.post_message(&JsValue::from_str(&request));
    }
    id
}

/// The hostile-input suite sets `window.__ihTrapNextJob = true` to make the next
/// job trap inside its worker (see [`Job::Trap`]); reading it clears it.
fn take_trap_flag() -> bool {
    let global = js_sys::global();
    let key = JsValue::from_str("__ihTrapNextJob");
    let set = js_sys::Reflect::get(&global, &key).is_ok_and(|v| v.is_truthy());
    if set {
        let _ = js_sys::Reflect::set(&global, &key, &JsValue::FALSE);
    }
    set
}

/// Stops job `id` (the reader pressed Stop, or it ran out of time): its
/// worker is replaced and the lane's other jobs are sent to the new one.
pub fn stop(lane: Lane, id: u64, why: Stopped) {
    let state = lane_state(lane);
    let Some(p) = state.borrow_mut().pending.remove(&id) else {
        return;
    };
    restart(lane);
    (p.done)(Err(why));
}

fn restart(lane: Lane) {
    let state = lane_state(lane);
    {
        let mut s = state.borrow_mut();
        if let Some(w) = s.worker.take() {
            w.terminate();
        }
        s.ready = false;
        s.on_message = None;
        s.on_error = None;
    }
    if !state.borrow().pending.is_empty() {
        ensure_worker(lane);
    }
}

fn ensure_worker(lane: Lane) {
    let state = lane_state(lane);
    if state.borrow().worker.is_some() {
        return;
    }
    let opts = web_sys::WorkerOptions::new();
    opts.set_type(web_sys::WorkerType::Module);
    let worker = match web_sys::Worker::new_with_options("/worker.js", &opts) {
        Ok(w) => w,
        Err(e) => {
            fail_all(lane, &format!("{e:?}"));
            return;
        }
    };
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let Some(text) = ev.data().as_string() else {
                return;
            };
            received(lane, &text);
        });
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
        let msg = ev
            .dyn_ref::<web_sys::ErrorEvent>()
            .map(|e| e.message())
            .unwrap_or_else(|| tr!(worker_no_load).to_owned());
        fail_all(lane, &msg);
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    // The first message is the workers' module, compiled once by the page;
    // the worker answers "ready", and jobs wait until then.
    match worker_module() {
        Ok(compiled) => {
            let sent_to = worker.clone();
            wasm_bindgen_futures::spawn_local(async move {
                match wasm_bindgen_futures::JsFuture::from(compiled).await {
                    Ok(module) => {
                        let _ = sent_to.post_message(&module);
                    }
                    // Only if this worker is still the lane's: a replaced
                    // one's jobs have gone to its successor.
                    Err(e) if is_current(lane, &sent_to) => {
                        let why = match e.dyn_ref::<js_sys::Error>() {
                            Some(err) => String::from(err.message()),
                            None => format!("{e:?}"),
                        };
                        fail_all(lane, &why);
                    }
                    Err(_) => {}
                }
            });
        }
        Err(e) => {
            fail_all(lane, &format!("{e:?}"));
            worker.terminate();
            return;
        }
    }
    let mut s = state.borrow_mut();
    s.worker = Some(worker);
    s.on_message = Some(on_message);
    s.on_error = Some(on_error);
}

/// `window.ihWorkerModule()` (web/page.js): a promise of the workers' compiled
/// wasm module (`pkg/app_worker_bg.wasm`), fetched and compiled once.
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = window, js_name = ihWorkerModule)]
    fn worker_module() -> Result<js_sys::Promise, JsValue>;
}

/// Whether `worker` is the one `lane` is using now.
fn is_current(lane: Lane, worker: &web_sys::Worker) -> bool {
    let state = lane_state(lane);
    let s = state.borrow();
    s.worker
        .as_ref()
        .is_some_and(|w| AsRef::<JsValue>::as_ref(w) == AsRef::<JsValue>::as_ref(worker))
}

/// No worker could start: every pending job of the lane ends with `why`
/// ([`Stopped::NoStart`]); the worker is dropped, and the next job starts
/// another.
fn fail_all(lane: Lane, why: &str) {
    let state = lane_state(lane);
    let pending = std::mem::take(&mut state.borrow_mut().pending);
    restart(lane);
    for (_, p) in pending {
        (p.done)(Err(Stopped::NoStart(why.to_owned())));
    }
}

fn received(lane: Lane, text: &str) {
    let state = lane_state(lane);
    if text == "ready" {
        let mut s = state.borrow_mut();
        s.ready = true;
        if let Some(w) = &s.worker {
            for p in s.pending.values() {
                let _ = w.post_message(&JsValue::from_str(&p.request));
            }
        }
        return;
    }
    // A trap: `{"id": n, "trap": "..."}` from the worker's script.
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(text)
        && let Some(trap) = v.get("trap").and_then(|t| t.as_str())
    {
        let id = v.get("id").and_then(serde_json::Value::as_u64).unwrap_or(0);
        stop(lane, id, Stopped::Crashed(trap.to_owned()));
        if id == 0 {
            fail_all(lane, trap);
        }
        return;
    }
    let Ok(resp) = serde_json::from_str::<Response>(text) else {
        return;
    };
    let p = state.borrow_mut().pending.remove(&resp.id);
    if let Some(mut p) = p {
        if let Some(t) = p.timer.take() {
            t.cancel();
        }
        (p.done)(Ok(resp.reply));
    }
}
