//! The class benchmark (`cargo xtask bench`): a synthetic class graded by
//! `judge class` at `--jobs 1` and `--jobs 2`, its wall time and learners per
//! second printed.
//!
//! `class_bench <judge binary> [learners]` (default 200). Learner `i` works on
//! one chapter (the book's chapters in turn); each of its exercises gets, in
//! turn, the correct, a known-wrong or the starter solution, in Rhai or in
//! Python. Every 50th learner is hostile: an endless loop in one exercise and a
//! memory bomb in another (Python, under `--timeout 2 --memory 512`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Writes learner `i`'s chapter folder under `class`.
fn learner(class: &Path, i: usize, chapters: &[&str]) -> std::io::Result<()> {
    let chapter = chapters[i % chapters.len()];
    let dir = class.join(format!("learner{i:03}")).join(chapter);
    std::fs::create_dir_all(&dir)?;
    let hostile = i % 50 == 49;
    for (j, ex) in exercises::for_chapter(chapter).iter().enumerate() {
        let python = (i * 7 + j) % 2 == 1;
        let id = ex.id;
        let args = ex.params.join(", ");
        let (file, src): (String, String) = if hostile && j < 2 {
            let body = if j == 0 {
                "    while True:\n        pass"
            } else {
                "    a = [0] * 10**10\n    return len(a)"
            };
            (
                format!("{}.py", ex.slug()),
                format!("def {}({args}):\n{body}\n", ex.function),
            )
        } else {
            let kind = (i + j) % 3;
            let wrong_py = exercises::known::known_wrong_python(id);
            let wrong_rhai = exercises::known::known_wrong(id);
            match (kind, python) {
                (0, false) => (
                    "rhai".into(),
                    exercises::known::known_good(id).unwrap_or_default().into(),
                ),
                (0, true) => (
                    "py".into(),
                    exercises::known::known_good_python(id)
                        .unwrap_or_default()
                        .into(),
                ),
                (1, true) if !wrong_py.is_empty() => {
                    ("py".into(), wrong_py[i % wrong_py.len()].1.into())
                }
                (1, _) if !wrong_rhai.is_empty() => {
                    ("rhai".into(), wrong_rhai[i % wrong_rhai.len()].1.into())
                }
                (_, true) => ("py".into(), ex.starter_python.into()),
                _ => ("rhai".into(), ex.starter_rhai.into()),
            }
        };
        let file = if file.contains('.') {
            file
        } else {
            format!("{}.{file}", ex.slug())
        };
        std::fs::write(dir.join(file), src)?;
    }
    Ok(())
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let Some(judge) = args.get(1).map(PathBuf::from) else {
        eprintln!("usage: class_bench <judge binary> [learners]");
        return std::process::ExitCode::from(2);
    };
    let n: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(200);
    let class = std::env::temp_dir().join(format!("judge-class-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&class);
    let all = exercises::all();
    let mut chapters: Vec<&str> = all
        .iter()
        .map(|e| e.id.split('/').next().unwrap_or_default())
        .collect();
    chapters.dedup();
    for i in 0..n {
        if let Err(e) = learner(&class, i, &chapters) {
            eprintln!("class_bench: {}: {e}", class.display());
            return std::process::ExitCode::FAILURE;
        }
    }
    let files: usize = walk(&class);
    println!(
        "class bench: {n} learners ({files} files: correct, known-wrong and starter solutions, Rhai and Python; {} hostile)",
        n / 50
    );
    for jobs in [1, 2] {
        let csv = class.join(format!("grades-{jobs}.csv"));
        let t0 = Instant::now();
        let status = Command::new(&judge)
            .arg("class")
            .arg(&class)
            .args([
                "--jobs",
                &jobs.to_string(),
                "--timeout",
                "2",
                "--memory",
                "512",
            ])
            .arg("--csv")
            .arg(&csv)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let wall = t0.elapsed().as_secs_f64();
        match status {
            Ok(_) => {
                let rows = std::fs::read_to_string(&csv)
                    .map(|t| t.lines().count().saturating_sub(1))
                    .unwrap_or(0);
                println!(
                    "  --jobs {jobs}: {wall:.1} s, {:.1} learners/s ({rows} verdicts)",
                    n as f64 / wall
                );
            }
            Err(e) => {
                eprintln!("class_bench: {}: {e}", judge.display());
                return std::process::ExitCode::FAILURE;
            }
        }
        // The CSV is not a learner.
        let _ = std::fs::remove_file(&csv);
    }
    let _ = std::fs::remove_dir_all(&class);
    std::process::ExitCode::SUCCESS
}

/// The number of files under `dir`.
fn walk(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| {
                    let p = e.path();
                    if p.is_dir() { walk(&p) } else { 1 }
                })
                .sum()
        })
        .unwrap_or(0)
}
