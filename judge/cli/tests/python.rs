//! The `judge` binary on Python answers (`<slug>.py`): every exercise's
//! `solution.py` passes, its starters are not attempted, its `wrong/*.py` fail,
//! and hostile or broken code gets a verdict that names what happened.
//! Needs `python3` (3.9 or newer) on the path, as the CI machine has.
#![allow(clippy::unwrap_used)] // test helpers: a failed setup step should just fail the test

mod common;
use std::path::{Path, PathBuf};

use common::root;

/// A fresh folder named `chapter` (the judge reads the chapter from the name),
/// holding `files` (name, text).
fn folder(tag: &str, chapter: &str, files: &[(String, String)]) -> PathBuf {
    let dir = std::env::temp_dir()
        .join(format!("ih-judge-py-{}-{tag}", std::process::id()))
        .join(chapter);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

/// `judge <dir> --json` plus `extra`: the Python verdicts by exercise id, and
/// the exit status.
fn grade(dir: &Path, extra: &[&str]) -> (Vec<serde_json::Value>, i32) {
    let out = common::judge_cmd()
        .arg(dir)
        .arg("--json")
        .args(extra)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let json: serde_json::Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{e}: {text}\n{}", String::from_utf8_lossy(&out.stderr)));
    // An array of verdicts (an object with them only beside a Rust build error).
    let verdicts = json
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["language"] == "python")
        .cloned()
        .collect();
    (verdicts, out.status.code().unwrap_or(-1))
}

fn chapters() -> Vec<String> {
    let mut ids: Vec<String> = exercises::all()
        .iter()
        .map(|e| e.chapter().to_owned())
        .collect();
    ids.dedup();
    ids
}

#[test]
fn every_solution_passes_and_every_starter_is_not_attempted() {
    for ch in chapters() {
        let exs = exercises::for_chapter(&ch);
        let solved: Vec<(String, String)> = exs
            .iter()
            .map(|e| {
                let src = exercises::known::known_good_python(e.id).unwrap();
                (format!("{}.py", e.slug()), src.to_owned())
            })
            .collect();
        let (verdicts, code) = grade(&folder("good", &ch, &solved), &[]);
        assert_eq!(verdicts.len(), exs.len(), "{ch}");
        for v in &verdicts {
            assert_eq!(v["status"], "passed", "{}: {}", v["exercise"], v["message"]);
        }
        assert_eq!(code, 0, "{ch}");
        for zh in [false, true] {
            let starters: Vec<(String, String)> = exs
                .iter()
                .map(|e| {
                    let lang = if zh {
                        chapters::Lang::Zh
                    } else {
                        chapters::Lang::En
                    };
                    (
                        format!("{}.py", e.slug()),
                        e.starter_python_in(lang).to_owned(),
                    )
                })
                .collect();
            let (verdicts, code) = grade(&folder("start", &ch, &starters), &[]);
            for v in &verdicts {
                assert_eq!(v["status"], "not_attempted", "{}", v["exercise"]);
            }
            assert_eq!(code, 1);
        }
    }
}

#[test]
fn every_known_wrong_python_answer_fails() {
    let (mut seen, mut shrunk) = (0, 0);
    for ex in exercises::all() {
        for (file, src) in exercises::known::known_wrong_python(ex.id) {
            let dir = folder(
                "wrong",
                ex.chapter(),
                &[(format!("{}.py", ex.slug()), (*src).to_owned())],
            );
            let (verdicts, _) = grade(&dir, &[]);
            assert_eq!(verdicts.len(), 1);
            let status = verdicts[0]["status"].as_str().unwrap();
            assert!(
                status == "failed" || status == "error",
                "{}/{file}: {status}",
                ex.id
            );
            // Its mistake is named (itself, or one whose results are the
            // same: see `python::tests` in the judge).
            let m = &verdicts[0]["misconception"];
            assert!(
                m["id"].is_string() && m["text"].is_string(),
                "{}/{file}: {m}",
                ex.id
            );
            // A failing generated case is shrunk (in rounds: a Python run
            // per round), to an input no larger that still fails.
            let v = &verdicts[0];
            let first_generated_fail = v["cases"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["kind"] == "generated" && c["passed"] == false);
            if let Some(case) = first_generated_fail {
                let s = &v["shrunk"];
                assert_eq!(s["case"], case["index"], "{}/{file}: {s}", ex.id);
                let input: Vec<judge::Value> = serde_json::from_value(s["input"].clone()).unwrap();
                let original: Vec<judge::Value> =
                    serde_json::from_value(case["input"].clone()).unwrap();
                assert!(
                    judge::shrink::input_size(&input) <= judge::shrink::input_size(&original),
                    "{}/{file}: {s}",
                    ex.id
                );
                assert!(
                    s["error"].is_object() || s["actual"] != s["expected"],
                    "{}/{file}: {s}",
                    ex.id
                );
                shrunk += 1;
            }
            seen += 1;
        }
    }
    assert!(seen > 0, "no wrong/*.py found");
    assert!(
        shrunk > 0,
        "no known-wrong Python answer fails a generated case"
    );
}

