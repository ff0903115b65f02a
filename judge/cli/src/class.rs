//! `judge class <folder>`: a whole class graded offline. `<folder>` holds one
//! entry per learner: a folder that is a chapter's practice folder
//! (`ch_newmodels/`), a folder of them (a copy of `practice/`), or a progress
//! file from the page's "Export progress" (`<name>.json`, or the only `.json`
//! file in the learner's folder), read by the `saved` crate as the page reads
//! an import.
//!
//! Each chapter folder is graded by this same program as `judge grade <folder>
//! --json`, in a child process of its own: the same code paths, the same
//! per-exercise limits (Python and Rust in their own process groups, under
//! `--timeout` and `--memory`; Rhai under its sandbox's), the Rust package
//! built once, and nothing a learner's code does reaches another learner's
//! grading. Up to `--jobs` learners are graded at once.
//!
//! At the end: a table (learner × exercise and language: status and cases
//! passed), a summary per exercise (pass rate, the failing case and the named
//! mistake seen most often), `--csv FILE` one row per verdict, or everything
//! as JSON with `--json`.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use judge::{Lang, Status};
use serde_json::Value as J;

use crate::complain;
use crate::words::class as w;

/// What `judge class` was asked.
pub struct ClassOptions {
    /// Learners graded at once.
    pub jobs: usize,
    /// Where to write the CSV, if anywhere.
    pub csv: Option<PathBuf>,
    /// Print everything as JSON instead of the table.
    pub json: bool,
    /// `--timeout` for each learner's `judge grade`.
    pub timeout: f64,
    /// `--memory` for each learner's `judge grade`.
    pub memory: u64,
    /// The language of the words.
    pub lang: Lang,
}

/// Where a learner's work is.
enum Work {
    /// Chapter practice folders.
    Folders(Vec<PathBuf>),
    /// A progress file exported by the page.
    Export(PathBuf),
    /// Nothing the judge can grade.
    Nothing,
}

struct Learner {
    name: String,
    work: Work,
}

/// One verdict, as the table and the CSV need it.
struct Row {
    exercise: String,
    language: String,
    status: Status,
    passed: u64,
    total: u64,
    misconception: Option<String>,
    /// The number of the first case that did not pass.
    failing_case: Option<u64>,
}

/// A learner, graded.
struct Graded {
    name: String,
    rows: Vec<Row>,
    /// The verdicts as `judge grade --json` gave them.
    verdicts: Vec<J>,
    /// Rust packages that do not compile at all.
    build_errors: Vec<String>,
    /// Why some of the learner's work could not be graded.
    problems: Vec<String>,
}

/// `judge class <folder>`.
pub fn class_cmd(folder: &Path, opts: &ClassOptions) -> ExitCode {
    let lang = opts.lang;
    if !(opts.timeout > 0.0 && opts.timeout <= 3600.0) {
        complain(lang, crate::words::errors::timeout_range.as_str(lang));
        return ExitCode::from(2);
    }
    let learners = match learners(folder, lang) {
        Ok(l) => l,
        Err(e) => {
            complain(lang, &e);
            return ExitCode::from(2);
        }
    };
    let scratch = std::env::temp_dir().join(format!("judge-class-{}", std::process::id()));
    let t0 = Instant::now();
    let graded = grade_all(&learners, opts, &scratch);
    let _ = std::fs::remove_dir_all(&scratch);
    let seconds = t0.elapsed().as_secs_f64();
    let columns = columns(&graded);
    if let Some(file) = &opts.csv {
        let text = csv(&graded);
        if let Err(error) = std::fs::write(file, &text) {
            let file = file.display();
            complain(lang, &w::cannot_write { file, error }.text(lang));
            return ExitCode::from(2);
        }
    }
    if opts.json {
        let out = serde_json::json!({
            "learners": graded.iter().map(|g| serde_json::json!({
                "learner": g.name,
                "problems": g.problems,
                "build_errors": g.build_errors,
                "verdicts": g.verdicts,
            })).collect::<Vec<_>>(),
            "summary": columns.iter().map(|c| summary(&graded, c, lang).json()).collect::<Vec<_>>(),
            "jobs": opts.jobs,
            "seconds": (seconds * 1000.0).round() / 1000.0,
        });
        outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        table(&graded, &columns, lang);
        let heading = w::finished {
            learners: graded.len(),
            seconds: format!("{seconds:.1}"),
            jobs: opts.jobs,
        };
        outln!("\n{}", heading.text(lang));
        if let Some(file) = &opts.csv {
            let rows = graded.iter().map(|g| g.rows.len()).sum::<usize>();
            let file = file.display();
            outln!("{}", w::csv_written { file, rows }.text(lang));
        }
    }
    ExitCode::SUCCESS
}

