//! Exercise folders: reading and checking `chapters/src/<chapter>/exercises/<slug>/`,
//! and the Rust code the build script generates from them. Shared by `build.rs` and
//! the manifest tests.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The manifest format this build reads.
pub const FORMAT: i64 = 1;

/// The files an exercise folder holds besides `exercise.toml` and `wrong/`.
pub const FILES: [&str; 7] = [
    "statement.md",
    "starter.rhai",
    "starter.py",
    "starter.rs",
    "reference.rs",
    "solution.rhai",
    "solution.py",
];

/// The Chinese edition's files (#12): both or neither.
pub const ZH_FILES: [&str; 4] = [
    "statement.zh.md",
    "exercise.zh.toml",
    "starter.zh.rhai",
    "starter.zh.py",
];

/// `exercise.zh.toml`: the Chinese title and hints (the same number, in the
/// same order, as `exercise.toml`'s).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestZh {
    /// Always [`FORMAT`].
    pub format: i64,
    /// Short title.
    pub title: String,
    /// Hints, as `exercise.toml`'s.
    pub hints: Vec<String>,
    /// The known mistakes, as `exercise.toml`'s `[mistakes]`.
    #[serde(default)]
    pub mistakes: BTreeMap<String, String>,
}

/// The parameter types a manifest can use: those the practice harness reads
/// (`judge::harness::Args`), with the accessor the practice dispatch calls.
pub const PARAM_TYPES: [(&str, &str); 6] = [
    ("int", "int"),
    ("float", "float"),
    ("[int]", "ints"),
    ("[float]", "floats"),
    ("[[int]]", "int_matrix"),
    ("[[float]]", "matrix"),
];

/// `exercise.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Always [`FORMAT`].
    #[allow(dead_code)] // checked in `parse` before the typed read
    pub format: i64,
    /// Place in the chapter: exercises are ordered by it (1, 2, ...).
    pub position: u32,
    /// Short title.
    pub title: String,
    /// The function the learner writes.
    pub function: String,
    /// What it returns, for people.
    pub returns: String,
    /// Hints: questions first, the answer last.
    pub hints: Vec<String>,
    /// Float tolerance.
    pub tolerance: Tolerance,
    /// Parameters, in order.
    pub params: Vec<Param>,
    /// For the Rust practice crate.
    #[serde(default)]
    pub rust: Rust,
    /// The id of a cell in the same chapter whose Rust source is this
    /// exercise's answer: the page keeps that source folded, with a note,
    /// until the exercise is passed.
    #[serde(default)]
    pub answered_by_cell: Option<String>,
    /// Mutants of `solution.rhai` that compute the same function on the valid
    /// inputs, so no case can kill them (`[[equivalent]]`; see `src/mutate.rs`).
    #[serde(default)]
    pub equivalent: Vec<Equivalent>,
    /// `[mistakes]`: each known-wrong solution's misconception in one line, in
    /// the learner's terms, by the file's stem (`rounds_to_nearest` for
    /// `wrong/rounds_to_nearest.rhai`); a verdict whose results match that
    /// solution's names it (#29).
    #[serde(default)]
    pub mistakes: BTreeMap<String, String>,
}

/// One `[[equivalent]]` entry: a mutant of `solution.rhai` the mutation check
/// (`tests/mutants.rs`) accepts as surviving, and why.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Equivalent {
    /// The mutant's description, as the check prints it:
    /// ``line 4, column 15: `<=` -> `<` ``.
    pub mutant: String,
    /// One line: why it computes the same function on the valid inputs.
    pub reason: String,
}

/// `[rust]`: how the practice crate's dispatch (`src/main.rs`) calls the
/// learner's Rust function.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rust {
    /// A Rust expression turning the function's result `r` into a judge `Value`
    /// (default `r.into()`: numbers, vectors, pairs and triples convert).
    #[serde(default = "default_result")]
    pub result: String,
}

impl Default for Rust {
    fn default() -> Self {
        Rust {
            result: default_result(),
        }
    }
}

fn default_result() -> String {
    "r.into()".to_owned()
}

