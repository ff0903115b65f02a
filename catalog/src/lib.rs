//! The book's message catalogs, compiled to Rust by the build scripts of the
//! crates that speak (#26): `chapters` (each chapter's `[<demo>.say]` tables
//! and `chapters/src/say.<lang>.toml`) and `judge` (`judge/core/say.<lang>.toml`).
//!
//! A catalog is one TOML file per language; a message is a key whose value is
//! its text, with named placeholders (`"{n} of {layers} layers"`); `{{` and
//! `}}` are braces. Each message becomes a type of the generated module, with
//! one field per placeholder and `text(lang)`, which fills them in with one
//! `format!` per language: the code says `say::row { n, layers }.text(lang)`,
//! and the compiler refuses a missing or misspelt placeholder. A key missing
//! from a language, placeholders that differ between languages, or a
//! malformed placeholder is an error that names the file and the key, and
//! fails the build. Every type implements the generated trait `Message`, so a
//! function can take any message.
//!
//! A build-time crate only: no code of it reaches the wasm.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use lang::Lang;

/// One language's messages: (module, key) → text.
pub type Messages = BTreeMap<(String, String), String>;

/// Adds the messages of `table` (key → text) to `say` under `module`; `at`
/// names the table in errors (`cla.say`), `file` the file.
pub fn add_table(
    module: &str,
    table: &toml::Table,
    file: &str,
    at: &str,
    say: &mut Messages,
    errors: &mut Vec<String>,
) {
    for (key, v) in table {
        match v.as_str() {
            Some(v) => {
                say.insert((module.to_owned(), key.clone()), v.to_owned());
            }
            None => errors.push(format!("{file}: `{at}.{key}` is not a string")),
        }
    }
}

/// Adds a catalog file whose tables are modules (`[params]`, `[finding]`) to
/// `say`; a module that `say` already has is an error. A missing file adds
/// nothing.
pub fn add_file(path: &Path, file: &str, say: &mut Messages, errors: &mut Vec<String>) {
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    let table: toml::Table = match toml::from_str(&text) {
        Ok(t) => t,
        Err(e) => {
            errors.push(format!("{file}: {e}"));
            return;
        }
    };
    for (module, v) in &table {
        if say.keys().any(|(m, _)| m == module) {
            errors.push(format!(
                "{file}: `[{module}]` is a module of messages already: give it another name"
            ));
            continue;
        }
        match v.as_table() {
            Some(t) => add_table(module, t, file, module, say, errors),
            None => errors.push(format!("{file}: `{module}` is not a table")),
        }
    }
}

