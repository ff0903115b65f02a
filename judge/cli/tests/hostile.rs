//! The hostile suite: whatever a learner writes, the verdict is about their code,
//! never about the judge. Each case asserts the verdict kind, that the message
//! names the cause, the time (Rhai ≤ 2.5 s; Rust within its timeout + 2 s), and
//! that the other exercises in the folder keep their own verdicts.
#![allow(clippy::unwrap_used)] // test helpers: a failed setup step should just fail the test

mod common;
use common::{RHAI_OK, RUST_OK, root};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value as J;

/// The practice folder's file `rel` (a starter).
fn starter(rel: &str) -> String {
    std::fs::read_to_string(root().join("practice/ch_newmodels").join(rel)).unwrap()
}

/// A folder named `ch_newmodels` (the chapter is read from the name) under a
/// fresh temp dir, with the given files.
fn folder(tag: &str, files: &[(&str, Vec<u8>)]) -> PathBuf {
    let dir = std::env::temp_dir()
        .join(format!("ih-hostile-{}-{tag}", std::process::id()))
        .join("ch_newmodels");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    dir
}

/// Rust cases take turns: they share one target dir (the practice crate's
/// dependencies build once), and cargo keys freshness by package name and file
/// times, so two packages of the same name must not build at the same time.
static RUST_TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn rust_turn() -> std::sync::MutexGuard<'static, ()> {
    RUST_TURN.lock().unwrap_or_else(|e| e.into_inner())
}

/// A Rust practice package: every starter, with `overrides` in place of some.
fn rust_folder(tag: &str, overrides: &[(String, String)]) -> PathBuf {
    let src = root().join("practice/ch_newmodels");
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for sub in ["", "src"] {
        for e in std::fs::read_dir(src.join(sub)).unwrap().flatten() {
            let p = e.path();
            let name = format!(
                "{}{}",
                if sub.is_empty() { "" } else { "src/" },
                e.file_name().to_string_lossy()
            );
            if p.is_file() && !name.ends_with(".rhai") {
                files.push((name, std::fs::read(&p).unwrap()));
            }
        }
    }
    for (name, text) in overrides {
        files.retain(|(n, _)| n != name);
        files.push((name.clone(), text.clone().into_bytes()));
    }
    let toml = String::from_utf8(
        files
            .iter()
            .find(|(n, _)| n == "Cargo.toml")
            .unwrap()
            .1
            .clone(),
    )
    .unwrap()
    .replace(
        "path = \"judge\"",
        &format!(
            "path = \"{}\"",
            root().join("practice/ch_newmodels/judge").display()
        ),
    );
    files.retain(|(n, _)| n != "Cargo.toml");
    files.push(("Cargo.toml".into(), toml.into_bytes()));
    let refs: Vec<(&str, Vec<u8>)> = files.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    folder(tag, &refs)
}

/// A starter with its `todo!()` replaced by `body`.
fn rust_with(slug: &str, body: &str) -> (String, String) {
    let name = format!("src/{slug}.rs");
    let text = starter(&name).replace("todo!()", body);
    (name, text)
}

/// Runs the judge with `--json`; returns the verdicts by (exercise slug,
/// language), the build error if any, the text of a second, plain run, and the
/// wall time of the JSON run.
struct Run {
    verdicts: Vec<J>,
    build_error: Option<String>,
    text: String,
    wall: Duration,
}

impl Run {
    fn get(&self, slug: &str, lang: &str) -> &J {
        self.verdicts
            .iter()
            .find(|v| v["exercise"] == format!("ch_newmodels/{slug}") && v["language"] == lang)
            .unwrap_or_else(|| panic!("no verdict for {slug} [{lang}]:\n{}", self.text))
    }

