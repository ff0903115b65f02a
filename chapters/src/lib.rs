//! The Inference Handbook's chapters: their text and the demos their cells run.
//!
//! Pipeline: a chapter is a Markdown file ([`Chapter::source`]); [`doc::parse`]
//! turns it into [`doc::Block`]s (HTML with MathML math and highlighted code,
//! plus `cell`, `exercise` and `selftest` directives). A `cell` names a
//! [`demo::Demo`]: a plain function from validated parameters to an
//! [`demo::Output`] of text, tables and plot specs. Nothing here touches the
//! browser, files, the clock or OS entropy, so every figure is testable natively.
//!
//! The `render` feature (on by default, off in the browser's wasm) carries the
//! Markdown sources, the figures and the Markdown/LaTeX renderer: the build
//! renders every chapter to HTML natively, and the page mounts cells into it.

pub mod ch_newmodels;
pub mod demo;
pub mod doc;
#[cfg(feature = "render")]
pub mod highlight;
pub mod math;
pub mod rng;

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
    #[cfg(feature = "render")]
    pub figures: fn() -> Vec<(&'static str, String)>,
}

#[cfg(feature = "render")]
impl Chapter {
    /// The chapter parsed, with its figures substituted.
    pub fn doc(&self) -> Result<doc::Doc, doc::DocError> {
        let figures = (self.figures)();
        doc::parse_with(self.source, &|name| {
            figures
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.clone())
        })
    }
}

/// All chapters, in reading order.
pub fn all() -> Vec<Chapter> {
    vec![ch_newmodels::chapter()]
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
