//! `cargo xtask gen`: writes the practice folder `practice/<chapter>/` of every
//! chapter in the reading order (`chapters/SUMMARY.md`),
//! from the exercise folders (`chapters/src/<chapter>/exercises/<slug>/`, through the
//! `exercises` registry):
//!
//! - `<slug>.rhai` (the Rhai starter) and `<slug>.md` (the statement, its worked
//!   examples computed by the reference) for each exercise, and `README.md`;
//! - the Cargo package: `Cargo.toml`, `src/lib.rs`, `src/<slug>.rs` (the Rust
//!   starters) and `src/main.rs`, the dispatch that connects them to the judge;
//! - `judge/`, a copy of the small harness the dispatch uses (`judge/core`'s
//!   `harness.rs` and `value.rs`), so a copied folder builds on its own.
//!
//! `Cargo.lock` is cargo's and is left alone. A test fails when the committed
//! folders differ from what this writes.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `cargo xtask gen`; with `--check`, only reports what is stale and fails if
/// anything is.
pub fn generate() -> Result<(), String> {
    let root = root();
    if std::env::args().any(|a| a == "--check") {
        let stale = stale(&root)?;
        for s in &stale {
            println!("{s}");
        }
        return match stale.len() {
            0 => Ok(()),
            n => Err(format!(
                "{n} practice file(s) are stale; `cargo xtask gen` rewrites them"
            )),
        };
    }
    let files = files(&root)?;
    let mut written = 0;
    for (rel, text) in &files {
        let path = root.join(rel);
        if std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str()) {
            continue;
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {}", rel.display());
        written += 1;
    }
    for extra in extra_files(&root, &files)? {
        println!("not generated (remove it if it is stale): {extra}");
    }
    println!(
        "{written} file(s) written, {} up to date",
        files.len() - written
    );
    Ok(())
}

/// Every chapter of the book, in reading order (`chapters/SUMMARY.md`): each gets
/// a practice folder.
pub fn chapters() -> Vec<&'static str> {
    chapters::all().iter().map(|c| c.id).collect()
}

/// Every generated file, by path relative to the repository's root.
pub fn files(root: &Path) -> Result<BTreeMap<PathBuf, String>, String> {
    let read =
        |rel: &str| std::fs::read_to_string(root.join(rel)).map_err(|e| format!("{rel}: {e}"));
    let harness = read("judge/core/src/harness.rs")?;
    let value = read("judge/core/src/value.rs")?;
    let mut out = BTreeMap::new();
    for ch in chapters() {
        let dir = Path::new("practice").join(ch);
        let exs = exercises::for_chapter(ch);
        let mut put = |rel: &str, text: String| {
            out.insert(dir.join(rel), text);
        };
        for ex in &exs {
            let slug = ex.slug();
            put(&format!("{slug}.rhai"), ex.starter_rhai.to_owned());
            put(&format!("{slug}.md"), statement(ex)?);
            put(&format!("src/{slug}.rs"), ex.starter_rust.to_owned());
        }
        put("README.md", readme(ch, &exs));
        put("Cargo.toml", cargo_toml(ch));
        put("src/lib.rs", lib_rs(ch, &exs));
        put("src/main.rs", main_rs(ch, &exs));
        put("judge/Cargo.toml", JUDGE_TOML.to_owned());
        put("judge/src/lib.rs", JUDGE_LIB.to_owned());
        put("judge/src/harness.rs", harness.clone());
        put("judge/src/value.rs", value.clone());
    }
    Ok(out)
}

