//! `judge`: grades a practice folder offline with the same verdicts as the browser.
//!
//! `judge practice/ch_newmodels [--json] [--watch]` grades every exercise of the
//! chapter named by the folder: `<slug>.rhai` through the sandboxed Rhai engine,
//! and the folder's Cargo package (built with the learner's cargo, each exercise
//! run in a child process with a timeout and a memory limit) for Rust solutions.
//! `judge --help` lists the other commands.

mod report;
mod rust;
mod watch;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;
use std::time::{Duration, Instant};

use clap::{Args, CommandFactory, Parser, Subcommand};
use exercises::Exercise;
use judge::{SolverError, Verdict};

/// Wall-clock budget for one exercise's Rhai grading (same as the browser).
const RHAI_DEADLINE: Duration = Duration::from_secs(2);

/// Grades the Inference Handbook's exercises offline.
#[derive(Parser)]
#[command(
    name = "judge",
    version,
    args_conflicts_with_subcommands = true,
    after_help = "Examples:\n  judge practice/ch_newmodels\n  judge practice/ch_newmodels --json\n  judge hint ch_newmodels/attended 2\n  judge eval 'ledger(\"DeepSeek-V4-Pro\", 262144)'"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    #[command(flatten)]
    grade: GradeArgs,
}

#[derive(Args)]
struct GradeArgs {
    /// The practice folder to grade, e.g. practice/ch_newmodels.
    folder: Option<PathBuf>,
    /// Print the verdicts as JSON.
    #[arg(long)]
    json: bool,
    /// Grade again after every change to the folder (Ctrl+C to stop).
    #[arg(long)]
    watch: bool,
    /// Seconds one exercise's Rust process may run, all cases together.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    timeout: f64,
    /// Memory (address space) one exercise's Rust process may use, in MiB.
    #[arg(long, default_value_t = 2048, value_name = "MIB")]
    memory: u64,
}

#[derive(Subcommand)]
enum Cmd {
    /// Grade a practice folder (the same as `judge <folder>`).
    Grade(GradeArgs),
    /// List the exercises, with their status in a folder when one is given.
    List {
        /// A practice folder.
        folder: Option<PathBuf>,
    },
    /// Print an exercise's statement.
    Show {
        /// The exercise id, e.g. ch_newmodels/v4_kv (`judge list` shows them).
        id: String,
    },
    /// Show an exercise's hints, the first N of them.
    Hint {
        /// The exercise id.
        id: String,
        /// How many hints to show.
        #[arg(default_value_t = 1)]
        n: usize,
    },
    /// Evaluate Rhai with the chapters' functions; prints the value as JSON.
    Eval {
        /// List the functions instead.
        #[arg(long)]
        list: bool,
        /// The expression or script.
        #[arg(allow_hyphen_values = true, required_unless_present = "list")]
        source: Option<String>,
    },
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Cmd::Grade(g)) => grade_cmd(&g),
        Some(Cmd::List { folder }) => list_cmd(folder.as_deref()),
        Some(Cmd::Show { id }) => show_cmd(&id),
        Some(Cmd::Hint { id, n }) => hint_cmd(&id, n),
        Some(Cmd::Eval { list: true, .. }) => {
            for (i, (chapter, fns)) in exercises::api::by_chapter().into_iter().enumerate() {
                if i > 0 {
                    println!();
                }
                println!("{chapter}:");
                for f in fns {
                    println!("  {}\n      {}", f.signature(), f.doc);
                }
            }
            ExitCode::SUCCESS
        }
        Some(Cmd::Eval { source, .. }) => eval_cmd(source.as_deref().unwrap_or_default()),
        Some(Cmd::Completions { shell }) => {
            clap_complete::generate(shell, &mut Cli::command(), "judge", &mut std::io::stdout());
            ExitCode::SUCCESS
        }
        None if cli.grade.folder.is_some() => grade_cmd(&cli.grade),
        None => {
            let _ = Cli::command().print_help();
            ExitCode::from(2)
        }
    }
}

/// Everything a grading run needs to know.
pub struct Options {
    /// Limits of the Rust processes.
    pub rust: rust::Limits,
}

fn grade_cmd(g: &GradeArgs) -> ExitCode {
    let Some(folder) = g.folder.as_deref() else {
        let _ = Cli::command().print_help();
        return ExitCode::from(2);
    };
    if !(g.timeout > 0.0 && g.timeout <= 3600.0) {
        eprintln!("judge: --timeout must be between 0 and 3600 seconds");
        return ExitCode::from(2);
    }
    let opts = Options {
        rust: rust::Limits {
            timeout: Duration::from_secs_f64(g.timeout),
            memory: g.memory.saturating_mul(1 << 20),
        },
    };
    if g.watch {
        return watch::watch(folder, |f| {
            match grade_folder(f, &opts) {
                Err(e) => eprintln!("judge: {e}"),
                Ok(r) => {
                    report::report(&r, g.json);
                }
            };
        });
    }
    match grade_folder(folder, &opts) {
        Err(e) => {
            eprintln!("judge: {e}");
            ExitCode::from(2)
        }
        Ok(results) => report::report(&results, g.json),
    }
}

