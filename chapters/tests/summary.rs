//! The reading order, `SUMMARY.md`, as the build script reads it
//! (`build/summary.rs`): the book's list matches `chapters::all()`, and a folder
//! that is not listed, a listed folder that is missing or a malformed line is an
//! error naming it.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used)] // tests

#[path = "../build/summary.rs"]
#[allow(dead_code)]
mod summary;

use std::path::{Path, PathBuf};

/// A fresh `<tmp>/src/` with chapter folders `ch_a` and `ch_b` (each a `mod.rs`).
fn scratch(name: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("ih-summary-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for ch in ["ch_a", "ch_b"] {
        std::fs::create_dir_all(root.join("src").join(ch)).unwrap();
        std::fs::write(root.join("src").join(ch).join("mod.rs"), "").unwrap();
    }
    root
}

fn check(root: &Path, list: &str) -> Result<Vec<String>, String> {
    summary::parse_and_check(list, "SUMMARY.md", &root.join("src")).map_err(|e| e.join("\n"))
}

#[test]
fn the_books_list_is_the_reading_order() {
    let order = summary::read(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
    let ids: Vec<&str> = chapters::all().iter().map(|c| c.id).collect();
    assert_eq!(order, ids);
}

#[test]
fn the_list_gives_the_order() {
    let root = scratch("order");
    let list = "# Book\n\n<!--\n- ch_x (a comment)\n-->\n- ch_b\n- ch_a/\n";
    assert_eq!(check(&root, list).unwrap(), ["ch_b", "ch_a"]);
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn an_unlisted_folder_is_named() {
    let root = scratch("unlisted");
    let e = check(&root, "- ch_a\n").unwrap_err();
    assert!(
        e.contains("ch_b: a chapter folder that SUMMARY.md does not list"),
        "{e}"
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_missing_folder_is_named() {
    let root = scratch("missing");
    let e = check(&root, "- ch_a\n- ch_b\n- ch_c\n").unwrap_err();
    assert!(
        e.contains("SUMMARY.md line 3: chapter `ch_c` is listed but"),
        "{e}"
    );
    std::fs::remove_file(root.join("src/ch_b/mod.rs")).unwrap();
    let e = check(&root, "- ch_a\n- ch_b\n").unwrap_err();
    assert!(
        e.contains("SUMMARY.md line 2: chapter `ch_b` has no"),
        "{e}"
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn bad_lines_are_named() {
    let root = scratch("lines");
    let e = check(&root, "- ch_a\nch_b\n- ch_a\n- Ch-B\n").unwrap_err();
    assert!(
        e.contains("SUMMARY.md line 2: `ch_b`: a chapter line is `- <folder>`"),
        "{e}"
    );
    assert!(e.contains("line 3: `ch_a` is listed twice"), "{e}");
    assert!(
        e.contains("line 4: `Ch-B` is not a chapter folder's name"),
        "{e}"
    );
    std::fs::remove_dir_all(root).unwrap();
}
