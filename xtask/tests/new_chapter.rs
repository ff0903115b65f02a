//! Adding a chapter is a content change: a throw-away chapter (one folder with its
//! text, one demo, one scripting function and one exercise with all its files, plus
//! its line in `chapters/SUMMARY.md`) is added to a copy of the crates it needs, and
//! the content checker (`cargo test --workspace --lib check`) and the practice
//! generator (`cargo xtask gen`) accept it with no other edit than the parity
//! fixtures: its demo's parameter sets (`exercises/tests/fixtures/demos.rs`) and the
//! recordings, re-recorded the documented way. Leaving the chapter out of the list
//! fails the build, naming the folder.
//!
//! The copy lives in `<target>/new-chapter/`, its crates one level down in `crates/`
//! (so that their artifacts never take the place of the workspace's own in the
//! shared target directory: cargo names a path crate's artifacts after its path
//! relative to the workspace root), and is synchronised file by file (only changed
//! files are written). The nested cargo shares the main target directory, so the
//! compiled dependencies are reused and a warm run compiles only what changed.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const CH: &str = "ch_throwaway";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from)
}

/// Every file under `dir` (relative to `base`), skipping `target/` folders.
fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
    for e in std::fs::read_dir(base.join(dir)).unwrap() {
        let e = e.unwrap();
        let rel = dir.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            if e.file_name() != "target" {
                walk(base, &rel, out);
            }
        } else {
            out.insert(rel, std::fs::read(e.path()).unwrap());
        }
    }
}

/// Makes `dest` hold exactly `files` under `dirs` (other files there are removed),
/// writing only the files whose content differs, so cargo sees the rest unchanged.
fn sync(dest: &Path, dirs: &[&str], files: &BTreeMap<PathBuf, Vec<u8>>) {
    for (rel, bytes) in files {
        let p = dest.join(rel);
        if std::fs::read(&p).ok().as_deref() != Some(bytes.as_slice()) {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, bytes).unwrap();
        }
    }
    for d in dirs {
        let mut present = BTreeMap::new();
        if dest.join(d).exists() {
            walk(dest, Path::new(d), &mut present);
        }
        for rel in present.keys().filter(|r| !files.contains_key(*r)) {
            std::fs::remove_file(dest.join(rel)).unwrap();
        }
    }
}

/// Runs cargo in `dir` on the shared target directory, offline; its success and
/// output (stdout and stderr). The copy's commands build `--workspace`, as the
/// main test step does: its dependencies then get the same features (a crate
/// built alone, `-p exercises`, would get fewer: no clap, so `syn` without
/// `full`), and their compiled artifacts are reused rather than built again.
fn cargo(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> (bool, String) {
    let t = Instant::now();
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()));
    // `--offline` right after the subcommand: after a `--` it would be the
    // program's argument.
    cmd.current_dir(dir)
        .args(&args[..1])
        .arg("--offline")
        .args(&args[1..])
        .env("CARGO_TARGET_DIR", target_dir())
        .env("CARGO_TERM_COLOR", "never")
        .env_remove("CARGO_MANIFEST_DIR")
        .env_remove("CARGO_PKG_NAME")
        // The copy's crates are the same code, linted where the test runs.
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env_remove("CLIPPY_ARGS");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!(
        "cargo {} ({:.1} s)",
        args.join(" "),
        t.elapsed().as_secs_f64()
    );
    (out.status.success(), text)
}