/// Whether `dir` is a chapter's practice folder (by its name, as `judge <folder>`).
fn is_chapter(dir: &Path) -> bool {
    dir.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| !exercises::for_chapter(n).is_empty())
}

/// The entries of `dir`, sorted, without hidden ones and build output.
fn entries(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| !n.starts_with('.') && n != "target")
        })
        .collect();
    out.sort();
    Ok(out)
}

fn is_json(p: &Path) -> bool {
    p.is_file() && p.extension().is_some_and(|e| e == "json")
}

/// The learners of a class folder, by name.
fn learners(folder: &Path, lang: Lang) -> Result<Vec<Learner>, String> {
    let all = entries(folder).map_err(|error| {
        let folder = folder.display();
        match error.kind() {
            std::io::ErrorKind::NotFound => crate::words::errors::no_folder { folder }.text(lang),
            _ => crate::words::errors::cannot_open { folder, error }.text(lang),
        }
    })?;
    let mut out = Vec::new();
    for p in all {
        let name = |p: &Path| {
            p.file_stem()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        if is_json(&p) {
            out.push(Learner {
                name: name(&p),
                work: Work::Export(p),
            });
            continue;
        }
        if !p.is_dir() {
            continue;
        }
        let work = if is_chapter(&p) {
            Work::Folders(vec![p.clone()])
        } else {
            let inside = entries(&p).unwrap_or_default();
            let chapters: Vec<PathBuf> = inside
                .iter()
                .filter(|c| c.is_dir() && is_chapter(c))
                .cloned()
                .collect();
            let exports: Vec<&PathBuf> = inside.iter().filter(|c| is_json(c)).collect();
            match (chapters.is_empty(), exports.as_slice()) {
                (false, _) => Work::Folders(chapters),
                (true, [one]) => Work::Export((*one).clone()),
                _ => Work::Nothing,
            }
        };
        out.push(Learner {
            name: p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            work,
        });
    }
    if out.is_empty() {
        let folder = folder.display();
        return Err(w::no_learners { folder }.text(lang));
    }
    Ok(out)
}

/// Grades every learner, `opts.jobs` at a time, saying how far it got.
fn grade_all(learners: &[Learner], opts: &ClassOptions, scratch: &Path) -> Vec<Graded> {
    let n = learners.len();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Graded>>> = Mutex::new((0..n).map(|_| None).collect());
    let tty = std::io::stderr().is_terminal();
    let lang = opts.lang;
    let say = Mutex::new(());
    if tty {
        eprint!("\r{}", bar(0, n, lang));
    }
    std::thread::scope(|s| {
        for _ in 0..opts.jobs.clamp(1, n.max(1)) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(l) = learners.get(i) else { break };
                    let g = grade_learner(l, i, opts, scratch);
                    let k = done.fetch_add(1, Ordering::SeqCst) + 1;
                    {
                        let _turn = say.lock().unwrap_or_else(|e| e.into_inner());
                        if tty {
                            eprint!("\r{}", bar(k, n, lang));
                        } else {
                            let line = w::progress {
                                done: k,
                                total: n,
                                learner: &g.name,
                            };
                            eprintln!("{}", line.text(lang));
                        }
                    }
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(g);
                }
            });
        }
    });
    if tty {
        eprintln!();
    }
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect()
}

/// `[#######-------------] 7/20 learners`
fn bar(done: usize, total: usize, lang: Lang) -> String {
    const WIDTH: usize = 24;
    let filled = (done * WIDTH).checked_div(total).unwrap_or(WIDTH);
    let bar = format!("[{}{}]", "#".repeat(filled), "-".repeat(WIDTH - filled));
    w::bar { bar, done, total }.text(lang)
}

