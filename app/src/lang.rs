//! The page's language and its UI strings.
//!
//! The strings are `app/locales/{en,zh}.json`, loaded at compile time by
//! [leptos_i18n](https://docs.rs/leptos_i18n): a key missing from either file,
//! or an interpolation a string does not have, fails the build. A page's
//! language is fixed by its address (`/zh/…` is the Chinese edition, written
//! into `<html lang>` at build time), so the app reads it once and translates
//! with that locale (`td!`/`td_string!`); the language switch is a link to the
//! other edition's page, not a signal.

// `load_locales!` is deprecated in favour of generating the module from a
// build script with `leptos_i18n_build`, whose dependencies include ICU4X's
// data-source crate with its networking feature: a second, heavy dependency
// tree for every build and lint of the app, for the same generated code.
#[allow(deprecated)]
mod generated {
    leptos_i18n::load_locales!();
}
pub use generated::i18n;

pub use i18n::Locale;

/// The page's language: Chinese when `<html lang>` starts with `zh`. Outside a
/// browser (the native unit tests) English.
#[cfg(not(target_arch = "wasm32"))]
pub fn locale() -> Locale {
    Locale::en
}

/// The page's language: Chinese when `<html lang>` starts with `zh`.
#[cfg(target_arch = "wasm32")]
pub fn locale() -> Locale {
    thread_local! {
        static LOCALE: Locale = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
            .and_then(|e| e.get_attribute("lang"))
            .filter(|l| l.starts_with("zh"))
            .map_or(Locale::en, |_| Locale::zh);
    }
    LOCALE.with(|l| *l)
}

/// The same language as the content crates name it.
pub fn chapters_lang() -> chapters::Lang {
    match locale() {
        Locale::en => chapters::Lang::En,
        Locale::zh => chapters::Lang::Zh,
    }
}

/// A UI string in the page's language, by key, checked at compile time:
/// `tr!(chrome_run)`, or with interpolations `tr!(passed_of, passed = 3, total = 8)`.
macro_rules! tr {
    ($($t:tt)*) => {
        $crate::lang::i18n::td_string!($crate::lang::locale(), $($t)*)
    };
}
pub(crate) use tr;

/// A UI string with values put in, by key: `trf!(ran_in, ms = text)` fills
/// the string's `%{ms}` placeholders. (leptos_i18n builds strings with its own
/// `{{ ms }}` interpolations only with its `interpolate_display` option, which
/// `load_locales!` cannot turn on; `%{…}` is plain text to it, and a test
/// checks that both languages have the same placeholders for every key.)
macro_rules! trf {
    ($key:ident, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::lang::fill(
            $crate::lang::tr!($key),
            &[$((stringify!($name), &$value as &dyn std::fmt::Display)),+],
        )
    };
}
pub(crate) use trf;

/// `template` with each `%{name}` replaced by its value in `args`.
pub fn fill(template: &str, args: &[(&str, &dyn std::fmt::Display)]) -> String {
    let mut out = template.to_owned();
    for (name, value) in args {
        out = out.replace(&format!("%{{{name}}}"), &value.to_string());
    }
    out
}

/// The same language as the judge names it.
pub fn judge_lang() -> judge::Lang {
    match locale() {
        Locale::en => judge::Lang::En,
        Locale::zh => judge::Lang::Zh,
    }
}

/// An exercise's outcome in the page's language ("passed", "已通过", …).
pub fn outcome_text(o: crate::storage::Outcome) -> &'static str {
    use crate::storage::Outcome;
    match o {
        Outcome::Passed => tr!(outcome_passed),
        Outcome::Failed => tr!(outcome_failed),
        Outcome::Error => tr!(outcome_error),
        Outcome::LimitExceeded => tr!(outcome_limit),
        Outcome::NotAttempted => tr!(not_attempted),
    }
}

/// [`outcome_text`] of a saved status (its code or English label); anything
/// else reads as not attempted.
pub fn outcome_label(status: &str) -> &'static str {
    outcome_text(
        crate::storage::Outcome::parse(status).unwrap_or(crate::storage::Outcome::NotAttempted),
    )
}

/// A verdict's status in the page's language.
pub fn status_text(s: judge::Status) -> &'static str {
    outcome_text(crate::storage::Outcome::from(s))
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    /// Key → the `%{…}` placeholders of its string.
    fn placeholders(json: &str) -> BTreeMap<String, BTreeSet<String>> {
        let map: BTreeMap<String, String> = serde_json::from_str(json).expect("a flat JSON object");
        map.into_iter()
            .map(|(k, v)| {
                let names = v
                    .split("%{")
                    .skip(1)
                    .filter_map(|rest| rest.split_once('}').map(|(n, _)| n.to_owned()))
                    .collect();
                (k, names)
            })
            .collect()
    }

    #[test]
    fn both_languages_fill_the_same_placeholders() {
        let en = placeholders(include_str!("../locales/en.json"));
        let zh = placeholders(include_str!("../locales/zh.json"));
        assert_eq!(
            en.keys().collect::<Vec<_>>(),
            zh.keys().collect::<Vec<_>>(),
            "the same keys"
        );
        for (key, names) in &en {
            assert_eq!(names, &zh[key], "placeholders of `{key}`");
        }
        assert!(en["ran_in"].contains("ms"), "the parser sees placeholders");
    }

    #[test]
    fn fill_puts_every_value_in() {
        let out = super::fill("%{a} of %{b}, %{a}", &[("a", &3), ("b", &"eight")]);
        assert_eq!(out, "3 of eight, 3");
    }
}
