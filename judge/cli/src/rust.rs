//! Grading Rust solutions: build the practice package with the learner's cargo,
//! then run its binary once per exercise (a child process in its own process
//! group, with a timeout and a memory limit) speaking the `judge::harness`
//! protocol.
//!
//! A module that does not compile is reported once, in the exercise it belongs
//! to; the package is then rebuilt in a shadow copy with that module replaced by
//! its starter, so every other exercise keeps its own verdict.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use exercises::Exercise;
use judge::harness::{CASES_ENV, REPLIES_ENV, case_marker};
use judge::{CodeError, LimitHit, SolverError, Value, Verdict};

/// Limits of one exercise's Rust process.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Wall-clock time for all of an exercise's cases.
    pub timeout: Duration,
    /// Address space of the process (`RLIMIT_AS`), in bytes.
    pub memory: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_secs(10),
            memory: 2 << 30,
        }
    }
}

/// Bytes of output kept per case: its head and its tail; the middle is counted
/// and dropped.
const KEEP_PER_CASE: usize = 4096;
/// Lines of output a verdict keeps per case.
const LINES_PER_CASE: usize = 20;
/// Characters kept of one printed line.
const LINE_CHARS: usize = 200;
/// How long to wait for the output pipe to close once the process has ended.
const DRAIN_GRACE: Duration = Duration::from_secs(1);
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
pub fn grade_package(folder: &Path, exs: &[Exercise], limits: Limits) -> PackageResult {
    let built = build_isolating(folder, exs);
    let _ = std::fs::remove_dir_all(shadow_root());
    let (bin, broken) = match built {
        Err(whole) => {
            let first = whole
                .lines()
                .find(|l| l.starts_with("error"))
                .unwrap_or("see the compiler's output")
                .to_owned();
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
                None => grade_one(&bin, ex, limits),
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
) -> Result<(PathBuf, BTreeMap<String, String>), String> {
    let mut broken: BTreeMap<String, String> = BTreeMap::new();
    let mut dir = folder.to_path_buf();
    for _ in 0..=MAX_REBUILDS {
        let diags = match cargo_build(&dir, folder, dir != folder)? {
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
    Err(
        "the practice package still does not compile after its broken modules were set aside"
            .into(),
    )
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
        .map_err(|e| format!("could not run cargo: {e}"))?;
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
            .ok_or_else(|| "the practice package has no binary (src/main.rs)".to_owned());
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

/// What the process printed, split at the case markers: the head and the tail
/// of each case's output and how many bytes it printed in all.
#[derive(Default)]
struct Printed {
    /// Index 0 is before the first case; index i is case i.
    cases: Vec<CaseOutput>,
}

#[derive(Default)]
struct CaseOutput {
    head: Vec<u8>,
    tail: Vec<u8>,
    total: usize,
}

impl Printed {
    fn push(&mut self, mut bytes: &[u8]) {
        if self.cases.is_empty() {
            self.cases.push(CaseOutput::default());
        }
        let Some(c) = self.cases.last_mut() else {
            return;
        };
        c.total += bytes.len();
        let room = KEEP_PER_CASE.saturating_sub(c.head.len());
        let (h, rest) = bytes.split_at(room.min(bytes.len()));
        c.head.extend_from_slice(h);
        bytes = rest;
        c.tail.extend_from_slice(bytes);
        if c.tail.len() > 2 * KEEP_PER_CASE {
            c.tail.drain(..c.tail.len() - KEEP_PER_CASE);
        }
    }

    fn next_case(&mut self) {
        self.cases.push(CaseOutput::default());
    }

    /// Reads `r` to its end, splitting at the markers.
    fn read_all(mut r: impl Read) -> Printed {
        let mut p = Printed::default();
        p.push(&[]);
        let mut pending: Vec<u8> = Vec::new();
        let mut buf = [0u8; 8192];
        loop {
            let n = match r.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            pending.extend_from_slice(&buf[..n]);
            loop {
                let marker = case_marker(p.cases.len());
                match find(&pending, marker.as_bytes()) {
                    Some(at) => {
                        p.push(&pending[..at]);
                        p.next_case();
                        pending.drain(..at + marker.len());
                    }
                    None => {
                        // Keep what could be the start of a marker.
                        let keep = pending.len().min(marker.len() - 1);
                        let cut = pending.len() - keep;
                        p.push(&pending[..cut]);
                        pending.drain(..cut);
                        break;
                    }
                }
            }
        }
        p.push(&pending);
        p
    }

    /// The lines case `index` printed: all of them, or when there are many, the
    /// first and the last ones with a line that says how much was cut.
    fn lines(&self, index: usize) -> Vec<String> {
        let Some(c) = self.cases.get(index) else {
            return Vec::new();
        };
        let half = LINES_PER_CASE / 2;
        let kept = c.head.len() + c.tail.len();
        let whole = kept == c.total;
        let text = |b: &[u8]| -> Vec<String> {
            String::from_utf8_lossy(b).lines().map(cut_line).collect()
        };
        if whole {
            let mut all = c.head.clone();
            all.extend_from_slice(&c.tail);
            let lines = text(&all);
            if lines.len() <= LINES_PER_CASE {
                return lines;
            }
            let mut out = lines[..half].to_vec();
            out.push(format!(
                "(… {} lines, {} bytes printed in all; the last {half}:)",
                lines.len(),
                c.total
            ));
            out.extend_from_slice(&lines[lines.len() - half..]);
            return out;
        }
        let head = text(&c.head);
        let tail = text(&c.tail);
        let mut out: Vec<String> = head.into_iter().take(half).collect();
        out.push(format!(
            "(… {} bytes printed in all; the last lines:)",
            c.total
        ));
        out.extend(tail.iter().skip(tail.len().saturating_sub(half)).cloned());
        out
    }

    /// Everything after the last marker, as text (where a crash message lands).
    fn last_text(&self) -> String {
        self.cases
            .last()
            .map(|c| {
                let mut b = c.head.clone();
                b.extend_from_slice(&c.tail);
                String::from_utf8_lossy(&b).into_owned()
            })
            .unwrap_or_default()
    }
}

fn cut_line(l: &str) -> String {
    if l.chars().count() <= LINE_CHARS {
        return l.to_owned();
    }
    let s: String = l.chars().take(LINE_CHARS).collect();
    format!("{s}… (line cut)")
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Replies and printed output of one run, handed to the judge a case at a time.
struct Replies {
    replies: BTreeMap<usize, Result<Value, SolverError>>,
    printed: Printed,
    next: usize,
    /// Why cases without a reply have none.
    ended: SolverError,
}

impl judge::Solver for Replies {
    fn call(&mut self, _: &[Value]) -> Result<Value, SolverError> {
        self.next += 1;
        self.replies
            .remove(&self.next)
            .unwrap_or_else(|| Err(self.ended.clone()))
    }

    fn take_printed(&mut self) -> Vec<String> {
        self.printed.lines(self.next)
    }
}

fn grade_one(bin: &Path, ex: &Exercise, limits: Limits) -> Verdict {
    let spec = ex.spec();
    match run(bin, ex, &spec, limits) {
        Ok(mut replies) => judge::grade(&spec, &mut replies),
        Err(e) => Verdict::without_cases(&spec, SolverError::Runtime(e)),
    }
}

/// Runs the binary on every case of `spec`; the error is the judge's own trouble.
fn run(bin: &Path, ex: &Exercise, spec: &judge::Spec, limits: Limits) -> Result<Replies, String> {
    let work = std::env::temp_dir().join(format!("judge-run-{}-{}", std::process::id(), ex.slug()));
    std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    let cases_path = work.join("cases.jsonl");
    let replies_path = work.join("replies.jsonl");
    let input: String = spec
        .cases
        .iter()
        .map(|c| {
            serde_json::Value::Array(c.args.iter().map(Value::to_wire).collect()).to_string() + "\n"
        })
        .collect();
    std::fs::write(&cases_path, input).map_err(|e| format!("{}: {e}", cases_path.display()))?;
    let _ = std::fs::remove_file(&replies_path);

    let (reader, writer) = std::io::pipe().map_err(|e| format!("pipe: {e}"))?;
    let writer2 = writer.try_clone().map_err(|e| format!("pipe: {e}"))?;
    let mut cmd = command(bin, ex.function, limits);
    cmd.env(CASES_ENV, &cases_path)
        .env(REPLIES_ENV, &replies_path)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(writer2);
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("could not start {}: {e}", bin.display()))?;
    drop(cmd); // our copies of the pipe's write end
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(Printed::read_all(reader));
    });

    let t0 = Instant::now();
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if t0.elapsed() > limits.timeout => {
                timed_out = true;
                end_group(child.id());
                let _ = child.kill();
                break child.wait().ok();
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(_) => break None,
        }
    };
    // Whatever the code started is ended with it.
    end_group(child.id());
    let printed = rx.recv_timeout(DRAIN_GRACE).unwrap_or_default();

    let text = std::fs::read_to_string(&replies_path).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&work);
    let mut replies = BTreeMap::new();
    for line in text.lines() {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(line)
            && let Some(case) = v["case"].as_u64()
        {
            replies.insert(case as usize, parse_reply(&v));
        }
    }
    let answered = replies.len();
    let ended = why_ended(status, timed_out, answered, &printed, limits);
    Ok(Replies {
        replies,
        printed,
        next: 0,
        ended,
    })
}

/// The command that runs `bin function` in its own process group, under the
/// memory limit (`ulimit -v`, through `sh`, on Unix).
fn command(bin: &Path, function: &str, limits: Limits) -> Command {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg("ulimit -v \"$1\" 2>/dev/null; shift; exec \"$@\"")
            .arg("judge-child")
            .arg((limits.memory / 1024).to_string())
            .arg(bin)
            .arg(function)
            .process_group(0);
        c
    }
    #[cfg(not(unix))]
    {
        let _ = limits;
        let mut c = Command::new(bin);
        c.arg(function);
        c
    }
}

