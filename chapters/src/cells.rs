//! The cells' words (#12, #26): each chapter's `cells.<lang>.toml`, one file per
//! language (demo titles, parameter labels and help), compiled by build.rs
//! into static tables, and the methods that read them ([`Demo::title_in`],
//! [`Demo::label_in`], [`Demo::help_in`]). A demo's code holds none of its
//! words; the content checker (`exercises/src/check.rs`) proves every demo and
//! parameter has its texts in every language and that no file names a demo or
//! parameter that does not exist.

use crate::Lang;
use crate::demo::Demo;

/// A demo's title and parameter texts in one language, as written in its
/// chapter's `cells.<lang>.toml` and compiled in by build.rs.
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

/// A parameter's label and help in one language.
#[derive(Debug, Clone, Copy)]
pub struct ParamTexts {
    /// The parameter's name ([`crate::demo::Param::name`]).
    pub name: &'static str,
    /// The label shown next to the input.
    pub label: &'static str,
    /// Shown under the input: a note after the declared range ([`Demo::help_in`]),
    /// or, when `full`, the whole help.
    pub help: &'static str,
    /// Whether `help` is the whole help (`help = …` in the file) rather than a
    /// note after the declared range (`note = …`).
    pub full: bool,
}

/// Every demo's texts in `lang`, from the chapters' `cells.<lang>.toml`.
pub fn all_cell_texts(lang: Lang) -> &'static [CellTexts] {
    match lang {
        Lang::En => crate::CELLS_EN,
        Lang::Zh => crate::CELLS_ZH,
    }
}

/// The texts in `lang` of the demo `id`, if its chapter gives them.
pub fn cell_texts(lang: Lang, id: &str) -> Option<&'static CellTexts> {
    all_cell_texts(lang).iter().find(|t| t.demo == id)
}

impl Demo {
    /// The title in `lang`; the English one when `lang` has none, and the id
    /// when neither has (both of which the content checker refuses).
    pub fn title_in(&self, lang: Lang) -> &'static str {
        [lang, Lang::En]
            .into_iter()
            .find_map(|l| cell_texts(l, self.id))
            .map_or(self.id, |t| t.title)
    }

    /// The label in `lang` of the parameter `name` (English when `lang` has
    /// none, the name when neither has).
    pub fn label_in(&self, name: &'static str, lang: Lang) -> &'static str {
        self.param_texts(name, lang).map_or(name, |t| t.label)
    }

    /// The help in `lang` of the parameter `name`: what its declaration allows
    /// ([`crate::demo::Param::range_in`]), then its note from the catalog
    /// (English when `lang` has none).
    pub fn help_in(&self, name: &str, lang: Lang) -> String {
        let range = self
            .params
            .iter()
            .find(|p| p.name == name)
            .map_or(String::new(), |p| p.range_in(lang));
        match self.param_texts(name, lang) {
            Some(t) if t.full => t.help.to_owned(),
            Some(t) if !t.help.is_empty() && !range.is_empty() => {
                format!(
                    "{range}{}{}",
                    crate::say::params::help_join.as_str(lang),
                    t.help
                )
            }
            Some(t) if !t.help.is_empty() => t.help.to_owned(),
            _ => range,
        }
    }

    /// The texts of the parameter `name` in `lang`, else in English.
    fn param_texts(&self, name: &str, lang: Lang) -> Option<&'static ParamTexts> {
        [lang, Lang::En].into_iter().find_map(|l| {
            cell_texts(l, self.id)?
                .params
                .iter()
                .find(|t| t.name == name)
        })
    }
}
