//! Notebooks: one `.ipynb` per chapter for the evcxr Rust kernel (issue #11 §2).
//!
//! [`write()`] turns each chapter into `dist/nb/<slug>.ipynb` (nbformat 4.5):
//!
//! 1. a short note on how to run it, then the chapter's text as Markdown
//!    cells (its title first), its figures filled in as the page fills them,
//!    split at the directives: an exercise becomes its statement and a link to
//!    it on the page, the self-test its questions and answers, the scratch
//!    cell a note;
//! 2. just before the first code cell, the setup cell, the book's support
//!    code (a reader may run it without reading it): `:dep` lines for the
//!    crates the code uses, at the versions of the workspace's `Cargo.lock`,
//!    the crate-level modules of `chapters/src` the demos use (`demo`, `math`,
//!    `rng`) as `mod` items, a `mod <chapter> { pub(crate) use crate::*; }`
//!    for each chapter whose modules the code names as `crate::<chapter>::m`
//!    (every module of a notebook is at its top level), and the printing
//!    helper ([`show`]);
//! 3. at each `cell` directive, a code cell of items, the demo's module:
//!    its file's text as it is (checked by [`includable`]: its tests are in a
//!    file of their own, and what only the page's build compiles,
//!    `#[cfg(feature = "render")]`, is left out by the compiler, not by
//!    editing the text) inside `mod <name> { … }`, preceded by the modules it
//!    uses that no earlier cell defined (worked out from its paths), then a
//!    code cell of statements, the call: the demo's `run` on its defaults,
//!    printed. The call's metadata carries a template that
//!    `web/notebook.js` fills with the reader's values when the page's
//!    "Download notebook" is pressed.
//!
//! [`check()`] proves a notebook runs: the nbformat schema (Debian's
//! `python3-nbformat`, run by Debian's Python), then its code cells concatenated into a scratch crate
//! (item cells at the top level, call cells in order in `main`, each in its
//! own block), built and run; what each call prints must be what the native
//! demo gives for the parameters that cell holds.

mod check;
// `show::show` is called in the notebooks only; the check calls `output_text`.
#[allow(dead_code)]
mod show;

pub use check::{check, check_files};

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use chapters::doc::Block;
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use serde_json::{Value, json};

use crate::root;

const BOOK: &str = "Inference Handbook";
/// The key of the book's metadata in a notebook and in its cells.
const META: &str = "inference_handbook";
/// The directives that are not Markdown (see `chapters::doc::parse`).
const DIRECTIVES: [&str; 4] = ["cell", "exercise", "selftest", "scratch"];

/// Writes `dist/nb/<slug>.ipynb` for every chapter (after removing `dist/nb/`,
/// so no stale notebook survives) and copies `web/notebook.js`, the page's
/// download code, to `dist/notebook.js`.
pub fn write(dist: &Path) -> Result<(), String> {
    let dir = dist.join("nb");
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut lib = Library::new(external_crates()?)?;
    let mut sizes = Vec::new();
    for ch in chapters::all() {
        let nb = notebook(&ch, &mut lib)?;
        let text = to_json(&nb)?;
        let file = dir.join(format!("{}.ipynb", ch.slug));
        std::fs::write(&file, &text).map_err(|e| format!("{}: {e}", file.display()))?;
        sizes.push(format!("{}.ipynb {} B", ch.slug, text.len()));
    }
    let js = root().join("web/notebook.js");
    std::fs::copy(&js, dist.join("notebook.js")).map_err(|e| format!("{}: {e}", js.display()))?;
    println!(
        "wrote {} notebooks into dist/nb/: {}",
        sizes.len(),
        sizes.join(", ")
    );
    Ok(())
}

/// The chapter page's "Download notebook" control: a link to the notebook with
/// the defaults (what it gives without JavaScript), which `web/notebook.js`,
/// loaded by the page's head script on a click, fills with the values in the
/// cells' inputs. `place` names where it is (`top`, `footer`).
pub fn download_link(slug: &str, place: &str, lang: chapters::Lang) -> String {
    use crate::render::t;
    use chapters::doc::escape;
    format!(
        "<p class=\"notebook-download {place}\" data-pagefind-ignore><a class=\"notebook-link\" href=\"/nb/{slug}.ipynb\" \
         download=\"{slug}.ipynb\" data-notebook=\"{slug}\" title=\"{}\">{}</a> \
         <span class=\"notebook-hint\">{}</span></p>",
        escape(&t(lang, "notebook_title")),
        escape(&t(lang, "notebook_download")),
        escape(&t(lang, "notebook_hint")),
    )
}

/// A notebook as JSON, indented, with a final newline.
fn to_json(nb: &Value) -> Result<String, String> {
    serde_json::to_string_pretty(nb)
        .map(|s| s + "\n")
        .map_err(|e| e.to_string())
}

// ---------------------------------------------------------------------------
// The chapter's crates and modules
// ---------------------------------------------------------------------------