    /// Asserts status, that the message contains `cause`, and the time bound.
    fn expect(&self, slug: &str, lang: &str, status: &str, cause: &str, max: Duration) {
        let v = self.get(slug, lang);
        assert_eq!(v["status"], status, "{slug} [{lang}]: {v:#}");
        let msg = v["message"].as_str().unwrap();
        assert!(
            msg.contains(cause),
            "{slug} [{lang}]: message {msg:?} should name {cause:?}"
        );
        let ms = v["elapsed_ms"].as_f64().unwrap();
        assert!(
            ms <= max.as_secs_f64() * 1000.0,
            "{slug} [{lang}] took {ms} ms, more than {max:?}"
        );
        eprintln!("{slug} [{lang}]: {status} in {ms} ms: {msg}");
    }
}

fn judge(dir: &Path, extra: &[&str]) -> Run {
    let run = |json: bool| {
        let mut c = common::judge_cmd();
        c.arg(dir)
            .args(extra)
            .env("CARGO_TARGET_DIR", root().join("target/practice-tests"));
        if json {
            c.arg("--json");
        }
        let t0 = Instant::now();
        let out = c.output().unwrap();
        (out, t0.elapsed())
    };
    let (out, wall) = run(true);
    let json: J = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let (verdicts, build_error) = match json {
        J::Array(a) => (a, None),
        J::Object(o) => (
            o["verdicts"].as_array().unwrap().clone(),
            o["build_error"].as_str().map(str::to_owned),
        ),
        _ => panic!(),
    };
    let (plain, _) = run(false);
    let text = String::from_utf8_lossy(&plain.stdout).into_owned()
        + &String::from_utf8_lossy(&plain.stderr);
    Run {
        verdicts,
        build_error,
        text,
        wall,
    }
}

const RHAI_MAX: Duration = Duration::from_millis(2500);

/// One hostile Rhai file for `slug` beside a correct `attended.rhai`: the
/// verdict, and `attended` still passes.
fn rhai_case(tag: &str, slug: &str, src: impl Into<Vec<u8>>, status: &str, cause: &str) -> Run {
    let file = format!("{slug}.rhai");
    let dir = folder(
        tag,
        &[
            ("attended.rhai", RHAI_OK.into()),
            (file.as_str(), src.into()),
        ],
    );
    let r = judge(&dir, &[]);
    r.expect(slug, "rhai", status, cause, RHAI_MAX);
    r.expect(
        "attended",
        "rhai",
        "passed",
        "all 23 cases passed",
        RHAI_MAX,
    );
    assert_eq!(r.verdicts.len(), 2, "only the two files are graded");
    r
}

const V4: &str = "v4_kv";
const V4_SIG: &str = "fn v4_kv(c4, c128, swa_only, idx_bytes)";

#[test]
fn rhai_endless_loop() {
    rhai_case(
        "loop",
        V4,
        format!("{V4_SIG} {{ loop {{}} }}"),
        "limit_exceeded",
        "limit exceeded",
    );
}

#[test]
fn rhai_deep_recursion() {
    rhai_case(
        "recursion",
        V4,
        format!("fn r(n) {{ r(n + 1) }} {V4_SIG} {{ r(0) }}"),
        "limit_exceeded",
        "call depth",
    );
}

#[test]
fn rhai_heavy_builtin_in_a_loop() {
    rhai_case(
        "sort",
        V4,
        format!("{V4_SIG} {{ let a = []; a.pad(100000, 3); loop {{ a.sort(); a.reverse(); }} }}"),
        "limit_exceeded",
        "limit exceeded",
    );
}

#[test]
fn rhai_padding_past_the_array_limit() {
    rhai_case(
        "pad",
        V4,
        format!("{V4_SIG} {{ let a = []; a.pad(1000000, 3); a.sort(); 0 }}"),
        "limit_exceeded",
        "size limit exceeded",
    );
}

#[test]
fn rhai_array_bomb() {
    rhai_case(
        "arrays",
        V4,
        format!("{V4_SIG} {{ let a = [1]; loop {{ a += a; }} }}"),
        "limit_exceeded",
        "size limit exceeded",
    );
}

#[test]
fn rhai_nested_array_bomb() {
    rhai_case(
        "nested",
        V4,
        format!("{V4_SIG} {{ let a = []; a.pad(50000, 0); let b = []; loop {{ b.push(a); }} }}"),
        "limit_exceeded",
        "size limit exceeded",
    );
}

