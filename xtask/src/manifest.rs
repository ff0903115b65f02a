//! What the end-to-end tests need to know about the book, written by the
//! build from the crates (so that no test parses the content files):
//! `target/e2e/manifest.json`, read by `e2e/solutions.mjs`. Not in `dist/`:
//! it holds every exercise's known-good solution.

use serde_json::{Value, json};

/// Where the build writes it.
pub fn path() -> std::path::PathBuf {
    crate::root().join("target/e2e/manifest.json")
}

/// The manifest: the chapters in reading order (`id`, `slug`), each with its
/// exercises in the page's order (`id`, `python`: its `solution.py`, and `solution`: its `solution.rhai`
/// as typed into an editor, without the file's last newline).
pub fn manifest() -> Result<Value, String> {
    let chapters = chapters::all()
        .iter()
        .map(|ch| {
            let exercises = exercises::for_chapter(ch.id)
                .into_iter()
                .map(|ex| {
                    let solution = exercises::known::known_good(ex.id)
                        .ok_or_else(|| format!("{}: no solution.rhai", ex.id))?;
                    let python = exercises::known::known_good_python(ex.id)
                        .ok_or_else(|| format!("{}: no solution.py", ex.id))?;
                    Ok(json!({ "id": ex.id, "solution": solution, "python": python }))
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok(json!({ "id": ch.id, "slug": ch.slug, "exercises": exercises }))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(json!({ "chapters": chapters }))
}

/// Writes [`manifest`] to [`path`].
pub fn write() -> Result<(), String> {
    let file = path();
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let text = serde_json::to_string_pretty(&manifest()?).map_err(|e| e.to_string())?;
    std::fs::write(&file, text + "\n").map_err(|e| format!("{}: {e}", file.display()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_exercise_is_listed_once_under_its_chapter_with_its_solution() {
        let m = super::manifest().unwrap();
        let chapters = m["chapters"].as_array().unwrap();
        assert_eq!(chapters.len(), chapters::all().len());
        let mut listed = Vec::new();
        for ch in chapters {
            for ex in ch["exercises"].as_array().unwrap() {
                let id = ex["id"].as_str().unwrap();
                assert!(
                    id.starts_with(&format!("{}/", ch["id"].as_str().unwrap())),
                    "{id}"
                );
                assert!(!ex["solution"].as_str().unwrap().is_empty(), "{id}");
                assert!(ex["python"].as_str().unwrap().contains("def "), "{id}");
                listed.push(id.to_owned());
            }
        }
        let all: Vec<String> = exercises::all().iter().map(|e| e.id.to_owned()).collect();
        let mut sorted = listed.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), listed.len(), "an exercise listed twice");
        assert_eq!(sorted.len(), all.len());
    }
}