/// The `chapters` crate's registry dependencies: the name code uses
/// (`pulldown_cmark`) → what follows `:dep ` (`pulldown-cmark = { version =
/// "=0.13.6", default-features = false, features = ["html"] }`), with the
/// version `Cargo.lock` resolved and the features the manifest asks for.
fn external_crates() -> Result<BTreeMap<String, String>, String> {
    let out = Command::new("cargo")
        .args(["metadata", "--format-version", "1"])
        .current_dir(root())
        .output()
        .map_err(|e| format!("cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let meta: Value = serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
    let packages = meta["packages"].as_array().cloned().unwrap_or_default();
    let chapters = packages
        .iter()
        .find(|p| p["name"] == "chapters")
        .ok_or("cargo metadata lists no `chapters` package")?;
    let node = meta["resolve"]["nodes"]
        .as_array()
        .and_then(|nodes| nodes.iter().find(|n| n["id"] == chapters["id"]))
        .ok_or("cargo metadata has no resolved dependencies for `chapters`")?;
    let version_of = |name: &str| -> Option<String> {
        node["deps"].as_array()?.iter().find_map(|d| {
            let pkg = packages.iter().find(|p| p["id"] == d["pkg"])?;
            (pkg["name"] == name).then(|| pkg["version"].as_str().map(str::to_owned))?
        })
    };
    let mut crates = BTreeMap::new();
    for dep in chapters["dependencies"].as_array().into_iter().flatten() {
        let registry = dep["source"]
            .as_str()
            .is_some_and(|s| s.starts_with("registry+"));
        if !dep["kind"].is_null() || !registry {
            continue;
        }
        let name = dep["name"].as_str().unwrap_or_default();
        let version = version_of(name)
            .ok_or_else(|| format!("Cargo.lock has no resolved version of `{name}`"))?;
        let key = dep["rename"].as_str().unwrap_or(name);
        let mut spec = format!("version = \"={version}\"");
        if key != name {
            spec = format!("package = \"{name}\", {spec}");
        }
        if dep["uses_default_features"] == false {
            spec.push_str(", default-features = false");
        }
        let features: Vec<String> = dep["features"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|f| f.as_str().map(|f| format!("\"{f}\"")))
            .collect();
        if !features.is_empty() {
            spec.push_str(&format!(", features = [{}]", features.join(", ")));
        }
        crates.insert(key.replace('-', "_"), format!("{key} = {{ {spec} }}"));
    }
    Ok(crates)
}

/// A source file of `chapters/src` as a notebook module.
#[derive(Debug, Clone)]
struct Module {
    /// Its name in the notebook: the file's stem.
    name: String,
    /// Its path from the workspace root.
    file: String,
    /// The chapter folder it is in; `None` for a crate-level module.
    chapter: Option<String>,
    /// The `mod name { … }` item, with a comment naming the file.
    item: String,
    /// The notebook modules its code names (`crate::x`, `crate::<chapter>::x`,
    /// `super::x`).
    uses: BTreeSet<String>,
    /// The chapter folders its code names (`crate::<chapter>::x`), which the
    /// notebook's setup cell makes names of its top level.
    chapters: BTreeSet<String>,
    /// The external crates its code names (keys of [`Library::crates`]).
    crates: BTreeSet<String>,
}

/// The source files a notebook can take modules from, loaded on first use.
struct Library {
    /// Stem → (path from the root, chapter folder) of every candidate file.
    files: BTreeMap<String, Vec<(String, Option<String>)>>,
    /// The chapter folders (`ch_newmodels`, …).
    chapter_ids: Vec<String>,
    /// See [`external_crates`].
    crates: BTreeMap<String, String>,
    loaded: BTreeMap<String, Module>,
}

impl Library {
    fn new(crates: BTreeMap<String, String>) -> Result<Library, String> {
        let src = root().join("chapters/src");
        let chapter_ids: Vec<String> = chapters::all().iter().map(|c| c.id.to_owned()).collect();
        let mut files: BTreeMap<String, Vec<(String, Option<String>)>> = BTreeMap::new();
        let mut add = |dir: &Path, chapter: Option<&str>, skip: &str| -> Result<(), String> {
            let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            for e in entries {
                let path = e.map_err(|e| e.to_string())?.path();
                let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                    continue;
                };
                if path.extension().and_then(|x| x.to_str()) != Some("rs") || stem == skip {
                    continue;
                }
                let rel = path
                    .strip_prefix(root())
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                files
                    .entry(stem.to_owned())
                    .or_default()
                    .push((rel, chapter.map(str::to_owned)));
            }
            Ok(())
        };
        add(&src, None, "lib")?;
        for ch in &chapter_ids {
            add(&src.join(ch), Some(ch), "mod")?;
        }
        // The book's language type is a crate of its own (`lang`), whose one
        // file is made to be included as it is: `crate::lang` in the demos.
        files
            .entry("lang".to_owned())
            .or_default()
            .push(("lang/src/lib.rs".to_owned(), None));
        Ok(Library {
            files,
            chapter_ids,
            crates,
            loaded: BTreeMap::new(),
        })
    }

    /// Whether `chapters/src/<chapter>/<stem>.rs` exists.
    fn in_chapter(&self, chapter: &str, stem: &str) -> bool {
        self.files
            .get(stem)
            .is_some_and(|v| v.iter().any(|(_, c)| c.as_deref() == Some(chapter)))
    }

    /// The module `name`, read and rewritten on first use.
    fn module(&mut self, name: &str, used_by: &str) -> Result<Module, String> {
        if let Some(m) = self.loaded.get(name) {
            return Ok(m.clone());
        }
        if name == SAY {
            // The demos' messages are generated (chapters/build.rs): the
            // notebook's `say` holds the modules its code names, filled in by
            // `say_item` once the notebook's modules are known.
            return Ok(Module {
                name: SAY.to_owned(),
                item: String::new(),
                file: "the chapters' cells.<lang>.toml".to_owned(),
                chapter: None,
                uses: BTreeSet::from(["lang".to_owned()]),
                chapters: BTreeSet::new(),
                crates: BTreeSet::new(),
            });
        }
        let (file, chapter) = match self.files.get(name).map(Vec::as_slice) {
            Some([one]) => one.clone(),
            Some(many) => {
                return Err(format!(
                    "{used_by} needs module `{name}`, but several files would be `{name}` in a notebook, whose modules are flat: {}",
                    many.iter()
                        .map(|(f, _)| f.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            None => {
                return Err(format!(
                    "{used_by} uses `crate::{name}`, which is no module file of chapters/src (chapters/src/{name}.rs or chapters/src/<chapter>/{name}.rs)"
                ));
            }
        };
        let text =
            std::fs::read_to_string(root().join(&file)).map_err(|e| format!("{file}: {e}"))?;
        includable(&text, &file)?;
        let code = check::without_strings_and_comments(&text);
        let (mut uses, named) = book_paths(&code, &file, chapter.as_deref(), self)?;
        uses.remove(name);
        let crates = self
            .crates
            .keys()
            .filter(|c| names_crate(&code, c))
            .cloned()
            .collect();
        let m = Module {
            name: name.to_owned(),
            item: format!(
                "// {file}, as it is.\n{}mod {name} {{\n{}\n}}\n",
                // The book crate's features, which a notebook has none of.
                if code.contains("cfg(feature") {
                    "#[allow(unexpected_cfgs)]\n"
                } else {
                    ""
                },
                text.trim_end()
            ),
            file,
            chapter,
            uses,
            chapters: named,
            crates,
        };
        self.loaded.insert(name.to_owned(), m.clone());
        Ok(m)
    }

    /// `name` and every module it needs, directly or not, dependencies first.
    fn closure(&mut self, name: &str, used_by: &str) -> Result<Vec<Module>, String> {
        let mut out = Vec::new();
        self.visit(name, used_by, &mut Vec::new(), &mut out)?;
        Ok(out)
    }

    fn visit(
        &mut self,
        name: &str,
        used_by: &str,
        path: &mut Vec<String>,
        out: &mut Vec<Module>,
    ) -> Result<(), String> {
        if out.iter().any(|m| m.name == name) {
            return Ok(());
        }
        if path.iter().any(|p| p == name) {
            return Err(format!(
                "modules use each other in a cycle ({} → {name}): a notebook cell can only use what earlier cells defined, so they cannot be given in order",
                path.join(" → ")
            ));
        }
        let m = self.module(name, used_by)?;
        path.push(name.to_owned());
        for u in &m.uses {
            self.visit(u, &m.file, path, out)?;
        }
        path.pop();
        out.push(m);
        Ok(())
    }
}

/// The module of the demos' messages (`crate::say::<demo>`, generated).
const SAY: &str = "say";

/// The notebook's `mod say`: the generated message modules that `modules` name
/// (`crate::say::<demo>`), as chapters/build.rs wrote them.
fn say_item(modules: &[Module]) -> Result<String, String> {
    let mut ids = BTreeSet::new();
    for m in modules {
        for (i, _) in m.item.match_indices("crate::say::") {
            ids.insert(ident(&m.item[i + "crate::say::".len()..]).to_owned());
        }
    }
    let mut item = String::from(
        "// The demos' messages, generated from the chapters' cells.<lang>.toml.\nmod say {\n",
    );
    item.push_str(chapters::say_source("Message").ok_or("no say::Message")?);
    for id in ids.iter().filter(|id| *id != "Message") {
        let source = chapters::say_source(id)
            .ok_or_else(|| format!("`crate::say::{id}` names no demo's messages"))?;
        item.push_str(source);
    }
    item.push_str("}\n");
    Ok(item)
}

/// Whether `code` names the external crate `krate` as a path's first segment
/// (`use ndarray::…`, `libm::exp(…)`).
fn names_crate(code: &str, krate: &str) -> bool {
    let pat = format!("{krate}::");
    code.match_indices(&pat).any(|(i, _)| {
        let before = code[..i].chars().next_back();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
    })
}

/// Whether the character before byte `i` of `s` ends an identifier or a path
/// (so `crate::` at `i` is not a path's first segment).
fn inside_word(s: &str, i: usize) -> bool {
    s[..i]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':' || c == '$')
}

/// The identifier at the start of `s`.
fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The modules `crate::<name>` paths in `code` name.
fn crate_paths(code: &str) -> BTreeSet<String> {
    code.match_indices("crate::")
        .filter(|(i, _)| !inside_word(code, *i))
        .map(|(i, _)| ident(&code[i + "crate::".len()..]).to_owned())
        .filter(|n| !n.is_empty())
        .collect()
}

/// Checks that a module file can go into a notebook as it is, inside
/// `mod <name> { … }`: its tests are in a file of their own (`#[cfg(test)] mod
/// tests;`, which a notebook, built without `cfg(test)`, leaves out), it
/// declares no other module file (a notebook has only this text), and it reads
/// a file (`include_str!`) only in a render-only item, which a notebook, built
/// without the `render` feature, leaves out.
fn includable(text: &str, file: &str) -> Result<(), String> {
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        let above = |n: usize| if n <= i { lines[i - n].trim() } else { "" };
        let cfg_test = above(1) == "#[cfg(test)]"
            || (above(1).starts_with("#[path") && above(2) == "#[cfg(test)]");
        let no = i + 1;
        let is_mod =
            t.starts_with("mod ") || t.starts_with("pub mod ") || t.starts_with("pub(crate) mod ");
        if is_mod && t.ends_with('{') && cfg_test {
            return Err(format!(
                "{file} line {no}: a test module with its body here; a notebook includes this file as it is, so its tests go in a file of their own (`#[cfg(test)] mod tests;`)"
            ));
        }
        if is_mod && t.ends_with(';') && !cfg_test {
            return Err(format!(
                "{file} line {no}: `{t}` declares a module file, which a notebook, given this file's text alone, does not have"
            ));
        }
        if t.contains("include_str!(") && above(1) != "#[cfg(feature = \"render\")]" {
            return Err(format!(
                "{file} line {no}: `include_str!` outside a `#[cfg(feature = \"render\")]` item: a notebook has no files beside it"
            ));
        }
    }
    Ok(())
}

/// What a module file's code names of the book: the notebook modules
/// (`crate::demo`, `crate::<chapter>::m` and, in a chapter module, `super::m`,
/// `m` a file of the same chapter) and the chapters (`ch_kvcache` in
/// `crate::ch_kvcache::m`). `code` is without comments and strings.
fn book_paths(
    code: &str,
    file: &str,
    chapter: Option<&str>,
    lib: &Library,
) -> Result<(BTreeSet<String>, BTreeSet<String>), String> {
    let (mut modules, mut chapters) = (BTreeSet::new(), BTreeSet::new());
    for root in ["crate::", "super::"] {
        for (i, _) in code.match_indices(root) {
            if inside_word(code, i) {
                continue;
            }
            let after = &code[i + root.len()..];
            let first = ident(after);
            let line = code[..i].matches('\n').count() + 1;
            if root == "crate::" && lib.chapter_ids.iter().any(|c| c == first) {
                let stem = after[first.len()..]
                    .strip_prefix("::")
                    .map(ident)
                    .unwrap_or("");
                if stem.is_empty() || !lib.in_chapter(first, stem) {
                    return Err(format!(
                        "{file} line {line}: `crate::{first}` is not followed by `::<module>`, a module file of chapters/src/{first}/, so a notebook cannot tell which module to include"
                    ));
                }
                chapters.insert(first.to_owned());
                modules.insert(stem.to_owned());
            } else if root == "crate::" && !first.is_empty() {
                modules.insert(first.to_owned());
            } else if root == "super::" && first == "super" {
                return Err(format!(
                    "{file} line {line}: `super::super::` outside the tests: a notebook's modules are one level deep"
                ));
            } else if root == "super::" && chapter.is_some_and(|ch| lib.in_chapter(ch, first)) {
                modules.insert(first.to_owned());
            } else if root == "super::" && after.starts_with('{') {
                return Err(format!(
                    "{file} line {line}: `super::{{…}}`: name each module of the chapter in a path of its own, so that a notebook can tell which to include"
                ));
            }
        }
    }
    Ok((modules, chapters))
}

// ---------------------------------------------------------------------------
// The chapter's text, split at its directives
// ---------------------------------------------------------------------------

/// A piece of a chapter's Markdown.
#[derive(Debug, Clone, PartialEq)]
enum Piece {
    /// Markdown between directives.
    Text(String),
    /// A directive: its kind, its argument, its body.
    Directive {
        kind: String,
        arg: String,
        body: String,
    },
}

/// The chapter's Markdown (figures already filled) cut at its directives, by
/// the parser and options `chapters::doc::parse` uses.
fn pieces(source: &str) -> Vec<Piece> {
    let opts = Options::ENABLE_TABLES | Options::ENABLE_MATH | Options::ENABLE_STRIKETHROUGH;
    let mut out = Vec::new();
    let mut last = 0;
    let mut current: Option<(String, String, String)> = None;
    for (event, range) in Parser::new_ext(source, opts).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                let mut words = info.split_whitespace();
                let kind = words.next().unwrap_or("");
                if DIRECTIVES.contains(&kind) {
                    out.push(Piece::Text(source[last..range.start].to_owned()));
                    last = range.end;
                    current = Some((
                        kind.to_owned(),
                        words.next().unwrap_or("").to_owned(),
                        String::new(),
                    ));
                }
            }
            Event::Text(t) => {
                if let Some((_, _, body)) = current.as_mut() {
                    body.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((kind, arg, body)) = current.take() {
                    out.push(Piece::Directive { kind, arg, body });
                }
            }
            _ => {}
        }
    }
    out.push(Piece::Text(source[last..].to_owned()));
    out.retain(|p| !matches!(p, Piece::Text(t) if t.trim().is_empty()));
    out
}

/// The chapter's Markdown with its figures filled in, exactly as
/// `Chapter::doc` fills them for the page.
fn filled_source(ch: &chapters::Chapter) -> Result<String, String> {
    let figures = (ch.figures)();
    let source = ch.source_in(chapters::Lang::En).unwrap_or(ch.source);
    chapters::doc::substitute(source, &|name| {
        figures
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
    })
    .map_err(|e| format!("{} {e}", ch.repo_path))
}

/// Links within the page (`#section`) point at the chapter's web page; links to
/// other pages stay site-relative (`/ch/…`), and `web/notebook.js` makes them
/// absolute with the address the reader downloaded from.
fn page_links(md: &str, slug: &str) -> String {
    md.replace("](#", &format!("](/ch/{slug}#"))
}

/// A self-test's `Q:`/`A:` body as Markdown, answers shown; read by the
/// parser the page uses (`chapters::doc::selftest_items`).
fn selftest_markdown(body: &str) -> Result<String, String> {
    let items = chapters::doc::selftest_items(body, 0)
        .map_err(|e| format!("self-test, line {} of its body: {}", e.line, e.message))?;
    let mut s = String::from(
        "**Self-test.** On the page the answers stay folded; here each follows its question.\n",
    );
    for (n, (q, a, _)) in items.iter().enumerate() {
        s.push_str(&format!("\n**{}.** {}\n\n", n + 1, q.trim()));
        for (i, line) in a.trim().lines().enumerate() {
            let lead = if i == 0 { "**Answer.** " } else { "" };
            s.push_str(&format!("> {lead}{line}\n"));
        }
    }
    Ok(s)
}

// ---------------------------------------------------------------------------
// The notebook
// ---------------------------------------------------------------------------

/// A cell's `source`: lines, each with its newline but the last (Jupyter's form).
fn lines(text: &str) -> Value {
    let text = text.trim_end_matches('\n');
    Value::Array(
        text.split_inclusive('\n')
            .map(|l| Value::String(l.to_owned()))
            .collect(),
    )
}

fn markdown(id: String, text: &str) -> Value {
    json!({"cell_type": "markdown", "id": id, "metadata": {}, "source": lines(text)})
}

fn code(id: String, text: &str, meta: Value) -> Value {
    json!({
        "cell_type": "code",
        "id": id,
        "metadata": {META: meta},
        "execution_count": null,
        "outputs": [],
        "source": lines(text),
    })
}

/// A Rust string literal holding `s`: a raw string (`r"…"`, `r#"…"#`) for text
/// of several lines with no other control character, so it reads as typed;
/// otherwise a quoted string with escapes. `web/notebook.js` does the same.
pub fn rust_literal(s: &str) -> String {
    let plain = |c: char| !c.is_control() || c == '\n' || c == '\t';
    if s.contains('\n') && s.chars().all(plain) {
        let mut hashes = String::new();
        while s.contains(&format!("\"{hashes}")) {
            hashes.push('#');
        }
        return format!("r{hashes}\"{s}\"{hashes}");
    }
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The placeholder of parameter `name` in a call cell's template.
fn placeholder(name: &str) -> String {
    format!("{{{{param:{name}}}}}")
}

/// A call cell's template: the demo run on `params(…)` of `{{param:NAME}}`
/// placeholders, its output printed by `show`.
fn call_template(d: &chapters::demo::Demo, module: &str) -> String {
    let mut s = format!(
        "// The cell “{}”: edit the values and run it again.\nshow(&{module}::run(&params(&[\n",
        d.title_in(chapters::Lang::En)
    );
    for p in d.params {
        s.push_str(&format!("    (\"{}\", {}),\n", p.name, placeholder(p.name)));
    }
    s.push_str("]), lang::Lang::En));\n");
    s
}

/// The template with every placeholder replaced by the literal of its value.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    values.iter().fold(template.to_owned(), |t, (name, v)| {
        t.replace(&placeholder(name), &rust_literal(v))
    })
}

