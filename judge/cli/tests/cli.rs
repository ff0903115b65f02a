//! The `judge` binary on copies of the practice folder: starters, correct,
//! wrong, looping and non-compiling solutions, in Rhai and Rust.
#![allow(clippy::unwrap_used)] // test helpers: a failed setup step should just fail the test

mod common;
use common::{RHAI_OK, RUST_OK, root};
use std::path::{Path, PathBuf};

/// The tests share one practice folder and one target dir (the practice crate's
/// dependencies build once). Cargo's freshness check is keyed by package, not
/// path, so the folder must be the same one every time, and the tests must take
/// turns: each holds this lock from copying the starters to its last judge run.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Resets the shared copy of `practice/ch_newmodels` (a folder named
/// `ch_newmodels` under the temp dir) to the starters, with its `judge`
/// dependency (its copy of the harness, `judge/`) pointing at the
/// repository's.
fn practice_copy() -> (PathBuf, std::sync::MutexGuard<'static, ()>) {
    let guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = std::env::temp_dir()
        .join(format!("ih-judge-test-{}", std::process::id()))
        .join("ch_newmodels");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let src = root().join("practice/ch_newmodels");
    for sub in ["", "src"] {
        for entry in std::fs::read_dir(src.join(sub)).unwrap().flatten() {
            let path = entry.path();
            if path.is_file() {
                std::fs::copy(&path, dir.join(sub).join(entry.file_name())).unwrap();
            }
        }
    }
    let toml = std::fs::read_to_string(src.join("Cargo.toml"))
        .unwrap()
        .replace(
            "path = \"judge\"",
            &format!(
                "path = \"{}\"",
                root().join("practice/ch_newmodels/judge").display()
            ),
        );
    std::fs::write(dir.join("Cargo.toml"), toml).unwrap();
    (dir, guard)
}