/// Ends the process group `pid` leads, and everything in it.
fn end_group(pid: u32) {
    #[cfg(unix)]
    {
        use nix::sys::signal::{Signal, killpg};
        use nix::unistd::Pid;
        if let Ok(pid) = i32::try_from(pid) {
            let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = pid;
}

/// Why the cases after the last reply got none.
fn why_ended(
    status: Option<std::process::ExitStatus>,
    timed_out: bool,
    answered: usize,
    printed: &Printed,
    limits: Limits,
) -> SolverError {
    let next = answered + 1;
    if timed_out {
        return SolverError::Sandbox(LimitHit::ProcessTime {
            seconds: limits.timeout.as_secs_f64(),
            case: next,
        });
    }
    let said = printed.last_text();
    if said.contains("memory allocation of") || said.contains("capacity overflow") {
        return SolverError::Sandbox(LimitHit::Memory {
            mib: limits.memory >> 20,
            case: next,
        });
    }
    if said.contains("has overflowed its stack") {
        return SolverError::Sandbox(LimitHit::StackOverflow { case: next });
    }
    let Some(status) = status else {
        return SolverError::Code(CodeError::Lost { case: next });
    };
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            let name = nix::sys::signal::Signal::try_from(sig)
                .map(|s| s.as_str().to_owned())
                .unwrap_or_else(|_| format!("signal {sig}"));
            return SolverError::Code(CodeError::Signal {
                signal: name,
                case: next,
            });
        }
    }
    SolverError::Code(match status.code() {
        Some(code) => CodeError::Exited { code, case: next },
        None => CodeError::Ended { case: next },
    })
}

