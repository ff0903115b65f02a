//! Grading Python solutions: `<slug>.py` in the practice folder, run by the
//! learner's Python 3.9 or newer (`python3`, or the program `JUDGE_PYTHON`
//! names) with the judge's harness (`judge::python::HARNESS`), in a child
//! process with the Rust path's limits (`child`).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use exercises::Exercise;
use judge::{Answer, CodeError, Lang, LimitHit, SolverError, Value, Verdict};

use crate::child::{self, Limits};
use crate::words::errors;

/// The Python named: `JUDGE_PYTHON`, else `python3`.
fn named() -> OsString {
    std::env::var_os("JUDGE_PYTHON")
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| "python3".into())
}

/// The named Python's own program (`sys.executable`), once
/// [`check_interpreter`] has asked it.
static RESOLVED: std::sync::OnceLock<OsString> = std::sync::OnceLock::new();

/// The Python to run: the program behind `JUDGE_PYTHON` or `python3` once
/// [`check_interpreter`] has found it (a version manager's shim costs about
/// 50 ms a start here, and a shrink starts Python up to
/// [`judge::shrink::ROUNDS`] times), else the name.
pub fn interpreter() -> OsString {
    RESOLVED.get().cloned().unwrap_or_else(named)
}

/// Where the harness is written for this process's runs.
fn harness_path() -> std::io::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("judge-python-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let path = dir.join("harness.py");
    if std::fs::read_to_string(&path).ok().as_deref() != Some(judge::python::HARNESS) {
        std::fs::write(&path, judge::python::HARNESS)?;
    }
    Ok(path)
}

/// Removes what [`harness_path`] wrote.
pub fn clean_up() {
    let _ = std::fs::remove_dir_all(
        std::env::temp_dir().join(format!("judge-python-{}", std::process::id())),
    );
}

/// Whether Python can be started at all: the error to give every `.py` file
/// when it cannot.
pub fn check_interpreter() -> Result<(), CodeError> {
    let python = named();
    let tried = python.to_string_lossy().into_owned();
    match std::process::Command::new(&python)
        .arg("-c")
        .arg("import sys; print('%d.%d.%d' % sys.version_info[:3]); print(sys.executable)")
        .stdin(std::process::Stdio::null())
        .output()
    {
        Err(e) => Err(CodeError::NoPython {
            tried,
            reason: e.to_string(),
        }),
        Ok(out) if !out.status.success() => Err(CodeError::NoPython {
            tried,
            reason: String::from_utf8_lossy(&out.stderr).trim().to_owned(),
        }),
        Ok(out) => {
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            let mut lines = text.lines();
            let version = lines.next().unwrap_or_default().trim().to_owned();
            if let Some(exe) = lines.next().map(str::trim).filter(|e| !e.is_empty())
                && Path::new(exe).is_file()
            {
                let _ = RESOLVED.set(exe.into());
            }
            let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
            let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
            if (major, minor) < (3, 9) {
                Err(CodeError::OldPython { version })
            } else {
                Ok(())
            }
        }
    }
}

/// Grades `file` (the learner's `<slug>.py`) for `ex`. `python` is the result
/// of [`check_interpreter`], checked once per folder.
pub fn grade_file(
    file: &Path,
    ex: &Exercise,
    limits: Limits,
    python: &Result<(), CodeError>,
    lang: Lang,
) -> Verdict {
    grade_file_recorded(file, ex, limits, python, lang).0
}

/// [`grade_file`], and each case's reply in the order graded.
pub fn grade_file_recorded(
    file: &Path,
    ex: &Exercise,
    limits: Limits,
    python: &Result<(), CodeError>,
    lang: Lang,
) -> (Verdict, Vec<Result<Value, SolverError>>) {
    let spec = ex.spec();
    let name = format!("{}.py", ex.slug());
    if let Err(e) = python {
        return (
            Verdict::without_cases(&spec, SolverError::Code(e.clone())),
            Vec::new(),
        );
    }
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) => {
            return (
                Verdict::without_cases(
                    &spec,
                    SolverError::Compile(format!("{}: {e}", file.display())),
                ),
                Vec::new(),
            );
        }
    };
    let max = judge::script::Limits::default().max_source;
    if bytes.len() > max {
        return (
            Verdict::without_cases(
                &spec,
                SolverError::Sandbox(LimitHit::File {
                    file: name,
                    bytes: bytes.len(),
                    limit: max,
                }),
            ),
            Vec::new(),
        );
    }
    if let Err(e) = std::str::from_utf8(&bytes) {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        return (
            Verdict::without_cases(
                &spec,
                SolverError::Code(CodeError::NotUtf8 {
                    file: name,
                    offset: e.valid_up_to(),
                    line,
                }),
            ),
            Vec::new(),
        );
    }
    let harness = match harness_path() {
        Ok(h) => h,
        Err(e) => {
            return (
                Verdict::without_cases(
                    &spec,
                    SolverError::Runtime(errors::no_harness { error: e }.text(lang)),
                ),
                Vec::new(),
            );
        }
    };
    let arity = ex.params.len().to_string();
    let python = interpreter();
    // -I: no user site-packages, no PYTHON* variables, no current folder on the
    // path; -X utf8: prints in UTF-8 whatever the locale.
    let args: [&OsStr; 7] = [
        OsStr::new("-I"),
        OsStr::new("-X"),
        OsStr::new("utf8"),
        harness.as_os_str(),
        file.as_os_str(),
        OsStr::new(ex.function),
        OsStr::new(&arity),
    ];
    let ctx = child::Context {
        file: &name,
        function: ex.function,
        arity: ex.params.len(),
        limits,
        answer: Answer::Python,
        lang,
    };
    child::grade_recorded(&python, &args, ex, &spec, ctx)
}

