//! `judge`: grades a practice folder offline with the same verdicts as the browser.
//!
//! `judge practice/ch_newmodels [--json]` grades every exercise of the chapter
//! named by the folder: `<slug>.rhai` through the sandboxed Rhai engine, and the
//! folder's Cargo package (built with the learner's cargo, each exercise run in
//! a child process with a timeout) for Rust solutions.

mod rust;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;
use std::time::{Duration, Instant};

use exercises::Exercise;
use judge::{Status, Verdict};

/// Wall-clock budget for one exercise's Rhai grading (same as the browser).
const RHAI_DEADLINE: Duration = Duration::from_secs(2);

fn usage() -> ExitCode {
    eprintln!(
        "usage:\n  judge <practice-folder> [--json] [--watch]   grade a folder, e.g. judge practice/ch_newmodels\n  judge list [practice-folder]       list the exercises (with their status in the folder)\n  judge hint <exercise-id> [N]       show the first N hints (default 1)\n  judge eval '<rhai expression>'     evaluate with the chapters' functions; prints JSON\n  judge eval --list                  list those functions"
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("eval") => return eval_cmd(&args[1..]),
        Some("list") => return list_cmd(args.get(1).map(Path::new)),
        Some("hint") => return hint_cmd(&args[1..]),
        None | Some("-h" | "--help") => return usage(),
        _ => {}
    }
    let json = args.iter().any(|a| a == "--json");
    let Some(folder) = args.iter().find(|a| !a.starts_with("--")) else {
        return usage();
    };
    if args.iter().any(|a| a == "--watch") {
        return watch(Path::new(folder), json);
    }
    match grade_folder(Path::new(folder)) {
        Err(e) => {
            eprintln!("judge: {e}");
            ExitCode::from(2)
        }
        Ok(results) => report(&results, json),
    }
}

/// `judge list [folder]`: every exercise, with its status in `folder` when given.
fn list_cmd(folder: Option<&Path>) -> ExitCode {
    let graded = match folder.map(grade_folder) {
        Some(Err(e)) => {
            eprintln!("judge: {e}");
            return ExitCode::from(2);
        }
        Some(Ok(g)) => g,
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

/// The newest modification time of the learner's files in `folder`.
fn newest_change(folder: &Path) -> Option<std::time::SystemTime> {
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in [folder.to_path_buf(), folder.join("src")] {
        if let Ok(rd) = std::fs::read_dir(&dir) {
            files.extend(rd.flatten().map(|e| e.path()));
        }
    }
    files
        .iter()
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("rhai" | "rs" | "toml")
            )
        })
        .filter_map(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
        .max()
}

/// `--watch`: grade now and again after every save, until Ctrl+C.
fn watch(folder: &Path, json: bool) -> ExitCode {
    let mut last = None;
    loop {
        let now = newest_change(folder);
        if now != last {
            last = now;
            print!("\x1b[2J\x1b[H");
            match grade_folder(folder) {
                Err(e) => eprintln!("judge: {e}"),
                Ok(results) => {
                    report(&results, json);
                }
            }
            println!(
                "\nwatching {} for changes (Ctrl+C to stop)",
                folder.display()
            );
        }
        std::thread::sleep(Duration::from_millis(300));
    }
}

fn eval_cmd(args: &[String]) -> ExitCode {
    if args.first().map(String::as_str) == Some("--list") {
        for f in exercises::api::functions() {
            println!("{}\n    {}", f.signature(), f.doc);
        }
        return ExitCode::SUCCESS;
    }
    let Some(src) = args.first() else {
        return usage();
    };
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

fn hint_cmd(args: &[String]) -> ExitCode {
    let Some(ex) = args.first().and_then(|id| exercises::by_id(id)) else {
        eprintln!("judge hint: give an exercise id; `judge list` shows them");
        return ExitCode::from(2);
    };
    let n: usize = args
        .get(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1)
        .clamp(1, ex.hints.len().max(1));
    for (i, h) in ex.hints.iter().take(n).enumerate() {
        println!("hint {}/{}: {h}", i + 1, ex.hints.len());
    }
    if n < ex.hints.len() {
        println!("(`judge hint {} {}` for the next one)", ex.id, n + 1);
    }
    ExitCode::SUCCESS
}

/// One graded solution: exercise, language, verdict.
struct Graded {
    lang: &'static str,
    verdict: Verdict,
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

fn grade_folder(folder: &Path) -> Result<Vec<Graded>, String> {
    let chapter = chapter_of(folder)?;
    let exs = exercises::for_chapter(&chapter);
    let mut out = Vec::new();
    for ex in &exs {
        let file: PathBuf = folder.join(format!("{}.rhai", ex.slug()));
        if let Ok(src) = std::fs::read_to_string(&file) {
            out.push(Graded {
                lang: "rhai",
                verdict: grade_rhai(ex, &src),
            });
        }
    }
    if folder.join("Cargo.toml").exists() {
        for (ex, v) in rust::grade_package(folder, &exs) {
            out.push(Graded {
                lang: "rust",
                verdict: v,
            });
            let _ = ex;
        }
    }
    Ok(out)
}

/// Grades Rhai source exactly as the browser does (same limits, same deadline).
pub fn grade_rhai(ex: &Exercise, src: &str) -> Verdict {
    let t0 = Instant::now();
    let deadline: judge::script::Deadline = Rc::new(move || t0.elapsed() > RHAI_DEADLINE);
    exercises::grade_rhai(ex, src, judge::script::Limits::default(), Some(deadline)).0
}

fn report(results: &[Graded], json: bool) -> ExitCode {
    let count = |s: Status| results.iter().filter(|g| g.verdict.status == s).count();
    let passed = count(Status::Passed);
    let not_attempted = count(Status::NotAttempted);
    let failed = results.len() - passed - not_attempted;
    if json {
        let items: Vec<serde_json::Value> = results
            .iter()
            .map(|g| {
                let mut v = serde_json::to_value(&g.verdict).unwrap_or_default();
                v["language"] = g.lang.into();
                v
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&items).unwrap_or_default()
        );
    } else {
        for g in results {
            let v = &g.verdict;
            let mark = match v.status {
                Status::Passed => "✓",
                Status::NotAttempted => "·",
                _ => "✗",
            };
            println!(
                "{mark} {} [{}]: {} ({}/{} cases)",
                v.exercise,
                g.lang,
                v.status.label(),
                v.passed,
                v.total
            );
            if !matches!(v.status, Status::Passed | Status::NotAttempted) {
                println!("    {}", v.message.replace('\n', "\n    "));
                if let Some(c) = v.first_failure()
                    && let Some(m) = &c.mismatch
                {
                    let errs = match (m.abs_err, m.rel_err) {
                        (Some(a), Some(r)) => format!(", abs. error {a:e}, rel. error {r:e}"),
                        (Some(a), None) => format!(", abs. error {a:e}"),
                        _ => String::new(),
                    };
                    let at = if m.path.is_empty() {
                        "value".to_owned()
                    } else {
                        m.path.clone()
                    };
                    println!("    {at}: expected {}, got {}{errs}", m.want, m.got);
                }
                if let Some(judge::CaseResult {
                    kind: judge::Kind::Generated { seed },
                    ..
                }) = v.first_failure()
                {
                    println!("    (generated case, seed {seed})");
                }
            }
        }
        if not_attempted > 0 {
            println!("{not_attempted} not attempted");
        }
        println!("{passed} passed, {failed} failed");
    }
    if failed == 0 && passed > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
