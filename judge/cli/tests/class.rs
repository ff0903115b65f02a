//! `judge class` on a class folder built in a temp dir: a correct learner, a
//! wrong one (a known-wrong solution, so its mistake is named), an unattempted
//! one, a non-compiling Rust package, a progress export, and hostile ones (an
//! endless loop, a memory bomb, a fork that leaves sleeping children). The CSV
//! is compared in full; the hostile learners must not stop or slow the others.
#![allow(clippy::unwrap_used)] // test helpers: a failed setup step should just fail the test

mod common;
use common::{RHAI_OK, root};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A fresh class folder under the temp dir.
fn class_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ih-class-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `learner/ch_newmodels/<file>` = `text`.
fn put(class: &Path, learner: &str, file: &str, text: &str) {
    let dir = class.join(learner).join("ch_newmodels");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join(file), text).unwrap();
}

fn attended_file(rel: &str) -> String {
    std::fs::read_to_string(
        root()
            .join("chapters/src/ch_newmodels/exercises/attended")
            .join(rel),
    )
    .unwrap()
}

fn python(body: &str) -> String {
    format!("def attended(pos, ratio, topk, window):\n{body}\n")
}

/// A Rust practice package (`ch_newmodels`'s starters, no Rhai or Python)
/// whose `attended` does not compile.
fn broken_rust(class: &Path, learner: &str) {
    let src = root().join("practice/ch_newmodels");
    let dir = class.join(learner).join("ch_newmodels");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    for e in std::fs::read_dir(src.join("src")).unwrap().flatten() {
        std::fs::copy(e.path(), dir.join("src").join(e.file_name())).unwrap();
    }
    std::fs::copy(src.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let toml = std::fs::read_to_string(src.join("Cargo.toml"))
        .unwrap()
        .replace(
            "path = \"judge\"",
            &format!("path = \"{}\"", src.join("judge").display()),
        );
    std::fs::write(dir.join("Cargo.toml"), toml).unwrap();
    std::fs::write(
        dir.join("src/attended.rs"),
        "pub fn attended(pos: i64) -> i64 { pos + }",
    )
    .unwrap();
}

/// The hostile learners: an endless loop, a memory bomb, and a fork that
/// leaves 16 sleeping children (their pids written to `pids`).
fn hostile(class: &Path, pids: &Path) {
    put(
        class,
        "eve",
        "attended.py",
        &python("    while True:\n        pass"),
    );
    put(
        class,
        "mallory",
        "attended.py",
        &python("    a = [0] * 10**10\n    return len(a)"),
    );
    let fork = format!(
        "import os, time\n\ndef attended(pos, ratio, topk, window):\n    for _ in range(16):\n        pid = os.fork()\n        if pid == 0:\n            time.sleep(60)\n            os._exit(0)\n        with open({:?}, 'a') as f:\n            f.write('%d\\n' % pid)\n    while True:\n        pass\n",
        pids.display().to_string()
    );
    put(class, "oscar", "attended.py", &fork);
}

/// `judge class <dir> args…`: stdout, stderr, exit code, wall time.
fn class(dir: &Path, args: &[&str]) -> (String, String, i32, Duration) {
    let t0 = Instant::now();
    let out = common::judge_cmd()
        .arg("class")
        .arg(dir)
        .args(args)
        .env("CARGO_TARGET_DIR", root().join("target/class-tests"))
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
        t0.elapsed(),
    )
}