/// One learner's work, graded.
fn grade_learner(l: &Learner, index: usize, opts: &ClassOptions, scratch: &Path) -> Graded {
    let lang = opts.lang;
    let mut g = Graded {
        name: l.name.clone(),
        rows: Vec::new(),
        verdicts: Vec::new(),
        build_errors: Vec::new(),
        problems: Vec::new(),
    };
    let folders = match &l.work {
        Work::Folders(f) => f.clone(),
        Work::Nothing => {
            g.problems.push(w::no_work.as_str(lang).to_owned());
            return g;
        }
        Work::Export(file) => match unpack_export(file, &scratch.join(index.to_string()), lang) {
            Ok(f) => f,
            Err(e) => {
                g.problems.push(e);
                return g;
            }
        },
    };
    // Each learner's Rust builds in a target dir of its own: two packages of the
    // same name must not share one (cargo would hand one the other's binary).
    let target = std::env::var_os("CARGO_TARGET_DIR").map(|t| {
        let safe: String = l
            .name
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { '_' })
            .collect();
        PathBuf::from(t)
            .join("judge-class")
            .join(format!("{index}-{safe}"))
    });
    for folder in folders {
        match grade_folder(&folder, opts, target.as_deref()) {
            Ok((verdicts, build_error)) => {
                g.rows.extend(verdicts.iter().map(row));
                g.verdicts.extend(verdicts);
                g.build_errors.extend(build_error);
            }
            Err(message) => {
                let folder = folder.display();
                g.problems
                    .push(w::cannot_grade { folder, message }.text(lang));
            }
        }
    }
    g
}

/// Writes the code of a progress file as chapter folders under `dir`.
fn unpack_export(file: &Path, dir: &Path, lang: Lang) -> Result<Vec<PathBuf>, String> {
    let fail = |message: String| {
        let file = file.display();
        w::bad_export { file, message }.text(lang)
    };
    let size = std::fs::metadata(file)
        .map_err(|e| fail(e.to_string()))?
        .len();
    saved::check_import_size(size).map_err(|s| fail(format!("{s:?}")))?;
    let text = std::fs::read_to_string(file).map_err(|e| fail(e.to_string()))?;
    let all = exercises::all();
    let ids: Vec<&str> = all.iter().map(|e| e.id).collect();
    let import = saved::parse_export(&text, &ids).map_err(|s| fail(format!("{s:?}")))?;
    let mut folders = Vec::new();
    for (code, ext) in [(&import.code, "rhai"), (&import.python, "py")] {
        for (id, src) in code {
            let Some(ex) = exercises::by_id(id) else {
                continue;
            };
            let chapter = dir.join(ex.id.split('/').next().unwrap_or_default());
            std::fs::create_dir_all(&chapter).map_err(|e| fail(e.to_string()))?;
            std::fs::write(chapter.join(format!("{}.{ext}", ex.slug())), src)
                .map_err(|e| fail(e.to_string()))?;
            if !folders.contains(&chapter) {
                folders.push(chapter);
            }
        }
    }
    folders.sort();
    Ok(folders)
}

/// `judge grade <folder> --json` in a child process: the verdicts, and the
/// package's build error if it has one.
pub(crate) fn grade_folder(
    folder: &Path,
    opts: &ClassOptions,
    target: Option<&Path>,
) -> Result<(Vec<J>, Option<String>), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut cmd = Command::new(exe);
    cmd.arg("grade")
        .arg(folder)
        .arg("--json")
        .args(["--timeout", &opts.timeout.to_string()])
        .args(["--memory", &opts.memory.to_string()])
        .args(["--lang", "en"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match target {
        Some(t) => cmd.env("CARGO_TARGET_DIR", t),
        None => cmd.env_remove("CARGO_TARGET_DIR"),
    };
    // Its own process group, so that a learner who never finishes (a build
    // script that loops: the exercises' own runs have their limits) is ended
    // with everything it started.
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let mut child = cmd.spawn().map_err(|e| e.to_string())?;
    let read = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let out_reader = read(child.stdout.take().map(|p| Box::new(p) as _));
    let err_reader = read(child.stderr.take().map(|p| Box::new(p) as _));
    let exercises = folder
        .file_name()
        .and_then(|n| n.to_str())
        .map_or(0, |n| exercises::for_chapter(n).len());
    let budget =
        build_allowance() + Duration::from_secs_f64((opts.timeout + 2.0) * 3.0 * exercises as f64);
    let t0 = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if t0.elapsed() > budget => {
                end_group(child.id());
                let _ = child.kill();
                let _ = child.wait();
                let seconds = budget.as_secs();
                return Err(w::too_long { seconds }.text(opts.lang));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(e.to_string()),
        }
    };
    end_group(child.id());
    let stdout = out_reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    let stdout = String::from_utf8_lossy(&stdout);
    match serde_json::from_str::<J>(&stdout) {
        Ok(J::Array(verdicts)) => Ok((verdicts, None)),
        Ok(mut o @ J::Object(_)) => {
            let verdicts = o["verdicts"].as_array().cloned().unwrap_or_default();
            let build = o["build_error"].take().as_str().map(str::to_owned);
            Ok((verdicts, build))
        }
        _ => {
            let err = String::from_utf8_lossy(&stderr).trim().to_owned();
            Err(if err.is_empty() {
                status.to_string()
            } else {
                err
            })
        }
    }
}