/// The throw-away chapter's folder, by path relative to the copy's root.
fn chapter_files() -> Vec<(String, String)> {
    let dir = format!("crates/chapters/src/{CH}");
    [
        (
            "mod.rs",
            r#"//! Chapter `ch_throwaway`: made by a test, to show a chapter is one folder.

pub mod doubled;

use crate::Chapter;
use crate::demo::Demo;

/// The chapter.
pub fn chapter() -> Chapter {
    Chapter {
        id: "ch_throwaway",
        slug: "throwaway",
        title: "A throw-away chapter",
        summary: "Made by a test.",
        #[cfg(feature = "render")]
        source: include_str!("chapter.md"),
        repo_path: "chapters/src/ch_throwaway/chapter.md",
        demos,
        #[cfg(feature = "render")]
        figures: Vec::new,
    }
}

/// The chapter's demos.
pub fn demos() -> Vec<Demo> {
    vec![doubled::demo()]
}
"#,
        ),
        (
            "doubled.rs",
            r#"//! Doubles a number.

use crate::demo::{Block, Demo, Output, Param, ParamError, Raw, parse_int};
use crate::lang::Lang;

// ANCHOR: demo
/// Twice `n`.
pub fn doubled(n: i64) -> i64 {
    2 * n
}
// ANCHOR_END: demo

const PARAMS: &[Param] = &[Param::text("n", "21")];

/// The demo.
pub fn demo() -> Demo {
    Demo {
        id: "throwaway_doubled",
        params: PARAMS,
        #[cfg(feature = "render")]
        source: crate::demo::anchored(include_str!("doubled.rs"), "demo"),
        #[cfg(feature = "run")]
        run,
    }
}

/// The output has no words, so it reads the same in every language.
pub fn run(raw: &Raw, _lang: Lang) -> Result<Output, Vec<ParamError>> {
    let n = parse_int(raw, "n", -999_999_999, 999_999_999).map_err(|e| vec![e])?;
    Ok(Output {
        blocks: vec![Block::Text(format!("2 × {n} = {}\n", doubled(n)))],
    })
}
"#,
        ),
        (
            "cells.en.toml",
            "[throwaway_doubled]\ntitle = \"Twice a number\"\n\n[throwaway_doubled.n]\nlabel = \"n\"\nhelp = \"a whole number, |n| < 10^9\"\n",
        ),
        (
            "api.en.toml",
            "format = 1\n\n[doc]\nthrowaway_doubled = \"twice n\"\n",
        ),
        (
            "api.rs",
            r#"//! The scripting API of chapter `ch_throwaway` (compiled by the exercises crate).

use judge::Value;

use crate::api::{A, ApiFn};

/// The chapter's functions.
pub fn functions() -> Vec<ApiFn> {
    vec![api_fn!(
        "throwaway_doubled",
        ["n"],
        "int",
        |a| Ok(Value::Int(chapters::ch_throwaway::doubled::doubled(
            a.int(0, -999_999_999, 999_999_999)?
        )))
    )]
}

#[cfg(all(test, feature = "script"))]
mod tests {
    #[test]
    fn doubled_from_rhai() {
        let limits = judge::script::Limits::default();
        let (r, _) = crate::api::eval("throwaway_doubled(21)", limits, None, judge::Lang::En);
        assert_eq!(r, Ok(judge::Value::Int(42)));
    }
}
"#,
        ),
        (
            "chapter.md",
            "# A throw-away chapter\n\nA cell:\n\n```cell throwaway_doubled\n```\n\nAn exercise:\n\n```exercise ch_throwaway/twice\n```\n\n## Sources and further reading\n\n- None: a chapter made by a test.\n",
        ),
        (
            "exercises/twice/exercise.toml",
            r#"format = 1
position = 1
title = "Twice"
function = "twice"
returns = "int"
hints = ["What is n + n?", "Answer: 2 * n."]

[tolerance]
abs = 0.0
rel = 0.0

[[params]]
name = "n"
type = "int"

[mistakes]
plus_two = "You added two where the number was to be doubled."
"#,
        ),
        (
            "exercises/twice/statement.md",
            "Write `twice(n)`, twice `n`: `twice(21)` is `{{call(21)}}`.\n",
        ),
        (
            "exercises/twice/starter.rhai",
            "// Twice n.\nfn twice(n) {\n    todo()\n}\n",
        ),
        (
            "exercises/twice/starter.py",
            "def twice(n: int) -> int:\n    \"\"\"Twice n.\"\"\"\n    raise NotImplementedError  # your code here\n",
        ),
        (
            "exercises/twice/starter.rs",
            "/// Twice `n`.\npub fn twice(n: i64) -> i64 {\n    todo!()\n}\n",
        ),
        (
            "exercises/twice/reference.rs",
            r#"//! Reference solution and cases for `ch_throwaway/twice`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

// ANCHOR: reference
/// Twice `n`.
pub fn twice(n: i64) -> i64 {
    2 * n
}
// ANCHOR_END: reference

/// The reference, called with judge values.
pub fn reference(args: &[Value]) -> Result<Value, String> {
    Ok(twice(Args(args).int(0)?).into())
}

/// Public and hidden cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, n: i64| Case {
        args: vec![n.into()],
        kind,
    };
    vec![case(Kind::Public, 21), case(Kind::Hidden, -4), case(Kind::Hidden, 0)]
}
"#,
        ),
        ("exercises/twice/solution.rhai", "fn twice(n) {\n    n + n\n}\n"),
        ("exercises/twice/solution.py", "def twice(n):\n    return n + n\n"),
        ("exercises/twice/wrong/plus_two.rhai", "fn twice(n) {\n    n + 2\n}\n"),
    ]
    .into_iter()
    .map(|(rel, text)| (format!("{dir}/{rel}"), text.to_owned()))
    .collect()
}