/// The placeholders of `template`, in order of first use, or what is wrong
/// with it. A placeholder is `{name}` (lower case, digits, `_`); `{{` and `}}`
/// are braces; any other brace is an error, so a template is always a valid
/// Rust format string whose named arguments are its placeholders.
pub fn placeholders(template: &str) -> Result<Vec<String>, String> {
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

/// The source of the trait every message implements; `lang_path` is the path
/// of `Lang` where the module is included (`crate::lang::Lang`).
pub fn trait_source(lang_path: &str) -> String {
    format!(
        "/// A message of the catalogs, which can be written out in any language.\npub trait Message {{\n    /// The message in `lang`, its placeholders filled in.\n    fn text(&self, lang: {lang_path}) -> String;\n}}\n"
    )
}

/// Each module's generated source (module → `pub mod <module> { … }`), for
/// one [`Messages`] per language of [`Lang::ALL`], in that order. `file(code)`
/// names a language's catalog in errors; `lang_path` is where `Lang` is; the
/// modules are meant to sit beside [`trait_source`]'s `Message` (they
/// implement `super::Message`). A key missing from a language, placeholders
/// that differ between languages, or a malformed placeholder is an error.
pub fn modules(
    says: &[Messages],
    file: impl Fn(&str) -> String,
    lang_path: &str,
    errors: &mut Vec<String>,
) -> BTreeMap<String, String> {
    let mut keys: Vec<&(String, String)> = says.iter().flat_map(|m| m.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut modules: BTreeMap<&str, String> = BTreeMap::new();
    // Each module's messages without placeholders, as arms of its `get`.
    let mut plain: BTreeMap<&str, String> = BTreeMap::new();
    for key @ (module, msg) in keys {
        let mut names: Option<Vec<String>> = None;
        let mut arms = String::new();
        for (lang, say) in Lang::ALL.iter().zip(says) {
            let file = file(lang.code());
            let Some(template) = say.get(key) else {
                errors.push(format!("{file}: `{module}.{msg}` is missing"));
                continue;
            };
            let mut these = match placeholders(template) {
                Ok(n) => n,
                Err(e) => {
                    errors.push(format!("{file}: `{module}.{msg}`: {e}"));
                    continue;
                }
            };
            these.sort();
            match &names {
                Some(n) if *n != these => errors.push(format!(
                    "{file}: `{module}.{msg}` has the placeholders {{{}}}, {} has {{{}}}",
                    these.join("}, {"),
                    Lang::ALL[0].code(),
                    n.join("}, {")
                )),
                Some(_) => {}
                None => names = Some(these.clone()),
            }
            let variant = format!("{lang:?}");
            if these.is_empty() {
                let plain = template.replace("{{", "{").replace("}}", "}");
                let _ = writeln!(arms, "            Lang::{variant} => {plain:?},");
            } else {
                let args: String = these.iter().map(|n| format!(", {n} = self.{n}")).collect();
                let _ = writeln!(
                    arms,
                    "            Lang::{variant} => format!({template:?}{args}),"
                );
            }
        }
        let names = names.unwrap_or_default();
        // The first language's text; quoted when it is only blanks (a separator).
        let doc = says[0].get(key).map_or(String::new(), |t| {
            if t.trim().is_empty() {
                format!("`{t:?}`")
            } else {
                t.replace('\n', " ")
            }
        });
        // Plain text for rustdoc: no HTML tags (`<exercise>`), no links.
        let doc = doc
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('[', "\\[")
            .replace(']', "\\]");
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
        for name in [module.as_str(), msg.as_str()] {
            if !is_identifier(name) {
                errors.push(format!(
                    "{}: `{module}.{msg}`: `{name}` must be a Rust name (a-z, 0-9, _, not a keyword, nor `get` or `lang`)",
                    file(Lang::ALL[0].code())
                ));
            }
        }
        // A message without placeholders is also a `&'static str` (`as_str`).
        let body = if names.is_empty() {
            format!(
                "    /// The message in `lang`.\n    pub const fn as_str(&self, lang: Lang) -> &'static str {{\n        match lang {{\n{arms}        }}\n    }}\n\n    /// The message in `lang`, as a `String`.\n    pub fn text(&self, lang: Lang) -> String {{\n        self.as_str(lang).to_owned()\n    }}\n"
            )
        } else {
            format!(
                "    /// The message in `lang`, its placeholders filled in.\n    pub fn text(&self, lang: Lang) -> String {{\n        match lang {{\n{arms}        }}\n    }}\n"
            )
        };
        if names.is_empty() {
            let _ = writeln!(
                plain.entry(module.as_str()).or_default(),
                "        {msg:?} => Some(&{msg}),"
            );
        }
        let _ = writeln!(
            modules.entry(module.as_str()).or_default(),
            "/// {doc}\n#[derive(Debug, Clone, Copy)]\npub struct {msg}{generics}{fields}\nimpl{bounds} {msg}{generics} {{\n{body}}}\nimpl{bounds} super::Message for {msg}{generics} {{\n    fn text(&self, lang: Lang) -> String {{\n        {msg}::text(self, lang)\n    }}\n}}"
        );
    }
    modules
        .into_iter()
        .map(|(module, m)| {
            // A module whose every message has placeholders has nothing to get.
            let lookup = match plain.get(module) {
                Some(arms) => format!("    match key {{\n{arms}        _ => None,\n    }}"),
                None => "    let _ = key;\n    None".to_owned(),
            };
            let text = format!(
                "/// The messages `{module}` (generated from the catalogs by the build script).\n#[allow(non_camel_case_types)]\npub mod {module} {{\nuse {lang_path};\n\n{m}\n/// The message `key` of this module, when it has no placeholders (for texts\n/// looked up by a name known at run time).\n#[allow(dead_code)]\npub fn get(key: &str) -> Option<&'static dyn super::Message> {{\n{lookup}\n}}\n}}\n"
            );
            (module.to_owned(), text)
        })
        .collect()
}

/// Whether `name` can name a module or a type: lower case, digits and `_`,
/// not starting with a digit, and not a keyword, a primitive type or a name
/// the generated code uses itself (`get`, and `lang`, the parameter of `text`).
fn is_identifier(name: &str) -> bool {
    const RESERVED: &[&str] = &[
        "lang", "as", "async", "await", "get", "box", "break", "const", "continue", "crate", "do",
        "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in",
        "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
        "return", "self", "static", "struct", "super", "trait", "true", "try", "type", "typeof",
        "unsafe", "unsized", "use", "virtual", "where", "while", "yield", "bool", "char", "str",
        "f32", "f64", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64",
        "u128", "usize",
    ];
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && !RESERVED.contains(&name)
}

/// Writes `text` to `path` unless it is there already (so that cargo does not
/// rebuild what includes it).
pub fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text)
        && let Err(e) = std::fs::write(path, text)
    {
        panic!("{}: {e}", path.display());
    }
}