/// Files in the practice folders that are neither generated nor cargo's.
fn extra_files(root: &Path, files: &BTreeMap<PathBuf, String>) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for ch in chapters() {
        let dir = Path::new("practice").join(ch);
        let mut stack = vec![dir.clone()];
        while let Some(d) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(root.join(&d)) else {
                continue;
            };
            for e in entries.flatten() {
                let rel = d.join(e.file_name());
                let name = e.file_name().to_string_lossy().into_owned();
                if name == "target" || name == "Cargo.lock" {
                    continue;
                }
                if e.path().is_dir() {
                    stack.push(rel);
                } else if !files.contains_key(&rel) {
                    out.push(rel.display().to_string());
                }
            }
        }
    }
    out.sort();
    Ok(out)
}

/// What differs between the committed practice folders and what `gen` writes.
pub fn stale(root: &Path) -> Result<Vec<String>, String> {
    let files = files(root)?;
    let mut out = Vec::new();
    for (rel, text) in &files {
        match std::fs::read_to_string(root.join(rel)) {
            Ok(t) if t == *text => {}
            Ok(_) => out.push(format!("{}: differs", rel.display())),
            Err(_) => out.push(format!("{}: missing", rel.display())),
        }
    }
    for extra in extra_files(root, &files)? {
        out.push(format!("{extra}: not generated"));
    }
    Ok(out)
}

fn statement(ex: &exercises::Exercise) -> Result<String, String> {
    let md = ex.statement_markdown()?;
    Ok(format!(
        "<!-- Generated by `cargo xtask gen` from chapters/src/{ch}/exercises/{slug}/; do not edit. -->\n\n\
         # {title}\n\n{md}\n\nYour answer goes in `{slug}.rhai` (Rhai) or `src/{slug}.rs` (Rust); \
         grade it with `cargo judge practice/{ch}`, and `cargo judge hint {id}` gives \
         a hint.\n",
        id = ex.id,
        title = ex.title,
        md = md.trim_end(),
        slug = ex.slug(),
        ch = ex.chapter(),
    ))
}

fn readme(ch: &str, exs: &[exercises::Exercise]) -> String {
    let title = chapters::all()
        .into_iter()
        .find(|c| c.id == ch)
        .map_or(ch, |c| c.title);
    let mut s = format!(
        "<!-- Generated by `cargo xtask gen` from the exercise folders; do not edit. -->\n\n\
         # Practice: {}\n\n\
         Each exercise is one function. Write it in **Rhai** (`<exercise>.rhai` in this folder)\n\
         or in **Rust** (`src/<exercise>.rs`), or both, then grade your work from the\n\
         repository's root:\n\n    cargo judge practice/{ch}\n\n\
         The judge prints one line per exercise and language, the first failing case with the\n\
         expected and actual values, and a last line `N passed, M failed`. It exits with status\n\
         0 only when something was attempted and everything attempted passes.\n\n\
         | exercise | function | statement | files |\n|---|---|---|---|\n",
        title.to_lowercase()
    );
    for ex in exs {
        let slug = ex.slug();
        let _ = writeln!(
            s,
            "| {} | `{}({})` | `{slug}.md` | `{slug}.rhai`, `src/{slug}.rs` |",
            ex.id,
            ex.function,
            ex.params.join(", ")
        );
    }
    let _ = write!(
        s,
        "\nEach statement is also in the book, next to the chapter's text, and\n\
         `cargo judge show <exercise>` prints one (`cargo judge hint <exercise>` gives hints).\n\
         What your code prints is shown with the first case it fails (never for hidden cases).\n\
         `todo()` (Rhai) and `todo!()` (Rust) mark what is left to write: reached on every case,\n\
         the judge reports \"not attempted\"; reached on some cases only, those cases fail.\n\
         Leave `src/main.rs` and `judge/` as they are: they connect your functions to the judge.\n"
    );
    s
}

