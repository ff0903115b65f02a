//! Search: Pagefind indexes the pre-rendered pages (issue #11 §1).
//!
//! Pagefind (npm `pagefind`, a Rust binary) reads the chapter pages in `dist/`,
//! only what sits inside `data-pagefind-body` (the chapter's `<main>`) minus
//! what is marked `data-pagefind-ignore` (cell sources, parameters, outputs,
//! starter code), and writes `dist/pagefind/`: a small loader, a wasm search
//! engine and the index in fragments that the page fetches when the reader
//! first searches (`web/search.js`). Headings with an `id` become the places a
//! result opens at.

use std::path::Path;
use std::process::Command;

use crate::{root, run};

/// Pagefind's own search interfaces, which the book does not load.
const UNUSED: [&str; 4] = [
    "pagefind-ui.",
    "pagefind-component-ui.",
    "pagefind-modular-ui.",
    "pagefind-highlight.",
];

/// Writes `dist/pagefind/` from the pages in `dist/` (a previous build's index
/// is removed first) and prints its size.
pub fn index(dist: &Path) -> Result<(), String> {
    let out = dist.join("pagefind");
    if out.exists() {
        std::fs::remove_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    run(Command::new(root().join("node_modules/.bin/pagefind"))
        .arg("--site")
        .arg(dist)
        .args(["--output-subdir", "pagefind", "--quiet"]))?;
    // Pagefind also writes ready-made search UIs; the book has its own dialog.
    for f in crate::site::files_under(&out) {
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if UNUSED.iter().any(|u| name.starts_with(u)) {
            std::fs::remove_file(&f).map_err(|e| format!("{}: {e}", f.display()))?;
        }
    }
    let all = crate::site::files_under(&out);
    let files = all.len();
    let bytes: u64 = all
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum();
    if files == 0 {
        return Err(format!("pagefind wrote nothing into {}", out.display()));
    }
    println!("search index: {files} files, {bytes} B in dist/pagefind/");
    Ok(())
}