#[test]
fn rhai_string_bomb() {
    rhai_case(
        "strings",
        V4,
        format!("{V4_SIG} {{ let s = \"x\"; loop {{ s += s; }} }}"),
        "limit_exceeded",
        "size limit exceeded",
    );
}

#[test]
fn rhai_map_bomb() {
    rhai_case(
        "maps",
        V4,
        format!("{V4_SIG} {{ let m = #{{}}; let i = 0; loop {{ m[`k${{i}}`] = i; i += 1; }} }}"),
        "limit_exceeded",
        "limit exceeded",
    );
}

#[test]
fn rhai_huge_printed_output_is_cut_and_shown_with_the_failing_case() {
    let r = rhai_case(
        "print",
        V4,
        format!("{V4_SIG} {{ for i in 0..1000 {{ print(`line ${{i}}`); }} [0.0, 0] }}"),
        "failed",
        "case 1",
    );
    let c = &r.get(V4, "rhai")["cases"][0];
    let printed = c["printed"].as_array().unwrap();
    assert!(printed.len() <= 201, "{}", printed.len());
    assert!(r.text.contains("printed during case 1:"), "{}", r.text);
    assert!(r.text.contains("| line 0"), "{}", r.text);
}

#[test]
fn rhai_print_in_a_hidden_case_is_withheld() {
    // v4_kv's case 4 is hidden; its input is (1, 0, 0, 0).
    let r = rhai_case(
        "hidden-print",
        V4,
        format!(
            "{V4_SIG} {{ print(`secret ${{c4}}-${{c128}}-${{swa_only}}-${{idx_bytes}}`); [0.0, 0] }}"
        ),
        "failed",
        "case 1",
    );
    let v = r.get(V4, "rhai");
    let hidden = v["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "hidden")
        .unwrap();
    assert_eq!(hidden["printed_withheld"], 1);
    assert!(hidden.get("printed").is_none());
    let all = serde_json::to_string(&r.verdicts).unwrap();
    assert!(!all.contains("secret 1-0-0-0"), "a hidden input leaked");
}

#[test]
fn rhai_wrong_return_type() {
    rhai_case(
        "type",
        V4,
        format!("{V4_SIG} {{ \"lots\" }}"),
        "error",
        "wrong return type",
    );
}

#[test]
fn rhai_wrong_arity() {
    rhai_case(
        "arity",
        V4,
        "fn v4_kv(c4) { 0 }",
        "error",
        "must take 4 parameters",
    );
}

#[test]
fn rhai_missing_function() {
    rhai_case(
        "missing",
        V4,
        "fn v4_kb(c4, c128, swa_only, idx_bytes) { 0 }",
        "error",
        "no function `v4_kv`",
    );
}

#[test]
fn rhai_syntax_error() {
    rhai_case(
        "syntax",
        V4,
        format!("{V4_SIG} {{\n  let x = ;\n}}"),
        "error",
        "syntax error at line 2",
    );
}

#[test]
fn rhai_throw() {
    rhai_case(
        "throw",
        V4,
        format!("{V4_SIG} {{ throw \"no idea\"; }}"),
        "error",
        "no idea",
    );
}

#[test]
fn rhai_not_utf8() {
    let mut bytes = format!("{V4_SIG} {{ [0.0, 0] }} // ").into_bytes();
    bytes.extend_from_slice(&[0xff, 0xfe, b'\n']);
    rhai_case("utf8", V4, bytes, "error", "not UTF-8");
}

/// At least `bytes` of one-line functions, then a `v4_kv` that compiles.
fn tiny_functions(bytes: usize) -> String {
    let mut src = String::new();
    let mut i = 0;
    while src.len() < bytes {
        src += &format!("fn f{i}() {{ {i} }}\n");
        i += 1;
    }
    src + &format!("{V4_SIG} {{ [0.0, 0] }}")
}

#[test]
fn rhai_oversized_file_of_tiny_functions() {
    let src = tiny_functions(5_000_000);
    rhai_case("oversized", V4, src, "limit_exceeded", "too large");
}

#[test]
fn rhai_many_functions_under_the_size_cap() {
    let src = tiny_functions(60_000);
    rhai_case("functions", V4, src, "limit_exceeded", "too many functions");
}

#[test]
fn rhai_deep_nesting() {
    let src = format!(
        "{V4_SIG} {{ {}1{} }}",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    rhai_case("nesting", V4, src, "limit_exceeded", "nested too deeply");
}

#[test]
fn rhai_huge_expression_chain() {
    let src = format!("{V4_SIG} {{ [0.0, 0{}] }}", " + 1".repeat(15_000));
    rhai_case("chain", V4, src, "limit_exceeded", "nested too deeply");
}

#[test]
fn rhai_huge_flat_literal() {
    let src = format!("{V4_SIG} {{ [0.0, 0{}] }}", ", 1".repeat(15_000));
    rhai_case("literal", V4, src, "failed", "case 1");
}

#[test]
fn rhai_nan_is_a_wrong_value() {
    rhai_case(
        "nan",
        "kv_request",
        "fn kv_request(c4, c128, swa_only, idx_bytes, tokens) { 0.0 / 0.0 }",
        "failed",
        "values differ",
    );
}

#[test]
fn rhai_partial_todo_fails_the_cases_it_reaches() {
    let src = RHAI_OK.replace("let swa", "if pos == 0 { todo(); }\n    let swa");
    let dir = folder("todo", &[("attended.rhai", src.into())]);
    let r = judge(&dir, &[]);
    r.expect("attended", "rhai", "failed", "reached todo()", RHAI_MAX);
    let v = r.get("attended", "rhai");
    assert!(v["passed"].as_u64().unwrap() > 0, "{v:#}");
}

/// Crashes of every kind, one per exercise, in one package: each exercise gets
/// its own verdict, and `attended` (correct) passes.
#[test]
fn rust_crashes_each_get_their_own_verdict() {
    let _turn = rust_turn();
    let dir = rust_folder(
        "crashes",
        &[
            ("src/attended.rs".to_owned(), RUST_OK.to_owned()),
            rust_with("v4_kv", "panic!(\"no ledger yet\")"),
            rust_with("kv_request", "std::process::exit(0)"),
            rust_with("prefix_reuse", "std::process::abort()"),
            rust_with(
                "dispatch_bytes",
                "{ fn deeper(n: u64) -> u64 { std::hint::black_box(deeper(n + 1)) + 1 } deeper(0) as i64 }",
            ),
            rust_with(
                "sinkhorn",
                "{ let v = vec![1u8; 3 << 30]; vec![vec![v[v.len() - 1] as f64]] }",
            ),
            rust_with(
                "hash_loads",
                "{ let v: Vec<u64> = Vec::with_capacity(3 << 30); (vec![v.capacity() as i64], 0.0) }",
            ),
            rust_with(
                "compress_stream",
                "{ let _ = std::process::Command::new(\"sleep\").arg(\"20\").spawn(); todo!() }",
            ),
        ],
    );
    let r = judge(&dir, &["--timeout", "5"]);
    let max = Duration::from_secs(7);
    r.expect("attended", "rust", "passed", "all 23 cases passed", max);
    r.expect("v4_kv", "rust", "error", "panicked at src/v4_kv.rs:", max);
    r.expect("v4_kv", "rust", "error", "no ledger yet", max);
    r.expect("kv_request", "rust", "error", "exited with status 0", max);
    r.expect("kv_request", "rust", "error", "std::process::exit", max);
    r.expect("prefix_reuse", "rust", "error", "SIGABRT", max);
    r.expect(
        "dispatch_bytes",
        "rust",
        "limit_exceeded",
        "stack overflow",
        max,
    );
    r.expect(
        "sinkhorn",
        "rust",
        "limit_exceeded",
        "memory limit exceeded",
        max,
    );
    r.expect(
        "hash_loads",
        "rust",
        "limit_exceeded",
        "memory limit exceeded",
        max,
    );
    // The spawned `sleep 20` is ended with the process group: no wait.
    r.expect(
        "compress_stream",
        "rust",
        "not_attempted",
        "not attempted",
        Duration::from_secs(2),
    );
    assert!(r.wall < Duration::from_secs(40), "{:?}", r.wall);
}

/// Printing, partial work, NaN and a loop, one per exercise.
#[test]
fn rust_output_partial_work_nan_and_loops() {
    let _turn = rust_turn();
    let chatty = RUST_OK.replace(
        "let swa",
        "println!(\"attended({pos}, {ratio}, {topk}, {window})\");\n    for i in 0..200 { eprintln!(\"debug line {i}\"); }\n    let swa",
    );
    let dir = rust_folder(
        "output",
        &[
            ("src/attended.rs".to_owned(), chatty),
            rust_with("kv_request", "f64::NAN"),
            rust_with(
                "prefix_reuse",
                "{ if ratio == 128 { todo!() } let n = prefix_len / ratio; vec![n, n * ratio, prefix_len - n * ratio] }",
            ),
            rust_with(
                "dispatch_bytes",
                "{ for i in 0..2000 { println!(\"out {i} {}\", \"x\".repeat(20)); eprintln!(\"err {i}\"); } 0 }",
            ),
            rust_with("sinkhorn", "loop { std::hint::black_box(0); }"),
        ],
    );
    let r = judge(&dir, &["--timeout", "3"]);
    let max = Duration::from_secs(5);
    // stdout is not the protocol: printing never breaks a correct solution.
    r.expect("attended", "rust", "passed", "all 23 cases passed", max);
    let printed = r.get("attended", "rust")["cases"][0]["printed"].clone();
    assert!(
        printed
            .to_string()
            .contains("attended(1048575, 4, 512, 128)"),
        "{printed}"
    );
    r.expect("kv_request", "rust", "failed", "values differ", max);
    r.expect("prefix_reuse", "rust", "failed", "reached todo()", max);
    assert!(r.get("prefix_reuse", "rust")["passed"].as_u64().unwrap() > 0);
    r.expect("dispatch_bytes", "rust", "failed", "case 1", max);
    assert!(
        r.text.contains("| err 1999") && r.text.contains("| out 0 "),
        "{}",
        r.text
    );
    r.expect(
        "sinkhorn",
        "rust",
        "limit_exceeded",
        "time limit exceeded (3 s",
        max,
    );

    // NaN from Rust and from Rhai: the same verdict.
    let rhai = folder(
        "nan-rhai",
        &[(
            "kv_request.rhai",
            b"fn kv_request(c4, c128, swa_only, idx_bytes, tokens) { 0.0 / 0.0 }".to_vec(),
        )],
    );
    let rr = judge(&rhai, &[]);
    let strip = |v: &J| {
        let mut v = v.clone();
        let o = v.as_object_mut().unwrap();
        o.remove("language");
        o.remove("elapsed_ms");
        v
    };
    assert!(rr.get("kv_request", "rhai")["shrunk"].is_object());
    assert!(r.get("kv_request", "rust")["shrunk"].is_object());
    assert_eq!(
        strip(rr.get("kv_request", "rhai")),
        strip(r.get("kv_request", "rust")),
        "NaN gets the same verdict in Rhai and Rust"
    );
}

/// A compile error in one module is reported once, in its exercise; the others
/// are graded; a signature change is traced from `main.rs` to its module.
#[test]
fn rust_compile_error_in_one_module() {
    let _turn = rust_turn();
    let dir = rust_folder(
        "one-module",
        &[
            ("src/attended.rs".to_owned(), RUST_OK.to_owned()),
            (
                "src/v4_kv.rs".into(),
                "pub fn v4_kv(c4: i64) -> (f64, i64) { c4 + }".into(),
            ),
            (
                "src/prefix_reuse.rs".to_owned(),
                "pub fn prefix_reuse(prefix_len: i64, ratio: i64) -> String { String::new() }"
                    .into(),
            ),
        ],
    );
    let r = judge(&dir, &[]);
    let max = Duration::from_secs(12);
    assert!(r.build_error.is_none(), "{:?}", r.build_error);
    r.expect("attended", "rust", "passed", "all 23 cases passed", max);
    r.expect(
        "v4_kv",
        "rust",
        "error",
        "src/v4_kv.rs does not compile",
        max,
    );
    r.expect(
        "prefix_reuse",
        "rust",
        "error",
        "src/prefix_reuse.rs does not compile",
        max,
    );
    r.expect("sinkhorn", "rust", "not_attempted", "not attempted", max);
    assert_eq!(
        r.text.matches("expected expression, found").count(),
        1,
        "the error is shown once:\n{}",
        r.text
    );
}

/// A package that does not compile at all: its errors are shown once, and every
/// Rust exercise says so; Rhai files are still graded.
#[test]
fn rust_package_that_does_not_compile() {
    let _turn = rust_turn();
    let dir = rust_folder(
        "broken",
        &[(
            "src/lib.rs".to_owned(),
            "pub mod attended;\nthis is not rust\n".into(),
        )],
    );
    std::fs::write(dir.join("attended.rhai"), RHAI_OK).unwrap();
    let r = judge(&dir, &[]);
    let err = r.build_error.clone().unwrap();
    assert!(err.contains("src/lib.rs"), "{err}");
    r.expect(
        "attended",
        "rhai",
        "passed",
        "all 23 cases passed",
        RHAI_MAX,
    );
    r.expect(
        "attended",
        "rust",
        "error",
        "does not compile",
        Duration::from_secs(1),
    );
    assert_eq!(
        r.text.matches("this is not rust").count(),
        1,
        "the error is shown once:\n{}",
        r.text
    );
}

/// A package that builds but has no binary: the judge's own words for it, in
/// the language asked for (here Chinese), for the package and for each exercise.
#[test]
fn rust_package_without_a_binary_is_named_in_chinese() {
    let _turn = rust_turn();
    let dir = rust_folder("no-main", &[]);
    std::fs::remove_file(dir.join("src/main.rs")).unwrap();
    let r = judge(&dir, &["--lang", "zh"]);
    let err = r.build_error.clone().unwrap();
    assert_eq!(err, "练习包里没有可执行程序（src/main.rs）");
    // Each Rust exercise's verdict points at the compiler, in Chinese too.
    let rust = r.get("attended", "rust").to_string();
    assert!(rust.contains("详见编译器的输出"), "{rust}");
}

#[test]
fn the_command_line_rejects_unknown_flags_and_has_help() {
    let run = |args: &[&str]| common::judge_cmd().args(args).output().unwrap();
    let out = run(&["practice/ch_newmodels", "--jsn"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--jsn"));
    let out = run(&["--help"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("hint"));
    let out = run(&["completions", "bash"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("judge"));
    let out = run(&["show", "ch_newmodels/v4_kv"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("v4_kv(c4, c128, swa_only, idx_bytes)"));
}

#[test]
fn eval_stops_a_loop_of_heavy_api_calls() {
    const MATRIX: &str = "let m = []; for i in 0..64 { let r = []; for j in 0..64 { r.push(1.0 * ((i * j) % 7)); } m.push(r); }";
    let eval = |src: String| {
        let t0 = Instant::now();
        let out = common::judge_cmd().args(["eval", &src]).output().unwrap();
        (out, t0.elapsed())
    };
    // One call alone: how long this build takes for it (a debug build is slow).
    let (one, single) = eval(format!("{MATRIX} sinkhorn(m, 10000); 0"));
    assert!(one.status.success(), "{one:?}");
    // A thousand: the budget (work charged before each call, and the deadline)
    // lets at most two run.
    let (out, took) = eval(format!(
        "{MATRIX} for k in 0..1000 {{ sinkhorn(m, 10000); }}"
    ));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("limit exceeded"), "{err}");
    assert!(
        took < single * 3 + Duration::from_millis(2500),
        "1,000 calls took {took:?}; one takes {single:?}"
    );
    eprintln!("eval sinkhorn loop: one call {single:?}, the loop stopped in {took:?}: {err}");
}
