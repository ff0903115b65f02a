//! Running a learner's code in a child process, for every case of an exercise:
//! the Rust practice package's binary or `python3` with the judge's harness.
//! Both speak the `judge::harness` protocol: a file of cases, a file of replies,
//! and a marker on standard output before each case, so what each case printed
//! is told apart. The process runs in its own process group, under a time and a
//! memory limit, and the group is ended afterwards.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use judge::harness::{CASES_ENV, REPLIES_ENV, case_marker};
use judge::{Answer, CodeError, LimitHit, SolverError, Value, Verdict};

/// Limits of one exercise's process (Rust or Python).
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
pub struct Replies {
    replies: BTreeMap<usize, Result<Value, SolverError>>,
    printed: Printed,
    next: usize,
    /// Why cases without a reply have none.
    ended: SolverError,
    /// Why the code could not be loaded at all (case 0's reply), if it could not.
    load: Option<SolverError>,
    answer: Answer,
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

    fn answer(&self) -> Answer {
        self.answer
    }
}

/// What the replies' words refer to: the learner's file and function.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    /// The file, e.g. `attended.py`.
    pub file: &'a str,
    /// The function to write.
    pub function: &'a str,
    /// Its number of parameters.
    pub arity: usize,
    /// The limits the process runs under.
    pub limits: Limits,
    /// The language of the code.
    pub answer: Answer,
}

impl Context<'_> {
    /// What the judge's reply parser needs to know.
    fn about(&self) -> judge::replies::About {
        judge::replies::About {
            file: self.file.to_owned(),
            function: self.function.to_owned(),
            arity: self.arity,
            memory_mib: self.limits.memory >> 20,
        }
    }
}

/// Runs `cmd` on every case of `spec` and grades its replies: the verdict.
pub fn grade(cmd: Command, spec: &judge::Spec, ctx: Context) -> Verdict {
    match run(cmd, spec, ctx) {
        Ok(Replies { load: Some(e), .. }) => Verdict::without_cases(spec, e),
        Ok(mut replies) => judge::grade(spec, &mut replies),
        Err(e) => Verdict::without_cases(spec, SolverError::Runtime(e)),
    }
}

/// Runs the binary on every case of `spec`; the error is the judge's own trouble.
fn run(mut cmd: Command, spec: &judge::Spec, ctx: Context) -> Result<Replies, String> {
    let limits = ctx.limits;
    let work = std::env::temp_dir().join(format!(
        "judge-run-{}-{}",
        std::process::id(),
        spec.function
    ));
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
    cmd.env(CASES_ENV, &cases_path)
        .env(REPLIES_ENV, &replies_path)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(writer2);
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("could not start {:?}: {e}", cmd.get_program()))?;
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
    let mut load = None;
    for line in text.lines() {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(line)
            && let Some(case) = v["case"].as_u64()
        {
            let reply = judge::replies::parse(&v, case as usize, &ctx.about());
            match (case, reply) {
                (0, Err(e)) => load = Some(e),
                (0, Ok(_)) => {}
                (case, reply) => {
                    replies.insert(case as usize, reply);
                }
            }
        }
    }
    let answered = replies.len();
    let ended = why_ended(status, timed_out, answered, &printed, limits);
    Ok(Replies {
        replies,
        printed,
        next: 0,
        ended,
        load,
        answer: ctx.answer,
    })
}

/// The command that runs `program args…` in its own process group, under the
/// memory limit (`ulimit -v`, through `sh`, on Unix).
pub fn sandboxed(program: &OsStr, args: &[&OsStr], limits: Limits) -> Command {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg("ulimit -v \"$1\" 2>/dev/null; shift; exec \"$@\"")
            .arg("judge-child")
            .arg((limits.memory / 1024).to_string())
            .arg(program)
            .args(args)
            .process_group(0);
        c
    }
    #[cfg(not(unix))]
    {
        let _ = limits;
        let mut c = Command::new(program);
        c.args(args);
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
}