/// The notebook of one chapter.
fn notebook(ch: &chapters::Chapter, lib: &mut Library) -> Result<Value, String> {
    let source = filled_source(ch)?;
    let pieces = pieces(&source);
    // The directives found here must be those the page renders, in order.
    let doc = ch.doc().map_err(|e| format!("{} {e}", ch.repo_path))?;
    let page: Vec<(String, String)> = doc
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Html(_) => None,
            Block::Cell { id, .. } => Some(("cell".to_owned(), id.clone())),
            Block::Exercise { id, .. } => Some(("exercise".to_owned(), id.clone())),
            Block::SelfTest(_) => Some(("selftest".to_owned(), String::new())),
            Block::Scratch { .. } => Some(("scratch".to_owned(), String::new())),
        })
        .collect();
    let found: Vec<(String, String)> = pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Directive { kind, arg, .. } => Some((
                kind.clone(),
                if kind == "cell" || kind == "exercise" {
                    arg.clone()
                } else {
                    String::new()
                },
            )),
            Piece::Text(_) => None,
        })
        .collect();
    if page != found {
        return Err(format!(
            "{}: the notebook's reading of the directives ({found:?}) differs from the page's ({page:?})",
            ch.repo_path
        ));
    }

    let demos = (ch.demos)();
    // Every module the chapter's cells need, to know the setup cell's crates
    // and crate-level modules.
    let mut all: Vec<Module> = Vec::new();
    for (kind, id) in &found {
        if kind == "cell" {
            let name = demo_module(lib, ch, id)?;
            for m in lib.closure(&name, ch.repo_path)? {
                if !all.iter().any(|a| a.name == m.name) {
                    all.push(m);
                }
            }
        }
    }
    for m in &all {
        if m.chapter.is_none()
            && let Some(u) = m
                .uses
                .iter()
                .find(|u| all.iter().any(|a| &a.name == *u && a.chapter.is_some()))
        {
            return Err(format!(
                "{} is crate-level (it goes in the notebook's setup cell) but uses the chapter module `{u}`",
                m.file
            ));
        }
    }
    if let Some(i) = all.iter().position(|m| m.name == SAY) {
        all[i].item = say_item(&all)?;
    }
    let crates: BTreeSet<&String> = all.iter().flat_map(|m| &m.crates).collect();
    let mut setup = String::from(
        "// Setup: the book's support code. Run it once before the cells below; there is\n\
         // no need to read it. The crates the chapter's code uses, at the versions of the\n\
         // book's Cargo.lock (the first run compiles them), the book's crate-level modules,\n\
         // and the helpers: `params` builds a cell's parameters, `show` prints its output.\n\
         // Each module is its file of the book as it is: what it marks\n\
         // `#[cfg(feature = \"render\")]` (for the web page) and `#[cfg(test)]` is left out.\n",
    );
    for c in &crates {
        setup.push_str(&format!(":dep {}\n", lib.crates[*c]));
    }
    let mut defined: BTreeSet<String> = BTreeSet::new();
    for m in all.iter().filter(|m| m.chapter.is_none()) {
        setup.push('\n');
        setup.push_str(&m.item);
        defined.insert(m.name.clone());
    }
    let named: BTreeSet<&String> = all.iter().flat_map(|m| &m.chapters).collect();
    if !named.is_empty() {
        setup.push_str(
            "\n// The modules name one another as in the book's crate, `crate::<chapter>::<module>`\n\
             // or, within a chapter, `super::<module>`. Here every module is at the top level,\n\
             // and a chapter's name leads back to it.\n",
        );
        for ch in named {
            setup.push_str(&format!("mod {ch} {{\n    pub(crate) use crate::*;\n}}\n"));
        }
    }
    setup.push('\n');
    setup.push_str(chapters::demo::anchored(show::SOURCE, "notebook"));
    setup.push('\n');

    let mut cells = vec![markdown(
        "about".to_owned(),
        &format!(
            "*{BOOK}* — this chapter as a notebook for the [evcxr](https://github.com/evcxr/evcxr) Rust kernel \
                 (`cargo install evcxr_jupyter && evcxr_jupyter --install`, then open it in Jupyter). \
                 Run the code cells in order: the setup cell (the book's support code, before the first demo: \
                 run it, no need to read it), then each demo's module (a cell of items) before its call. \
                 On [the chapter's web page](/ch/{slug}) the same cells run in the browser and the exercises are graded.",
            slug = ch.slug
        ),
    )];
    let setup = code(
        "setup".to_owned(),
        &setup,
        json!({"setup": true, "crates": crates.iter().map(|c| lib.crates[*c].clone()).collect::<Vec<_>>()}),
    );
    let (mut n_md, mut n_self) = (0, 0);
    for piece in &pieces {
        match piece {
            Piece::Text(t) => {
                n_md += 1;
                cells.push(markdown(
                    format!("text-{n_md}"),
                    &page_links(t.trim(), ch.slug),
                ));
            }
            Piece::Directive { kind, arg, body } => match kind.as_str() {
                "cell" => {
                    let d = demos.iter().find(|d| d.id == arg).ok_or_else(|| {
                        format!(
                            "{}: cell `{arg}` is not one of the chapter's demos",
                            ch.repo_path
                        )
                    })?;
                    let name = demo_module(lib, ch, arg)?;
                    let mut own_module_above = true;
                    for m in lib.closure(&name, ch.repo_path)? {
                        if !defined.insert(m.name.clone()) {
                            continue;
                        }
                        let what = if m.name == name {
                            own_module_above = false;
                            format!(
                                "**{}** — the module of this cell, `{}`.",
                                d.title_in(chapters::Lang::En),
                                m.file
                            )
                        } else {
                            format!(
                                "The module `{}` (`{}`), which the cell “{}” below uses.",
                                m.name,
                                m.file,
                                d.title_in(chapters::Lang::En)
                            )
                        };
                        // A module whose source answers an exercise of the chapter.
                        let warn = exercises::for_chapter(ch.id)
                            .into_iter()
                            .find(|e| e.answered_by_cell == Some(m.name.as_str()))
                            .map(|e| {
                                format!(" It answers the exercise “{}”: try that first.", e.title)
                            })
                            .unwrap_or_default();
                        cells.push(markdown(
                            format!("about-{}", m.name),
                            &format!("{what}{warn}"),
                        ));
                        cells.push(code(
                            format!("mod-{}", m.name),
                            &m.item,
                            json!({"module": m.name, "file": m.file}),
                        ));
                    }
                    if own_module_above {
                        cells.push(markdown(
                            format!("about-run-{}", d.id),
                            &format!(
                                "**{}** — its module, `{name}`, is defined above, where an earlier cell first needed it.",
                                d.title_in(chapters::Lang::En)
                            ),
                        ));
                    }
                    let template = call_template(d, &name);
                    let defaults: Vec<(&str, &str)> =
                        d.params.iter().map(|p| (p.name, p.default)).collect();
                    cells.push(code(
                        format!("run-{}", d.id),
                        &fill(&template, &defaults),
                        json!({
                            "cell": d.id,
                            "params": d.params.iter().map(|p| p.name).collect::<Vec<_>>(),
                            "template": template,
                        }),
                    ));
                }
                "exercise" => {
                    let ex = exercises::by_id(arg)
                        .ok_or_else(|| format!("{}: unknown exercise `{arg}`", ch.repo_path))?;
                    let statement = ex.statement_markdown()?;
                    cells.push(markdown(
                        format!("exercise-{}", ex.slug()),
                        &format!(
                            "### Exercise: {}\n\n{}\n\nWrite `fn {}({}) -> {}` in Rhai on [the chapter's page](/ch/{}#exercise-{}), \
                             where **Run tests** (or Ctrl+Enter) grades it, in Rhai or Python; or offline in Rhai, Python or Rust: \
                             `cargo judge practice/{}`.",
                            ex.title,
                            page_links(statement.trim(), ch.slug),
                            ex.function,
                            ex.params.join(", "),
                            ex.returns,
                            ch.slug,
                            ex.slug(),
                            ch.id,
                        ),
                    ));
                }
                "selftest" => {
                    n_self += 1;
                    cells.push(markdown(
                        format!("selftest-{n_self}"),
                        &page_links(
                            &selftest_markdown(body)
                                .map_err(|e| format!("{} {e}", ch.repo_path))?,
                            ch.slug,
                        ),
                    ));
                }
                _ => {
                    let names: Vec<String> = defined
                        .iter()
                        .filter(|n| demos.iter().any(|d| d.id == n.as_str()))
                        .map(|n| format!("`{n}`"))
                        .collect();
                    cells.push(markdown(
                        "scratch".to_owned(),
                        &format!(
                            "*Scratch.* On [the page](/ch/{}#scratch) a cell here runs Rhai code that calls the chapter's functions. \
                             In this notebook, add a code cell and call the Rust modules above directly: {}.",
                            ch.slug,
                            names.join(", ")
                        ),
                    ));
                }
            },
        }
    }
    // The reader meets the chapter's title and opening text before the book's
    // support code: the setup cell goes just before the first demo (its note
    // and its code cells).
    let first_code = cells
        .iter()
        .position(|c| {
            c["cell_type"] == "code" || c["id"].as_str().is_some_and(|id| id.starts_with("about-"))
        })
        .unwrap_or(cells.len());
    cells.insert(first_code, setup);
    Ok(json!({
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {
            "kernelspec": {"name": "rust", "display_name": "Rust", "language": "rust"},
            "language_info": {
                "name": "Rust",
                "file_extension": ".rs",
                "mimetype": "text/rust",
                "codemirror_mode": "rust",
                "pygment_lexer": "rust",
            },
            META: {
                "book": BOOK,
                "chapter": ch.id,
                "slug": ch.slug,
                "title": ch.title,
                "page": format!("/ch/{}", ch.slug),
            },
        },
        "cells": cells,
    }))
}

