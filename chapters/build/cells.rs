//! A chapter's cell texts, one file per language (#12, #26):
//! `src/<chapter>/cells.en.toml` and `cells.zh.toml`, one table per demo, named by its id, with a `title` and one sub-table per parameter,
//! named by the parameter's `name`, with a `label` and a `help`:
//!
//! ```toml
//! [ledger]
//! title = "一次请求的 KV 账本"
//!
//! [ledger.units]
//! label = "单位"
//! help = "…"
//! ```
//!
//! `chapters/build.rs` turns every chapter's files into `CELLS_EN` and
//! `CELLS_ZH`, static `&[cells::CellTexts]`, so the browser's wasm reads plain statics. The file's
//! shape is checked here (a missing or unknown key fails the build, naming the
//! file); whether its demos and parameters exist, and whether every demo has its
//! texts, is checked by the content checker (`exercises/src/check.rs`), which
//! sees the compiled demos.

use std::fmt::Write as _;
use std::path::Path;

/// The Rust source of `CELLS_ZH`, or every problem found in the files.
pub fn generate(root: &Path, order: &[String]) -> Result<String, Vec<String>> {
    let mut errors = Vec::new();
    let mut s = String::new();
    for (lang, what) in [("en", "English"), ("zh", "Chinese")] {
        table(root, order, lang, what, &mut s, &mut errors);
    }
    if errors.is_empty() {
        Ok(s)
    } else {
        Err(errors)
    }
}

/// Appends `CELLS_<LANG>` (every chapter's `cells.<lang>.toml`) to `s`, or
/// the problems found to `errors`.
fn table(
    root: &Path,
    order: &[String],
    lang: &str,
    what: &str,
    s: &mut String,
    errors: &mut Vec<String>,
) {
    let _ = writeln!(
        s,
        "/// Every chapter's {what} cell texts (`<chapter>/cells.{lang}.toml`), in reading order.\npub(crate) static CELLS_{}: &[cells::CellTexts] = &[",
        lang.to_uppercase()
    );
    for ch in order {
        let path = root.join("src").join(ch).join(format!("cells.{lang}.toml"));
        println!("cargo:rerun-if-changed={}", path.display());
        if !path.is_file() {
            continue;
        }
        let name = format!("chapters/src/{ch}/cells.{lang}.toml");
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                errors.push(format!("{name}: {e}"));
                continue;
            }
        };
        let table: toml::Table = match toml::from_str(&text) {
            Ok(t) => t,
            Err(e) => {
                errors.push(format!("{name}: {e}"));
                continue;
            }
        };
        for (demo, v) in &table {
            let Some(d) = v.as_table() else {
                errors.push(format!("{name}: `{demo}` is not a table"));
                continue;
            };
            let text_of = |key: &str, errors: &mut Vec<String>, t: &toml::Table, at: &str| match t
                .get(key)
                .map(|v| v.as_str())
            {
                Some(Some(v)) if !v.trim().is_empty() => v.to_owned(),
                Some(Some(_)) => {
                    errors.push(format!("{name}: `{at}.{key}` is empty"));
                    String::new()
                }
                Some(None) => {
                    errors.push(format!("{name}: `{at}.{key}` is not a string"));
                    String::new()
                }
                None => {
                    errors.push(format!("{name}: `{at}` has no `{key}`"));
                    String::new()
                }
            };
            let title = text_of("title", errors, d, demo);
            let mut params = String::new();
            for (param, pv) in d {
                if param == "title" {
                    continue;
                }
                let Some(p) = pv.as_table() else {
                    errors.push(format!(
                        "{name}: `{demo}.{param}` is neither `title` nor a parameter's table"
                    ));
                    continue;
                };
                let at = format!("{demo}.{param}");
                for key in p.keys() {
                    if key != "label" && key != "help" {
                        errors.push(format!(
                            "{name}: `{at}.{key}`: a parameter has only `label` and `help`"
                        ));
                    }
                }
                let label = text_of("label", errors, p, &at);
                let help = text_of("help", errors, p, &at);
                let _ = writeln!(
                    params,
                    "            cells::ParamTexts {{ name: {param:?}, label: {label:?}, help: {help:?} }},"
                );
            }
            let _ = writeln!(
                s,
                "    cells::CellTexts {{\n        chapter: {ch:?},\n        demo: {demo:?},\n        title: {title:?},\n        params: &[\n{params}        ],\n    }},"
            );
        }
    }
    s.push_str("];\n\n");
}
