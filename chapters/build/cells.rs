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

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// The languages, as their files name them and as `Lang` names them.
const LANGS: [(&str, &str, &str); 2] = [("en", "English", "En"), ("zh", "Chinese", "Zh")];

/// A demo's messages in one language: its `say` table, key to template.
pub(crate) type Messages = BTreeMap<(String, String), String>;

/// The Rust source of `CELLS_EN`, `CELLS_ZH` and the `say` module, or every
/// problem found in the files.
pub fn generate(root: &Path, order: &[String]) -> Result<String, Vec<String>> {
    let mut errors = Vec::new();
    let mut s = String::new();
    let mut says = Vec::new();
    for (lang, what, _) in LANGS {
        let mut say = Messages::new();
        table(root, order, lang, what, &mut s, &mut say, &mut errors);
        book_messages(root, lang, &mut say, &mut errors);
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
                            for (key, v) in t {
                                match v.as_str() {
                                    Some(v) => {
                                        say.insert((demo.clone(), key.clone()), v.to_owned());
                                    }
                                    None => errors.push(format!(
                                        "{name}: `{demo}.say.{key}` is not a string"
                                    )),
                                }
                            }
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

/// Adds the book's own messages, `src/say.<lang>.toml` (one table per module
/// of `crate::say`: a parser's errors, the source's summary), to `say`; a
/// module that is also a demo's is an error.
fn book_messages(root: &Path, lang: &str, say: &mut Messages, errors: &mut Vec<String>) {
    let path = root.join("src").join(format!("say.{lang}.toml"));
    println!("cargo:rerun-if-changed={}", path.display());
    let name = format!("chapters/src/say.{lang}.toml");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return;
    };
    let table: toml::Table = match toml::from_str(&text) {
        Ok(t) => t,
        Err(e) => {
            errors.push(format!("{name}: {e}"));
            return;
        }
    };
    for (module, v) in &table {
        if say.keys().any(|(m, _)| m == module) {
            errors.push(format!(
                "{name}: `[{module}]` is also a demo's messages: give the book's module another name"
            ));
            continue;
        }
        let Some(t) = v.as_table() else {
            errors.push(format!("{name}: `{module}` is not a table"));
            continue;
        };
        for (key, v) in t {
            match v.as_str() {
                Some(v) => {
                    say.insert((module.clone(), key.clone()), v.to_owned());
                }
                None => errors.push(format!("{name}: `{module}.{key}` is not a string")),
            }
        }
    }
}

/// The placeholders of `template`, in order of first use, or what is wrong
/// with it. A placeholder is `{name}` (lower case, digits, `_`); `{{` and `}}`
/// are braces; any other brace is an error, so a template is always a valid
/// Rust format string whose named arguments are its placeholders.
pub(crate) fn placeholders(template: &str) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
            }
            '{' => {
                let mut name = String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(c)
                            if c.is_ascii_lowercase()
                                || c == '_'
                                || (c.is_ascii_digit() && !name.is_empty()) =>
                        {
                            name.push(c)
                        }
                        _ => {
                            return Err(format!(
                                "`{{{name}…`: a placeholder is `{{name}}` (a-z, 0-9, _), a brace is `{{{{` or `}}}}`"
                            ));
                        }
                    }
                }
                if name.is_empty() {
                    return Err("`{}`: a placeholder needs a name".to_owned());
                }
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            '}' => return Err("a lone `}`: write `}}`".to_owned()),
            _ => {}
        }
    }
    Ok(names)
}