/// The module of demo `id`: `chapters/src/<chapter>/<id>.rs`, which must
/// define the demo (`id: "<id>"`).
fn demo_module(lib: &mut Library, ch: &chapters::Chapter, id: &str) -> Result<String, String> {
    let m = lib.module(id, ch.repo_path)?;
    let file = root().join(&m.file);
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", m.file))?;
    if m.chapter.as_deref() != Some(ch.id) || !text.contains(&format!("id: \"{id}\"")) {
        return Err(format!(
            "{}: cannot find the module of cell `{id}`: expected chapters/src/{}/{id}.rs defining the demo `id: \"{id}\"`",
            ch.repo_path, ch.id
        ));
    }
    if !text.contains("\npub fn run(") {
        return Err(format!(
            "{}: the notebook's call cell runs `{id}::run`, which must be `pub fn run(raw: &Raw, lang: Lang)`",
            m.file
        ));
    }
    Ok(m.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn library(files: &[(&str, &str, &str)]) -> Library {
        let mut map: BTreeMap<String, Vec<(String, Option<String>)>> = BTreeMap::new();
        for (stem, file, ch) in files {
            map.entry((*stem).to_owned())
                .or_default()
                .push(((*file).to_owned(), Some((*ch).to_owned())));
        }
        Library {
            files: map,
            chapter_ids: vec!["ch_a".into(), "ch_b".into()],
            crates: BTreeMap::new(),
            loaded: BTreeMap::new(),
        }
    }

    #[test]
    fn a_module_file_is_includable_only_without_test_bodies_and_files() {
        let good = "//! Doc.\nuse crate::demo::Demo;\n\npub fn demo() -> Demo {\n    Demo {\n        #[cfg(feature = \"render\")]\n        source: include_str!(\"x.rs\"),\n        #[cfg(feature = \"run\")]\n        run,\n    }\n}\n\n#[cfg(test)]\nmod tests;\n\n#[cfg(test)]\n#[path = \"x_tests.rs\"]\nmod more;\n";
        assert_eq!(includable(good, "x.rs"), Ok(()));
        for (bad, why) in [
            (
                "fn f() {}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\n",
                "line 3: a test module with its body",
            ),
            (
                "mod helpers;\n",
                "line 1: `mod helpers;` declares a module file",
            ),
            (
                "const S: &str = include_str!(\"x.md\");\n",
                "line 1: `include_str!` outside",
            ),
        ] {
            let err = includable(bad, "x.rs").unwrap_err();
            assert!(err.contains(why), "{err}");
        }
    }

    #[test]
    fn the_paths_name_the_modules_a_notebook_includes() {
        let lib = library(&[
            ("m", "chapters/src/ch_b/m.rs", "ch_b"),
            ("n", "chapters/src/ch_a/n.rs", "ch_a"),
        ]);
        let code = check::without_strings_and_comments(
            "use crate::ch_b::m::{f, g};\nuse super::n;\nuse crate::demo::Demo;\n// crate::ch_b::gone\nfn x() { super::local(); $crate::y; \"crate::z\"; }\n",
        );
        let (modules, chapters) = book_paths(&code, "f.rs", Some("ch_a"), &lib).unwrap();
        assert_eq!(modules.into_iter().collect::<Vec<_>>(), ["demo", "m", "n"]);
        assert_eq!(chapters.into_iter().collect::<Vec<_>>(), ["ch_b"]);
        for (code, why) in [
            (
                "use crate::ch_b::gone;\n",
                "f.rs line 1: `crate::ch_b` is not followed",
            ),
            (
                "\nuse crate::ch_b::{m, n};\n",
                "f.rs line 2: `crate::ch_b` is not followed",
            ),
            (
                "fn f() { super::super::x(); }",
                "`super::super::` outside the tests",
            ),
            ("use super::{n, local};", "`super::{…}`"),
        ] {
            let err = book_paths(code, "f.rs", Some("ch_a"), &lib).unwrap_err();
            assert!(err.contains(why), "{err}");
        }
        assert!(names_crate("use ndarray::{Array1};", "ndarray"));
        assert!(!names_crate("x::ndarray::y", "ndarray"));
    }

    /// Every module a notebook takes (each demo's, the modules those use, the
    /// crate-level ones) is its file as it is.
    #[test]
    fn every_demo_file_goes_in_as_it_is() {
        let mut lib = Library::new(external_crates().unwrap()).unwrap();
        for ch in chapters::all() {
            for d in (ch.demos)() {
                for m in lib.closure(d.id, ch.repo_path).unwrap() {
                    if m.name == SAY {
                        continue;
                    }
                    let text = std::fs::read_to_string(root().join(&m.file)).unwrap();
                    assert!(
                        m.item.contains(text.trim_end()),
                        "{}: the notebook's module is not the file as it is",
                        m.file
                    );
                    assert!(!text.contains("mod tests {"), "{}", m.file);
                }
            }
        }
    }

    #[test]
    fn every_chapter_makes_a_notebook_in_evcxr_order() {
        let mut lib = Library::new(external_crates().unwrap()).unwrap();
        for ch in chapters::all() {
            let nb = notebook(&ch, &mut lib).unwrap();
            let cells = nb["cells"].as_array().unwrap();
            let ids: BTreeSet<&str> = cells.iter().filter_map(|c| c["id"].as_str()).collect();
            assert_eq!(ids.len(), cells.len(), "{}: cell ids are unique", ch.slug);
            // Modules before their users, calls matching their templates.
            let scratch = check::scratch_crate(&nb).unwrap();
            let calls: Vec<&str> = scratch.calls.iter().map(|c| c.demo.as_str()).collect();
            let demos: Vec<&str> = (ch.demos)().iter().map(|d| d.id).collect();
            let mut sorted = calls.clone();
            sorted.sort();
            let mut want = demos.clone();
            want.sort();
            assert_eq!(sorted, want, "{}: a call per demo", ch.slug);
            for c in &scratch.calls {
                let d = chapters::demo(&c.demo).unwrap();
                let defaults: Vec<(String, String)> = d
                    .params
                    .iter()
                    .map(|p| (p.name.to_owned(), p.default.to_owned()))
                    .collect();
                assert_eq!(c.params, defaults, "{}: defaults", c.demo);
            }
            assert!(scratch.deps.iter().any(|d| d.starts_with("serde = ")));
        }
    }

    #[test]
    fn directives_split_the_text() {
        let p = pieces(
            "# T\n\nText.\n\n```cell a\n```\n\n```rust\nlet x = 1;\n```\n\n```selftest\nQ: q?\nA: a.\n```\nEnd.\n",
        );
        assert_eq!(p.len(), 5, "{p:?}");
        assert!(
            matches!(&p[1], Piece::Directive { kind, arg, .. } if kind == "cell" && arg == "a")
        );
        assert!(matches!(&p[2], Piece::Text(t) if t.contains("```rust")));
        assert!(
            matches!(&p[3], Piece::Directive { kind, body, .. } if kind == "selftest" && body.contains("Q: q?"))
        );
    }
}