fn judge(dir: &Path, extra: &[&str]) -> (String, i32) {
    let out = common::judge_cmd()
        .arg(dir)
        .args(extra)
        .env("CARGO_TARGET_DIR", root().join("target/practice-tests"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned()
        + String::from_utf8_lossy(&out.stderr).as_ref();
    (text, out.status.code().unwrap_or(-1))
}

#[test]
fn starters_are_not_attempted_and_exit_nonzero() {
    let (dir, _turn) = practice_copy();
    let (out, code) = judge(&dir, &[]);
    assert!(
        out.contains("ch_newmodels/attended [rhai]: not attempted"),
        "{out}"
    );
    assert!(
        out.contains("ch_newmodels/attended [rust]: not attempted"),
        "{out}"
    );
    assert!(out.trim_end().ends_with("0 passed, 0 failed"), "{out}");
    assert_eq!(code, 1);
}

#[test]
fn correct_solutions_pass_and_exit_zero() {
    let (dir, _turn) = practice_copy();
    std::fs::write(dir.join("attended.rhai"), RHAI_OK).unwrap();
    std::fs::write(dir.join("src/attended.rs"), RUST_OK).unwrap();
    let (out, code) = judge(&dir, &[]);
    assert!(
        out.contains("✓ ch_newmodels/attended [rhai]: passed (23/23 cases)"),
        "{out}"
    );
    assert!(
        out.contains("✓ ch_newmodels/attended [rust]: passed (23/23 cases)"),
        "{out}"
    );
    assert!(out.trim_end().ends_with("2 passed, 0 failed"), "{out}");
    assert_eq!(code, 0);
}

#[test]
fn wrong_solutions_show_the_first_failure_with_the_same_verdict_in_both_languages() {
    let (dir, _turn) = practice_copy();
    std::fs::write(dir.join("attended.rhai"), "fn attended(pos, ratio, topk, window) { if ratio > 1 { window + (pos + 1) / ratio } else { window } }").unwrap();
    std::fs::write(
        dir.join("src/attended.rs"),
        "pub fn attended(pos: i64, ratio: i64, topk: i64, window: i64) -> i64 { if ratio > 1 { window + (pos + 1) / ratio } else { window } }",
    )
    .unwrap();
    let (out, code) = judge(&dir, &[]);
    assert!(
        out.contains("case 1: attended(1048575, 4, 512, 128) returned 262272, expected 640"),
        "{out}"
    );
    assert!(
        out.contains("value: expected 640, got 262272, off by 261632"),
        "{out}"
    );
    assert!(out.trim_end().ends_with("0 passed, 2 failed"), "{out}");
    assert_eq!(code, 1);
    // The Rhai answer's smallest failing input comes first, before case 1.
    let shrunk = "Smallest failing input found: attended(0, 0, 0, 2) (shrunk from case 17, seed 20261129)\n      expected 1, got 2\n    case 1:";
    assert!(out.contains(shrunk), "{out}");
    let (json, _) = judge(&dir, &["--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let verdict = |lang: &str| {
        let mut x = v
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["exercise"] == "ch_newmodels/attended" && x["language"] == lang)
            .unwrap()
            .clone();
        x.as_object_mut().unwrap().remove("language");
        x.as_object_mut().unwrap().remove("elapsed_ms");
        x
    };
    assert_eq!(verdict("rhai")["status"], "failed");
    // Rust answers are shrunk too, in rounds (a run of the binary per round),
    // to the same input: the verdicts are identical, shrunk case included.
    let rhai = verdict("rhai");
    let shrunk = &rhai["shrunk"];
    assert_eq!(shrunk["input"], serde_json::json!([0, 0, 0, 2]));
    assert_eq!(
        (shrunk["case"].clone(), shrunk["seed"].clone()),
        (17.into(), 20_261_129.into())
    );
    assert_eq!(
        rhai,
        verdict("rust"),
        "Rhai and Rust verdicts are identical"
    );
}

/// A wrong answer whose results match a known-wrong solution (#29): the
/// text names the mistake after the diff, in the reader's language, and the
/// JSON carries it as `misconception`, the same for Rhai, Rust and Python.
#[test]
fn a_known_mistake_is_named_in_rhai_rust_and_python() {
    let (dir, _turn) = practice_copy();
    std::fs::write(
        dir.join("attended.rhai"),
        "fn attended(pos, ratio, topk, window) { let w = if pos + 1 < window { pos + 1 } else { window }; if ratio <= 1 { return w; } w + (pos + 1) / ratio }",
    )
    .unwrap();
    std::fs::write(
        dir.join("src/attended.rs"),
        "pub fn attended(pos: i64, ratio: i64, _topk: i64, window: i64) -> i64 { let w = (pos + 1).min(window); if ratio <= 1 { return w; } w + (pos + 1) / ratio }",
    )
    .unwrap();
    std::fs::write(
        dir.join("attended.py"),
        "def attended(pos, ratio, topk, window):\n    w = min(pos + 1, window)\n    if ratio <= 1:\n        return w\n    return w + (pos + 1) // ratio\n",
    )
    .unwrap();
    let line = "    Known mistake: You did not cap the compressed entries at topk. (your results on the failing cases match it)";
    let (out, _) = judge(&dir, &["--lang", "en"]);
    assert_eq!(out.matches(line).count(), 3, "{out}");
    // After the diff.
    let diff = out.find("value: expected 640, got 262272").unwrap();
    assert!(out[diff..].contains(line), "{out}");
    let (out, _) = judge(&dir, &["--lang", "zh"]);
    assert_eq!(
        out.matches("    已知错误：你没有用 topk 给压缩条目数设上限。")
            .count(),
        3,
        "{out}"
    );
    let (json, _) = judge(&dir, &["--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let named: Vec<&serde_json::Value> = v
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["exercise"] == "ch_newmodels/attended")
        .map(|x| &x["misconception"])
        .collect();
    assert_eq!(named.len(), 3, "{json}");
    for m in named {
        assert_eq!(
            *m,
            serde_json::json!({ "id": "no_topk_cap", "text": "You did not cap the compressed entries at topk." })
        );
    }
}

#[test]
fn a_compile_error_is_reported_and_rhai_is_still_graded() {
    let (dir, _turn) = practice_copy();
    std::fs::write(dir.join("attended.rhai"), RHAI_OK).unwrap();
    std::fs::write(
        dir.join("src/attended.rs"),
        "pub fn attended(pos: i64) -> i64 { pos + }",
    )
    .unwrap();
    let (out, code) = judge(&dir, &[]);
    assert!(out.contains("[rhai]: passed"), "{out}");
    assert!(
        out.contains("[rust]: error") && out.contains("src/attended.rs does not compile"),
        "{out}"
    );
    assert_eq!(code, 1);
    // In Chinese: the judge's words are Chinese, the compiler's are kept.
    let (out, code) = judge(&dir, &["--lang", "zh"]);
    assert!(out.contains("[rhai]：通过"), "{out}");
    assert!(
        out.contains("[rust]：出错")
            && out.contains("src/attended.rs 无法编译（其余练习已撇开它单独评测）")
            && out.contains("error"),
        "{out}"
    );
    assert_eq!(code, 1);
}

#[test]
fn a_looping_rust_solution_is_stopped_and_a_panic_is_an_error() {
    let (dir, _turn) = practice_copy();
    std::fs::write(
        dir.join("src/attended.rs"),
        "pub fn attended(pos: i64, ratio: i64, topk: i64, window: i64) -> i64 { if pos == 0 { panic!(\"boom\") } let mut x = 0; loop { x += 1; std::hint::black_box(x); } }",
    )
    .unwrap();
    let (out, _) = judge(&dir, &[]);
    assert!(out.contains("[rust]: limit exceeded"), "{out}");
}

#[test]
fn help_is_chinese_with_lang_zh() {
    let help = |args: &[&str]| {
        let out = common::judge_cmd().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // Every command's help, in both ways of asking and from the locale.
    let top = help(&["--lang", "zh", "--help"]);
    assert!(
        top.contains("离线评测《推理手册》的练习。") && top.contains("评测消息、题面和提示的语言"),
        "{top}"
    );
    assert!(!top.contains("Grades the Inference Handbook"), "{top}");
    for (cmd, words) in [
        ("grade", "要评测的练习文件夹"),
        ("list", "一个练习文件夹。"),
        ("show", "练习的 id，例如"),
        ("hint", "显示几条提示。"),
        ("eval", "表达式或脚本。"),
        ("completions", "哪种 shell。"),
    ] {
        let text = help(&[cmd, "--lang=zh", "--help"]);
        assert!(text.contains(words), "{cmd}: {text}");
        // clap's own words too: the usage line, the headings, the help flag.
        assert!(
            text.contains("\n用法：judge ")
                && text.contains("\n选项：\n")
                && text.contains("显示帮助"),
            "{cmd}: {text}"
        );
        for english in [
            "Usage:",
            "Options:",
            "Arguments:",
            "Print help",
            "[default:",
            "[possible values:",
        ] {
            assert!(!text.contains(english), "{cmd}: {english} in {text}");
        }
    }
    for (args, words) in [
        (
            &["--lang", "zh", "--help"][..],
            &[
                "命令：\n",
                "参数：\n",
                "显示本帮助，或所给命令的帮助",
                "显示版本",
                "[默认：10]",
            ][..],
        ),
        (
            &["--lang", "zh", "completions", "--help"],
            &["[可取的值：bash, elvish, fish, powershell, zsh]"],
        ),
        (
            &["--lang", "zh", "help", "hint"],
            &["显示几条提示。 [默认：1]"],
        ),
    ] {
        let text = help(args);
        for w in words {
            assert!(text.contains(w), "{args:?}: {w} not in {text}");
        }
        assert!(!text.contains("Print "), "{args:?}: {text}");
    }
    let out = common::judge_cmd()
        .env("LANG", "zh_CN.UTF-8")
        .arg("--help")
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("离线评测"),
        "{out:?}"
    );
    // English stays as the doc comments say.
    let en = help(&["--lang", "en", "--help"]);
    assert!(
        en.contains("Grades the Inference Handbook's exercises offline"),
        "{en}"
    );
    // The Chinese functions' docs in `eval --list`.
    let list = help(&["--lang", "zh", "eval", "--list"]);
    assert!(
        list.starts_with("ch_newmodels:\n  ")
            && list
                .chars()
                .filter(|c| ('\u{4e00}'..='\u{9fff}').contains(c))
                .count()
                > 100,
        "{list}"
    );
}

#[test]
fn command_line_errors_are_chinese_with_lang_zh() {
    let run = |args: &[&str]| {
        let out = common::judge_cmd().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    for (args, words) in [
        (
            &["--lang", "zh", "--jsn"][..],
            &[
                "错误：不认识的参数 '--jsn'",
                "提示：是不是想用 '--json'？",
                "用法：judge ",
            ][..],
        ),
        (
            &["--lang", "zh", "hint"],
            &["错误：缺少必需的参数：<ID>", "用法：judge hint <ID> [N]"],
        ),
        (
            &[
                "--lang=zh",
                "grade",
                "--timeout",
                "x",
                "practice/ch_newmodels",
            ],
            &["'x' 不对：不是一个数"],
        ),
        (
            &["--lang", "zh", "completions", "fishy"],
            &[
                "'fishy' 不对",
                "[可取的值：bash, elvish, fish, powershell, zsh]",
                "是不是想用 'fish'？",
            ],
        ),
        (
            &["--lang", "zh", "show", "a", "b"],
            &["错误：不认识的参数 'b'"],
        ),
        (
            &["--lang", "zh", "no-such-folder"],
            &["judge：没有 no-such-folder 这个文件夹"],
        ),
    ] {
        let text = run(args);
        for w in words {
            assert!(text.contains(w), "{args:?}: {w} not in {text}");
        }
        for english in ["error:", "Usage:", "tip:", "For more information"] {
            assert!(!text.contains(english), "{args:?}: {english} in {text}");
        }
    }
    // A Chinese locale asks for the same; English stays clap's.
    let out = common::judge_cmd()
        .env("LANG", "zh_CN.UTF-8")
        .arg("--jsn")
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("不认识的参数"),
        "{out:?}"
    );
    let en = run(&["--lang", "en", "--jsn"]);
    assert!(
        en.contains("error: unexpected argument '--jsn' found") && en.contains("Usage:"),
        "{en}"
    );
}

#[test]
fn eval_prints_json_and_lists_the_api() {
    let run = |args: &[&str]| common::judge_cmd().args(args).output().unwrap();
    let out = run(&[
        "eval",
        "[attended(1048575, 4, 512, 128), ledger(\"DeepSeek-V4-Pro\", 262144)]",
    ]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "[640,1468060672.0]"
    );
    assert!(out.status.success());
    let out = run(&["eval", "--list"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("ch_newmodels:\n  "),
        "grouped by chapter: {text}"
    );
    assert!(
        text.contains(
            "v4_kv(c4, c128, swa_only, idx_bytes) -> [per_token_bytes (float), fixed_bytes (int)]"
        ),
        "{text}"
    );
    let out = run(&["eval", "attended(1, 2)"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("attended"),
        "{:?}",
        out
    );
    // In Chinese, Rhai's error is worded in Chinese, with the function's signature.
    let out = run(&["--lang", "zh", "eval", "attended(1, 2)"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("错误：运行出错（第 1 行第 1 列）：找不到函数 attended (i64, i64)")
            && err.contains("；本书的函数是 attended(pos, ratio, topk, window)"),
        "{err}"
    );
    let out = run(&["hint", "ch_newmodels/attended"]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("hint 1/4:"));
    // The statement's worked examples are computed by the reference solution.
    let out = run(&["show", "ch_newmodels/v4_kv"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(
        text.contains("`v4_kv(21, 20, 2, 132)`, is `[3850.25, 15420416]`.") && !text.contains("{{"),
        "{text}"
    );
}

#[test]
fn list_shows_status_and_watch_grades_at_once() {
    use std::io::{BufRead, BufReader};
    let (dir, _turn) = practice_copy();
    std::fs::write(dir.join("attended.rhai"), RHAI_OK).unwrap();
    let out = common::judge_cmd()
        .arg("list")
        .arg(&dir)
        .env("CARGO_TARGET_DIR", root().join("target/practice-tests"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("ch_newmodels/attended "))
        .unwrap();
    assert!(
        line.contains("rhai: passed") && line.contains("rust: not attempted"),
        "{text}"
    );

    let mut child = common::judge_cmd()
        .arg(&dir)
        .arg("--watch")
        .env("CARGO_TARGET_DIR", root().join("target/practice-tests"))
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut seen = String::new();
    for l in BufReader::new(child.stdout.take().unwrap()).lines() {
        let l = l.unwrap();
        seen += &l;
        seen.push('\n');
        if l.starts_with("watching ") {
            break;
        }
    }
    child.kill().unwrap();
    let _ = child.wait();
    assert!(
        seen.contains("✓ ch_newmodels/attended [rhai]: passed"),
        "{seen}"
    );
}

/// `--watch` regrades after a file is deleted and after an older file is moved
/// in (an mtime poll misses both).
#[test]
fn watch_sees_deleted_and_moved_in_files() {
    use std::io::{BufRead, BufReader};
    let (dir, _turn) = practice_copy();
    std::fs::remove_file(dir.join("Cargo.toml")).unwrap(); // Rhai only: no builds
    std::fs::write(dir.join("attended.rhai"), RHAI_OK).unwrap();
    let mut child = common::judge_cmd()
        .arg(&dir)
        .arg("--watch")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    // One grading round: the lines up to "watching ...".
    let mut round = || {
        let mut seen = String::new();
        for l in lines.by_ref() {
            let l = l.unwrap();
            if l.starts_with("watching ") {
                return seen;
            }
            seen += &l;
            seen.push('\n');
        }
        seen
    };
    let first = round();
    assert!(
        first.contains("✓ ch_newmodels/attended [rhai]: passed"),
        "{first}"
    );
    std::thread::sleep(std::time::Duration::from_millis(300));
    std::fs::remove_file(dir.join("attended.rhai")).unwrap();
    let second = round();
    assert!(!second.contains("ch_newmodels/attended [rhai]"), "{second}");
    // An older file moved in, as `cp -p` then `mv` would leave it.
    let old = dir.join("attended.old");
    std::fs::write(&old, RHAI_OK).unwrap();
    let an_hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&old)
        .unwrap()
        .set_modified(an_hour_ago)
        .unwrap();
    std::fs::rename(&old, dir.join("attended.rhai")).unwrap();
    let third = round();
    child.kill().unwrap();
    let _ = child.wait();
    assert!(
        third.contains("✓ ch_newmodels/attended [rhai]: passed"),
        "{third}"
    );
}

/// A Rhai-only copy of `practice/ch_newmodels` (no Cargo package, so nothing is
/// built) with a wrong `attended.rhai`, under a folder of its own.
fn rhai_copy(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir()
        .join(format!("ih-judge-{tag}-{}", std::process::id()))
        .join("ch_newmodels");
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(root().join("practice/ch_newmodels"))
        .unwrap()
        .flatten()
    {
        if entry.path().extension().is_some_and(|e| e == "rhai") {
            std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
        }
    }
    std::fs::write(
        dir.join("attended.rhai"),
        "fn attended(pos, ratio, topk, window) { window + pos }",
    )
    .unwrap();
    dir
}

/// Runs `judge` with `env` set and `args`; stdout and stderr together.
fn judge_with(env: &[(&str, &str)], args: &[&str]) -> String {
    let mut c = common::judge_cmd();
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.args(args).output().unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The `attended` verdict of the folder, from `--json`.
fn attended_verdict(dir: &Path) -> judge::Verdict {
    let json = judge_with(&[], &[dir.to_str().unwrap(), "--json"]);
    let all: Vec<serde_json::Value> = serde_json::from_str(&json).unwrap();
    let v = all
        .into_iter()
        .find(|v| v["exercise"] == "ch_newmodels/attended")
        .unwrap();
    serde_json::from_value(v).unwrap()
}

#[test]
fn lang_zh_tells_the_verdict_in_chinese_and_json_stays_english() {
    let dir = rhai_copy("zh");
    let folder = dir.to_str().unwrap();
    let v = attended_verdict(&dir);
    assert_eq!(v.status, judge::Status::Failed);
    assert!(v.message.starts_with("case 1: attended("), "{}", v.message);
    let zh = v.message_in(judge::Lang::Zh);
    assert!(zh.starts_with("第 1 个用例：attended("), "{zh}");
    let text = judge_with(&[], &["--lang", "zh", folder]);
    assert!(text.contains(&zh), "{text}");
    assert!(
        text.contains("✗ ch_newmodels/attended [rhai]：未通过（"),
        "{text}"
    );
    assert!(
        text.contains("个尚未作答") && text.contains("0 个通过，1 个未通过"),
        "{text}"
    );
    assert!(
        !text.contains(&v.message) && !text.contains("passed"),
        "{text}"
    );
    let json = judge_with(
        &[("LANG", "zh_CN.UTF-8")],
        &["--lang", "zh", folder, "--json"],
    );
    assert!(
        json.contains(&format!("\"message\": \"{}\"", v.message)),
        "{json}"
    );
}

#[test]
fn the_locale_picks_chinese_and_lang_en_overrides_it() {
    let dir = rhai_copy("locale");
    let folder = dir.to_str().unwrap();
    let zh = attended_verdict(&dir).message_in(judge::Lang::Zh);
    let text = judge_with(&[("LANG", "zh_CN.UTF-8")], &[folder]);
    assert!(text.contains(&zh) && text.contains("个未通过"), "{text}");
    let text = judge_with(
        &[("LC_ALL", "zh_CN.UTF-8"), ("LANG", "en_US.UTF-8")],
        &[folder],
    );
    assert!(text.contains(&zh), "LC_ALL comes first: {text}");
    let text = judge_with(&[("LANG", "zh_CN.UTF-8")], &["--lang", "en", folder]);
    assert!(
        !text.contains(&zh) && text.contains("0 passed, 1 failed"),
        "{text}"
    );
    let text = judge_with(&[("LANG", "zh_CN.UTF-8")], &["list", "--lang", "en"]);
    assert!(text.contains("ch_newmodels/attended"), "{text}");
    let text = judge_with(&[("LANG", "zh_CN.UTF-8")], &["show", "ch_newmodels/nope"]);
    assert!(text.contains("没有 `ch_newmodels/nope` 这道练习"), "{text}");
}

#[test]
fn hints_and_statements_come_in_chinese_from_the_exercise_folder() {
    let folder = root().join("chapters/src/ch_newmodels/exercises/attended");
    let zh_toml = std::fs::read_to_string(folder.join("exercise.zh.toml")).unwrap();
    let text = judge_with(&[], &["--lang", "zh", "hint", "ch_newmodels/attended", "2"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    for (i, line) in lines[..2].iter().enumerate() {
        let hint = line
            .strip_prefix(&format!("提示 {}/", i + 1))
            .and_then(|l| l.split_once('：'))
            .map(|(_, h)| h)
            .unwrap_or_else(|| panic!("{line}"));
        assert!(
            zh_toml.contains(&format!("\"{hint}\"")),
            "{hint} not in exercise.zh.toml"
        );
    }
    assert!(
        lines[2].contains("judge hint ch_newmodels/attended 3"),
        "{text}"
    );
    let en = judge_with(
        &[("LANG", "zh_CN.UTF-8")],
        &["hint", "--lang", "en", "ch_newmodels/attended"],
    );
    assert!(en.starts_with("hint 1/4: ") && !zh_toml.contains(en.lines().next().unwrap()));
    // The statement: the zh file's first sentence, its example computed.
    let statement = std::fs::read_to_string(folder.join("statement.zh.md")).unwrap();
    let first = statement.lines().find(|l| !l.trim().is_empty()).unwrap();
    let shown = judge_with(&[], &["show", "ch_newmodels/attended", "--lang", "zh"]);
    assert!(shown.contains(first) && !shown.contains("{{"), "{shown}");
    assert!(
        shown.contains("请写出 `attended(pos, ratio, topk, window)`"),
        "{shown}"
    );
}

#[test]
fn a_reader_that_goes_away_ends_the_output_quietly() {
    // `judge eval --list | head -1`: the pipe's reading end is closed before
    // the judge writes, so its first write fails with a broken pipe.
    for args in [
        &["eval", "--list"][..],
        &["list"],
        &["show", "ch_newmodels/v4_kv"],
    ] {
        let mut child = common::judge_cmd()
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}