/// Each demo's generated message module (demo id → its source): one type
/// per message, whose fields are its placeholders and whose `text(lang)` fills
/// them in. A key missing from a language, or placeholders that differ
/// between languages, is an error.
pub(crate) fn say_texts(says: &[Messages], errors: &mut Vec<String>) -> BTreeMap<String, String> {
    let mut keys: Vec<&(String, String)> = says.iter().flat_map(|m| m.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut demos: BTreeMap<&str, String> = BTreeMap::new();
    for key @ (demo, msg) in keys {
        let mut names: Option<Vec<String>> = None;
        let mut arms = String::new();
        for ((code, _, variant), say) in LANGS.iter().zip(says) {
            let file = format!("cells.{code}.toml");
            let Some(template) = say.get(key) else {
                errors.push(format!("{file}: `{demo}.say.{msg}` is missing"));
                continue;
            };
            let mut these = match placeholders(template) {
                Ok(n) => n,
                Err(e) => {
                    errors.push(format!("{file}: `{demo}.say.{msg}`: {e}"));
                    continue;
                }
            };
            these.sort();
            match &names {
                Some(n) if *n != these => errors.push(format!(
                    "{file}: `{demo}.say.{msg}` has the placeholders {{{}}}, English has {{{}}}",
                    these.join("}, {"),
                    n.join("}, {")
                )),
                Some(_) => {}
                None => names = Some(these.clone()),
            }
            let args: String = these.iter().map(|n| format!(", {n} = self.{n}")).collect();
            if these.is_empty() {
                let plain = template.replace("{{", "{").replace("}}", "}");
                let _ = writeln!(arms, "            Lang::{variant} => {plain:?}.to_owned(),");
                continue;
            }
            let _ = writeln!(
                arms,
                "            Lang::{variant} => format!({template:?}{args}),"
            );
        }
        let names = names.unwrap_or_default();
        let m = demos.entry(demo.as_str()).or_default();
        let doc = says[0]
            .get(key)
            .map_or(String::new(), |t| t.replace('\n', " "));
        let ty: Vec<String> = (0..names.len()).map(|i| format!("T{i}")).collect();
        let (generics, bounds, fields) = if names.is_empty() {
            (String::new(), String::new(), ";".to_owned())
        } else {
            let fields: String = names
                .iter()
                .zip(&ty)
                .map(|(n, t)| format!("    /// `{{{n}}}`\n    pub {n}: {t},\n"))
                .collect();
            let bounds: Vec<String> = ty
                .iter()
                .map(|t| format!("{t}: std::fmt::Display"))
                .collect();
            (
                format!("<{}>", ty.join(", ")),
                format!("<{}>", bounds.join(", ")),
                format!(" {{\n{fields}}}"),
            )
        };
        let _ = writeln!(
            m,
            "/// {doc}\n#[derive(Debug, Clone, Copy)]\npub struct {msg}{generics}{fields}\nimpl{bounds} {msg}{generics} {{\n    /// The message in `lang`, its placeholders filled in.\n    pub fn text(&self, lang: Lang) -> String {{\n        match lang {{\n{arms}        }}\n    }}\n}}\nimpl{bounds} crate::say::Message for {msg}{generics} {{\n    fn text(&self, lang: Lang) -> String {{\n        {msg}::text(self, lang)\n    }}\n}}"
        );
    }
    demos
        .into_iter()
        .map(|(demo, m)| {
            let text = format!(
                "/// The messages of the demo `{demo}`: `[{demo}.say]` of its chapter's\n/// `cells.<lang>.toml` (generated by chapters/build.rs).\n#[allow(non_camel_case_types)]\npub mod {demo} {{\nuse crate::lang::Lang;\n\n{m}}}\n"
            );
            (demo.to_owned(), text)
        })
        .collect()
}

/// Appends `pub mod say` to `s`, each demo's module (see [`say_texts`]) in a
/// file of its own, and `say_source`, which gives the notebooks that file.
fn say_module(says: &[Messages], s: &mut String, errors: &mut Vec<String>) {
    let texts = say_texts(says, errors);
    if !errors.is_empty() {
        return;
    }
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR is set by cargo"));
    let trait_path = out.join("say_trait.rs");
    let trait_text = "/// A message of the catalogs, which can be written out in any language.\npub trait Message {\n    /// The message in `lang`, its placeholders filled in.\n    fn text(&self, lang: crate::lang::Lang) -> String;\n}\n";
    if std::fs::read_to_string(&trait_path).ok().as_deref() != Some(trait_text) {
        std::fs::write(&trait_path, trait_text).expect("writes $OUT_DIR/say_trait.rs");
    }
    let trait_path = trait_path.to_string_lossy();
    let mut includes = String::new();
    let mut sources = String::new();
    for (demo, text) in texts {
        let path = out.join(format!("say_{demo}.rs"));
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(&path, &text).expect("writes $OUT_DIR/say_<demo>.rs");
        }
        let path = path.to_string_lossy();
        let _ = writeln!(includes, "    include!({path:?});");
        let _ = writeln!(sources, "        {demo:?} => Some(include_str!({path:?})),");
    }
    let _ = writeln!(
        s,
        "/// What the demos say (#26): each demo's `[<demo>.say]` messages from its\n/// chapter's `cells.<lang>.toml`, one type per message with a field per\n/// placeholder; `text(lang)` writes it out.\npub mod say {{\n    include!({trait_path:?});\n{includes}}}\n\n/// The source of `say::<demo>` (of the trait `say::Message` for `\"Message\"`),\n/// which the notebooks include as it is.\n#[cfg(feature = \"render\")]\npub fn say_source(demo: &str) -> Option<&'static str> {{\n    match demo {{\n{sources}        \"Message\" => Some(include_str!({trait_path:?})),\n        _ => None,\n    }}\n}}\n"
    );
}
