//! Grading Rust solutions: build the practice package with the learner's cargo,
//! then run its binary once per exercise (a child process in its own process
//! group, with a timeout and a memory limit: `child`) speaking the
//! `judge::harness` protocol.
//!
//! A module that does not compile is reported once, in the exercise it belongs
//! to; the package is then rebuilt in a shadow copy with that module replaced by
//! its starter, so every other exercise keeps its own verdict.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use exercises::Exercise;
use judge::{Answer, CodeError, Lang, SolverError, Verdict};

use crate::child::{self, Limits};
use crate::words::errors;

/// Shadow rebuilds tried before a package is called uncompilable.
const MAX_REBUILDS: usize = 3;

/// The outcome for a package: a build error that concerns the whole package
/// (shown once), and a verdict per exercise.
pub struct PackageResult {
    /// The compiler's errors that no single exercise owns.
    pub build_error: Option<String>,
    /// One verdict per exercise, in order, with the time its process ran.
    pub verdicts: Vec<(Verdict, Duration)>,
}

/// Grades every exercise through the folder's Cargo package.
pub fn grade_package(folder: &Path, exs: &[Exercise], limits: Limits, lang: Lang) -> PackageResult {
    let built = build_isolating(folder, exs, lang);
    let _ = std::fs::remove_dir_all(shadow_root());
    let (bin, broken) = match built {
        Err(whole) => {
            let first = whole.lines().find(|l| l.starts_with("error")).map_or_else(
                || errors::see_compiler.as_str(lang).to_owned(),
                str::to_owned,
            );
            let verdicts = exs
                .iter()
                .map(|ex| {
                    let e = SolverError::Code(CodeError::PackageBroken {
                        first: first.clone(),
                    });
                    (Verdict::without_cases(&ex.spec(), e), Duration::ZERO)
                })
                .collect();
            return PackageResult {
                build_error: Some(whole),
                verdicts,
            };
        }
        Ok(b) => b,
    };
    let verdicts = exs
        .iter()
        .map(|ex| {
            let t0 = Instant::now();
            let v = match broken.get(ex.slug()) {
                Some(errors) => Verdict::without_cases(
                    &ex.spec(),
                    SolverError::Code(CodeError::ModuleBroken {
                        slug: ex.slug().to_owned(),
                        errors: errors.clone(),
                    }),
                ),
                None => grade_one(&bin, ex, limits, lang),
            };
            (v, t0.elapsed())
        })
        .collect();
    PackageResult {
        build_error: None,
        verdicts,
    }
}

/// One compiler error: the file its primary span is in, and its text.
struct Diag {
    file: Option<String>,
    line: usize,
    rendered: String,
}

/// Builds the package; when modules fail to compile, rebuilds a shadow copy with
/// them replaced by their starters. Returns the binary and, per broken
/// exercise slug, its compile errors; or the errors no exercise owns.
fn build_isolating(
    folder: &Path,
    exs: &[Exercise],
    lang: Lang,
) -> Result<(PathBuf, BTreeMap<String, String>), String> {
    let mut broken: BTreeMap<String, String> = BTreeMap::new();
    let mut dir = folder.to_path_buf();
    for _ in 0..=MAX_REBUILDS {
        let diags = match cargo_build(&dir, folder, dir != folder, lang)? {
            Ok(bin) => return Ok((bin, broken)),
            Err(d) => d,
        };
        let main_rs = std::fs::read_to_string(dir.join("src/main.rs")).unwrap_or_default();
        let mut owned: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut orphans = Vec::new();
        for d in diags {
            match owner(&d, exs, &main_rs) {
                Some(slug) if !broken.contains_key(slug) => {
                    owned.entry(slug.to_owned()).or_default().push(d.rendered)
                }
                _ => orphans.push(d.rendered),
            }
        }
        if !orphans.is_empty() || owned.is_empty() {
            let mut all: Vec<String> = orphans;
            all.extend(owned.into_values().flatten());
            return Err(all.join("\n").trim_end().to_owned());
        }
        for (slug, errs) in owned {
            broken.insert(slug, errs.join("\n").trim_end().to_owned());
        }
        dir = shadow_copy(folder, exs, &broken).map_err(|e| format!("judge: {e}"))?;
    }
    Err(errors::still_broken.as_str(lang).to_owned())
}

/// Which exercise owns an error: `src/<slug>.rs`, or the dispatch entry of
/// `src/main.rs` the error points into.
fn owner<'e>(d: &Diag, exs: &'e [Exercise], main_rs: &str) -> Option<&'e str> {
    let file = d.file.as_deref()?;
    if let Some(slug) = file
        .strip_prefix("src/")
        .and_then(|f| f.strip_suffix(".rs"))
        && let Some(ex) = exs.iter().find(|e| e.slug() == slug)
    {
        return Some(ex.slug());
    }
    if file != "src/main.rs" {
        return None;
    }
    // The nearest `("function", ...)` entry at or above the error's line.
    let lines: Vec<&str> = main_rs.lines().collect();
    let upto = d.line.min(lines.len());
    lines[..upto].iter().rev().find_map(|l| {
        exs.iter()
            .find(|e| l.contains(&format!("(\"{}\"", e.function)))
            .map(|e| e.slug())
    })
}

