//! Native timings: every demo at its default parameters and every exercise's
//! reference solution graded through Rhai-free grading and the Rhai sandbox.
//! `cargo run --release -p exercises --example bench` (part of `cargo xtask
//! bench`, which builds it in the workers' module's profile, so that a cell's
//! browser/native ratio compares the same code built the same way).

use std::time::Instant;

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

fn main() {
    println!("native, median of 9 runs");
    for d in chapters::all_demos() {
        let raw = chapters::demo::defaults(d.params);
        let ms = median_ms(
            || {
                let _ = (d.run)(&raw, chapters::Lang::En);
            },
            9,
        );
        println!("cell {:<12} {ms:>8.2} ms", d.id);
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
