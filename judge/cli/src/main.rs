//! `judge`: grades a practice folder offline with the same verdicts as the browser.
//!
//! `judge practice/ch_newmodels [--json] [--watch]` grades every exercise of the
//! chapter named by the folder: `<slug>.rhai` through the sandboxed Rhai engine,
//! `<slug>.py` with the learner's Python (a child process, as for Rust),
//! and the folder's Cargo package (built with the learner's cargo, each exercise
//! run in a child process with a timeout and a memory limit) for Rust solutions.
//! `judge --help` lists the other commands. Everything it says to people is in
//! English or Chinese: `--lang zh|en`, by default the locale's (`LC_ALL`,
//! `LC_MESSAGES`, `LANG`); `--json` output is the same in both.

/// `println!` to standard output, except that a reader who has gone away
/// (`judge list | head`: a broken pipe) ends the program quietly, with
/// success, instead of a panic; as `print!` does for `out!`.
macro_rules! outln {
    () => {
        $crate::out_or_exit(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out_or_exit(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` to standard output, ending quietly on a broken pipe (see `outln!`).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out_or_exit(format_args!($($arg)*))
    };
}

mod child;
mod class;
mod frame;
mod help;
mod python;
mod report;
mod rust;
mod verify;
mod watch;
mod words;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;
use std::time::{Duration, Instant};

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use exercises::Exercise;
use judge::{CodeError, Lang, LimitHit, SolverError, Verdict};
use words::{commands, errors};

/// Wall-clock budget for one exercise's Rhai grading (same as the browser).
const RHAI_DEADLINE: Duration = Duration::from_secs(2);

// The command line. Its texts are not doc comments: they come from one
// catalog per language (`say.<lang>.toml`'s `[help]`, see `help`).
#[derive(Parser)]
#[command(name = "judge", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    #[command(flatten)]
    grade: GradeArgs,
    #[arg(long, global = true, value_name = "zh|en")]
    lang: Option<Lang>,
}

// The folder's grading options (`judge <folder>` and `judge grade <folder>`).
#[derive(Args)]
struct GradeArgs {
    folder: Option<PathBuf>,
    #[arg(long)]
    json: bool,
    #[arg(long)]
    watch: bool,
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    timeout: f64,
    #[arg(long, default_value_t = 2048, value_name = "MIB")]
    memory: u64,
}

#[derive(Subcommand)]
enum Cmd {
    Grade(GradeArgs),
    List {
        folder: Option<PathBuf>,
    },
    Show {
        id: String,
    },
    Hint {
        id: String,
        #[arg(default_value_t = 1)]
        n: usize,
    },
    Eval {
        #[arg(long)]
        list: bool,
        #[arg(allow_hyphen_values = true, required_unless_present = "list")]
        source: Option<String>,
    },
    Class {
        folder: PathBuf,
        #[arg(long, value_name = "N")]
        jobs: Option<usize>,
        #[arg(long, value_name = "FILE")]
        csv: Option<PathBuf>,
        #[arg(long)]
        json: bool,
        #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
        timeout: f64,
        #[arg(long, default_value_t = 2048, value_name = "MIB")]
        memory: u64,
    },
    Verify {
        file: PathBuf,
        #[arg(long)]
        json: bool,
        #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
        timeout: f64,
        #[arg(long, default_value_t = 2048, value_name = "MIB")]
        memory: u64,
    },
    Completions {
        shell: clap_complete::Shell,
    },
}

/// The language asked for before clap has parsed anything (`--lang zh`,
/// `--lang=zh`, else the locale), so that `--help` can be worded in it.
fn lang_of_args(args: &[std::ffi::OsString]) -> Lang {
    let args: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let named = args
        .iter()
        .enumerate()
        .find_map(|(i, a)| match a.strip_prefix("--lang") {
            Some("") => args.get(i + 1).cloned(),
            Some(rest) => rest.strip_prefix('=').map(str::to_owned),
            None => None,
        });
    named
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(Lang::from_env)
}

/// The command line, worded in `lang`.
fn command(lang: Lang) -> clap::Command {
    frame::command(help::texts(Cli::command(), lang), lang)
}

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let asked = lang_of_args(&args);
    let parsed = command(asked)
        .try_get_matches_from(args)
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => match frame::error(&e, asked) {
            Some(text) => {
                eprint!("{text}");
                return ExitCode::from(2);
            }
            None => e.exit(),
        },
    };
    let lang = cli.lang.unwrap_or(asked);
    let g = &cli.grade;
    if cli.command.is_some() && (g.folder.is_some() || g.json || g.watch) {
        complain(lang, errors::args_before_command.as_str(lang));
        return ExitCode::from(2);
    }
    match cli.command {
        Some(Cmd::Grade(g)) => grade_cmd(&g, lang),
        Some(Cmd::List { folder }) => list_cmd(folder.as_deref(), lang),
        Some(Cmd::Show { id }) => show_cmd(&id, lang),
        Some(Cmd::Hint { id, n }) => hint_cmd(&id, n, lang),
        Some(Cmd::Eval { list: true, .. }) => {
            for (i, (chapter, fns)) in exercises::api::by_chapter().into_iter().enumerate() {
                if i > 0 {
                    outln!();
                }
                outln!("{chapter}:");
                for f in fns {
                    outln!("  {}\n      {}", f.signature(), f.doc_in(lang));
                }
            }
            ExitCode::SUCCESS
        }
        Some(Cmd::Eval { source, .. }) => eval_cmd(source.as_deref().unwrap_or_default(), lang),
        Some(Cmd::Class {
            folder,
            jobs,
            csv,
            json,
            timeout,
            memory,
        }) => {
            let jobs = jobs
                .or_else(|| std::thread::available_parallelism().ok().map(usize::from))
                .unwrap_or(1)
                .max(1);
            let opts = class::ClassOptions {
                jobs,
                csv,
                json,
                timeout,
                memory,
                lang,
            };
            class::class_cmd(&folder, &opts)
        }
        Some(Cmd::Verify {
            file,
            json,
            timeout,
            memory,
        }) => verify::verify_cmd(&file, json, timeout, memory, lang),
        Some(Cmd::Completions { shell }) => {
            let mut cmd = frame::completions_command(help::texts(Cli::command(), lang), lang);
            clap_complete::generate(shell, &mut cmd, "judge", &mut std::io::stdout());
            ExitCode::SUCCESS
        }
        None if cli.grade.folder.is_some() => grade_cmd(&cli.grade, lang),
        None => {
            let _ = command(lang).print_help();
            ExitCode::from(2)
        }
    }
}

/// Writes `text` to standard output; a broken pipe ends the program with
/// success (the reader has what it wanted), any other error with failure.
fn out_or_exit(text: std::fmt::Arguments) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_fmt(text).and_then(|()| stdout.flush()) {
        std::process::exit(i32::from(e.kind() != std::io::ErrorKind::BrokenPipe));
    }
}

/// Everything a grading run needs to know.
pub struct Options {
    /// Limits of the Rust and Python processes.
    pub limits: child::Limits,
    /// The language of the messages.
    pub lang: Lang,
}

/// Prints `judge: <message>` on standard error (`judge：` in Chinese).
fn complain(lang: Lang, message: &str) {
    eprintln!("{}", errors::complain { message }.text(lang));
}

fn grade_cmd(g: &GradeArgs, lang: Lang) -> ExitCode {
    let Some(folder) = g.folder.as_deref() else {
        let _ = command(lang).print_help();
        return ExitCode::from(2);
    };
    if !(g.timeout > 0.0 && g.timeout <= 3600.0) {
        complain(lang, errors::timeout_range.as_str(lang));
        return ExitCode::from(2);
    }
    let opts = Options {
        limits: child::Limits {
            timeout: Duration::from_secs_f64(g.timeout),
            memory: g.memory.saturating_mul(1 << 20),
        },
        lang,
    };
    if g.watch {
        return watch::watch(folder, lang, |f| {
            match grade_folder(f, &opts) {
                Err(e) => complain(lang, &e),
                Ok(r) => {
                    report::report(&r, g.json, lang);
                }
            };
        });
    }
    match grade_folder(folder, &opts) {
        Err(e) => {
            complain(lang, &e);
            ExitCode::from(2)
        }
        Ok(results) => report::report(&results, g.json, lang),
    }
}

/// `judge list [folder]`: every exercise, with its status in `folder` when given.
fn list_cmd(folder: Option<&Path>, lang: Lang) -> ExitCode {
    let graded = match folder.map(|f| {
        grade_folder(
            f,
            &Options {
                limits: child::Limits::default(),
                lang,
            },
        )
    }) {
        Some(Err(e)) => {
            complain(lang, &e);
            return ExitCode::from(2);
        }
        Some(Ok(g)) => g.graded,
        None => Vec::new(),
    };
    for ex in exercises::all() {
        let status: Vec<String> = graded
            .iter()
            .filter(|g| g.verdict.exercise == ex.id)
            .map(|g| {
                commands::list_status {
                    language: g.lang,
                    label: g.verdict.status.label_in(lang),
                }
                .text(lang)
            })
            .collect();
        let status = if folder.is_some() && status.is_empty() {
            commands::list_no_file.text(lang)
        } else {
            status.join(commands::list_status_sep.as_str(lang))
        };
        outln!(
            "{:<30} {}({})  {}",
            ex.id,
            ex.function,
            ex.params.join(", "),
            status
        );
    }
    ExitCode::SUCCESS
}

fn find_exercise(id: &str, lang: Lang) -> Result<Exercise, ExitCode> {
    exercises::by_id(id).ok_or_else(|| {
        complain(lang, &errors::no_exercise { id }.text(lang));
        ExitCode::from(2)
    })
}

/// `judge show <id>`: the statement, with the function to write.
fn show_cmd(id: &str, lang: Lang) -> ExitCode {
    let ex = match find_exercise(id, lang) {
        Ok(ex) => ex,
        Err(code) => return code,
    };
    // The worked examples' outputs are computed by the reference solution.
    let statement = match ex.statement_markdown_in(lang) {
        Ok(s) => s,
        Err(e) => {
            complain(lang, &e);
            return ExitCode::FAILURE;
        }
    };
    outln!("# {}\n", ex.title_in(lang));
    outln!("{}", statement.trim_end());
    let call = format!("{}({})", ex.function, ex.params.join(", "));
    let write = commands::show_write {
        call,
        returns: ex.returns,
    };
    outln!("\n{}", write.text(lang));
    ExitCode::SUCCESS
}

/// `judge hint <id> [n]`: the first `n` hints, in the reader's language.
fn hint_cmd(id: &str, n: usize, lang: Lang) -> ExitCode {
    let ex = match find_exercise(id, lang) {
        Ok(ex) => ex,
        Err(code) => return code,
    };
    let hints = ex.hints_in(lang);
    let n = n.clamp(1, hints.len().max(1));
    for (i, hint) in hints.iter().take(n).enumerate() {
        let line = commands::hint_line {
            n: i + 1,
            total: hints.len(),
            hint,
        };
        outln!("{}", line.text(lang));
    }
    if n < hints.len() {
        let next = commands::hint_next {
            id: ex.id,
            n: n + 1,
        };
        outln!("{}", next.text(lang));
    }
    ExitCode::SUCCESS
}

fn eval_cmd(src: &str, lang: Lang) -> ExitCode {
    let t0 = Instant::now();
    let deadline: judge::script::Deadline = Rc::new(move || t0.elapsed() > RHAI_DEADLINE);
    let (r, printed) =
        exercises::api::eval(src, judge::script::Limits::default(), Some(deadline), lang);
    for line in printed {
        eprintln!("{line}");
    }
    match r {
        Ok(v) => {
            outln!("{}", serde_json::to_string(&v).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}", errors::error { message: e }.text(lang));
            ExitCode::FAILURE
        }
    }
}

/// One graded solution: language and verdict.
pub struct Graded {
    /// `rhai`, `python` or `rust`.
    pub lang: &'static str,
    /// The verdict.
    pub verdict: Verdict,
    /// How long grading took (Rust: running the process, not building it).
    pub elapsed: Duration,
}

/// A graded folder: the verdicts, and a build error shown once.
pub struct Results {
    /// Every verdict: Rhai files first, then Python files, then Rust.
    pub graded: Vec<Graded>,
    /// The Rust package's errors that no single exercise owns.
    pub build_error: Option<String>,
}

fn chapter_of(folder: &Path, lang: Lang) -> Result<String, String> {
    let canon = folder.canonicalize().map_err(|error| {
        let folder = folder.display();
        match error.kind() {
            std::io::ErrorKind::NotFound => errors::no_folder { folder }.text(lang),
            _ => errors::cannot_open { folder, error }.text(lang),
        }
    })?;
    let name = canon
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_owned();
    if exercises::for_chapter(&name).is_empty() {
        return Err(errors::not_a_chapter { name }.text(lang));
    }
    Ok(name)
}

fn grade_folder(folder: &Path, opts: &Options) -> Result<Results, String> {
    let chapter = chapter_of(folder, opts.lang)?;
    let exs = exercises::for_chapter(&chapter);
    let mut graded = Vec::new();
    for ex in &exs {
        let file: PathBuf = folder.join(format!("{}.rhai", ex.slug()));
        let t0 = Instant::now();
        let verdict = match std::fs::read(&file) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => Verdict::without_cases(
                &ex.spec(),
                SolverError::Compile(format!("{}: {e}", file.display())),
            ),
            Ok(bytes) => grade_rhai_bytes(ex, &bytes),
        };
        graded.push(Graded {
            lang: "rhai",
            verdict,
            elapsed: t0.elapsed(),
        });
    }
    let py_files: Vec<(&Exercise, PathBuf)> = exs
        .iter()
        .map(|ex| (ex, folder.join(format!("{}.py", ex.slug()))))
        .filter(|(_, f)| f.exists())
        .collect();
    if !py_files.is_empty() {
        let python = python::check_interpreter();
        for (ex, file) in py_files {
            let t0 = Instant::now();
            let verdict = python::grade_file(&file, ex, opts.limits, &python, opts.lang);
            graded.push(Graded {
                lang: "python",
                verdict,
                elapsed: t0.elapsed(),
            });
        }
        python::clean_up();
    }
    let mut build_error = None;
    if folder.join("Cargo.toml").exists() {
        let r = rust::grade_package(folder, &exs, opts.limits, opts.lang);
        build_error = r.build_error;
        graded.extend(r.verdicts.into_iter().map(|(verdict, elapsed)| Graded {
            lang: "rust",
            verdict,
            elapsed,
        }));
    }
    Ok(Results {
        graded,
        build_error,
    })
}

/// Grades a `.rhai` file's bytes: too large or not UTF-8 is a verdict too.
fn grade_rhai_bytes(ex: &Exercise, bytes: &[u8]) -> Verdict {
    let limits = judge::script::Limits::default();
    if bytes.len() > limits.max_source {
        return Verdict::without_cases(
            &ex.spec(),
            SolverError::Sandbox(LimitHit::File {
                file: format!("{}.rhai", ex.slug()),
                bytes: bytes.len(),
                limit: limits.max_source,
            }),
        );
    }
    match std::str::from_utf8(bytes) {
        Ok(src) => grade_rhai(ex, src),
        Err(e) => {
            let line = bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            Verdict::without_cases(
                &ex.spec(),
                SolverError::Code(CodeError::NotUtf8 {
                    file: format!("{}.rhai", ex.slug()),
                    offset: e.valid_up_to(),
                    line,
                }),
            )
        }
    }
}

/// Grades Rhai source exactly as the browser does (same limits, same deadline).
pub fn grade_rhai(ex: &Exercise, src: &str) -> Verdict {
    let t0 = Instant::now();
    let deadline: judge::script::Deadline = Rc::new(move || t0.elapsed() > RHAI_DEADLINE);
    exercises::grade_rhai(ex, src, judge::script::Limits::default(), Some(deadline)).0
}
