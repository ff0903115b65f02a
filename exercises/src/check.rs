//! The content checker: proves the book's exercises and directives are sound.
//! Runs in the tests (`cargo test -p exercises`).

use judge::{Status, Verdict};

use crate::Exercise;

/// Grades the reference solution itself as if a learner had written it.
pub fn grade_reference(ex: &Exercise) -> Verdict {
    struct Reference(fn(&[judge::Value]) -> Result<judge::Value, String>);
    impl judge::Solver for Reference {
        fn call(&mut self, args: &[judge::Value]) -> Result<judge::Value, judge::SolverError> {
            (self.0)(args).map_err(judge::SolverError::Runtime)
        }
    }
    judge::grade(&ex.spec(), &mut Reference(ex.reference))
}

/// Every problem found in the book's content; empty when all is well.
pub fn problems() -> Vec<String> {
    let mut out = Vec::new();
    let all = crate::all();
    for (i, ex) in all.iter().enumerate() {
        if all[..i].iter().any(|e| e.id == ex.id) {
            out.push(format!("{}: duplicate id", ex.id));
        }
        if ex.hints.is_empty() {
            out.push(format!("{}: no hints", ex.id));
        }
        let cases = (ex.cases)();
        if !cases.iter().any(|c| c.kind == judge::Kind::Public) {
            out.push(format!("{}: no public case", ex.id));
        }
        if !cases.iter().any(|c| c.kind == judge::Kind::Hidden) {
            out.push(format!("{}: no hidden case", ex.id));
        }
        let v = grade_reference(ex);
        if v.status != Status::Passed {
            out.push(format!(
                "{}: reference does not pass its own cases: {}",
                ex.id, v.message
            ));
        }
        #[cfg(feature = "script")]
        {
            let (v, _) =
                crate::grade_rhai(ex, ex.starter_rhai, judge::script::Limits::default(), None);
            if v.status == Status::Passed {
                out.push(format!("{}: the Rhai starter passes", ex.id));
            }
            let edited = format!("{}\n// edited\n", ex.starter_rhai);
            let (v, _) = crate::grade_rhai(ex, &edited, judge::script::Limits::default(), None);
            if v.status != Status::NotAttempted {
                out.push(format!(
                    "{}: the Rhai starter should reach todo(), got {}",
                    ex.id,
                    v.status.label()
                ));
            }
        }
        if !ex.starter_rust.contains("todo!()") {
            out.push(format!("{}: the Rust starter has no todo!()", ex.id));
        }
    }
    for ch in chapters::all() {
        let doc = match ch.doc() {
            Ok(d) => d,
            Err(e) => {
                out.push(format!("{} {e}", ch.repo_path));
                continue;
            }
        };
        for b in &doc.blocks {
            match b {
                chapters::doc::Block::Cell { id, line } if chapters::demo(id).is_none() => {
                    out.push(format!("{} line {line}: unknown cell `{id}`", ch.repo_path));
                }
                chapters::doc::Block::Exercise { id, line } if crate::by_id(id).is_none() => {
                    out.push(format!(
                        "{} line {line}: unknown exercise `{id}`",
                        ch.repo_path
                    ));
                }
                _ => {}
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_content_is_sound() {
        let p = problems();
        assert!(p.is_empty(), "content problems:\n{}", p.join("\n"));
    }

    /// Plausible wrong answers that the cases must catch (so weak tests are noticed).
    #[cfg(feature = "script")]
    #[test]
    fn known_wrong_solutions_fail() {
        let wrong: &[(&str, &str)] = &[
            (
                "ch_newmodels/attended",
                "fn attended(pos, ratio, topk, window) { window + (pos + 1) / ratio }",
            ),
            (
                "ch_newmodels/attended",
                "fn attended(pos, ratio, topk, window) { let w = if pos + 1 < window { pos + 1 } else { window }; if ratio <= 1 { return w; } w + (pos + 1) / ratio }",
            ),
            (
                "ch_newmodels/attended",
                "fn attended(pos, ratio, topk, window) { let w = if pos < window { pos } else { window }; if ratio <= 1 { return w; } let d = pos / ratio; w + if topk > 0 && d > topk { topk } else { d } }",
            ),
        ];
        for (id, src) in wrong {
            let ex = crate::by_id(id).unwrap();
            let (v, _) = crate::grade_rhai(&ex, src, judge::script::Limits::default(), None);
            assert!(
                matches!(v.status, Status::Failed | Status::Error),
                "{id} accepted a wrong solution:\n{src}"
            );
        }
    }

    #[cfg(feature = "script")]
    #[test]
    fn a_correct_rhai_solution_passes() {
        let ex = crate::by_id("ch_newmodels/attended").unwrap();
        let src = "fn attended(pos, ratio, topk, window) {
            let swa = if window < pos + 1 { window } else { pos + 1 };
            if ratio <= 1 { return swa; }
            let done = (pos + 1) / ratio;
            swa + if topk > 0 && done > topk { topk } else { done }
        }";
        let (v, _) = crate::grade_rhai(&ex, src, judge::script::Limits::default(), None);
        assert_eq!(v.status, Status::Passed, "{}", v.message);
    }
}
