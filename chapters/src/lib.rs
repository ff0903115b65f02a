//! The Inference Handbook's chapters: their text and the demos their cells run.
//!
//! Pipeline: a chapter is a Markdown file ([`Chapter::source`]); [`doc::parse`]
//! turns it into [`doc::Block`]s (HTML with MathML math and highlighted code,
//! plus `cell`, `exercise` and `selftest` directives). A `cell` names a
//! [`demo::Demo`]: a plain function from validated parameters to an
//! [`demo::Output`] of text, tables and plot specs. Nothing here touches the
//! browser, files, the clock or OS entropy, so every figure is testable natively.
//!
//! The book is one list, `chapters/SUMMARY.md`: the chapter folders
//! `src/<chapter>/` in reading order. The build script makes each folder's
//! `mod.rs` a module (`ch_newmodels`, ...) and generates [`all`] from the list.
//!
//! The `render` feature (on by default, off in the browser's wasm) carries the
//! Markdown sources, the figures and the Markdown/LaTeX renderer: the build
//! renders every chapter to HTML natively, and the page mounts cells into it.
//! The `run` feature (on by default, and in the workers' wasm) carries what the
//! demos compute ([`demo::Demo::run`]); the page's wasm leaves it out, so the
//! demos' code is not part of the module every page loads.

// Without `run`, a demo's computation is reached from nowhere: the code stays
// (it is the same source) and the page's module leaves it out.
#![cfg_attr(not(feature = "run"), allow(dead_code, unused_imports))]

#[cfg(feature = "render")]
pub mod accounting;
pub mod cells;
pub mod demo;
pub mod doc;
#[cfg(feature = "render")]
pub mod highlight;
pub mod math;
pub mod rng;

/// The book's languages (the `lang` crate), also at `crate::lang` for the demo
/// modules, which a notebook includes with the `lang` crate's file as `mod lang`.
pub use ::lang::{self, Lang};

/// A chapter of the book.
#[derive(Debug, Clone, Copy)]
pub struct Chapter {
    /// Stable id, e.g. `ch_newmodels`.
    pub id: &'static str,
    /// URL path segment: the chapter lives at `/ch/<slug>`.
    pub slug: &'static str,
    /// Title shown in lists and on the page.
    pub title: &'static str,
    /// One-line summary for the home page.
    pub summary: &'static str,
    /// The Markdown source (only in builds that render the text).
    #[cfg(feature = "render")]
    pub source: &'static str,
    /// Path of the Markdown file in the repository (for "edit this page").
    pub repo_path: &'static str,
    /// The chapter's demos.
    pub demos: fn() -> Vec<demo::Demo>,
    /// Named figures the text quotes as `{{name}}`, computed by the demos' code.
    /// A figure with words in it (a table's headers) may come a second time as
    /// `name@zh`: the Chinese page quotes that form, with the same numbers.
    #[cfg(feature = "render")]
    pub figures: fn() -> Vec<(&'static str, String)>,
}

#[cfg(feature = "render")]
impl Chapter {
    /// The chapter's Markdown in `lang`: `chapter.md`, or `chapter.zh.md` when
    /// the folder has one (`None` for a Chinese text that does not exist yet).
    /// A text given to [`set_source`] comes first.
    pub fn source_in(&self, lang: Lang) -> Option<&'static str> {
        if let Some(text) = given_source(self.id, lang) {
            return Some(text);
        }
        match lang {
            Lang::En => Some(self.source),
            Lang::Zh => source_zh(self.id),
        }
    }

    /// The chapter parsed, with its figures substituted.
    pub fn doc(&self) -> Result<doc::Doc, doc::DocError> {
        self.doc_of(self.source_in(Lang::En).unwrap_or(self.source), Lang::En)
    }

    /// The chapter in `lang`, parsed, with the same figures (a figure's
    /// `name@zh` form on the Chinese page, when it has one); `None` when it
    /// has no text in that language.
    pub fn doc_in(&self, lang: Lang) -> Option<Result<doc::Doc, doc::DocError>> {
        self.source_in(lang).map(|s| self.doc_of(s, lang))
    }

    fn doc_of(&self, source: &str, lang: Lang) -> Result<doc::Doc, doc::DocError> {
        let figures = (self.figures)();
        let find = |name: &str| {
            figures
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.clone())
        };
        doc::parse_with(source, &|name| {
            let value = match lang {
                Lang::En => find(name),
                Lang::Zh => find(&format!("{name}@zh")).or_else(|| find(name)),
            }?;
            // A KV size carries its accounting's tag (see `accounting`).
            Some(match accounting::of(name) {
                Some(a) => value + &a.tag(lang),
                None => value,
            })
        })
    }
}

/// Texts that replace the compiled-in Markdown in this process.
#[cfg(feature = "render")]
static GIVEN: std::sync::Mutex<Vec<(String, Lang, &'static str)>> =
    std::sync::Mutex::new(Vec::new());

#[cfg(feature = "render")]
fn given_source(id: &str, lang: Lang) -> Option<&'static str> {
    let given = GIVEN.lock().unwrap_or_else(|e| e.into_inner());
    given
        .iter()
        .find(|(i, l, _)| i == id && *l == lang)
        .map(|(_, _, t)| *t)
}

