//! Shrinking a failing generated case (#29): for each exercise with seeded
//! cases, a known-wrong solution that fails one is graded, and the verdict's
//! smallest failing input must still fail the same way, be no larger than the
//! case it came from, and be what the batched search (Python's and Rust's,
//! `judge::shrink::Rounds`) finds too.

use judge::script::{Limits, RhaiSolver};
use judge::shrink::input_size;
use judge::{Kind, Solver, Status, Value, compare};

#[test]
fn a_failing_seeded_case_of_each_exercise_shrinks_to_a_failing_input_no_larger() {
    let mut report = Vec::new();
    let mut missing = Vec::new();
    let mut most_rounds = 0;
    for ex in exercises::all() {
        let spec = ex.spec();
        if !spec
            .cases
            .iter()
            .any(|c| matches!(c.kind, Kind::Generated { .. }))
        {
            continue;
        }
        let mut shrunk_one = false;
        for (file, src) in exercises::known::known_wrong(ex.id) {
            let t0 = std::time::Instant::now();
            let (v, _) = exercises::grade_rhai_recorded(&ex, src, Limits::default(), None, None);
            let ms = t0.elapsed().as_millis();
            let seeded_failed = v
                .cases
                .iter()
                .any(|c| !c.passed && matches!(c.kind, Kind::Generated { .. }));
            let Some(s) = v.shrunk.as_deref() else {
                // Only a limit or a `todo` may go unshrunk.
                if seeded_failed {
                    let first = v
                        .cases
                        .iter()
                        .find(|c| !c.passed && matches!(c.kind, Kind::Generated { .. }))
                        .unwrap();
                    assert!(
                        first.error.is_some() && first.actual.is_none(),
                        "{}/{file}: a seeded case failed with a value, but nothing was shrunk",
                        ex.id
                    );
                }
                continue;
            };
            let original = &spec.cases[s.case - 1];
            assert!(matches!(original.kind, Kind::Generated { seed } if seed == s.seed));
            assert!(
                input_size(&s.input) <= input_size(&original.args),
                "{}/{file}: shrunk {:?} is larger than case {} {:?}",
                ex.id,
                s.input,
                s.case,
                original.args
            );
            // Still fails the same way: the answer run again on it.
            let expected = (ex.reference)(&s.input).expect("the reference accepts it");
            assert_eq!(expected, s.expected, "{}/{file}", ex.id);
            let mut solver =
                RhaiSolver::new(src, ex.function, ex.params.len(), Limits::default(), None)
                    .unwrap();
            let got = solver.call(&s.input);
            match (&got, &s.actual) {
                (Ok(g), Some(a)) => {
                    // As printed: a NaN is not equal to itself.
                    assert_eq!(format!("{g:?}"), format!("{a:?}"), "{}/{file}", ex.id);
                    assert!(
                        compare(g, &expected, ex.tolerance).is_err(),
                        "{}/{file}: the shrunk input passes",
                        ex.id
                    );
                }
                (Err(e), None) => assert_eq!(e.status(), Status::Error, "{}/{file}", ex.id),
                _ => panic!("{}/{file}: {got:?} vs {s:?}", ex.id),
            }
            // The batched search (a Python or Rust answer's, a round of
            // inputs per run) ends on the same case: the round count never
            // binds before the budget does.
            let mut rounds = judge::shrink::Rounds::start(&spec, &v).unwrap();
            let mut n = 0;
            loop {
                let asked = rounds.ask(&spec);
                if asked.is_empty() {
                    break;
                }
                n += 1;
                let outs = asked.iter().map(|a| solver.call(a)).collect();
                rounds.answer(&spec, outs);
            }
            assert_eq!(
                format!("{:?}", rounds.finish()),
                format!("{:?}", v.shrunk),
                "{}/{file}: the batched search after {n} rounds",
                ex.id
            );
            most_rounds = most_rounds.max(n);
            // And it shows in JSON.
            let json = serde_json::to_value(&v).unwrap();
            assert_eq!(json["shrunk"]["case"], s.case);
            report.push(format!(
                "{}/{file}: case {} {} -> {} ({} ms grading)",
                ex.id,
                s.case,
                show(&original.args),
                show(&s.input),
                ms
            ));
            shrunk_one = true;
        }
        if !shrunk_one {
            missing.push(ex.id);
        }
    }
    println!("{}", report.join("\n"));
    println!(
        "{} known-wrong solutions shrunk; the batched search found the same case for each, in at most {most_rounds} rounds",
        report.len()
    );
    assert!(
        missing.is_empty(),
        "no known-wrong solution of these exercises fails a seeded case with a shrinkable failure: {missing:?}"
    );
}

fn show(args: &[Value]) -> String {
    args.iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}
