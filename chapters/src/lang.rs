//! The book's two languages, in a module of its own (re-exported at the
//! crate's root) so that the demo module, which the notebooks copy, can name
//! them without the rest of the crate root.

/// The book's languages: English at `/…`, Chinese at `/zh/…` (#12).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English, the book's first language.
    #[default]
    En,
    /// Simplified Chinese.
    Zh,
}

impl Lang {
    /// Both, English first.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// The BCP 47 tag for `<html lang>` (`en`, `zh-CN`).
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }

    /// The path prefix of this language's pages: `` or `/zh`.
    pub fn prefix(self) -> &'static str {
        match self {
            Lang::En => "",
            Lang::Zh => "/zh",
        }
    }
}
