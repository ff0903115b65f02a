//! Native timings: every demo at its default parameters and every exercise's
//! reference solution graded through Rhai-free grading and the Rhai sandbox.
//! `cargo run --release -p exercises --example bench` (part of `cargo xtask
//! bench`, which builds it in the workers' module's profile, so that a cell's
//! browser/native ratio compares the same code built the same way).
//!
//! With `--cells`, it prints one JSON line instead: for each cell, the
//! request the page's worker gets for a run at the defaults and the time
//! that request takes through [`exercises::jobs::handle`], the function the
//! workers' module exports (parse, run, reply). `e2e/bench.mjs` runs it
//! between its own rounds of the same requests through the wasm module, so
//! each ratio pairs two measurements taken a few seconds apart.

use std::rc::Rc;
use std::time::{Duration, Instant};

fn median_ms(mut f: impl FnMut(), runs: usize) -> f64 {
    let mut t: Vec<f64> = (0..runs)
        .map(|_| {
            let t0 = Instant::now();
            f();
            t0.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

/// A warmed-up run's time: runs for [`WARM_UP`] (at least 3 runs), then the
/// median of [`ROUNDS`] batch means, each batch lasting at least [`BATCH`].
/// `e2e/bench.mjs` measures the wasm module the same way (a batch's mean is
/// exact where one run is shorter than the browser clock's 0.1 ms step).
fn batch_mean_ms(mut f: impl FnMut()) -> f64 {
    let t0 = Instant::now();
    let mut n = 0;
    while t0.elapsed() < WARM_UP || n < 3 {
        f();
        n += 1;
    }
    let mut means: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let t0 = Instant::now();
            let mut n = 0u32;
            while t0.elapsed() < BATCH {
                f();
                n += 1;
            }
            t0.elapsed().as_secs_f64() * 1e3 / f64::from(n)
        })
        .collect();
    means.sort_by(f64::total_cmp);
    means[means.len() / 2]
}

const WARM_UP: Duration = Duration::from_millis(300);
const BATCH: Duration = Duration::from_millis(100);
const ROUNDS: usize = 5;

/// The request a cell's run at its defaults sends to the worker.
fn request(d: &chapters::demo::Demo) -> String {
    serde_json::json!({
        "id": 1,
        "job": { "demo": { "demo": d.id, "params": chapters::demo::defaults(d.params) } },
    })
    .to_string()
}

fn main() {
    let clock_start = Instant::now();
    let now: Rc<dyn Fn() -> f64> = Rc::new(move || clock_start.elapsed().as_secs_f64() * 1e3);
    if std::env::args().any(|a| a == "--cells") {
        let cells: Vec<serde_json::Value> = chapters::all_demos()
            .iter()
            .map(|d| {
                let request = request(d);
                let ms = batch_mean_ms(|| {
                    std::hint::black_box(exercises::jobs::handle(&request, &now));
                });
                serde_json::json!({ "id": d.id, "request": request, "ms": ms })
            })
            .collect();
        println!("{}", serde_json::Value::Array(cells));
        return;
    }
    println!(
        "native; cells: the worker's request at the defaults, warmed up, median of {ROUNDS} batch means; grading: median of 9 runs"
    );
    for d in chapters::all_demos() {
        let request = request(&d);
        let ms = batch_mean_ms(|| {
            std::hint::black_box(exercises::jobs::handle(&request, &now));
        });
        println!("cell {:<12} {ms:>8.3} ms", d.id);
    }
    for ex in exercises::all() {
        let ms = median_ms(
            || {
                let _ = exercises::check::grade_reference(&ex);
            },
            9,
        );
        println!("grade {:<30} {ms:>8.2} ms (reference, all cases)", ex.id);
    }
}