/// `cargo build` in `dir` (with the original folder's target dir): the binary,
/// or the compiler's errors. The outer error is for a cargo that cannot run.
///
/// A shadow copy builds in a target dir of its own: cargo keys freshness by
/// package name, so a shared one would hand the next real build the shadow's
/// binary.
fn cargo_build(
    dir: &Path,
    folder: &Path,
    shadow: bool,
    lang: Lang,
) -> Result<Result<PathBuf, Vec<Diag>>, String> {
    let mut target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| folder.join("target"));
    // Cargo runs in `dir`, so a relative path (`judge practice/ch_x` from the
    // repository's root) would name a folder inside the practice folder.
    if target.is_relative()
        && let Ok(here) = std::env::current_dir()
    {
        target = here.join(target);
    }
    if shadow {
        target = target.join("judge-shadow");
    }
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--quiet", "--message-format", "json"])
        .env("CARGO_TARGET_DIR", &target)
        // The learner's code compiles as written: a lint driver the judge itself
        // runs under (`cargo clippy`, the project's linted test build) would
        // turn its warnings into errors.
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env_remove("CLIPPY_ARGS")
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| errors::no_cargo { error: e }.text(lang))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let messages: Vec<serde_json::Value> = stdout
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    if out.status.success() {
        return messages
            .iter()
            .rev()
            .filter(|m| m["reason"] == "compiler-artifact")
            .find_map(|m| m["executable"].as_str().map(PathBuf::from))
            .map(Ok)
            .ok_or_else(|| errors::no_binary.as_str(lang).to_owned());
    }
    let mut diags: Vec<Diag> = messages
        .iter()
        .filter(|m| m["reason"] == "compiler-message" && m["message"]["level"] == "error")
        .filter(|m| {
            m["message"]["spans"]
                .as_array()
                .is_some_and(|s| !s.is_empty())
        })
        .map(|m| {
            let spans = m["message"]["spans"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let primary = spans
                .iter()
                .find(|s| s["is_primary"] == true)
                .or(spans.first());
            Diag {
                file: primary
                    .and_then(|s| s["file_name"].as_str())
                    .map(str::to_owned),
                line: primary.and_then(|s| s["line_start"].as_u64()).unwrap_or(0) as usize,
                rendered: m["message"]["rendered"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
            }
        })
        .collect();
    if diags.is_empty() {
        // Not a compile error of ours: a bad manifest, a missing dependency...
        let stderr = String::from_utf8_lossy(&out.stderr);
        diags.push(Diag {
            file: None,
            line: 0,
            rendered: stderr.lines().take(40).collect::<Vec<_>>().join("\n"),
        });
    }
    Ok(Err(diags))
}

/// A copy of the package under the temp dir with each broken module replaced by
/// its starter; relative `path =` dependencies are made absolute.
fn shadow_copy(
    folder: &Path,
    exs: &[Exercise],
    broken: &BTreeMap<String, String>,
) -> std::io::Result<PathBuf> {
    let folder = folder.canonicalize()?;
    let name = folder.file_name().unwrap_or_default();
    let dir = shadow_root().join(name);
    std::fs::create_dir_all(dir.join("src"))?;
    for entry in std::fs::read_dir(folder.join("src"))?.flatten() {
        if entry.path().is_file() {
            std::fs::copy(entry.path(), dir.join("src").join(entry.file_name()))?;
        }
    }
    for ex in exs.iter().filter(|e| broken.contains_key(e.slug())) {
        std::fs::write(
            dir.join("src").join(format!("{}.rs", ex.slug())),
            ex.starter_rust,
        )?;
    }
    if folder.join("Cargo.lock").exists() {
        std::fs::copy(folder.join("Cargo.lock"), dir.join("Cargo.lock"))?;
    }
    let manifest = std::fs::read_to_string(folder.join("Cargo.toml"))?;
    let manifest: Vec<String> = manifest
        .lines()
        .map(|l| absolute_paths(l, &folder))
        .collect();
    std::fs::write(dir.join("Cargo.toml"), manifest.join("\n") + "\n")?;
    Ok(dir)
}

/// Where this process makes its shadow copies.
fn shadow_root() -> PathBuf {
    std::env::temp_dir().join(format!("judge-shadow-{}", std::process::id()))
}

/// `path = "../x"` → `path = "/abs/x"` on one manifest line.
fn absolute_paths(line: &str, base: &Path) -> String {
    let Some(at) = line.find("path = \"") else {
        return line.to_owned();
    };
    let start = at + "path = \"".len();
    let Some(len) = line[start..].find('"') else {
        return line.to_owned();
    };
    let p = &line[start..start + len];
    if Path::new(p).is_absolute() {
        return line.to_owned();
    }
    let abs = base.join(p);
    let abs = abs.canonicalize().unwrap_or(abs);
    format!(
        "{}{}{}",
        &line[..start],
        abs.display().to_string().replace('\\', "/"),
        &line[start + len..]
    )
}

fn grade_one(bin: &Path, ex: &Exercise, limits: Limits, lang: Lang) -> Verdict {
    let ctx = child::Context {
        file: &format!("src/{}.rs", ex.slug()),
        function: ex.function,
        arity: ex.params.len(),
        limits,
        answer: Answer::Rust,
        lang,
    };
    child::grade(
        bin.as_os_str(),
        &[OsStr::new(ex.function)],
        ex,
        &ex.spec(),
        ctx,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_dependency_paths_become_absolute() {
        let base = std::env::temp_dir();
        let l = absolute_paths(
            "judge = { path = \"x/y\", default-features = false }",
            &base,
        );
        assert!(l.contains(&base.join("x/y").display().to_string()), "{l}");
        assert!(l.ends_with("\", default-features = false }"), "{l}");
        assert_eq!(absolute_paths("name = \"p\"", &base), "name = \"p\"");
    }
}