/// The whole job of a crate's build script whose catalog is `say.<lang>.toml`
/// beside its `Cargo.toml` (`dir`, named `crate_dir` in messages, e.g.
/// `judge/core`): reads every language's file, compiles them, and writes the
/// trait and the modules to `$OUT_DIR/words.rs`, which the crate includes
/// (`mod words { include!(concat!(env!("OUT_DIR"), "/words.rs")); }`). On any
/// problem it prints each one and ends the build script with status 1.
/// Returns the messages read, one [`Messages`] per language of [`Lang::ALL`].
pub fn compile_crate_catalog(dir: &Path, crate_dir: &str, lang_path: &str) -> Vec<Messages> {
    println!("cargo:rerun-if-changed=build.rs");
    let mut says = Vec::new();
    let mut errors = Vec::new();
    for lang in Lang::ALL {
        let file = format!("say.{}.toml", lang.code());
        println!("cargo:rerun-if-changed={file}");
        let path = dir.join(&file);
        if !path.is_file() {
            errors.push(format!("{crate_dir}/{file} is missing"));
        }
        let mut say = Messages::new();
        add_file(&path, &format!("{crate_dir}/{file}"), &mut say, &mut errors);
        says.push(say);
    }
    let modules = modules(
        &says,
        |code| format!("{crate_dir}/say.{code}.toml"),
        lang_path,
        &mut errors,
    );
    if !errors.is_empty() {
        for e in &errors {
            eprintln!("error: {e}");
        }
        eprintln!(
            "{crate_dir}/build.rs: {} problem(s) in the catalogs",
            errors.len()
        );
        std::process::exit(1);
    }
    let mut s =
        format!("// @generated by {crate_dir}/build.rs from say.<lang>.toml: do not edit.\n\n");
    s.push_str(&trait_source(lang_path));
    for text in modules.values() {
        s.push('\n');
        s.push_str(text);
    }
    let out =
        std::env::var("OUT_DIR").unwrap_or_else(|_| panic!("{crate_dir}: OUT_DIR is set by cargo"));
    write_if_changed(&Path::new(&out).join("words.rs"), &s);
    says
}