/// `[tolerance]`.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tolerance {
    /// Absolute.
    pub abs: f64,
    /// Relative.
    pub rel: f64,
}

/// One `[[params]]` entry.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Param {
    /// Its name.
    pub name: String,
    /// Its type, for people (`int`, `[[float]]`, ...).
    #[serde(rename = "type")]
    pub ty: String,
}

/// One exercise folder, read and checked.
#[derive(Debug, Clone)]
pub struct Folder {
    /// `ch_newmodels`.
    pub chapter: String,
    /// `attended`.
    pub slug: String,
    /// The folder.
    pub dir: PathBuf,
    /// Its manifest.
    pub manifest: Manifest,
    /// `wrong/*.rhai`, sorted.
    pub wrong: Vec<PathBuf>,
    /// `wrong/*.py`, sorted: mistakes natural in Python.
    pub wrong_python: Vec<PathBuf>,
    /// The Chinese title and hints, when the folder has `exercise.zh.toml`.
    pub zh: Option<ManifestZh>,
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some('a'..='z' | '_'))
        && chars.all(|c| matches!(c, 'a'..='z' | '0'..='9' | '_'))
        && !matches!(
            s,
            "as" | "fn"
                | "if"
                | "in"
                | "let"
                | "mod"
                | "move"
                | "mut"
                | "pub"
                | "ref"
                | "self"
                | "super"
                | "crate"
                | "type"
                | "use"
                | "where"
                | "while"
                | "loop"
                | "match"
                | "return"
                | "static"
                | "struct"
                | "trait"
                | "true"
                | "false"
                | "enum"
                | "extern"
                | "for"
                | "impl"
                | "const"
                | "break"
                | "continue"
                | "else"
                | "dyn"
                | "async"
                | "await"
                | "unsafe"
                | "_"
        )
}

/// Whether `s` reads ``line L, column C: `from` -> `to` ``.
fn is_mutant_description(s: &str) -> bool {
    let number = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let Some(rest) = s.strip_prefix("line ") else {
        return false;
    };
    let Some((line, rest)) = rest.split_once(", column ") else {
        return false;
    };
    let Some((column, rest)) = rest.split_once(": `") else {
        return false;
    };
    let Some((from, to)) = rest.split_once("` -> `") else {
        return false;
    };
    number(line)
        && number(column)
        && !from.is_empty()
        && to.len() > 1
        && to.ends_with('`')
        && !to[..to.len() - 1].contains('`')
}

fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    v.sort();
    Ok(v)
}

