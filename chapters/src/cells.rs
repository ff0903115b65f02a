//! The cells in other languages (#12): each chapter's `cells.<lang>.toml`
//! (demo titles, parameter labels and help), compiled by build.rs into static
//! tables, and the methods that read them ([`Demo::title_in`],
//! [`Param::label_in`], [`Param::help_in`]). The content checker
//! (`exercises/src/check.rs`) proves every demo and parameter has its texts.

use crate::Lang;
use crate::demo::{Demo, Param};

impl Demo {
    /// The title in `lang`: the English `title`, or the chapter's Chinese one
    /// (`cells.zh.toml`); English when the Chinese is missing, which the content
    /// checker refuses.
    pub fn title_in(&self, lang: Lang) -> &'static str {
        match cell_texts(lang, self.id) {
            Some(t) => t.title,
            None => self.title,
        }
    }
}

/// A demo's title and parameter texts in a language other than English, as
/// written in its chapter's `cells.<lang>.toml` and compiled in by build.rs.
#[derive(Debug, Clone, Copy)]
pub struct CellTexts {
    /// The chapter (folder) whose file holds them.
    pub chapter: &'static str,
    /// The demo's id.
    pub demo: &'static str,
    /// The demo's title.
    pub title: &'static str,
    /// Its parameters' texts, by name.
    pub params: &'static [ParamTexts],
}

/// A parameter's label and help in a language other than English.
#[derive(Debug, Clone, Copy)]
pub struct ParamTexts {
    /// The parameter's name ([`Param::name`]).
    pub name: &'static str,
    /// The label.
    pub label: &'static str,
    /// The help.
    pub help: &'static str,
}

/// Every demo's texts in `lang`, from the chapters' `cells.<lang>.toml`
/// (empty for English, whose texts are the demos' own).
pub fn all_cell_texts(lang: Lang) -> &'static [CellTexts] {
    match lang {
        Lang::En => &[],
        Lang::Zh => crate::CELLS_ZH,
    }
}

/// The texts in `lang` of the demo `id`, if its chapter gives them.
pub fn cell_texts(lang: Lang, id: &str) -> Option<&'static CellTexts> {
    all_cell_texts(lang).iter().find(|t| t.demo == id)
}

impl Param {
    /// The label in `lang` (see [`Param::texts_in`]).
    pub fn label_in(&self, lang: Lang) -> &'static str {
        self.texts_in(lang).map_or(self.label, |t| t.label)
    }

    /// The help in `lang` (see [`Param::texts_in`]).
    pub fn help_in(&self, lang: Lang) -> &'static str {
        self.texts_in(lang).map_or(self.help, |t| t.help)
    }

    /// This parameter's texts in `lang`: those its demo's chapter gives for it.
    /// A `Param` does not know its demo, so it is found as the demo with a
    /// parameter equal to this one in every field; the content checker makes
    /// sure that parameters equal in English are equal in every language, so
    /// the first such demo answers for all. `None` for English or when the
    /// chapter gives no text (which the checker refuses).
    pub fn texts_in(&self, lang: Lang) -> Option<&'static ParamTexts> {
        if lang == Lang::En {
            return None;
        }
        crate::all_demos()
            .iter()
            .filter(|d| d.params.iter().any(|p| p.same_as(self)))
            .find_map(|d| {
                cell_texts(lang, d.id)?
                    .params
                    .iter()
                    .find(|t| t.name == self.name)
            })
    }
}
