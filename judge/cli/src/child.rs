//! Running a learner's code in a child process, for every case of an exercise:
//! the Rust practice package's binary or `python3` with the judge's harness.
//! Both speak the `judge::harness` protocol: a file of cases, a file of replies,
//! and a marker on standard output before each case, so what each case printed
//! is told apart. The process runs in its own process group, under a time and a
//! memory limit, and the group is ended afterwards.

use std::ffi::OsStr;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use judge::harness::{CASES_ENV, REPLIES_ENV};
use judge::replies::{Printed, Replies};
use judge::{Answer, CodeError, Lang, LimitHit, SolverError, Value, Verdict};

use crate::words::errors;

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

/// How long to wait for the output pipe to close once the process has ended.
const DRAIN_GRACE: Duration = Duration::from_secs(1);

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
    /// The language the judge's own trouble is worded in.
    pub lang: Lang,
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

/// Runs `program args…` (sandboxed under `ctx.limits`) on every case of
/// `spec` and grades its replies: the verdict, which names the known mistake
/// the replies match, if any, and the smallest failing input shrunk from a
/// failing generated case ([`shrink`]).
pub fn grade(
    program: &OsStr,
    args: &[&OsStr],
    ex: &exercises::Exercise,
    spec: &judge::Spec,
    ctx: Context,
) -> Verdict {
    grade_recorded(program, args, ex, spec, ctx).0
}

/// [`grade`], and each case's reply in the order graded.
pub fn grade_recorded(
    program: &OsStr,
    args: &[&OsStr],
    ex: &exercises::Exercise,
    spec: &judge::Spec,
    ctx: Context,
) -> (Verdict, Vec<Result<Value, SolverError>>) {
    let answer = ctx.answer;
    match run(sandboxed(program, args, ctx.limits), spec, ctx) {
        Ok(replies) => {
            let (mut v, outcomes) = replies.grade_recorded(spec, None);
            exercises::mistakes::name(ex, &mut v, &outcomes, answer);
            v.shrunk = shrink(program, args, spec, &v, ctx).map(Box::new);
            (v, outcomes)
        }
        Err(e) => (
            Verdict::without_cases(spec, SolverError::Runtime(e)),
            Vec::new(),
        ),
    }
}

/// How long a shrink may take, all rounds together, as a safety: the search
/// is bounded by its budget of calls ([`judge::shrink::EVALS`]), which ends
/// it long before on any answer that runs within its limits; past this it
/// stops where it is.
const SHRINK_TIME: Duration = Duration::from_secs(10);

/// The smallest failing input from `v`'s first failing generated case: the
/// batched search ([`judge::shrink::Rounds`]), each round's inputs run by
/// `program`, the same search the page runs with Pyodide. A Python answer's
/// harness grades every round in one process ([`PythonRounds`]); a Rust answer's
/// binary, quick to start, runs once per round.
fn shrink(
    program: &OsStr,
    args: &[&OsStr],
    spec: &judge::Spec,
    v: &Verdict,
    ctx: Context,
) -> Option<judge::shrink::Shrunk> {
    let mut search = judge::shrink::Rounds::start(spec, v)?;
    let mut python = (ctx.answer == Answer::Python).then(|| PythonRounds::new(program, args, spec));
    let t0 = Instant::now();
    loop {
        let asked = search.ask(spec);
        if asked.is_empty() {
            break;
        }
        let left = SHRINK_TIME.saturating_sub(t0.elapsed());
        if left.is_zero() {
            search.stop();
            break;
        }
        let n = asked.len();
        let round = judge::Spec {
            cases: asked
                .into_iter()
                .map(|args| judge::Case {
                    args,
                    kind: judge::Kind::Public,
                })
                .collect(),
            ..spec.clone()
        };
        let limits = Limits {
            timeout: left.min(ctx.limits.timeout),
            ..ctx.limits
        };
        let ctx = Context { limits, ..ctx };
        let replies = match &mut python {
            Some(rounds) => rounds.run(&round, ctx),
            None => run(sandboxed(program, args, limits), &round, ctx),
        };
        let Ok(mut replies) = replies else {
            search.stop();
            break;
        };
        if replies.load.is_some() {
            search.stop();
            break;
        }
        let outs = (0..n)
            .map(|_| {
                let out = judge::Solver::call(&mut replies, &[]);
                let _ = judge::Solver::take_printed(&mut replies);
                out
            })
            .collect();
        search.answer(spec, outs);
    }
    search.finish()
}

/// One process of `harness.py` for all the rounds of a shrink
/// ([`judge::python::ROUNDS_ENV`]): Python starts once (tens of
/// milliseconds each time, which 24 rounds multiplied), and the harness
/// loads the answer again for each round, as the page's worker does for
/// each job. A process that ended (its round timed out, or the answer
/// exited) is started again for the next round. What a round prints is
/// read and dropped: the shrunk case shows values, not output.
struct PythonRounds<'a> {
    program: &'a OsStr,
    args: &'a [&'a OsStr],
    work: std::path::PathBuf,
    child: Option<(std::process::Child, std::process::ChildStdin)>,
}