fn cargo_toml(ch: &str) -> String {
    format!(
        "# Generated by `cargo xtask gen`; do not edit.\n\
         [package]\nname = \"{ch}_practice\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
         # Not part of the book's workspace: unfinished solutions never break its build.\n\
         [workspace]\n\n\
         [dependencies]\n\
         # A copy of the judge's harness, so this folder builds wherever it is copied.\n\
         judge = {{ path = \"judge\" }}\n"
    )
}

fn lib_rs(ch: &str, exs: &[exercises::Exercise]) -> String {
    let mut s = format!(
        "//! Your Rust solutions for chapter `{ch}`. Each module holds one\n\
         //! exercise; replace its `todo!()` with your code and run `cargo judge practice/{ch}`.\n\n\
         #![allow(unused_variables)]\n\n"
    );
    let mut slugs: Vec<&str> = exs.iter().map(|e| e.slug()).collect();
    slugs.sort_unstable();
    for slug in slugs {
        let _ = writeln!(s, "pub mod {slug};");
    }
    s
}

fn main_rs(ch: &str, exs: &[exercises::Exercise]) -> String {
    let mut s = format!(
        "//! Do not edit: connects your functions to the judge (`judge::harness` protocol).\n\
         //! Generated by `cargo xtask gen`.\n\n\
         use {ch}_practice as p;\n\
         #[allow(unused_imports)]\n\
         use judge::Value;\n\
         use judge::harness::{{Args, serve}};\n\n\
         fn main() {{\n    serve(&[\n"
    );
    for ex in exs {
        let args: Vec<String> = ex
            .param_types
            .iter()
            .enumerate()
            .map(|(i, t)| format!("a.{}({i})?", accessor(t)))
            .collect();
        let _ = write!(
            s,
            "        (\"{f}\", &|a: Args| {{\n            let r = p::{slug}::{f}({args});\n            Ok({result})\n        }}),\n",
            f = ex.function,
            slug = ex.slug(),
            args = args.join(", "),
            result = ex.rust_result,
        );
    }
    s.push_str("    ]);\n}\n");
    s
}

/// The `judge::harness::Args` method that reads a parameter of this type (the
/// build script accepts only these types).
fn accessor(ty: &str) -> &'static str {
    match ty {
        "float" => "float",
        "[int]" => "ints",
        "[float]" => "floats",
        "[[int]]" => "int_matrix",
        "[[float]]" => "matrix",
        _ => "int",
    }
}

const JUDGE_TOML: &str = "# Generated by `cargo xtask gen`; do not edit.\n\
[package]\n\
name = \"judge\"\n\
version = \"0.1.0\"\n\
edition = \"2024\"\n\
publish = false\n\
description = \"A copy of the judge's harness (judge/core's harness.rs and value.rs).\"\n\n\
[dependencies]\n\
serde = { version = \"1\", features = [\"derive\"] }\n\
serde_json = \"1\"\n";

const JUDGE_LIB: &str = "//! A copy of the Inference Handbook judge's harness: `harness.rs` and `value.rs`\n\
//! are `judge/core/src`'s, copied by `cargo xtask gen` so that this practice folder\n\
//! builds on its own. Do not edit.\n\n\
#![allow(dead_code)]\n\n\
pub mod harness;\n\
mod value;\n\n\
pub use value::Value;\n";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_practice_folders_are_fresh() {
        let stale = stale(&root()).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            stale.is_empty(),
            "the practice folders are stale; run `cargo xtask gen`:\n{}",
            stale.join("\n")
        );
    }

    #[test]
    fn every_exercise_has_its_files_and_dispatch() {
        let files = files(&root()).unwrap_or_else(|e| panic!("{e}"));
        for ex in exercises::all() {
            let dir = Path::new("practice").join(ex.chapter());
            for rel in [
                format!("{}.rhai", ex.slug()),
                format!("{}.md", ex.slug()),
                format!("src/{}.rs", ex.slug()),
            ] {
                assert!(files.contains_key(&dir.join(&rel)), "{}: {rel}", ex.id);
            }
            let main = &files[&dir.join("src/main.rs")];
            assert!(
                main.contains(&format!("(\"{}\", ", ex.function)),
                "{}",
                ex.id
            );
        }
    }
}