/// `attended(pos, ratio, topk, window)` with `body` as its code.
fn attended(body: &str) -> String {
    format!("def attended(pos, ratio, topk, window):\n{body}\n")
}

/// Grades `src` as `attended.py` and returns its verdict.
fn verdict_of(tag: &str, src: &str, extra: &[&str]) -> serde_json::Value {
    let dir = folder(
        tag,
        "ch_newmodels",
        &[("attended.py".to_owned(), src.to_owned())],
    );
    let (mut v, _) = grade(&dir, extra);
    assert_eq!(v.len(), 1, "{v:?}");
    v.remove(0)
}

fn expect(v: &serde_json::Value, status: &str, words: &str) {
    let message = v["message"].as_str().unwrap_or_default();
    assert_eq!(v["status"], status, "{message}");
    assert!(message.contains(words), "wanted {words:?} in: {message}");
}

#[test]
fn broken_python_is_named() {
    let v = verdict_of(
        "syntax",
        "def attended(pos, ratio, topk, window)\n    return 1\n",
        &[],
    );
    expect(&v, "error", "attended.py, line 1");
    let v = verdict_of(
        "missing",
        "def attend(pos, ratio, topk, window):\n    return 1\n",
        &[],
    );
    expect(&v, "error", "define `def attended(...)` with 4 parameters");
    let v = verdict_of("arity", "def attended(pos, ratio):\n    return 1\n", &[]);
    expect(&v, "error", "must take 4 parameters, yours takes 2");
    let v = verdict_of("import", "import no_such_module_here\n", &[]);
    expect(&v, "error", "line 1: ModuleNotFoundError");
    let v = verdict_of(
        "raise",
        &attended("    x = 1\n    return x / (ratio - ratio)"),
        &[],
    );
    expect(&v, "error", "line 3: ZeroDivisionError: division by zero");
    let v = verdict_of("type", &attended("    return (pos + 1) / ratio"), &[]);
    expect(
        &v,
        "error",
        "must return int, yours returned float. In Python `/` always gives a float",
    );
    let v = verdict_of("none", &attended("    pass"), &[]);
    expect(&v, "error", "yours returned None");
    let v = verdict_of("gen", &attended("    return (i for i in range(3))"), &[]);
    expect(&v, "error", "returned a generator");
    let v = verdict_of("big", &attended("    return 10 ** 30"), &[]);
    expect(
        &v,
        "error",
        "1000000000000000000000000000000, which does not fit in 64 bits",
    );
    let v = verdict_of("exit", &attended("    import sys\n    sys.exit(3)"), &[]);
    expect(&v, "error", "called sys.exit(3)");
    let v = verdict_of("nan", &attended("    return float('nan')"), &[]);
    expect(&v, "error", "must return int, yours returned float");
    let v = verdict_of(
        "todo",
        &attended(
            "    if pos > 5:\n        raise NotImplementedError\n    return min(window, pos + 1)",
        ),
        &[],
    );
    assert_eq!(v["status"], "failed", "{v}");
}

