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

#[cfg(not(target_arch = "wasm32"))]
thread_local! {
    static RENDERING: std::cell::Cell<Locale> = const { std::cell::Cell::new(Locale::en) };
}

/// The language of the page being rendered natively ([`crate::ssr`]):
/// English unless [`rendering_in`] says otherwise.
#[cfg(not(target_arch = "wasm32"))]
pub fn locale() -> Locale {
    RENDERING.with(|l| l.get())
}

/// Runs `f` with the native renderer's language set to `lang`.
#[cfg(not(target_arch = "wasm32"))]
pub fn rendering_in<T>(lang: chapters::Lang, f: impl FnOnce() -> T) -> T {
    let locale = match lang {
        chapters::Lang::En => Locale::en,
        chapters::Lang::Zh => Locale::zh,
    };
    let before = RENDERING.with(|l| l.replace(locale));
    let out = f();
    RENDERING.with(|l| l.set(before));
    out
}

/// The page's language: Chinese when `<html lang>` starts with `zh`.
#[cfg(target_arch = "wasm32")]
pub fn locale() -> Locale {
    thread_local! {
        static LOCALE: Locale = crate::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
            .and_then(|e| e.get_attribute("lang"))
            .filter(|l| l.starts_with("zh"))
            .map_or(Locale::en, |_| Locale::zh);
    }
    LOCALE.with(|l| *l)
}

/// The page's language as every crate names it (the `lang` crate's type).
pub fn lang() -> chapters::Lang {
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
pub use saved::fill;

/// A message about saved work ([`saved::Say`]) in the page's language.
pub fn say(s: &saved::Say) -> String {
    use saved::Say;
    match s {
        Say::WhatCode { id } => trf!(what_code, id = id),
        Say::WhatFails { id } => trf!(what_fails, id = id),
        Say::WhatVerdict { id } => trf!(what_verdict, id = id),
        Say::WhatParams { id } => trf!(what_params, id = id),
        Say::WhatProgress => tr!(what_progress).to_owned(),
        Say::WhatScratch => tr!(what_scratch).to_owned(),
        Say::WhatScratchIn { ch } => trf!(what_scratch_in, ch = ch),
        Say::UnknownStatus { s, id } => trf!(unknown_status, s = s, id = id),
        Say::ImportTooBig { mib, bytes, max } => {
            trf!(import_too_big, mib = mib, bytes = bytes, max = max)
        }
        Say::NotProgressFile { why } => trf!(not_progress_file, why = why),
        Say::NotProgressFormat { got, want } => trf!(not_progress_format, got = got, want = want),
        Say::ProgressVersion { v, max } => trf!(progress_version, v = v, max = max),
        Say::Imported { p, c } => trf!(imported, p = p, c = c),
        Say::KeptPassOne { ids } => trf!(kept_pass_one, ids = ids),
        Say::KeptPassMany { ids } => trf!(kept_pass_many, ids = ids),
        Say::ReplacedKept { keys } => trf!(replaced_kept, keys = keys),
        Say::SkippedUnknown { ids } => trf!(skipped_unknown, ids = ids),
        Say::SkippedStatuses { list } => trf!(skipped_statuses, list = list),
        Say::Raw(text) => text.clone(),
    }
}

/// Sentences about saved work, one after another.
pub fn says(parts: &[saved::Say]) -> String {
    parts
        .iter()
        .map(say)
        .collect::<Vec<_>>()
        .join(tr!(sentence_gap))
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
