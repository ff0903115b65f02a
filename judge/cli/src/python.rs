//! Grading Python solutions: `<slug>.py` in the practice folder, run by the
//! learner's Python 3.9 or newer (`python3`, or the program `JUDGE_PYTHON`
//! names) with the judge's harness (`judge::python::HARNESS`), in a child
//! process with the Rust path's limits (`child`).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use exercises::Exercise;
use judge::{Answer, CodeError, Lang, LimitHit, SolverError, Verdict};

use crate::child::{self, Limits};
use crate::words::errors;

/// The Python to run: `JUDGE_PYTHON`, else `python3`.
pub fn interpreter() -> OsString {
    std::env::var_os("JUDGE_PYTHON")
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| "python3".into())
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
    let python = interpreter();
    let tried = python.to_string_lossy().into_owned();
    match std::process::Command::new(&python)
        .arg("-c")
        .arg("import sys; print('%d.%d.%d' % sys.version_info[:3])")
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
            let version = String::from_utf8_lossy(&out.stdout).trim().to_owned();
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
    let spec = ex.spec();
    let name = format!("{}.py", ex.slug());
    if let Err(e) = python {
        return Verdict::without_cases(&spec, SolverError::Code(e.clone()));
    }
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) => {
            return Verdict::without_cases(
                &spec,
                SolverError::Compile(format!("{}: {e}", file.display())),
            );
        }
    };
    let max = judge::script::Limits::default().max_source;
    if bytes.len() > max {
        return Verdict::without_cases(
            &spec,
            SolverError::Sandbox(LimitHit::File {
                file: name,
                bytes: bytes.len(),
                limit: max,
            }),
        );
    }
    if let Err(e) = std::str::from_utf8(&bytes) {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        return Verdict::without_cases(
            &spec,
            SolverError::Code(CodeError::NotUtf8 {
                file: name,
                offset: e.valid_up_to(),
                line,
            }),
        );
    }
    let harness = match harness_path() {
        Ok(h) => h,
        Err(e) => {
            return Verdict::without_cases(
                &spec,
                SolverError::Runtime(errors::no_harness { error: e }.text(lang)),
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
    let cmd = child::sandboxed(&python, &args, limits);
    let ctx = child::Context {
        file: &name,
        function: ex.function,
        arity: ex.params.len(),
        limits,
        answer: Answer::Python,
        lang,
    };
    child::grade(cmd, &spec, ctx)
}