#[test]
fn a_new_chapter_is_one_folder_and_a_line() {
    let t0 = Instant::now();
    let root = root();
    let dest = target_dir().join("new-chapter");
    let dirs = ["crates"];
    let mut found = BTreeMap::new();
    // `app` (with `saved`): the components the build renders the islands
    // with, and the interface strings the pre-rendered pages use; its
    // `worker` package comes along unused.
    for d in [
        "lang",
        "catalog",
        "chapters",
        "exercises",
        "judge/core",
        "saved",
        "app",
        "xtask",
    ] {
        walk(&root, Path::new(d), &mut found);
    }
    let mut files: BTreeMap<PathBuf, Vec<u8>> = found
        .into_iter()
        .map(|(rel, b)| (Path::new("crates").join(rel), b))
        .collect();
    files.insert(
        "Cargo.lock".into(),
        std::fs::read(root.join("Cargo.lock")).unwrap(),
    );
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members = manifest
        .lines()
        .find(|l| l.starts_with("members = "))
        .expect("the workspace lists its members");
    let mut manifest = manifest.replace(
        members,
        r#"members = ["crates/lang", "crates/catalog", "crates/chapters", "crates/exercises", "crates/judge/core", "crates/saved", "crates/app", "crates/xtask"]"#,
    );
    for dep in [
        "lang",
        "catalog",
        "chapters",
        "exercises",
        "judge/core",
        "saved",
        "app",
    ] {
        let (from, to) = (
            format!("path = \"{dep}\""),
            format!("path = \"crates/{dep}\""),
        );
        assert!(manifest.contains(&from), "the workspace has {from}");
        manifest = manifest.replace(&from, &to);
    }
    files.insert("Cargo.toml".into(), manifest.into_bytes());
    // The chapter: its folder and its line in the reading order.
    for (rel, text) in chapter_files() {
        files.insert(rel.into(), text.into_bytes());
    }
    let summary = PathBuf::from("crates/chapters/SUMMARY.md");
    let unlisted = String::from_utf8(files[&summary].clone()).unwrap();
    let listed = format!("{unlisted}- {CH}\n");
    files.insert(summary.clone(), listed.clone().into_bytes());
    // The parity fixtures: three parameter sets for the demo, then re-recorded.
    let runs = PathBuf::from("crates/exercises/tests/fixtures/demos.rs");
    let head = "const RUNS: &[(&str, &[(&str, &str)])] = &[\n";
    let text = String::from_utf8(files[&runs].clone()).unwrap();
    assert!(text.contains(head), "demos.rs declares RUNS");
    let text = text.replace(
        head,
        &format!(
            "{head}    (\"throwaway_doubled\", &[(\"n\", \"0\")]),\n    (\"throwaway_doubled\", &[(\"n\", \"-7\")]),\n    (\"throwaway_doubled\", &[(\"n\", \"999,999,999\")]),\n"
        ),
    );
    files.insert(runs, text.into_bytes());
    // Recordings already made for this chapter by an earlier run are kept.
    for rec in ["verdicts.jsonl", "demos.jsonl"] {
        let rel = PathBuf::from("crates/exercises/tests/fixtures").join(rec);
        if let Ok(b) = std::fs::read(dest.join(&rel))
            && String::from_utf8_lossy(&b).contains(CH)
        {
            files.insert(rel, b);
        }
    }
    sync(&dest, &dirs, &files);
    eprintln!("copied ({:.1} s)", t0.elapsed().as_secs_f64());

    let (ok, out) = cargo(&dest, &["run", "-q", "-p", "xtask", "--", "gen"], &[]);
    assert!(ok, "cargo xtask gen:\n{out}");
    let practice = dest.join("crates/practice").join(CH);
    for f in [
        "twice.rhai",
        "twice.md",
        "src/twice.rs",
        "src/lib.rs",
        "README.md",
    ] {
        assert!(practice.join(f).is_file(), "practice/{CH}/{f}:\n{out}");
    }
    let main = std::fs::read_to_string(practice.join("src/main.rs")).unwrap();
    assert!(main.contains("(\"twice\", "), "{main}");
    let statement = std::fs::read_to_string(practice.join("twice.md")).unwrap();
    assert!(statement.contains("`twice(21)` is `42`"), "{statement}");

    let (ok, out) = cargo(
        &dest,
        &["test", "--workspace", "--test", "parity"],
        &[("UPDATE_VERDICTS", "1"), ("UPDATE_DEMOS", "1")],
    );
    assert!(ok, "recording the fixtures:\n{out}");

    // The known-wrong solution's outputs, recorded so that the judge can
    // name its mistake (README, "Adding an exercise").
    let (ok, out) = cargo(
        &dest,
        &[
            "test",
            "--workspace",
            "--lib",
            "the_wrong_rhai_outputs_are_recorded",
        ],
        &[("UPDATE_WRONG_OUTPUTS", "1")],
    );
    assert!(ok, "recording the wrong solutions' outputs:\n{out}");

    let (ok, out) = cargo(&dest, &["test", "--workspace", "--lib", "check"], &[]);
    assert!(ok, "the content checker refuses the new chapter:\n{out}");
    assert!(out.contains("the_content_is_sound ... ok"), "{out}");

    // Its scripting function is registered under its chapter.
    let (ok, out) = cargo(&dest, &["test", "--workspace", "--lib", "api"], &[]);
    assert!(ok, "the scripting API:\n{out}");
    assert!(
        out.contains("the_api_is_grouped_by_the_books_chapters ... ok")
            && out.contains("api::ch_throwaway::tests::doubled_from_rhai ... ok"),
        "{out}"
    );

    // Out of the reading order, the folder fails the build, named.
    std::fs::write(dest.join(&summary), &unlisted).unwrap();
    let (ok, out) = cargo(&dest, &["check", "--workspace"], &[]);
    std::fs::write(dest.join(&summary), &listed).unwrap();
    assert!(!ok);
    assert!(
        out.contains(&format!("{CH}: a chapter folder that")),
        "{out}"
    );
    eprintln!("total {:.1} s", t0.elapsed().as_secs_f64());
}
