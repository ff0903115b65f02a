//! Grading Rust solutions: build the practice package with the learner's cargo,
//! then run its binary once per exercise (child process, timeout) speaking the
//! `judge::harness` protocol.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use exercises::Exercise;
use judge::{SolverError, Value, Verdict};

/// Wall-clock budget for one exercise's Rust process.
const TIMEOUT: Duration = Duration::from_secs(10);

/// Grades every exercise through the folder's Cargo package.
pub fn grade_package<'a>(folder: &Path, exs: &'a [Exercise]) -> Vec<(&'a Exercise, Verdict)> {
    let bin = match build(folder) {
        Ok(b) => b,
        Err(msg) => {
            return exs
                .iter()
                .map(|ex| {
                    (
                        ex,
                        Verdict::without_cases(&ex.spec(), SolverError::Compile(msg.clone())),
                    )
                })
                .collect();
        }
    };
    exs.iter().map(|ex| (ex, grade_one(&bin, ex))).collect()
}

/// `cargo build`, returning the binary's path or the compiler's errors.
fn build(folder: &Path) -> Result<PathBuf, String> {
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "build",
            "--quiet",
            "--message-format",
            "json-render-diagnostics",
        ])
        .current_dir(folder)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("could not run cargo: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let errors: Vec<&str> = stderr.lines().take(40).collect();
        return Err(format!("compile error:\n{}", errors.join("\n")));
    }
    stdout
        .lines()
        .rev()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact")
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .ok_or_else(|| "the practice package has no binary (src/main.rs)".to_owned())
}

/// Replies collected from the child, handed to the judge one case at a time.
struct Replies(std::vec::IntoIter<Result<Value, SolverError>>, SolverError);

impl judge::Solver for Replies {
    fn call(&mut self, _: &[Value]) -> Result<Value, SolverError> {
        self.0.next().unwrap_or_else(|| Err(self.1.clone()))
    }
}

fn grade_one(bin: &Path, ex: &Exercise) -> Verdict {
    let spec = ex.spec();
    let mut child = match Command::new(bin)
        .arg(ex.function)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            return Verdict::without_cases(
                &spec,
                SolverError::Runtime(format!("could not start {}: {e}", bin.display())),
            );
        }
    };
    let input: String = spec
        .cases
        .iter()
        .map(|c| serde_json::to_string(&c.args).unwrap_or_default() + "\n")
        .collect();
    let mut stdin = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let Some(s) = stdin.as_mut() {
            let _ = s.write_all(input.as_bytes());
        }
    });
    let stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut lines = Vec::new();
        if let Some(out) = stdout {
            for l in BufReader::new(out).lines() {
                match l {
                    Ok(l) => lines.push(l),
                    Err(_) => break,
                }
            }
        }
        lines
    });
    let t0 = Instant::now();
    let mut timed_out = false;
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if t0.elapsed() > TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                timed_out = true;
                break;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => break,
        }
    }
    let _ = writer.join();
    let lines = reader.join().unwrap_or_default();
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut e, &mut stderr);
    }
    let replies: Vec<Result<Value, SolverError>> = lines.iter().map(|l| parse_reply(l)).collect();
    let rest = if timed_out {
        SolverError::Limit(format!("time limit exceeded ({} s)", TIMEOUT.as_secs()))
    } else if stderr.contains("unknown function") {
        SolverError::Compile(stderr.trim().to_owned())
    } else {
        SolverError::Runtime(format!("the process stopped early: {}", stderr.trim()))
    };
    judge::grade(&spec, &mut Replies(replies.into_iter(), rest))
}

fn parse_reply(line: &str) -> Result<Value, SolverError> {
    let v: serde_json::Value = serde_json::from_str(line)
        .map_err(|e| SolverError::Runtime(format!("bad reply from the practice binary: {e}")))?;
    if let Some(ok) = v.get("ok") {
        return Ok(Value::from_json(ok));
    }
    if let Some(p) = v.get("panic").and_then(|p| p.as_str()) {
        if p.starts_with("not yet implemented") {
            return Err(SolverError::NotAttempted);
        }
        return Err(SolverError::Runtime(format!("panicked: {p}")));
    }
    let e = v
        .get("error")
        .and_then(|e| e.as_str())
        .unwrap_or("unknown reply");
    Err(SolverError::Runtime(e.to_owned()))
}