/// Every kind of learner; the CSV in full, the table, the summary, and the
/// same words in Chinese.
#[test]
fn a_class_is_graded_with_a_csv_in_full() {
    let dir = class_dir("full");
    put(&dir, "alice", "attended.rhai", RHAI_OK);
    put(&dir, "alice", "attended.py", &attended_file("solution.py"));
    put(
        &dir,
        "bob",
        "attended.rhai",
        &attended_file("wrong/no_topk_cap.rhai"),
    );
    put(
        &dir,
        "bob",
        "attended.py",
        &attended_file("wrong/true_division.py"),
    );
    put(
        &dir,
        "carol",
        "attended.rhai",
        &attended_file("starter.rhai"),
    );
    broken_rust(&dir, "dave");
    let pids = dir.join("fork-pids.txt");
    hostile(&dir, &pids);
    // A progress file from the page: a learner who wrote `pos` for everything.
    let export = serde_json::json!({
        "format": "inference-handbook-progress",
        "version": 2,
        "progress": {},
        "code": {"ch_newmodels/attended": "fn attended(pos, ratio, topk, window) { pos }"},
    });
    std::fs::write(dir.join("zed.json"), export.to_string()).unwrap();
    // Not a learner's work at all.
    std::fs::create_dir_all(dir.join("notes")).unwrap();

    let csv = dir.join("grades.csv");
    let (out, err, code, _) = class(
        &dir,
        &[
            "--jobs",
            "2",
            "--timeout",
            "3",
            "--memory",
            "512",
            "--csv",
            csv.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    let want = "\
learner,exercise,language,status,passed,total,misconception
alice,ch_newmodels/attended,rhai,passed,23,23,
alice,ch_newmodels/attended,python,passed,23,23,
bob,ch_newmodels/attended,rhai,failed,18,23,no_topk_cap
bob,ch_newmodels/attended,python,error,12,23,true_division
carol,ch_newmodels/attended,rhai,not_attempted,0,23,
dave,ch_newmodels/compress_stream,rust,not_attempted,0,17,
dave,ch_newmodels/attended,rust,error,0,23,
dave,ch_newmodels/read_bytes,rust,not_attempted,0,28,
dave,ch_newmodels/v4_kv,rust,not_attempted,0,18,
dave,ch_newmodels/kv_request,rust,not_attempted,0,19,
dave,ch_newmodels/break_even,rust,not_attempted,0,28,
dave,ch_newmodels/sinkhorn,rust,not_attempted,0,17,
dave,ch_newmodels/hash_loads,rust,not_attempted,0,14,
dave,ch_newmodels/dispatch_bytes,rust,not_attempted,0,20,
dave,ch_newmodels/prefix_reuse,rust,not_attempted,0,20,
eve,ch_newmodels/attended,python,limit_exceeded,0,23,
mallory,ch_newmodels/attended,python,limit_exceeded,0,23,
notes,,,error,0,0,
oscar,ch_newmodels/attended,python,limit_exceeded,0,23,
zed,ch_newmodels/attended,rhai,failed,0,23,
";
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), want, "{out}\n{err}");
    // Not a terminal: a line per learner.
    assert!(err.contains("graded 9 of 9 learners"), "{err}");
    // The table: a row per learner, a column per exercise and language tried.
    let header = out.lines().next().unwrap();
    assert!(
        header.starts_with("learner") && header.contains("attended.rhai"),
        "{out}"
    );
    assert!(
        out.contains("attended.py") && out.contains("attended.rs"),
        "{out}"
    );
    let alice = out.lines().find(|l| l.starts_with("alice")).unwrap();
    assert!(alice.contains("✓ 23/23"), "{out}");
    assert!(out.contains("1 of 3 who tried it passed (33%)"), "{out}");
    assert!(out.contains("1 of 5 who tried it passed (20%)"), "{out}");
    let dave = out.lines().find(|l| l.starts_with("dave")).unwrap();
    assert!(dave.contains("✗ 0/23"), "{out}");
    assert!(
        out.contains("named mistake most often: You did not cap the compressed entries at topk"),
        "{out}"
    );
    assert!(
        out.contains("! notes: neither a chapter's practice folder"),
        "{out}"
    );
    // The same class in Chinese.
    let (out, _, _, _) = class(&dir, &["--jobs", "2", "--timeout", "3", "--lang", "zh"]);
    assert!(out.starts_with("学员"), "{out}");
    assert!(out.contains("各练习汇总"), "{out}");
    assert!(out.contains("你没有用 topk 给压缩条目数设上限"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Hostile learners beside good ones, two at a time: everyone is graded,
/// within the hostile ones' own limits, and the fork's children are gone.
#[test]
fn hostile_learners_do_not_stop_the_others() {
    let dir = class_dir("hostile");
    let pids = dir.join("fork-pids.txt");
    hostile(&dir, &pids);
    for name in ["ann", "ben", "cat"] {
        put(&dir, name, "attended.rhai", RHAI_OK);
        put(&dir, name, "attended.py", &attended_file("solution.py"));
    }
    let (out, err, code, wall) = class(&dir, &["--jobs", "2", "--timeout", "2", "--json"]);
    assert_eq!(code, 0, "{out}\n{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let learners = v["learners"].as_array().unwrap();
    assert_eq!(learners.len(), 6, "{out}");
    for l in learners {
        let name = l["learner"].as_str().unwrap();
        let verdicts = l["verdicts"].as_array().unwrap();
        let want = if ["ann", "ben", "cat"].contains(&name) {
            "passed"
        } else {
            "limit_exceeded"
        };
        assert!(!verdicts.is_empty(), "{name}: {out}");
        for verdict in verdicts {
            assert_eq!(verdict["status"], want, "{name}: {verdict:#}");
        }
    }
    let summary = &v["summary"];
    let py = summary
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["language"] == "python")
        .unwrap();
    assert_eq!(py["attempted"], 6, "{py}");
    assert_eq!(py["passed"], 3, "{py}");
    assert_eq!(py["pass_rate"], 0.5, "{py}");
    // Three limits of 2 s, two at a time, and the good learners' work: far
    // less than the fork's children's 60 s of sleep.
    assert!(wall < Duration::from_secs(30), "{wall:?}");
    // The fork's children were ended with its process group.
    let text = std::fs::read_to_string(&pids).unwrap_or_default();
    assert!(!text.is_empty(), "the fork never ran");
    for pid in text.lines() {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // Gone, or a zombie nobody has reaped yet.
        assert!(
            stat.is_empty() || stat.contains(") Z "),
            "child {pid} still runs: {stat}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