/// What a learner's folder may take beyond its exercises' own limits (a Rust
/// build): 600 s, or `JUDGE_CLASS_BUILD_SECONDS`.
fn build_allowance() -> Duration {
    let seconds = std::env::var("JUDGE_CLASS_BUILD_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| *s >= 0.0 && s.is_finite())
        .unwrap_or(600.0);
    Duration::from_secs_f64(seconds)
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

fn row(v: &J) -> Row {
    let num = |v: &J| v.as_u64().unwrap_or(0);
    Row {
        exercise: v["exercise"].as_str().unwrap_or_default().to_owned(),
        language: v["language"].as_str().unwrap_or_default().to_owned(),
        status: serde_json::from_value(v["status"].clone()).unwrap_or(Status::Error),
        passed: num(&v["passed"]),
        total: num(&v["total"]),
        misconception: v["misconception"]["id"].as_str().map(str::to_owned),
        failing_case: v["cases"].as_array().and_then(|cases| {
            cases
                .iter()
                .find(|c| c["passed"] == false)
                .map(|c| num(&c["index"]))
        }),
    }
}

/// An exercise in one language: a column of the table.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Column {
    /// Its place in the book, for the order of the columns.
    order: usize,
    exercise: String,
    language: String,
}

impl Column {
    /// `attended.rhai`, `attended.py`, `attended.rs`.
    fn header(&self) -> String {
        let slug = self.exercise.rsplit('/').next().unwrap_or_default();
        let ext = match self.language.as_str() {
            "python" => "py",
            "rust" => "rs",
            other => other,
        };
        format!("{slug}.{ext}")
    }
}

/// The exercises some learner attempted, in the book's order.
fn columns(graded: &[Graded]) -> Vec<Column> {
    let order: BTreeMap<&str, usize> = exercises::all()
        .iter()
        .enumerate()
        .map(|(i, e)| (e.id, i))
        .collect();
    let lang_order = |l: &str| ["rhai", "python", "rust"].iter().position(|x| *x == l);
    let mut cols: Vec<Column> = graded
        .iter()
        .flat_map(|g| &g.rows)
        .filter(|r| r.status != Status::NotAttempted)
        .map(|r| Column {
            order: order
                .get(r.exercise.as_str())
                .copied()
                .unwrap_or(usize::MAX)
                * 4
                + lang_order(&r.language).unwrap_or(3),
            exercise: r.exercise.clone(),
            language: r.language.clone(),
        })
        .collect();
    cols.sort();
    cols.dedup();
    cols
}

fn find<'g>(g: &'g Graded, c: &Column) -> Option<&'g Row> {
    g.rows
        .iter()
        .find(|r| r.exercise == c.exercise && r.language == c.language)
}

/// `✓ 23/23`, `✗ 3/23`, `·` (not attempted), empty (no file).
fn cell(r: Option<&Row>) -> String {
    match r {
        None => String::new(),
        Some(r) if r.status == Status::NotAttempted => "·".to_owned(),
        Some(r) => {
            let mark = if r.status == Status::Passed {
                "✓"
            } else {
                "✗"
            };
            format!("{mark} {}/{}", r.passed, r.total)
        }
    }
}

fn pad(s: &str, width: usize) -> String {
    let n = s.chars().count();
    format!("{s}{}", " ".repeat(width.saturating_sub(n)))
}