fn name_of(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Parses and checks one manifest's text; errors name `path`.
pub fn parse(path: &Path, text: &str) -> Result<Manifest, String> {
    let at = path.display();
    let table: toml::Table = toml::from_str(text).map_err(|e| format!("{at}: {e}"))?;
    match table.get("format") {
        Some(toml::Value::Integer(FORMAT)) => {}
        Some(toml::Value::Integer(n)) => {
            return Err(format!(
                "{at}: format {n} is not supported; this build reads format = {FORMAT}"
            ));
        }
        Some(_) => return Err(format!("{at}: `format` must be the integer {FORMAT}")),
        None => return Err(format!("{at}: missing `format = {FORMAT}`")),
    }
    let m: Manifest = toml::from_str(text).map_err(|e| format!("{at}: {e}"))?;
    let mut problems = Vec::new();
    if !is_ident(&m.function) {
        problems.push(format!(
            "function `{}` is not a plain identifier",
            m.function
        ));
    }
    if m.title.trim().is_empty() {
        problems.push("empty title".to_owned());
    }
    if m.hints.is_empty() || m.hints.iter().any(|h| h.trim().is_empty()) {
        problems.push("hints must be a non-empty list of non-empty strings".to_owned());
    }
    if m.params.is_empty() {
        problems.push("no [[params]]".to_owned());
    }
    for (i, p) in m.params.iter().enumerate() {
        if !is_ident(&p.name) {
            problems.push(format!("parameter `{}` is not a plain identifier", p.name));
        }
        if m.params[..i].iter().any(|q| q.name == p.name) {
            problems.push(format!("parameter `{}` appears twice", p.name));
        }
        if !PARAM_TYPES.iter().any(|(t, _)| *t == p.ty) {
            let known: Vec<&str> = PARAM_TYPES.iter().map(|(t, _)| *t).collect();
            problems.push(format!(
                "parameter `{}` has type `{}`; the types are {}",
                p.name,
                p.ty,
                known.join(", ")
            ));
        }
    }
    let t = m.tolerance;
    if !(t.abs.is_finite() && t.abs >= 0.0 && t.rel.is_finite() && t.rel >= 0.0) {
        problems.push("tolerance abs and rel must be finite and >= 0".to_owned());
    }
    if m.position == 0 {
        problems.push("position counts from 1".to_owned());
    }
    for (i, e) in m.equivalent.iter().enumerate() {
        if !is_mutant_description(&e.mutant) {
            problems.push(format!(
                "equivalent mutant `{}` is not of the form ``line L, column C: `from` -> `to` ``",
                e.mutant
            ));
        }
        if e.reason.trim().is_empty() || e.reason.contains('\n') {
            problems.push(format!(
                "equivalent mutant `{}` needs a one-line reason",
                e.mutant
            ));
        }
        if m.equivalent[..i].iter().any(|f| f.mutant == e.mutant) {
            problems.push(format!("equivalent mutant `{}` is listed twice", e.mutant));
        }
    }
    if problems.is_empty() {
        Ok(m)
    } else {
        Err(format!("{at}: {}", problems.join("; ")))
    }
}

/// Reads the exercise folders of the chapters `chapters` (in reading order, as
/// `chapters/SUMMARY.md` lists them) under `chapters_src` (`chapters/src`):
/// `<chapter>/exercises/<slug>/`; a chapter without `exercises/` has none. Returns
/// the folders chapter by chapter in that order, by `position` within a chapter, or
/// every problem found, each naming its file.
pub fn load(chapters_src: &Path, chapters: &[String]) -> Result<Vec<Folder>, Vec<String>> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for chapter in chapters {
        let ch_dir = chapters_src.join(chapter);
        if !is_ident(chapter) {
            errors.push(format!(
                "{}: a chapter folder's name must be an identifier",
                ch_dir.display()
            ));
            continue;
        }
        let ex_dir = ch_dir.join("exercises");
        if !ex_dir.exists() {
            continue;
        }
        let mut positions: BTreeMap<u32, String> = BTreeMap::new();
        let entries = match sorted_entries(&ex_dir) {
            Ok(v) => v,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        for dir in entries {
            if !dir.is_dir() {
                errors.push(format!(
                    "{}: unexpected; a chapter's exercises/ holds only exercise folders",
                    dir.display()
                ));
                continue;
            }
            match folder(chapter, &dir) {
                Err(mut e) => errors.append(&mut e),
                Ok(f) => {
                    if let Some(other) = positions.insert(f.manifest.position, f.slug.clone()) {
                        errors.push(format!(
                            "{}: position {} is also {other}'s",
                            dir.join("exercise.toml").display(),
                            f.manifest.position
                        ));
                    }
                    out.push(f);
                }
            }
        }
    }
    for (i, f) in out.iter().enumerate() {
        if let Some(g) = out[..i]
            .iter()
            .find(|g| g.chapter == f.chapter && g.manifest.function == f.manifest.function)
        {
            errors.push(format!(
                "{}: function `{}` is also {}'s",
                f.dir.join("exercise.toml").display(),
                f.manifest.function,
                g.slug
            ));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    out.sort_by_key(|f| {
        (
            chapters.iter().position(|c| *c == f.chapter),
            f.manifest.position,
        )
    });
    Ok(out)
}

fn folder(chapter: &str, dir: &Path) -> Result<Folder, Vec<String>> {
    let slug = name_of(dir);
    let mut errors = Vec::new();
    if !is_ident(&slug) {
        errors.push(format!(
            "{}: an exercise folder's name must be an identifier",
            dir.display()
        ));
    }
    let toml_path = dir.join("exercise.toml");
    let manifest = match std::fs::read_to_string(&toml_path) {
        Err(e) => {
            errors.push(format!("{}: {e}", toml_path.display()));
            None
        }
        Ok(text) => parse(&toml_path, &text).map_err(|e| errors.push(e)).ok(),
    };
    for f in FILES {
        let p = dir.join(f);
        if !p.is_file() {
            errors.push(format!("{}: missing", p.display()));
        }
    }
    match sorted_entries(dir) {
        Err(e) => errors.push(e),
        Ok(entries) => {
            for p in entries {
                let n = name_of(&p);
                // Python's byte-code cache, made by running a `.py` file here.
                if n == "__pycache__" {
                    continue;
                }
                if n != "exercise.toml"
                    && n != "wrong"
                    && !FILES.contains(&n.as_str())
                    && !ZH_FILES.contains(&n.as_str())
                {
                    errors.push(format!(
                        "{}: unexpected in an exercise folder (it holds exercise.toml, {}, wrong/)",
                        p.display(),
                        FILES.join(", ")
                    ));
                }
            }
        }
    }
    let zh = match ZH_FILES.map(|f| dir.join(f).is_file()) {
        [false, false, false, false] => None,
        [true, true, true, true] => {
            let p = dir.join("exercise.zh.toml");
            std::fs::read_to_string(&p)
                .map_err(|e| format!("{}: {e}", p.display()))
                .and_then(|t| {
                    let zh: ManifestZh =
                        toml::from_str(&t).map_err(|e| format!("{}: {e}", p.display()))?;
                    if zh.format != FORMAT {
                        return Err(format!(
                            "{}: format {} (this build reads format {FORMAT})",
                            p.display(),
                            zh.format
                        ));
                    }
                    if let Some(m) = &manifest
                        && m.hints.len() != zh.hints.len()
                    {
                        return Err(format!(
                            "{}: {} hints, but exercise.toml has {}",
                            p.display(),
                            zh.hints.len(),
                            m.hints.len()
                        ));
                    }
                    Ok(zh)
                })
                .map_err(|e| errors.push(e))
                .ok()
        }
        _ => {
            errors.push(format!(
                "{}: the Chinese edition needs both {} (or neither)",
                dir.display(),
                ZH_FILES.join(", ")
            ));
            None
        }
    };
    let wrong_dir = dir.join("wrong");
    let mut wrong = Vec::new();
    let mut wrong_python = Vec::new();
    match sorted_entries(&wrong_dir) {
        Err(_) => errors.push(format!(
            "{}: missing (known-wrong solutions, *.rhai, at least one)",
            wrong_dir.display()
        )),
        Ok(entries) => {
            for p in entries {
                if name_of(&p) == "__pycache__" {
                    continue;
                }
                if p.is_file() && name_of(&p).ends_with(".rhai") {
                    wrong.push(p);
                } else if p.is_file() && name_of(&p).ends_with(".py") {
                    wrong_python.push(p);
                } else {
                    errors.push(format!(
                        "{}: wrong/ holds only *.rhai and *.py files",
                        p.display()
                    ));
                }
            }
            if wrong.is_empty() {
                errors.push(format!(
                    "{}: no known-wrong solution (*.rhai)",
                    wrong_dir.display()
                ));
            }
        }
    }
    if let Some(m) = &manifest {
        let stems: Vec<String> = wrong
            .iter()
            .chain(&wrong_python)
            .map(|p| stem_of(p))
            .collect();
        errors.extend(mistake_problems(&toml_path, &stems, &m.mistakes));
        if let Some(z) = &zh {
            errors.extend(mistake_problems(
                &dir.join("exercise.zh.toml"),
                &stems,
                &z.mistakes,
            ));
        }
    }
    match manifest {
        Some(manifest) if errors.is_empty() => Ok(Folder {
            chapter: chapter.to_owned(),
            slug,
            dir: dir.to_owned(),
            manifest,
            wrong,
            wrong_python,
            zh,
        }),
        _ => Err(errors),
    }
}

/// A file's name without its extension.
fn stem_of(p: &Path) -> String {
    p.file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A manifest's `[mistakes]` against the folder's known-wrong solutions
/// (`stems`): one non-empty line for each, and none for a file that does not
/// exist; two files may not share a stem (it is the mistake's id).
pub fn mistake_problems(
    file: &Path,
    stems: &[String],
    mistakes: &BTreeMap<String, String>,
) -> Vec<String> {
    let at = file.display();
    let mut out = Vec::new();
    for (i, s) in stems.iter().enumerate() {
        if stems[..i].contains(s) {
            out.push(format!(
                "{at}: two known-wrong solutions are named `{s}`; a mistake's id is its file's stem"
            ));
        }
        match mistakes.get(s) {
            None => out.push(format!(
                "{at}: [mistakes] has no `{s}` (the misconception of wrong/{s}, in one line)"
            )),
            Some(t) if t.trim().is_empty() || t.contains('\n') => {
                out.push(format!("{at}: [mistakes] `{s}` must be one non-empty line"))
            }
            Some(_) => {}
        }
    }
    for k in mistakes.keys() {
        if !stems.contains(k) {
            out.push(format!("{at}: [mistakes] `{k}` names no file in wrong/"));
        }
    }
    out
}

fn lit(s: &str) -> String {
    format!("{s:?}")
}

fn path_lit(p: &Path) -> String {
    lit(&p.to_string_lossy())
}

fn list(items: impl IntoIterator<Item = String>) -> String {
    let v: Vec<String> = items.into_iter().collect();
    format!("&[{}]", v.join(", "))
}

/// `&[("id", "text"), ...]`, in the map's order.
fn pairs(m: &BTreeMap<String, String>) -> String {
    list(m.iter().map(|(k, v)| format!("({}, {})", lit(k), lit(v))))
}

fn float_lit(x: f64) -> String {
    let s = format!("{x:?}");
    if s.contains(['.', 'e', 'E']) {
        s
    } else {
        format!("{s}.0")
    }
}

/// The files whose content a verdict depends on: the statements (what was
/// asked), the manifest (cases, tolerance) and the reference (the expected
/// values). Receipts name their hash (#29).
pub const CONTENT_FILES: &[&str] = &[
    "exercise.toml",
    "exercise.zh.toml",
    "statement.md",
    "statement.zh.md",
    "reference.rs",
];

/// `fnv1a128:<32 hex digits>` over [`CONTENT_FILES`] in `dir` (each one's name,
/// length and bytes, line endings as `\n`; a missing file counts as empty). A
/// hash to notice a change with, not a signature: `judge verify` grades the
/// code again whatever it says.
pub fn content_hash(dir: &Path) -> String {
    const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;
    let mut h = OFFSET;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u128::from(b);
            h = h.wrapping_mul(PRIME);
        }
    };
    for name in CONTENT_FILES {
        let text = std::fs::read_to_string(dir.join(name))
            .unwrap_or_default()
            .replace("\r\n", "\n");
        eat(name.as_bytes());
        eat(&(text.len() as u64).to_le_bytes());
        eat(text.as_bytes());
    }
    format!("fnv1a128:{h:032x}")
}

/// The Rust code `src/lib.rs` includes: a module per chapter with a module per
/// exercise (its `reference.rs`), `generated()` (every [`Exercise`] value, in
/// order) and `KNOWN` (each exercise's `solution.rhai` and `wrong/*.rhai`).
pub fn generate(folders: &[Folder]) -> String {
    let mut s = String::from(
        "// @generated by exercises/build.rs from the exercise folders chapters/src/<chapter>/exercises/<slug>/: do not edit.\n\n",
    );
    let mut chapters: Vec<&str> = folders.iter().map(|f| f.chapter.as_str()).collect();
    chapters.dedup();
    for ch in &chapters {
        let _ = writeln!(
            s,
            "/// Exercises of chapter `{ch}`: one module per exercise folder (its `reference.rs`)."
        );
        let _ = writeln!(s, "pub mod {ch} {{");
        for f in folders.iter().filter(|f| f.chapter == *ch) {
            let _ = writeln!(
                s,
                "    #[path = {}]\n    pub mod {};",
                path_lit(&f.dir.join("reference.rs")),
                f.slug
            );
        }
        s.push_str("}\n\n");
    }
    s.push_str("/// Every exercise, chapter by chapter, in the order of their `position`.\n");
    s.push_str("fn generated() -> Vec<Exercise> {\n    vec![\n");
    for f in folders {
        let m = &f.manifest;
        let file = |n: &str| format!("include_str!({})", path_lit(&f.dir.join(n)));
        let module = format!("{}::{}", f.chapter, f.slug);
        let _ = writeln!(
            s,
            "        Exercise {{
            id: {id},
            title: {title},
            #[cfg(feature = \"render\")]
            statement: {statement},
            function: {function},
            params: {params},
            param_types: {types},
            returns: {returns},
            rust_result: {rust_result},
            starter_rhai: {starter_rhai},
            starter_rhai_zh: {starter_rhai_zh},
            starter_python: {starter_python},
            starter_python_zh: {starter_python_zh},
            #[cfg(feature = \"render\")]
            starter_rust: {starter_rust},
            hints: {hints},
            mistakes: {mistakes},
            content: {content},
            tolerance: judge::Tolerance {{ abs: {abs}, rel: {rel} }},
            #[cfg(feature = \"grade\")]
            cases: {module}::cases,
            #[cfg(feature = \"grade\")]
            reference: {module}::reference,
            #[cfg(feature = \"render\")]
            reference_source: chapters::demo::anchored({reference}, \"reference\"),
            #[cfg(feature = \"render\")]
            answered_by_cell: {answered},
            #[cfg(feature = \"render\")]
            zh: {zh},
        }},",
            id = lit(&format!("{}/{}", f.chapter, f.slug)),
            title = lit(&m.title),
            statement = file("statement.md"),
            function = lit(&m.function),
            params = list(m.params.iter().map(|p| lit(&p.name))),
            types = list(m.params.iter().map(|p| lit(&p.ty))),
            returns = lit(&m.returns),
            rust_result = lit(&m.rust.result),
            starter_rhai = file("starter.rhai"),
            starter_rhai_zh = if f.zh.is_some() {
                format!("Some({})", file("starter.zh.rhai"))
            } else {
                "None".to_owned()
            },
            starter_python = file("starter.py"),
            starter_python_zh = if f.zh.is_some() {
                format!("Some({})", file("starter.zh.py"))
            } else {
                "None".to_owned()
            },
            starter_rust = file("starter.rs"),
            hints = list(m.hints.iter().map(|h| lit(h))),
            mistakes = pairs(&m.mistakes),
            content = lit(&content_hash(&f.dir)),
            abs = float_lit(m.tolerance.abs),
            rel = float_lit(m.tolerance.rel),
            reference = file("reference.rs"),
            answered = match &m.answered_by_cell {
                Some(c) => format!("Some({})", lit(c)),
                None => "None".to_owned(),
            },
            zh = match &f.zh {
                Some(z) => format!(
                    "Some(ZhText {{ title: {}, statement: {}, hints: {}, mistakes: {} }})",
                    lit(&z.title),
                    file("statement.zh.md"),
                    list(z.hints.iter().map(|h| lit(h))),
                    pairs(&z.mistakes)
                ),
                None => "None".to_owned(),
            },
        );
    }
    s.push_str("    ]\n}\n\n");
    s.push_str(
        "/// Each exercise's known-good `solution.rhai` and its `wrong/*.rhai`.\nstatic KNOWN: &[known::Known] = &[\n",
    );
    for f in folders {
        let files = |paths: &[PathBuf]| {
            list(paths.iter().map(|p| {
                format!(
                    "({}, include_str!({}))",
                    lit(&format!("wrong/{}", name_of(p))),
                    path_lit(p)
                )
            }))
        };
        let _ = writeln!(
            s,
            "    known::Known {{ id: {}, solution: include_str!({}), wrong: {}, solution_python: include_str!({}), wrong_python: {} }},",
            lit(&format!("{}/{}", f.chapter, f.slug)),
            path_lit(&f.dir.join("solution.rhai")),
            files(&f.wrong),
            path_lit(&f.dir.join("solution.py")),
            files(&f.wrong_python),
        );
    }
    s.push_str("];\n");
    s
}