/// The known-wrong Python solutions (`wrong/*.py`): their outputs are
/// recorded for the judge to name them (`exercises::mistakes`), and each is
/// recognised from its own verdict. Needs `python3`, as the CLI's other
/// Python tests do.
#[cfg(test)]
mod tests {
    use super::*;
    use exercises::mistakes::{self, Recorded};

    /// A known-wrong Python solution graded: its exercise, file, verdict and
    /// outcomes.
    type Graded = (
        Exercise,
        &'static str,
        Verdict,
        Vec<Result<Value, SolverError>>,
    );

    /// Each known-wrong Python solution graded.
    fn graded() -> Vec<Graded> {
        let python = check_interpreter();
        assert_eq!(python, Ok(()), "these tests need python3");
        let dir = std::env::temp_dir().join(format!("judge-wrong-py-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let mut out = Vec::new();
        for ex in exercises::all() {
            for (file, src) in exercises::known::known_wrong_python(ex.id) {
                let path = dir.join(format!("{}.py", ex.slug()));
                std::fs::write(&path, src).expect("writes the answer");
                let (v, outcomes) =
                    grade_file_recorded(&path, &ex, Limits::default(), &python, Lang::En);
                out.push((ex.clone(), *file, v, outcomes));
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        clean_up();
        out
    }

    /// The recording (`exercises/wrong_outputs.jsonl`) holds what the
    /// known-wrong Python solutions give; `UPDATE_WRONG_OUTPUTS=1` rewrites
    /// its Python lines. Then each is recognised from its own verdict, and no
    /// correct `solution.py` is ever taken for a mistake.
    #[test]
    fn wrong_python_outputs_are_recorded_and_recognised() {
        let all = graded();
        let now: Vec<Recorded> = all
            .iter()
            .map(|(ex, file, v, outcomes)| Recorded::of(ex.id, file, v, outcomes))
            .collect();
        if std::env::var_os("UPDATE_WRONG_OUTPUTS").is_some() {
            let old = std::fs::read_to_string(mistakes::RECORDED_PATH).unwrap_or_default();
            std::fs::write(mistakes::RECORDED_PATH, mistakes::merged(&old, ".py", &now))
                .expect("writes wrong_outputs.jsonl");
            return;
        }
        let stale = mistakes::stale(".py", &now);
        assert!(
            stale.is_empty(),
            "wrong_outputs.jsonl is stale (re-record with UPDATE_WRONG_OUTPUTS=1 cargo test -p judge-cli):\n{}",
            stale.join("\n")
        );
        let (mut recognised, mut own) = (0, 0);
        for (ex, file, v, outcomes) in &all {
            let stem = file.trim_start_matches("wrong/").trim_end_matches(".py");
            assert!(ex.mistake_in(stem, Lang::En).is_some(), "{}/{file}", ex.id);
            assert!(ex.mistake_in(stem, Lang::Zh).is_some(), "{}/{file}", ex.id);
            let candidates = mistakes::candidates(ex, v, outcomes, Answer::Python);
            let named = v.misconception.as_ref().map(|m| m.id.as_str());
            assert!(
                named.is_some() && candidates.iter().any(|c| c == stem),
                "{}/{file}: not recognised from its verdict ({named:?}, {candidates:?})",
                ex.id
            );
            recognised += 1;
            if named == Some(stem) {
                own += 1;
            }
            if candidates.len() > 1 {
                println!(
                    "  indistinguishable: {}: {stem} is told as {} (the same results: {})",
                    ex.id,
                    named.unwrap_or_default(),
                    candidates.join(", ")
                );
            }
        }
        println!(
            "recognised {recognised} of {} known-wrong Python solutions from their verdicts ({own} by their own name)",
            all.len()
        );
        // A correct answer is never taken for a mistake.
        let python = check_interpreter();
        let dir = std::env::temp_dir().join(format!("judge-good-py-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        for ex in exercises::all() {
            let src = exercises::known::known_good_python(ex.id).expect("solution.py");
            let path = dir.join(format!("{}.py", ex.slug()));
            std::fs::write(&path, src).expect("writes the answer");
            let v = grade_file(&path, &ex, Limits::default(), &python, Lang::En);
            assert_eq!(v.misconception, None, "{}: solution.py", ex.id);
        }
        let _ = std::fs::remove_dir_all(&dir);
        clean_up();
    }
}