/// `judge list [folder]`: every exercise, with its status in `folder` when given.
fn list_cmd(folder: Option<&Path>) -> ExitCode {
    let graded = match folder.map(|f| {
        grade_folder(
            f,
            &Options {
                rust: rust::Limits::default(),
            },
        )
    }) {
        Some(Err(e)) => {
            eprintln!("judge: {e}");
            return ExitCode::from(2);
        }
        Some(Ok(g)) => g.graded,
        None => Vec::new(),
    };
    for ex in exercises::all() {
        let status: Vec<String> = graded
            .iter()
            .filter(|g| g.verdict.exercise == ex.id)
            .map(|g| format!("{}: {}", g.lang, g.verdict.status.label()))
            .collect();
        let status = if folder.is_some() && status.is_empty() {
            "no file".to_owned()
        } else {
            status.join(", ")
        };
        println!(
            "{:<30} {}({})  {}",
            ex.id,
            ex.function,
            ex.params.join(", "),
            status
        );
    }
    ExitCode::SUCCESS
}

fn find_exercise(id: &str) -> Result<Exercise, ExitCode> {
    exercises::by_id(id).ok_or_else(|| {
        eprintln!("judge: no exercise `{id}`; `judge list` shows them");
        ExitCode::from(2)
    })
}

/// `judge show <id>`: the statement, with the function to write.
fn show_cmd(id: &str) -> ExitCode {
    let ex = match find_exercise(id) {
        Ok(ex) => ex,
        Err(code) => return code,
    };
    // The worked examples' outputs are computed by the reference solution.
    let statement = match ex.statement_markdown() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("judge: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("# {}\n", ex.title);
    println!("{}", statement.trim_end());
    println!(
        "\nWrite `{}({})`, returning {}.",
        ex.function,
        ex.params.join(", "),
        ex.returns
    );
    ExitCode::SUCCESS
}

fn hint_cmd(id: &str, n: usize) -> ExitCode {
    let ex = match find_exercise(id) {
        Ok(ex) => ex,
        Err(code) => return code,
    };
    let n = n.clamp(1, ex.hints.len().max(1));
    for (i, h) in ex.hints.iter().take(n).enumerate() {
        println!("hint {}/{}: {h}", i + 1, ex.hints.len());
    }
    if n < ex.hints.len() {
        println!("(`judge hint {} {}` for the next one)", ex.id, n + 1);
    }
    ExitCode::SUCCESS
}

fn eval_cmd(src: &str) -> ExitCode {
    let t0 = Instant::now();
    let deadline: judge::script::Deadline = Rc::new(move || t0.elapsed() > RHAI_DEADLINE);
    let (r, printed) = exercises::api::eval(src, judge::script::Limits::default(), Some(deadline));
    for line in printed {
        eprintln!("{line}");
    }
    match r {
        Ok(v) => {
            println!("{}", serde_json::to_string(&v).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// One graded solution: language and verdict.
pub struct Graded {
    /// `rhai` or `rust`.
    pub lang: &'static str,
    /// The verdict.
    pub verdict: Verdict,
    /// How long grading took (Rust: running the process, not building it).
    pub elapsed: Duration,
}

/// A graded folder: the verdicts, and a build error shown once.
pub struct Results {
    /// Every verdict, Rhai files first.
    pub graded: Vec<Graded>,
    /// The Rust package's errors that no single exercise owns.
    pub build_error: Option<String>,
}

fn chapter_of(folder: &Path) -> Result<String, String> {
    let canon = folder
        .canonicalize()
        .map_err(|e| format!("{}: {e}", folder.display()))?;
    let name = canon
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_owned();
    if exercises::for_chapter(&name).is_empty() {
        return Err(format!(
            "`{name}` is not a chapter with exercises (try practice/ch_newmodels)"
        ));
    }
    Ok(name)
}

fn grade_folder(folder: &Path, opts: &Options) -> Result<Results, String> {
    let chapter = chapter_of(folder)?;
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
    let mut build_error = None;
    if folder.join("Cargo.toml").exists() {
        let r = rust::grade_package(folder, &exs, opts.rust);
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
            SolverError::Limit(format!(
                "{}.rhai is too large: {} bytes, the limit is {} bytes",
                ex.slug(),
                bytes.len(),
                limits.max_source
            )),
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
                SolverError::Compile(format!(
                    "{}.rhai is not UTF-8 text (invalid byte at offset {}, line {line}); save it as UTF-8",
                    ex.slug(),
                    e.valid_up_to()
                )),
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
