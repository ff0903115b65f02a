//! The languages the judge speaks: to people ([`Lang`], the book's one
//! language type, from the `lang` crate) and the one an answer is written in
//! ([`Answer`]).

use serde::{Deserialize, Serialize};

pub use ::lang::Lang;

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