fn parse_reply(v: &serde_json::Value) -> Result<Value, SolverError> {
    if let Some(ok) = v.get("ok") {
        return Ok(Value::from_wire(ok));
    }
    if v.get("todo").is_some() {
        return Err(SolverError::NotAttempted);
    }
    let at = v["at"].as_str().filter(|a| !a.is_empty());
    if let Some(p) = v.get("panic").and_then(|p| p.as_str()) {
        return Err(SolverError::Code(CodeError::Panicked {
            at: at.map(str::to_owned),
            message: p.to_owned(),
        }));
    }
    let e = v["error"].as_str().unwrap_or("unknown reply");
    Err(SolverError::Runtime(e.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_splits_at_markers_across_reads() {
        let text = format!(
            "boot\n{}one\n{}two\nthree\n{}",
            case_marker(1),
            case_marker(2),
            case_marker(3)
        );
        // One byte per read: markers straddle every boundary.
        struct Slow<'a>(&'a [u8]);
        impl Read for Slow<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let Some((first, rest)) = self.0.split_first() else {
                    return Ok(0);
                };
                buf[0] = *first;
                self.0 = rest;
                Ok(1)
            }
        }
        let p = Printed::read_all(Slow(text.as_bytes()));
        assert_eq!(p.lines(0), ["boot"]);
        assert_eq!(p.lines(1), ["one"]);
        assert_eq!(p.lines(2), ["two", "three"]);
        assert!(p.lines(3).is_empty());
    }

    #[test]
    fn long_output_keeps_a_tail() {
        let mut text = case_marker(1);
        for i in 0..10_000 {
            text += &format!("line {i}\n");
        }
        let p = Printed::read_all(text.as_bytes());
        let l = p.lines(1);
        assert_eq!(l.len(), LINES_PER_CASE + 1);
        assert_eq!(l[0], "line 0");
        assert!(
            l[LINES_PER_CASE / 2].contains("bytes printed in all"),
            "{l:?}"
        );
        assert_eq!(l.last().map(String::as_str), Some("line 9999"));
    }

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
