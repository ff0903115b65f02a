//! The book's languages, one type for every crate: the chapters and their
//! demos, the judge's verdicts, the page, the CLIs. English at `/…`, Chinese
//! at `/zh/…`. A file with no tests in it and no path into another crate, so
//! that a chapter's notebook can include it as it is (`mod lang`).

/// A language the book is written in: English first, then Simplified Chinese.
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

    /// The short tag: `en` or `zh` (the CLI's `--lang`, JSON, file names).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The BCP 47 tag for `<html lang>`: `en`, `zh-CN`.
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

    /// Reads a language tag or a locale: `zh`, `zh-CN`, `zh_CN.UTF-8`, `ZH` are
    /// Chinese; `en`, `en_US.UTF-8`, `C` and `POSIX` are English. `None` for
    /// anything else (an empty string included).
    pub fn parse(s: &str) -> Option<Lang> {
        let base = s
            .trim()
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect::<String>()
            .to_ascii_lowercase();
        match base.as_str() {
            "zh" => Some(Lang::Zh),
            "en" | "c" | "posix" => Some(Lang::En),
            _ => None,
        }
    }

    /// The language of a locale as the C library picks it: the first of
    /// `lc_all`, `lc_messages` and `lang` that is set and not empty decides;
    /// Chinese when it starts with `zh`, English otherwise.
    pub fn from_locale(
        lc_all: Option<&str>,
        lc_messages: Option<&str>,
        lang: Option<&str>,
    ) -> Lang {
        let chosen = [lc_all, lc_messages, lang]
            .into_iter()
            .flatten()
            .find(|v| !v.trim().is_empty());
        match chosen.and_then(Lang::parse) {
            Some(Lang::Zh) => Lang::Zh,
            _ => Lang::En,
        }
    }

    /// The language of this process's locale: `LC_ALL`, then `LC_MESSAGES`,
    /// then `LANG` (see [`Lang::from_locale`]). English where there is no
    /// environment (in the browser). The one place the crate reads anything
    /// outside its arguments, for the CLIs.
    pub fn from_env() -> Lang {
        let var = |name: &str| std::env::var(name).ok();
        Lang::from_locale(
            var("LC_ALL").as_deref(),
            var("LC_MESSAGES").as_deref(),
            var("LANG").as_deref(),
        )
    }
}

impl std::str::FromStr for Lang {
    type Err = String;

    /// [`Lang::parse`], with an error that names the accepted values.
    fn from_str(s: &str) -> Result<Lang, String> {
        Lang::parse(s).ok_or_else(|| format!("unknown language `{s}` (use zh or en)"))
    }
}