#[test]
fn runaway_python_hits_a_limit() {
    let v = verdict_of(
        "loop",
        &attended("    while True:\n        pass"),
        &["--timeout", "2"],
    );
    expect(
        &v,
        "limit_exceeded",
        "time limit exceeded (2 s for all cases; case 1",
    );
    let v = verdict_of(
        "deep",
        &attended("    return attended(pos, ratio, topk, window)"),
        &[],
    );
    expect(&v, "limit_exceeded", "call depth limit exceeded");
    let v = verdict_of(
        "mem",
        &attended("    a = [0] * 10**10\n    return 1"),
        &["--memory", "512"],
    );
    expect(
        &v,
        "limit_exceeded",
        "memory limit exceeded (512 MiB) in case 1",
    );
    let v = verdict_of(
        "str",
        &attended("    s = 'x' * 10**10\n    return 1"),
        &["--memory", "512"],
    );
    expect(&v, "limit_exceeded", "memory limit exceeded");
    // A million lines on the first case only (all of them would take longer than the limit).
    let flood = "FLOODED = []\n\ndef attended(pos, ratio, topk, window):\n    if not FLOODED:\n        FLOODED.append(1)\n        for i in range(10**6):\n            print('spam', i)\n    return -1\n";
    let v = verdict_of("flood", flood, &[]);
    assert_eq!(v["status"], "failed", "{v}");
    let printed = v["cases"][0]["printed"].as_array().unwrap();
    assert!(printed.len() <= 21, "{printed:?}");
    assert!(
        printed
            .iter()
            .any(|l| l.as_str().unwrap().contains("bytes printed in all")),
        "{printed:?}"
    );
}

#[test]
fn what_python_prints_is_shown_with_its_case() {
    let v = verdict_of(
        "print",
        &attended("    print('pos is', pos)\n    return -1"),
        &[],
    );
    assert_eq!(v["status"], "failed");
    let c = &v["cases"][0];
    let pos = c["input"][0].as_i64().unwrap();
    assert_eq!(c["printed"][0], format!("pos is {pos}"), "{c}");
}

#[test]
fn chinese_messages_for_python() {
    let dir = folder(
        "zh",
        "ch_newmodels",
        &[("attended.py".to_owned(), attended("    return 1 / 0"))],
    );
    let out = common::judge_cmd()
        .args(["--lang", "zh"])
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("[python]"), "{text}");
    assert!(
        text.contains("第 2 行抛出了 ZeroDivisionError：division by zero"),
        "{text}"
    );
}

#[test]
fn a_missing_python_is_said_once_per_file() {
    let dir = folder(
        "nopython",
        "ch_newmodels",
        &[("attended.py".to_owned(), attended("    return 1"))],
    );
    let out = common::judge_cmd()
        .arg(&dir)
        .arg("--json")
        .env("JUDGE_PYTHON", root().join("no-such-python"))
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let v = &json[0];
    assert_eq!(v["status"], "error");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("install Python 3.9 or newer, or name it in JUDGE_PYTHON"),
        "{v}"
    );
}