/// Gives chapter `id` the Markdown `text` in `lang` for the rest of this
/// process, in place of the file compiled in: the build's watch mode reads a
/// chapter again after an edit and renders it without recompiling (this
/// crate touches no file; the caller read it). Each text given is kept (a
/// few hundred KB an edit, for as long as the author's session lasts).
#[cfg(feature = "render")]
pub fn set_source(id: &str, lang: Lang, text: String) {
    let text: &'static str = Box::leak(text.into_boxed_str());
    let mut given = GIVEN.lock().unwrap_or_else(|e| e.into_inner());
    given.retain(|(i, l, _)| !(i == id && *l == lang));
    given.push((id.to_owned(), lang, text));
}

// The chapter modules (`#[path] pub mod ch_newmodels;`, ...) and `all()`, the
// chapters in reading order, generated by build.rs from `SUMMARY.md`.
include!(concat!(env!("OUT_DIR"), "/book.rs"));

/// The book's glossary (`chapters/glossary.toml`, #12): one entry per term, in
/// English and Chinese, rendered as `/glossary` and `/zh/glossary`; chapters
/// link a term's first use to `/glossary#<id>` or `/zh/glossary#<id>`.
#[cfg(feature = "render")]
pub mod glossary {
    use serde::Deserialize;

    /// One term.
    #[derive(Debug, Clone, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Term {
        /// Anchor on the glossary page, e.g. `kv-cache`.
        pub id: String,
        /// The English term.
        pub en: String,
        /// The Chinese term.
        pub zh: String,
        /// One-line English definition.
        pub en_def: String,
        /// One-line Chinese definition.
        pub zh_def: String,
        /// The chapters (ids) that use it.
        #[serde(default)]
        pub chapters: Vec<String>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        format: i64,
        term: Vec<Term>,
    }

    /// Every term, in the file's order; empty when the book has no glossary.
    /// A malformed file is an error naming it.
    pub fn terms() -> Result<Vec<Term>, String> {
        let Some(text) = super::GLOSSARY_TOML else {
            return Ok(Vec::new());
        };
        let f: File = toml::from_str(text).map_err(|e| format!("chapters/glossary.toml: {e}"))?;
        if f.format != 1 {
            return Err(format!(
                "chapters/glossary.toml: format {} (this build reads format 1)",
                f.format
            ));
        }
        for (i, t) in f.term.iter().enumerate() {
            if f.term[..i].iter().any(|o| o.id == t.id) {
                return Err(format!("chapters/glossary.toml: term id `{}` twice", t.id));
            }
            if crate::doc::slugify(&t.id) != t.id {
                return Err(format!(
                    "chapters/glossary.toml: term id `{}` is not lowercase letters, digits and `-`",
                    t.id
                ));
            }
        }
        Ok(f.term)
    }
}

/// "Rhai for Python programmers" (`chapters/guide/rhai.toml`, #27): the page
/// `/rhai` and `/zh/rhai`, linked from every exercise and scratch cell. Each
/// row's example is run by a test in the judge's sandbox.
#[cfg(feature = "render")]
pub mod guide {
    use serde::Deserialize;

    /// The page's own words in one language.
    #[derive(Debug, Clone, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Words {
        /// The page's heading.
        pub title: String,
        /// The paragraph under it.
        pub lede: String,
        /// The column headings.
        pub python: String,
        /// The column headings.
        pub rhai: String,
        /// The column headings.
        pub note: String,
        /// The column headings.
        pub gives: String,
        /// The closing paragraph.
        pub more: String,
    }

    /// One difference between Python and Rhai.
    #[derive(Debug, Clone, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Row {
        /// What a Python programmer writes.
        pub python: String,
        /// What Rhai writes.
        pub rhai: String,
        /// A Rhai script that shows it.
        pub check: String,
        /// What the script's value prints as.
        pub value: String,
        /// The note in English (Markdown code spans allowed).
        pub en: String,
        /// The note in Chinese.
        pub zh: String,
    }

    /// The whole guide.
    #[derive(Debug, Clone, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Guide {
        format: i64,
        /// English words.
        pub en: Words,
        /// Chinese words.
        pub zh: Words,
        /// The rows, in order.
        pub row: Vec<Row>,
    }

    impl Guide {
        /// The page's words in `lang`.
        pub fn words(&self, lang: crate::Lang) -> &Words {
            match lang {
                crate::Lang::En => &self.en,
                crate::Lang::Zh => &self.zh,
            }
        }
    }

    /// The guide, parsed; a malformed file is an error naming it.
    pub fn rhai() -> Result<Guide, String> {
        let g: Guide = toml::from_str(include_str!("../guide/rhai.toml"))
            .map_err(|e| format!("chapters/guide/rhai.toml: {e}"))?;
        if g.format != 1 {
            return Err(format!(
                "chapters/guide/rhai.toml: format {} (this build reads format 1)",
                g.format
            ));
        }
        Ok(g)
    }
}

/// The chapter with this slug.
pub fn by_slug(slug: &str) -> Option<Chapter> {
    all().into_iter().find(|c| c.slug == slug)
}

/// Every demo of every chapter.
pub fn all_demos() -> Vec<demo::Demo> {
    all().iter().flat_map(|c| (c.demos)()).collect()
}

/// The demo with this id.
pub fn demo(id: &str) -> Option<demo::Demo> {
    all_demos().into_iter().find(|d| d.id == id)
}
