//! `judge verify <file>` on progress files made as the page makes them: each
//! receipt holds the code graded, the verdict the judge gave it (graded here
//! through the same `exercises::grade_rhai` the page's worker calls; the
//! Python one by `judge grade --json`, which the e2e suite holds equal to
//! Pyodide's), the judge's version and the exercise's content hash. An
//! untouched file is accepted; an edited verdict, edited code and a changed
//! exercise are each named, and so are receipts that cannot be checked.
#![allow(clippy::unwrap_used)] // test helpers: a failed setup step should just fail the test

mod common;
use common::{RHAI_OK, root};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const ID: &str = "ch_newmodels/attended";

fn exercise() -> exercises::Exercise {
    exercises::by_id(ID).unwrap()
}

fn wrong_rhai() -> String {
    std::fs::read_to_string(
        root().join("chapters/src/ch_newmodels/exercises/attended/wrong/no_topk_cap.rhai"),
    )
    .unwrap()
}

/// The receipt the page saves after a whole Rhai run of `code`.
fn rhai_receipt(code: &str) -> judge::Receipt {
    let ex = exercise();
    let (verdict, _) = exercises::grade_rhai(&ex, code, judge::script::Limits::default(), None);
    judge::Receipt::new(ex.content, code, &verdict)
}

/// The receipt of a Python run, its verdict from `judge grade --json`.
fn python_receipt(code: &str, dir: &Path) -> judge::Receipt {
    let folder = dir.join("py").join("ch_newmodels");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("attended.py"), code).unwrap();
    let out = common::judge_cmd()
        .args(["grade", "--json"])
        .arg(&folder)
        .output()
        .unwrap();
    let all: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut v = all[0].clone();
    let o = v.as_object_mut().unwrap();
    o.remove("language");
    o.remove("elapsed_ms");
    judge::Receipt {
        judge: judge::VERSION.to_owned(),
        content: exercise().content.to_owned(),
        code: code.to_owned(),
        verdict: v,
    }
}

const PY_OK: &str = "def attended(pos, ratio, topk, window):\n    swa = min(window, pos + 1)\n    if ratio <= 1:\n        return swa\n    done = (pos + 1) // ratio\n    return swa + (min(done, topk) if topk > 0 else done)\n";

/// A progress file whose `attended` has a Rhai receipt for `rhai` and a
/// Python one for `PY_OK`, with the same code saved.
fn export(rhai: judge::Receipt, dir: &Path) -> serde_json::Value {
    let code = BTreeMap::from([(ID.to_owned(), rhai.code.clone())]);
    let python = BTreeMap::from([(ID.to_owned(), PY_OK.to_owned())]);
    let mut e = saved::Export::new(BTreeMap::new(), code).with_python(python);
    e.receipts.insert(
        ID.to_owned(),
        BTreeMap::from([
            ("rhai".to_owned(), rhai),
            ("python".to_owned(), python_receipt(PY_OK, dir)),
        ]),
    );
    serde_json::to_value(&e).unwrap()
}