impl<'a> PythonRounds<'a> {
    fn new(program: &'a OsStr, args: &'a [&'a OsStr], spec: &judge::Spec) -> Self {
        let work = std::env::temp_dir().join(format!(
            "judge-rounds-{}-{}",
            std::process::id(),
            spec.function
        ));
        PythonRounds {
            program,
            args,
            work,
            child: None,
        }
    }

    /// Grades `round`'s cases under `ctx.limits` (the round's time).
    fn run(&mut self, round: &judge::Spec, ctx: Context) -> Result<Replies, String> {
        use std::io::Write;
        let cases_path = self.work.join("cases.jsonl");
        let replies_path = self.work.join("replies.jsonl");
        if self.child.is_none() {
            std::fs::create_dir_all(&self.work)
                .map_err(|e| format!("{}: {e}", self.work.display()))?;
        }
        std::fs::write(&cases_path, cases_text(round))
            .map_err(|e| format!("{}: {e}", cases_path.display()))?;
        let _ = std::fs::remove_file(&replies_path);
        // The next round of a live process, or a new process.
        let next = match &mut self.child {
            Some((child, stdin)) => {
                matches!(child.try_wait(), Ok(None)) && stdin.write_all(b"\n").is_ok()
            }
            None => false,
        };
        if !next {
            self.end();
            let mut cmd = sandboxed(self.program, self.args, ctx.limits);
            cmd.env(CASES_ENV, &cases_path)
                .env(REPLIES_ENV, &replies_path)
                .env(judge::python::ROUNDS_ENV, "1")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null());
            let mut child = spawn(&mut cmd, ctx.lang)?;
            let (Some(stdin), Some(mut stdout)) = (child.stdin.take(), child.stdout.take()) else {
                unreachable!("both were piped");
            };
            std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
            self.child = Some((child, stdin));
        }
        let Some((child, _)) = &mut self.child else {
            unreachable!("started above");
        };
        // Until every case has its reply (or the answer could not be
        // loaded), the process ends, or the round's time is up.
        let n = round.cases.len();
        let t0 = Instant::now();
        let (mut status, mut timed_out, mut text) = (None, false, String::new());
        loop {
            let now = std::fs::read_to_string(&replies_path).unwrap_or_default();
            if now.len() != text.len() {
                text = now;
                let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
                let load_failed = whole.lines().any(|l| {
                    serde_json::from_str::<serde_json::Value>(l).is_ok_and(|v| v["case"] == 0)
                });
                if load_failed || whole.lines().count() >= n {
                    text.truncate(whole.len());
                    break;
                }
            }
            match child.try_wait() {
                Ok(None) if t0.elapsed() > ctx.limits.timeout => {
                    timed_out = true;
                    break;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(1)),
                Ok(Some(s)) => {
                    status = Some(s);
                    text = std::fs::read_to_string(&replies_path).unwrap_or_default();
                    break;
                }
                Err(_) => break,
            }
        }
        let complete = !timed_out && status.is_none();
        if !complete {
            self.end();
        }
        let limits = ctx.limits;
        Ok(Replies::read(
            &text,
            Printed::default(),
            &ctx.about(),
            ctx.answer,
            |answered, printed| why_ended(status, timed_out, answered, printed, limits, ctx.lang),
        ))
    }

    /// Ends the process and whatever it started.
    fn end(&mut self) {
        if let Some((mut child, stdin)) = self.child.take() {
            drop(stdin);
            end_group(child.id());
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for PythonRounds<'_> {
    fn drop(&mut self) {
        self.end();
        let _ = std::fs::remove_dir_all(&self.work);
    }
}

/// The cases file: one JSON array of arguments per line, in the wire
/// encoding.
fn cases_text(spec: &judge::Spec) -> String {
    spec.cases
        .iter()
        .map(|c| {
            serde_json::Value::Array(c.args.iter().map(Value::to_wire).collect()).to_string() + "\n"
        })
        .collect()
}

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
    std::fs::write(&cases_path, cases_text(spec))
        .map_err(|e| format!("{}: {e}", cases_path.display()))?;
    let _ = std::fs::remove_file(&replies_path);

    let no_pipe = |e: std::io::Error| errors::no_pipe { error: e }.text(ctx.lang);
    let (reader, writer) = std::io::pipe().map_err(no_pipe)?;
    let writer2 = writer.try_clone().map_err(no_pipe)?;
    cmd.env(CASES_ENV, &cases_path)
        .env(REPLIES_ENV, &replies_path)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(writer2);
    let mut child = spawn(&mut cmd, ctx.lang)?;
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
    Ok(Replies::read(
        &text,
        printed,
        &ctx.about(),
        ctx.answer,
        |answered, printed| why_ended(status, timed_out, answered, printed, limits, ctx.lang),
    ))
}

/// Starts `cmd`, or says why it could not.
fn spawn(cmd: &mut Command, lang: Lang) -> Result<std::process::Child, String> {
    cmd.spawn().map_err(|e| {
        errors::cannot_start {
            program: format!("{:?}", cmd.get_program()),
            error: e,
        }
        .text(lang)
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
    lang: Lang,
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
                .unwrap_or_else(|_| errors::unknown_signal { number: sig }.text(lang));
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
