//! A chapter's cell texts, one file per language (#12, #26):
//! `src/<chapter>/cells.en.toml` and `cells.zh.toml`, one table per demo, named by its id, with a `title` and one sub-table per parameter,
//! named by the parameter's `name`, with a `label` and a `note` (what its
//! declaration does not say; the page puts the declared range before it):
//!
//! ```toml
//! [ledger]
//! title = "一次请求的 KV 账本"
//!
//! [ledger.units]
//! label = "单位"
//! note = "…"
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

use catalog::Messages;

/// The Rust source of `CELLS_EN`, `CELLS_ZH` and the `say` module, or every
/// problem found in the files.
pub fn generate(root: &Path, order: &[String]) -> Result<String, Vec<String>> {
    let mut errors = Vec::new();
    let mut s = String::new();
    let mut says = Vec::new();
    for lang in lang::Lang::ALL {
        let (code, what) = (lang.code(), format!("{lang:?}"));
        let mut say = Messages::new();
        table(root, order, code, &what, &mut s, &mut say, &mut errors);
        let book = root.join("src").join(format!("say.{code}.toml"));
        println!("cargo:rerun-if-changed={}", book.display());
        let file = format!("chapters/src/say.{code}.toml");
        catalog::add_file(&book, &file, &mut say, &mut errors);
        says.push(say);
    }
    say_module(&says, &mut s, &mut errors);
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
    say: &mut Messages,
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
                if param == "say" {
                    match pv.as_table() {
                        Some(t) => {
                            catalog::add_table(demo, t, &name, &format!("{demo}.say"), say, errors)
                        }
                        None => errors.push(format!("{name}: `{demo}.say` is not a table")),
                    }
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
                    if key != "label" && key != "help" && key != "note" {
                        errors.push(format!(
                            "{name}: `{at}.{key}`: a parameter has only `label` and `note` (or `help`)"
                        ));
                    }
                }
                let label = text_of("label", errors, p, &at);
                // `note`: what the declaration does not say (the page puts the
                // declared range before it); `help`: the whole help, written out.
                let (help, full) = if p.contains_key("help") {
                    (text_of("help", errors, p, &at), true)
                } else if p.contains_key("note") {
                    (text_of("note", errors, p, &at), false)
                } else {
                    (String::new(), false)
                };
                let _ = writeln!(
                    params,
                    "            cells::ParamTexts {{ name: {param:?}, label: {label:?}, help: {help:?}, full: {full} }},"
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

/// Appends `pub mod say` to `s`: the trait `Message` and each module of
/// messages (see [`catalog::modules`]) in a file of its own, and `say_source`,
/// which gives the notebooks those files.
fn say_module(says: &[Messages], s: &mut String, errors: &mut Vec<String>) {
    let modules = catalog::modules(
        says,
        |code| format!("cells.{code}.toml or chapters/src/say.{code}.toml"),
        "crate::lang::Lang",
        errors,
    );
    if !errors.is_empty() {
        return;
    }
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR is set by cargo"));
    let trait_path = out.join("say_trait.rs");
    catalog::write_if_changed(&trait_path, &catalog::trait_source("crate::lang::Lang"));
    let trait_path = trait_path.to_string_lossy();
    let mut includes = String::new();
    let mut sources = String::new();
    for (module, text) in modules {
        let path = out.join(format!("say_{module}.rs"));
        catalog::write_if_changed(&path, &text);
        let path = path.to_string_lossy();
        let _ = writeln!(includes, "    include!({path:?});");
        let _ = writeln!(
            sources,
            "        {module:?} => Some(include_str!({path:?})),"
        );
    }
    let _ = writeln!(
        s,
        "/// What the book says (#26): each demo's `[<demo>.say]` messages from its\n/// chapter's `cells.<lang>.toml` and the book's own (`chapters/src/say.<lang>.toml`),\n/// one type per message with a field per placeholder; `text(lang)` writes it out.\npub mod say {{\n    include!({trait_path:?});\n{includes}}}\n\n/// The source of `say::<module>` (of the trait `say::Message` for `\"Message\"`),\n/// which the notebooks include as it is.\n#[cfg(feature = \"render\")]\npub fn say_source(module: &str) -> Option<&'static str> {{\n    match module {{\n{sources}        \"Message\" => Some(include_str!({trait_path:?})),\n        _ => None,\n    }}\n}}\n"
    );
}