fn temp(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ih-verify-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `judge verify <file> args…` on `file` = `value`: stdout, stderr, exit code.
fn verify(dir: &Path, value: &serde_json::Value, args: &[&str]) -> (String, String, i32) {
    let file = dir.join("progress.json");
    std::fs::write(&file, serde_json::to_string_pretty(value).unwrap()).unwrap();
    let out = common::judge_cmd()
        .arg("verify")
        .arg(&file)
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn an_untouched_file_is_accepted_a_failing_verdict_included() {
    let dir = temp("ok");
    for code in [RHAI_OK.to_owned(), wrong_rhai()] {
        let file = export(rhai_receipt(&code), &dir);
        let (out, err, status) = verify(&dir, &file, &[]);
        assert_eq!(status, 0, "{out}{err}");
        assert!(
            out.contains("✓ ch_newmodels/attended [rhai]: this judge agrees")
                && out.contains("✓ ch_newmodels/attended [python]: this judge agrees"),
            "{out}"
        );
        assert!(
            out.contains("2 receipts: 2 agree, 0 with a different verdict, 0 on a changed exercise, 0 not checked."),
            "{out}"
        );
    }
    // The learner typed after the run: the code graded is checked, and the
    // change is said.
    let mut file = export(rhai_receipt(RHAI_OK), &dir);
    file["code"][ID] = serde_json::json!("fn attended() { 0 }");
    let (out, _, status) = verify(&dir, &file, &[]);
    assert_eq!(status, 0, "{out}");
    assert!(
        out.contains("the code saved in the file is not the code graded"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_edited_verdict_edited_code_and_a_changed_exercise_are_named() {
    let dir = temp("edits");
    // The verdict of a wrong answer, edited to a pass.
    let mut file = export(rhai_receipt(&wrong_rhai()), &dir);
    let v = &mut file["receipts"][ID]["rhai"]["verdict"];
    v["status"] = serde_json::json!("passed");
    v["passed"] = v["total"].clone();
    let total = v["total"].as_u64().unwrap();
    let (out, _, status) = verify(&dir, &file, &[]);
    assert_eq!(status, 1, "{out}");
    assert!(
        out.contains(&format!(
            "✗ ch_newmodels/attended [rhai]: the verdict differs: the file says passed {total}/{total}, this judge gives failed "
        )),
        "{out}"
    );
    // A pass, its code swapped for a wrong answer.
    let mut file = export(rhai_receipt(RHAI_OK), &dir);
    file["receipts"][ID]["rhai"]["code"] = serde_json::json!(wrong_rhai());
    let (out, _, status) = verify(&dir, &file, &["--json"]);
    assert_eq!(status, 1, "{out}");
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rhai = j["receipts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["language"] == "rhai")
        .unwrap();
    assert_eq!(rhai["agreement"], "different", "{rhai}");
    assert_eq!(rhai["stored"]["status"], "passed");
    assert_eq!(rhai["again"]["status"], "failed");
    assert_eq!(j["ok"], false);
    // The exercise changed since (its content hash differs).
    let mut file = export(rhai_receipt(RHAI_OK), &dir);
    file["receipts"][ID]["python"]["content"] = serde_json::json!("fnv1a128:0123");
    let (out, _, status) = verify(&dir, &file, &[]);
    assert_eq!(status, 1, "{out}");
    assert!(
        out.contains("✗ ch_newmodels/attended [python]: the exercise changed since this was graded: the file says passed 23/23, this judge now gives passed 23/23")
            && out.contains(&format!(
                "exercise content fnv1a128:0123 in the receipt, {} in this judge",
                exercise().content
            ))
            && out.contains("1 on a changed exercise"),
        "{out}"
    );
    // The same in Chinese.
    let (out, _, _) = verify(&dir, &file, &["--lang", "zh"]);
    assert!(out.contains("评测之后练习内容已改变"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn receipts_that_cannot_be_checked_are_named_and_bad_files_refused() {
    let dir = temp("bad");
    let mut file = export(rhai_receipt(RHAI_OK), &dir);
    file["receipts"][ID]["rhai"] = serde_json::json!({"judge": 1});
    file["receipts"]["ch_newmodels/gone"] = file["receipts"][ID].clone();
    file["verdicts"] = serde_json::json!({"ch_newmodels/attended": {"python": {"status": "passed"}},
        "ch_kvcache/gqa_bytes": {"rhai": {"status": "passed"}}});
    let (out, _, status) = verify(&dir, &file, &[]);
    assert_eq!(status, 1, "{out}");
    assert!(
        out.contains("✗ ch_newmodels/attended [rhai]: not checked: the receipt cannot be read"),
        "{out}"
    );
    assert!(
        out.contains("✗ ch_newmodels/gone [rhai]: not checked: this judge has no such exercise"),
        "{out}"
    );
    assert!(
        out.contains("✗ ch_kvcache/gqa_bytes [rhai]: not checked: a verdict saved before receipts"),
        "{out}"
    );
    // A bare verdict beside a receipt for the same answer is not checked twice.
    assert_eq!(
        out.matches("ch_newmodels/attended [python]").count(),
        1,
        "{out}"
    );
    assert!(out.contains("✓ ch_newmodels/attended [python]"), "{out}");
    // Not a progress file; no file; a file without receipts.
    let (_, err, status) = verify(
        &dir,
        &serde_json::json!({"format": "other", "version": 1}),
        &[],
    );
    assert_eq!(status, 2);
    assert!(
        err.contains("not a progress file the judge can read"),
        "{err}"
    );
    let out = common::judge_cmd()
        .args(["verify", "/nonexistent/progress.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let empty = serde_json::to_value(saved::Export::new(BTreeMap::new(), BTreeMap::new())).unwrap();
    let (out, _, status) = verify(&dir, &empty, &[]);
    assert_eq!(status, 1, "nothing checked is not a pass: {out}");
    assert!(out.contains("The file holds no receipts"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
