//! The mutation check (#28): for every exercise in the registry, each one-token
//! mutant of its `solution.rhai` (`exercises::mutate`) is graded on all its cases
//! (public, hidden, generated) by the judge's native grader with its default
//! limits. A mutant that passes every case must be listed in the exercise's
//! `exercise.toml` under `[[equivalent]]`, with a reason; a listed mutant that
//! some case kills fails the check too, so the list stays true. A mutant that
//! errors, loops or does not compile counts as killed.
//!
//! `cargo test -p exercises --test mutants -- --nocapture` prints the totals.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used)] // tests

#[path = "../build/manifest.rs"]
#[allow(dead_code)]
mod manifest;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use exercises::mutate::{self, Mutant};
use judge::Status;
use judge::script::Limits;

/// Each exercise's `[[equivalent]]` list, by id, from the exercise folders.
fn equivalents() -> BTreeMap<String, Vec<manifest::Equivalent>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../chapters/src");
    let book: Vec<String> = chapters::all().iter().map(|c| c.id.to_owned()).collect();
    manifest::load(&src, &book)
        .unwrap()
        .into_iter()
        .map(|f| (format!("{}/{}", f.chapter, f.slug), f.manifest.equivalent))
        .collect()
}

/// What grading one mutant gave.
struct Graded {
    exercise: usize,
    mutant: Mutant,
    status: Status,
}

#[test]
fn every_mutant_of_every_solution_is_killed_or_listed() {
    let started = std::time::Instant::now();
    let all = exercises::all();
    let listed = equivalents();
    let jobs: Vec<(usize, Mutant)> = all
        .iter()
        .enumerate()
        .flat_map(|(i, ex)| {
            let solution = exercises::known::known_good(ex.id).unwrap();
            mutate::mutants(solution).into_iter().map(move |m| (i, m))
        })
        .collect();
    let next = AtomicUsize::new(0);
    let graded = Mutex::new(Vec::with_capacity(jobs.len()));
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some((i, m)) = jobs.get(k) else { break };
                    let (v, _) =
                        exercises::grade_rhai(&all[*i], &m.source, Limits::default(), None);
                    graded.lock().unwrap().push(Graded {
                        exercise: *i,
                        mutant: m.clone(),
                        status: v.status,
                    });
                }
            });
        }
    });
    let mut graded = graded.into_inner().unwrap();
    graded.sort_by_key(|g| (g.exercise, g.mutant.line, g.mutant.column));

    let mut problems = Vec::new();
    let (mut killed, mut equivalent, mut not_compiling) = (0, 0, 0);
    for (i, ex) in all.iter().enumerate() {
        let list = listed.get(ex.id).map_or(&[][..], Vec::as_slice);
        let mine: Vec<&Graded> = graded.iter().filter(|g| g.exercise == i).collect();
        for g in &mine {
            let d = g.mutant.description();
            let is_listed = list.iter().any(|e| e.mutant == d);
            match (g.status == Status::Passed, is_listed) {
                (true, true) => equivalent += 1,
                (true, false) => problems.push(format!(
                    "{}: mutant survives every case: {d}\n    add a case that kills it, or list it under [[equivalent]] with a reason",
                    ex.id
                )),
                (false, true) => problems.push(format!(
                    "{}: [[equivalent]] mutant is killed ({:?}): {d}\n    remove it from exercise.toml",
                    ex.id, g.status
                )),
                (false, false) => killed += 1,
            }
            if g.status == Status::Error
                && judge::script::RhaiSolver::new(
                    &g.mutant.source,
                    ex.function,
                    ex.params.len(),
                    Limits::default(),
                    None,
                )
                .is_err()
            {
                not_compiling += 1;
            }
        }
        for e in list {
            if !mine.iter().any(|g| g.mutant.description() == e.mutant) {
                problems.push(format!(
                    "{}: [[equivalent]] mutant `{}` is not a mutant of solution.rhai",
                    ex.id, e.mutant
                ));
            }
        }
    }
    println!(
        "mutation check: {} exercises, {} mutants: {killed} killed, {equivalent} listed as equivalent ({not_compiling} did not compile), in {:.1} s",
        all.len(),
        graded.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
