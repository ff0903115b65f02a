//! The exercise folders' reader (`build/manifest.rs`, run by the build script):
//! the book's folders load, and a malformed folder is an error naming its file.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used)] // tests

#[path = "../build/manifest.rs"]
#[allow(dead_code)]
mod manifest;

use std::path::{Path, PathBuf};

/// `chapters/src`, the chapter folders.
fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../chapters/src")
}

/// A copy of the `attended` exercise folder in a fresh `<tmp>/src/ch_test/exercises/`.
fn scratch(name: &str) -> (PathBuf, PathBuf) {
    let root = std::env::temp_dir().join(format!("ih-manifest-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let dir = root.join("src/ch_test/exercises/attended");
    std::fs::create_dir_all(dir.join("wrong")).unwrap();
    let from = src().join("ch_newmodels/exercises/attended");
    for f in manifest::FILES.iter().chain(&["exercise.toml"]) {
        std::fs::copy(from.join(f), dir.join(f)).unwrap();
    }
    std::fs::write(dir.join("wrong/a.rhai"), "fn attended(a, b, c, d) { 0 }").unwrap();
    // Its one known mistake, `a`, named (the copied `[mistakes]` name the
    // real folder's files).
    let toml = dir.join("exercise.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    let head = &text[..text.find("[mistakes]").unwrap()];
    std::fs::write(
        &toml,
        format!("{head}[mistakes]\na = \"You returned zero.\"\n"),
    )
    .unwrap();
    (root, dir)
}

/// The book's chapters, in reading order.
fn book() -> Vec<String> {
    chapters::all().iter().map(|c| c.id.to_owned()).collect()
}

fn test_chapter() -> Vec<String> {
    vec!["ch_test".to_owned()]
}

fn errors(root: &Path) -> String {
    manifest::load(&root.join("src"), &test_chapter())
        .unwrap_err()
        .join("\n")
}

#[test]
fn the_books_folders_load_in_order() {
    let folders = manifest::load(&src(), &book()).unwrap();
    let ids: Vec<String> = folders
        .iter()
        .map(|f| format!("{}/{}", f.chapter, f.slug))
        .collect();
    let registry: Vec<&str> = exercises::all().iter().map(|e| e.id).collect();
    assert_eq!(ids, registry);
}

#[test]
fn a_copied_folder_loads() {
    let (root, _) = scratch("ok");
    let f = manifest::load(&root.join("src"), &test_chapter()).unwrap();
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].manifest.params.len(), 4);
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn an_unknown_key_names_the_file() {
    let (root, dir) = scratch("key");
    let toml = dir.join("exercise.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("title =", "titel = \"x\"\ntitle =")).unwrap();
    let e = errors(&root);
    assert!(
        e.contains("attended/exercise.toml") && e.contains("titel"),
        "{e}"
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_wrong_format_names_the_file() {
    let (root, dir) = scratch("format");
    let toml = dir.join("exercise.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("format = 1", "format = 2")).unwrap();
    let e = errors(&root);
    assert!(
        e.contains("attended/exercise.toml: format 2 is not supported"),
        "{e}"
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn an_unknown_parameter_type_names_the_file() {
    let (root, dir) = scratch("type");
    let toml = dir.join("exercise.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replacen("type = \"int\"", "type = \"u64\"", 1)).unwrap();
    let e = errors(&root);
    assert!(
        e.contains("attended/exercise.toml: parameter `pos` has type `u64`"),
        "{e}"
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn missing_and_unexpected_files_are_named() {
    let (root, dir) = scratch("files");
    std::fs::remove_file(dir.join("solution.rhai")).unwrap();
    std::fs::remove_file(dir.join("wrong/a.rhai")).unwrap();
    std::fs::write(dir.join("statment.md"), "typo").unwrap();
    let e = errors(&root);
    assert!(e.contains("attended/solution.rhai: missing"), "{e}");
    assert!(e.contains("attended/wrong: no known-wrong solution"), "{e}");
    assert!(e.contains("attended/statment.md: unexpected"), "{e}");
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn the_generated_code_names_every_file() {
    let folders = manifest::load(&src(), &book()).unwrap();
    let code = manifest::generate(&folders);
    for f in &folders {
        for file in manifest::FILES {
            let p = f.dir.join(file);
            assert!(
                code.contains(&format!("{:?}", p.to_string_lossy())),
                "{}",
                p.display()
            );
        }
    }
}

#[test]
fn a_malformed_equivalent_mutant_names_the_file() {
    let (root, dir) = scratch("equivalent");
    let toml = dir.join("exercise.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    let entry = |mutant: &str, reason: &str| {
        format!("\n[[equivalent]]\nmutant = \"{mutant}\"\nreason = \"{reason}\"\n")
    };
    let good = "line 9, column 1: `+` -> `-`";
    std::fs::write(
        &toml,
        format!(
            "{text}{}{}{}",
            entry(good, "both branches agree there"),
            entry(good, "twice"),
            entry("line 2: `<` -> `<=`", "no column"),
        ),
    )
    .unwrap();
    let e = errors(&root);
    assert!(e.contains("attended/exercise.toml"), "{e}");
    assert!(e.contains(&format!("`{good}` is listed twice")), "{e}");
    assert!(
        e.contains("equivalent mutant `line 2: `<` -> `<=`` is not of the form"),
        "{e}"
    );
    // A well-formed list loads.
    std::fs::write(&toml, format!("{text}{}", entry(good, "both agree"))).unwrap();
    let f = manifest::load(&root.join("src"), &test_chapter()).unwrap();
    assert_eq!(f[0].manifest.equivalent.last().unwrap().mutant, good);
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn every_known_mistake_is_named_once_in_one_line() {
    let (root, dir) = scratch("mistakes");
    std::fs::write(
        dir.join("wrong/b.py"),
        "def attended(a, b, c, d): return 1\n",
    )
    .unwrap();
    let toml = dir.join("exercise.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        text.replace(
            "a = \"You returned zero.\"",
            "a = \"\"\"two\nlines\"\"\"\nc = \"No such file.\"",
        ),
    )
    .unwrap();
    let e = errors(&root);
    assert!(
        e.contains("attended/exercise.toml: [mistakes] `a` must be one non-empty line"),
        "{e}"
    );
    assert!(
        e.contains("[mistakes] has no `b` (the misconception of wrong/b"),
        "{e}"
    );
    assert!(e.contains("[mistakes] `c` names no file in wrong/"), "{e}");
    std::fs::remove_dir_all(root).unwrap();
}