/// The verdict's shape that both languages must share: status, cases passed,
/// and each case's input, pass and printed lines.
fn shape(v: &serde_json::Value) -> serde_json::Value {
    let cases: Vec<serde_json::Value> = v["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| serde_json::json!([c["input"], c["passed"], c["printed"]]))
        .collect();
    serde_json::json!({ "status": v["status"], "passed": v["passed"], "cases": cases })
}

/// Grades one Rhai and one Python answer side by side (a folder may hold both)
/// and returns the two verdicts for `slug`.
fn twins(tag: &str, chapter: &str, slug: &str, rhai: &str, python: &str) -> [serde_json::Value; 2] {
    let dir = folder(
        tag,
        chapter,
        &[
            (format!("{slug}.rhai"), rhai.to_owned()),
            (format!("{slug}.py"), python.to_owned()),
        ],
    );
    let out = common::judge_cmd()
        .arg(&dir)
        .arg("--json")
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let of = |lang: &str| {
        json.as_array()
            .unwrap()
            .iter()
            .find(|v| v["language"] == lang)
            .unwrap_or_else(|| panic!("no {lang} verdict in {json}"))
            .clone()
    };
    [of("rhai"), of("python")]
}

#[test]
fn python_and_its_rhai_twin_get_the_same_verdict() {
    // Every exercise's two solutions: the same cases, in the same order, all passed.
    for ex in exercises::all() {
        let [rhai, python] = twins(
            "twin-good",
            ex.chapter(),
            ex.slug(),
            exercises::known::known_good(ex.id).unwrap(),
            exercises::known::known_good_python(ex.id).unwrap(),
        );
        assert_eq!(rhai["status"], "passed", "{}: {}", ex.id, rhai["message"]);
        assert_eq!(shape(&rhai), shape(&python), "{}", ex.id);
    }
    // The same mistakes written in each language: the same cases fail, with
    // the same printed lines and the same message where nothing is
    // language-specific.
    let pairs = [
        (
            "off-by-one",
            "fn attended(pos, ratio, topk, window) { let w = if pos < window { pos } else { window }; if ratio <= 1 { return w; } let d = pos / ratio; w + if topk > 0 && d > topk { topk } else { d } }",
            "def attended(pos, ratio, topk, window):\n    w = min(pos, window)\n    if ratio <= 1:\n        return w\n    d = pos // ratio\n    return w + (min(d, topk) if topk > 0 else d)\n",
        ),
        (
            "printing",
            "fn attended(pos, ratio, topk, window) { print(`pos ${pos}`); if pos > 3 { return 0; } let w = if window < pos + 1 { window } else { pos + 1 }; if ratio <= 1 { return w; } let d = (pos + 1) / ratio; w + if topk > 0 && d > topk { topk } else { d } }",
            "def attended(pos, ratio, topk, window):\n    print(f'pos {pos}')\n    if pos > 3:\n        return 0\n    w = min(window, pos + 1)\n    if ratio <= 1:\n        return w\n    d = (pos + 1) // ratio\n    return w + (min(d, topk) if topk > 0 else d)\n",
        ),
        (
            "partial",
            "fn attended(pos, ratio, topk, window) { if ratio > 1 { todo() } if window < pos + 1 { window } else { pos + 1 } }",
            "def attended(pos, ratio, topk, window):\n    if ratio > 1:\n        raise NotImplementedError\n    return min(window, pos + 1)\n",
        ),
    ];
    for (tag, rhai, python) in pairs {
        let [r, p] = twins(tag, "ch_newmodels", "attended", rhai, python);
        assert_eq!(r["status"], "failed", "{tag}: {}", r["message"]);
        assert_eq!(shape(&r), shape(&p), "{tag}");
        if tag != "partial" {
            assert_eq!(r["message"], p["message"], "{tag}");
        }
    }
}

/// The shrink's rounds run in one Python process, the answer loaded again
/// for each round: the same smallest input as the Rhai answer of the same
/// mistake (`cli.rs`), with Python started twice (the grading run and the
/// rounds), not once per round. The answer reads an empty standard input in
/// every round (the judge's own lines on that pipe are not the answer's),
/// and an answer that ends its process in one round gets a new process for
/// the next.
#[test]
fn shrink_rounds_share_one_python_process() {
    let pids = std::env::temp_dir().join(format!("ih-judge-py-{}-pids", std::process::id()));
    let _ = std::fs::remove_file(&pids);
    let head = format!(
        "import os, sys\nwith open({:?}, 'a') as f:\n    f.write('%d\\n' % os.getpid())\n",
        pids.display().to_string()
    );
    let wrong = "    assert sys.stdin.read() == ''\n    return window + (pos + 1) // ratio if ratio > 1 else window\n";
    let v = verdict_of("rounds", &format!("{head}{}", attended(wrong)), &[]);
    assert_eq!(v["status"], "failed", "{v}");
    let shrunk = &v["shrunk"];
    assert_eq!(shrunk["input"], serde_json::json!([0, 0, 0, 2]), "{shrunk}");
    assert_eq!(
        (shrunk["case"].clone(), shrunk["seed"].clone()),
        (17.into(), 20_261_129.into())
    );
    let text = std::fs::read_to_string(&pids).unwrap();
    let loads = text.lines().count();
    let mut distinct: Vec<&str> = text.lines().collect();
    distinct.dedup();
    assert!(
        loads > 3,
        "the answer is loaded once per round: {loads} loads"
    );
    assert_eq!(distinct.len(), 2, "one process graded, one shrank:\n{text}");

    // Ends its process on the inputs the search reaches first (window 0):
    // those rounds' cases get no reply, later rounds a new process, and the
    // search still ends on an input that fails as the original did.
    let _ = std::fs::remove_file(&pids);
    let ending = "    if window == 0:\n        os._exit(3)\n    return window + (pos + 1) // ratio if ratio > 1 else window\n";
    let v = verdict_of("rounds-exit", &format!("{head}{}", attended(ending)), &[]);
    assert_eq!(v["status"], "failed", "{v}");
    let shrunk = &v["shrunk"];
    assert_ne!(shrunk["actual"], shrunk["expected"], "{shrunk}");
    let input: Vec<judge::Value> = serde_json::from_value(shrunk["input"].clone()).unwrap();
    assert!(input[3] != judge::Value::Int(0), "{shrunk}");
    let text = std::fs::read_to_string(&pids).unwrap();
    let mut distinct: Vec<&str> = text.lines().collect();
    distinct.dedup();
    assert!(distinct.len() > 2, "a new process after one ended:\n{text}");
    let _ = std::fs::remove_file(&pids);
}
