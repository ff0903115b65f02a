//! The language the judge speaks to people: English or Simplified Chinese.

use serde::{Deserialize, Serialize};

/// A language for the judge's messages. The book's `chapters::Lang` has the same
/// two; this crate does not depend on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lang {
    /// English, the book's first language.
    #[default]
    En,
    /// Simplified Chinese.
    Zh,
}

impl Lang {
    /// Reads a language tag or a locale: `zh`, `zh-CN`, `zh_CN.UTF-8`, `ZH` are
    /// Chinese; `en`, `en_US.UTF-8`, `C` and `POSIX` are English. `None` for
    /// anything else (an empty string included).
    pub fn parse(s: &str) -> Option<Lang> {
        let s = s.trim();
        let base: String = s
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

    /// The language of this process's locale: `LC_ALL`, then `LC_MESSAGES`, then
    /// `LANG` (see [`Lang::from_locale`]). English where there is no environment
    /// (in the browser).
    pub fn from_env() -> Lang {
        let var = |name: &str| std::env::var(name).ok();
        Lang::from_locale(
            var("LC_ALL").as_deref(),
            var("LC_MESSAGES").as_deref(),
            var("LANG").as_deref(),
        )
    }

    /// The short tag: `en` or `zh`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }
}

/// The language an answer is written in. Messages that teach (a conversion a
/// wrong return type needs, a type's name) are worded for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// Rhai, in the browser and the CLI.
    #[default]
    Rhai,
    /// Python: CPython in the CLI.
    Python,
    /// Rust: the practice package, in the CLI.
    Rust,
}

impl Answer {
    /// The tag the CLI prints and its JSON carries: `rhai`, `python`, `rust`.
    pub fn tag(self) -> &'static str {
        match self {
            Answer::Rhai => "rhai",
            Answer::Python => "python",
            Answer::Rust => "rust",
        }
    }

    /// Whether this is Rhai (the default, left out of serialised findings).
    pub fn is_rhai(&self) -> bool {
        *self == Answer::Rhai
    }

    /// A value's type as this language names it, from [`crate::Value::type_name`]'s
    /// name: Python says `None`, `list`, `dict` and `str`.
    pub fn type_word(self, name: &str) -> &str {
        match (self, name) {
            (Answer::Python, "()") => "None",
            (Answer::Python, "array") => "list",
            (Answer::Python, "map") => "dict",
            (Answer::Python, "string") => "str",
            _ => name,
        }
    }
}

impl std::str::FromStr for Lang {
    type Err = String;

    /// [`Lang::parse`], with an error that names the accepted values.
    fn from_str(s: &str) -> Result<Lang, String> {
        Lang::parse(s).ok_or_else(|| format!("unknown language `{s}` (use zh or en)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_and_locales_parse() {
        for zh in ["zh", "zh-CN", "zh_CN.UTF-8", "ZH", "zh_TW"] {
            assert_eq!(Lang::parse(zh), Some(Lang::Zh), "{zh}");
        }
        for en in ["en", "en_US.UTF-8", "C", "POSIX", "C.UTF-8"] {
            assert_eq!(Lang::parse(en), Some(Lang::En), "{en}");
        }
        assert_eq!(Lang::parse("fr_FR.UTF-8"), None);
        assert_eq!(Lang::parse(""), None);
        assert_eq!(Lang::parse("zhx"), None);
        assert!("de".parse::<Lang>().unwrap_err().contains("zh or en"));
    }

    #[test]
    fn the_first_set_locale_variable_decides() {
        let zh = Some("zh_CN.UTF-8");
        let en = Some("en_US.UTF-8");
        assert_eq!(Lang::from_locale(None, None, zh), Lang::Zh);
        assert_eq!(Lang::from_locale(en, None, zh), Lang::En);
        assert_eq!(Lang::from_locale(None, zh, en), Lang::Zh);
        assert_eq!(
            Lang::from_locale(Some(""), None, zh),
            Lang::Zh,
            "empty is unset"
        );
        assert_eq!(Lang::from_locale(Some("fr_FR"), None, zh), Lang::En);
        assert_eq!(Lang::from_locale(None, None, None), Lang::En);
    }
}
