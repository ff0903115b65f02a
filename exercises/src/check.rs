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

/// One exercise's known solutions, from its folder (`build.rs` generates the list).
pub(crate) struct Known {
    /// `chapter/slug`.
    pub id: &'static str,
    /// `solution.rhai`.
    pub solution: &'static str,
    /// `wrong/*.rhai`, as `(wrong/<file>, source)`.
    pub wrong: &'static [(&'static str, &'static str)],
}

/// The exercise's known-good Rhai solution (`solution.rhai` in its folder; the
/// end-to-end tests type the same file into the browser).
pub fn known_good(id: &str) -> Option<&'static str> {
    // Without the file's last newline: the source as typed into the editor.
    crate::KNOWN
        .iter()
        .find(|k| k.id == id)
        .map(|k| k.solution.strip_suffix('\n').unwrap_or(k.solution))
}

/// The exercise's known-wrong Rhai solutions (`wrong/*.rhai` in its folder), as
/// `(file, source)`: plausible mistakes its cases must catch.
pub fn known_wrong(id: &str) -> &'static [(&'static str, &'static str)] {
    crate::KNOWN
        .iter()
        .find(|k| k.id == id)
        .map_or(&[], |k| k.wrong)
}

/// Every problem found in the book's content; empty when all is well.
pub fn problems() -> Vec<String> {
    let mut out = Vec::new();
    let all = crate::all();
    for (i, ex) in all.iter().enumerate() {
        if all[..i].iter().any(|e| e.id == ex.id) {
            out.push(format!("{}: duplicate id", ex.id));
        }
        if let Err(e) = ex.statement_markdown() {
            out.push(e);
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
    #[cfg(feature = "render")]
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

    /// Every statement's placeholders are computed by its reference, printed as the
    /// judge prints values; none is left behind.
    #[test]
    fn statements_substitute_their_worked_examples() {
        for ex in crate::all() {
            let md = ex.statement_markdown().unwrap_or_else(|e| panic!("{e}"));
            assert!(!md.contains("{{"), "{}: a placeholder is left", ex.id);
            assert!(
                ex.statement.contains("{{call("),
                "{}: no computed example",
                ex.id
            );
        }
        let md = |id: &str| crate::by_id(id).map(|e| e.statement_markdown());
        let has = |id: &str, text: &str| {
            let got = md(id).and_then(Result::ok).unwrap_or_default();
            assert!(got.contains(text), "{id}: `{text}` not in\n{got}");
        };
        has("ch_newmodels/attended", "is 640.");
        has("ch_newmodels/v4_kv", "`[3850.25, 15420416]`");
        has("ch_newmodels/kv_request", "`1468060672.0`");
        has(
            "ch_newmodels/compress_stream",
            "`#{entries: [[2.0]], partial: 1}`",
        );
        has(
            "ch_newmodels/hash_loads",
            "`[[2, 2, 1, 1], 1.3333333333333333]`",
        );
    }

    #[test]
    fn a_bad_placeholder_names_the_file_and_line() {
        let mut ex = crate::by_id("ch_newmodels/attended").expect("exists");
        ex.statement = "Example:\n{{call(1, 2)}}";
        let e = ex.statement_markdown().unwrap_err();
        assert!(
            e.starts_with("ch_newmodels/attended/statement.md line 2:"),
            "{e}"
        );
        assert!(e.contains("takes 4 arguments, got 2"), "{e}");
        ex.statement = "{{answer}}";
        assert!(
            ex.statement_markdown()
                .unwrap_err()
                .contains("unknown placeholder")
        );
        ex.statement = "{{call(1.5, 4, 0, 128)}}";
        let e = ex.statement_markdown().unwrap_err();
        assert!(e.contains("the reference fails"), "{e}");
    }

    /// Every exercise's known-wrong solutions (`wrong/*.rhai`) fail on a case, so
    /// weak tests are noticed.
    #[cfg(feature = "script")]
    #[test]
    fn known_wrong_solutions_fail() {
        for ex in crate::all() {
            let wrong = known_wrong(ex.id);
            assert!(!wrong.is_empty(), "{}: no wrong/*.rhai", ex.id);
            for (file, src) in wrong {
                let (v, _) = crate::grade_rhai(&ex, src, judge::script::Limits::default(), None);
                // A wrong value, or an error raised while running a case: never code that
                // does not even load (a typo in the wrong solution would prove nothing).
                let ran = v.status == Status::Failed
                    || (v.status == Status::Error && v.message.starts_with("case "));
                assert!(
                    ran,
                    "{}/{file}: a wrong solution should fail on a case ({}: {})",
                    ex.id,
                    v.status.label(),
                    v.message
                );
                println!("{}/{file}: {}", ex.id, v.message);
            }
        }
    }

    /// Every exercise's known-good solution (`solution.rhai`) passes every case,
    /// and its starter is "not attempted".
    #[cfg(feature = "script")]
    #[test]
    fn known_good_solutions_pass_and_starters_are_not_attempted() {
        for ex in crate::all() {
            let src = known_good(ex.id).unwrap_or_else(|| panic!("{}: no solution.rhai", ex.id));
            let (v, _) = crate::grade_rhai(&ex, src, judge::script::Limits::default(), None);
            assert_eq!(v.status, Status::Passed, "{}: {}", ex.id, v.message);
            assert_eq!(v.passed, v.total, "{}", ex.id);
            let (v, _) =
                crate::grade_rhai(&ex, ex.starter_rhai, judge::script::Limits::default(), None);
            assert_eq!(v.status, Status::NotAttempted, "{}: starter", ex.id);
        }
        assert_eq!(crate::KNOWN.len(), crate::all().len());
    }

    /// Every chapter's practice folder offers its exercises with the same starters as
    /// the book.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn the_practice_folder_matches_the_starters() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for ch in chapters::all().iter().map(|c| c.id) {
            let dir = root.join("practice").join(ch);
            let read = |p: std::path::PathBuf| {
                std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
            };
            let lib = read(dir.join("src/lib.rs"));
            let main = read(dir.join("src/main.rs"));
            let readme = read(dir.join("README.md"));
            for ex in crate::for_chapter(ch) {
                let slug = ex.slug();
                assert_eq!(
                    read(dir.join(format!("{slug}.rhai"))),
                    ex.starter_rhai,
                    "{slug}.rhai"
                );
                assert_eq!(
                    read(dir.join(format!("src/{slug}.rs"))),
                    ex.starter_rust,
                    "src/{slug}.rs"
                );
                assert!(
                    lib.contains(&format!("pub mod {slug};")),
                    "src/lib.rs: {slug}"
                );
                assert!(
                    main.contains(&format!("(\"{}\", ", ex.function)),
                    "src/main.rs: {slug}"
                );
                assert!(
                    readme.contains(&format!("| {} |", ex.id)),
                    "README.md: {slug}"
                );
            }
        }
    }
}