/// The table, the summary per exercise and the learners' problems.
fn table(graded: &[Graded], columns: &[Column], lang: Lang) {
    let head = w::learner.as_str(lang);
    let first = graded
        .iter()
        .map(|g| g.name.chars().count())
        .chain([head.chars().count()])
        .max()
        .unwrap_or(0);
    if columns.is_empty() {
        outln!("{}", w::nothing_attempted.as_str(lang));
    } else {
        let widths: Vec<usize> = columns
            .iter()
            .map(|c| {
                graded
                    .iter()
                    .map(|g| cell(find(g, c)).chars().count())
                    .chain([c.header().chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut line = pad(head, first);
        for (c, wd) in columns.iter().zip(&widths) {
            line += &format!("  {}", pad(&c.header(), *wd));
        }
        outln!("{}", line.trim_end());
        for g in graded {
            let mut line = pad(&g.name, first);
            for (c, wd) in columns.iter().zip(&widths) {
                line += &format!("  {}", pad(&cell(find(g, c)), *wd));
            }
            outln!("{}", line.trim_end());
        }
        outln!("\n{}", w::per_exercise.as_str(lang));
        for c in columns {
            let s = summary(graded, c, lang);
            let rate = match (s.passed * 100).checked_div(s.attempted) {
                Some(p) => format!("{p}%"),
                None => "–".to_owned(),
            };
            let line = w::summary_line {
                column: c.header(),
                id: &c.exercise,
                language: &c.language,
                passed: s.passed,
                attempted: s.attempted,
                rate,
            };
            outln!("  {}", line.text(lang));
            if let Some((case, count)) = s.failing_case {
                outln!("    {}", w::failing_case { case, count }.text(lang));
            }
            if let Some((_, text, count)) = &s.mistake {
                outln!(
                    "    {}",
                    w::mistake {
                        text,
                        count: *count
                    }
                    .text(lang)
                );
            }
        }
    }
    for g in graded {
        for b in &g.build_errors {
            let first = b.lines().find(|l| l.starts_with("error")).unwrap_or(b);
            let line = w::problem {
                learner: &g.name,
                message: w::build_error { first }.text(lang),
            };
            outln!("{}", line.text(lang));
        }
        for message in &g.problems {
            let line = w::problem {
                learner: &g.name,
                message,
            };
            outln!("{}", line.text(lang));
        }
    }
}

/// What the class did on one exercise in one language.
struct Summary<'c> {
    column: &'c Column,
    attempted: usize,
    passed: usize,
    /// The first failing case seen most often, and how many learners.
    failing_case: Option<(u64, usize)>,
    /// The named mistake seen most often: id, text (in `lang`), learners.
    mistake: Option<(String, String, usize)>,
}

impl Summary<'_> {
    fn json(&self) -> J {
        serde_json::json!({
            "exercise": self.column.exercise,
            "language": self.column.language,
            "attempted": self.attempted,
            "passed": self.passed,
            "pass_rate": (self.attempted > 0)
                .then(|| (self.passed as f64 / self.attempted as f64 * 1000.0).round() / 1000.0),
            "failing_case": self.failing_case.map(|(case, learners)| serde_json::json!({"case": case, "learners": learners})),
            "misconception": self.mistake.as_ref().map(|(id, text, learners)| serde_json::json!({"id": id, "text": text, "learners": learners})),
        })
    }
}

/// The most frequent item and its count; ties go to the smallest.
fn mode<T: Ord + Clone>(items: impl Iterator<Item = T>) -> Option<(T, usize)> {
    let mut counts: BTreeMap<T, usize> = BTreeMap::new();
    for i in items {
        *counts.entry(i).or_default() += 1;
    }
    let best = counts.values().copied().max()?;
    counts.into_iter().find(|(_, n)| *n == best)
}

fn summary<'c>(graded: &[Graded], c: &'c Column, lang: Lang) -> Summary<'c> {
    let rows: Vec<&Row> = graded.iter().filter_map(|g| find(g, c)).collect();
    let attempted: Vec<&&Row> = rows
        .iter()
        .filter(|r| r.status != Status::NotAttempted)
        .collect();
    let passed = attempted
        .iter()
        .filter(|r| r.status == Status::Passed)
        .count();
    let failing = attempted.iter().filter(|r| r.status != Status::Passed);
    let failing_case = mode(failing.clone().filter_map(|r| r.failing_case));
    let mistake = mode(failing.filter_map(|r| r.misconception.clone())).map(|(id, n)| {
        let text = exercises::by_id(&c.exercise)
            .and_then(|e| e.mistake_in(&id, lang))
            .unwrap_or(&id)
            .to_owned();
        (id, text, n)
    });
    Summary {
        column: c,
        attempted: attempted.len(),
        passed,
        failing_case,
        mistake,
    }
}

/// One CSV field, quoted when it must be.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// Every verdict, a row each: learner, exercise, language, status, passed,
/// total, misconception (its id). Work that could not be graded is a row with
/// the status `error` and no exercise.
fn csv(graded: &[Graded]) -> String {
    let mut out = String::from("learner,exercise,language,status,passed,total,misconception\n");
    for g in graded {
        for r in &g.rows {
            let status = serde_json::to_value(r.status)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            out += &format!(
                "{},{},{},{},{},{},{}\n",
                field(&g.name),
                field(&r.exercise),
                field(&r.language),
                status,
                r.passed,
                r.total,
                field(r.misconception.as_deref().unwrap_or_default()),
            );
        }
        if !g.problems.is_empty() {
            out += &format!("{},,,error,0,0,\n", field(&g.name));
        }
    }
    out
}
