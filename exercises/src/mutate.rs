//! One-token mutants of a Rhai source, for the mutation check (#28): every
//! mutant of an exercise's `solution.rhai` must fail some case, unless its
//! `exercise.toml` lists it under `[[equivalent]]` with a reason
//! (`tests/mutants.rs` grades them; `build.rs` checks that each listed mutant
//! exists).
//!
//! A small lexer splits the source into tokens, leaving comments, strings
//! (`"…"`, `` `…` `` with its interpolations, `'c'`) and whitespace alone, and
//! each mutable token gives one mutant per replacement:
//!
//! - arithmetic: binary `+` and `-` swap; `*` -> `/`; `/` -> `*` and `%`;
//!   `%` -> `/`; the same for `+=`, `-=`, `*=`, `/=`, `%=`;
//! - comparisons: `<` -> `<=` and `>`; `<=` -> `<` and `>=`; `>` -> `>=` and
//!   `<`; `>=` -> `>` and `<=`; `==` and `!=` swap;
//! - `&&` and `||` swap; ranges `..` and `..=` swap;
//! - integer literals: `n` -> `n + 1` and `n - 1` (not below 0);
//! - float literals: `x` -> `x + 1`, and `x - 1` when `x >= 1`, or `0.0` when
//!   `0 < x < 1`;
//! - `floor`, `ceiling` and `round` each become the other two; `min` and `max` swap.
//!
//! Pure `std`: `build.rs` includes this file too. Native only.

/// One mutant: the source with one token replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mutant {
    /// 1-based line of the replaced token.
    pub line: usize,
    /// 1-based column (in characters) of the replaced token.
    pub column: usize,
    /// The token as written.
    pub from: String,
    /// What replaces it.
    pub to: String,
    /// The whole mutated source.
    pub source: String,
}

impl Mutant {
    /// Stable, readable name: ``line 3, column 14: `<=` -> `<` ``.
    pub fn description(&self) -> String {
        format!(
            "line {}, column {}: `{}` -> `{}`",
            self.line, self.column, self.from, self.to
        )
    }
}

/// What a token is, as far as mutation cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Ident,
    Int,
    Float,
    /// A string or character literal.
    Text,
    Punct,
}

#[derive(Debug, Clone)]
struct Token {
    kind: Kind,
    /// Byte range in the source.
    start: usize,
    end: usize,
}

/// Operators, longest first so that the first match is the longest.
const PUNCTS: &[&str] = &[
    "**=", "<<=", ">>=", "..=", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=", "%=",
    "&=", "|=", "^=", "**", "<<", ">>", "..", "::", "=>", "->", "?.", "??", "?[", "+", "-", "*",
    "/", "%", "<", ">", "=", "!", "&", "|", "^", "(", ")", "[", "]", "{", "}", ",", ";", ":", ".",
    "?", "#", "@", "$",
];

/// Words after which a `+` or `-` is unary.
const KEYWORDS: &[&str] = &[
    "return", "if", "else", "in", "let", "const", "throw", "while", "loop", "for", "do", "until",
    "fn", "switch",
];

/// Splits `src` into tokens, skipping whitespace and comments. Unknown
/// characters become one-character punctuation (the mutants of such a source
/// fail to compile, which counts as killed).
fn lex(src: &str) -> Vec<Token> {
    let b = src.as_bytes();
    let n = b.len();
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if src[i..].starts_with("//") {
            while i < n && b[i] != b'\n' {
                i += 1;
            }
        } else if src[i..].starts_with("/*") {
            // Rhai's block comments nest.
            let mut depth = 0;
            while i < n {
                if src[i..].starts_with("/*") {
                    depth += 1;
                    i += 2;
                } else if src[i..].starts_with("*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == b'"' || c == b'\'' {
            let start = i;
            i += 1;
            while i < n && b[i] != c {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(n);
            out.push(Token {
                kind: Kind::Text,
                start,
                end: i,
            });
        } else if c == b'`' {
            // A template string: its `${…}` interpolations are code, but they
            // are left alone like the rest of the string.
            let start = i;
            i += 1;
            let mut depth = 0;
            while i < n {
                if depth == 0 && b[i] == b'`' {
                    break;
                }
                if src[i..].starts_with("${") {
                    depth += 1;
                    i += 2;
                    continue;
                }
                if depth > 0 && b[i] == b'{' {
                    depth += 1;
                } else if depth > 0 && b[i] == b'}' {
                    depth -= 1;
                } else if depth == 0 && b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(n);
            out.push(Token {
                kind: Kind::Text,
                start,
                end: i,
            });
        } else if c.is_ascii_digit() {
            let start = i;
            let mut kind = Kind::Int;
            if src[i..].starts_with("0x")
                || src[i..].starts_with("0o")
                || src[i..].starts_with("0b")
            {
                i += 2;
                while i < n && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                // Not decimal: left alone (a `Text`-like token).
                out.push(Token {
                    kind: Kind::Text,
                    start,
                    end: i,
                });
                continue;
            }
            let digits = |i: &mut usize| {
                while *i < n && (b[*i].is_ascii_digit() || b[*i] == b'_') {
                    *i += 1;
                }
            };
            digits(&mut i);
            // A point starts a fraction only when a digit follows (`0..n`, `1.max(x)`).
            if i + 1 < n && b[i] == b'.' && b[i + 1].is_ascii_digit() {
                kind = Kind::Float;
                i += 1;
                digits(&mut i);
            }
            if i < n && (b[i] == b'e' || b[i] == b'E') {
                let mut j = i + 1;
                if j < n && (b[j] == b'+' || b[j] == b'-') {
                    j += 1;
                }
                if j < n && b[j].is_ascii_digit() {
                    kind = Kind::Float;
                    i = j;
                    digits(&mut i);
                }
            }
            out.push(Token {
                kind,
                start,
                end: i,
            });
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < n && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Token {
                kind: Kind::Ident,
                start,
                end: i,
            });
        } else {
            let start = i;
            let len = PUNCTS
                .iter()
                .find(|p| src[i..].starts_with(*p))
                .map_or_else(
                    || src[i..].chars().next().map_or(1, char::len_utf8),
                    |p| p.len(),
                );
            i += len;
            out.push(Token {
                kind: Kind::Punct,
                start,
                end: i,
            });
        }
    }
    out
}

/// Whether a `+` or `-` after `prev` is binary: it follows an operand.
fn ends_operand(src: &str, prev: Option<&Token>) -> bool {
    match prev {
        None => false,
        Some(t) => match t.kind {
            Kind::Int | Kind::Float | Kind::Text => true,
            Kind::Ident => !KEYWORDS.contains(&&src[t.start..t.end]),
            Kind::Punct => matches!(&src[t.start..t.end], ")" | "]"),
        },
    }
}

/// The replacements of one token (empty when it is not mutated).
fn replacements(src: &str, tokens: &[Token], at: usize) -> Vec<String> {
    let t = &tokens[at];
    let text = &src[t.start..t.end];
    let own = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect();
    match t.kind {
        Kind::Punct => {
            let binary = ends_operand(src, at.checked_sub(1).map(|p| &tokens[p]));
            match text {
                "+" | "-" if !binary => Vec::new(),
                "+" => own(&["-"]),
                "-" => own(&["+"]),
                "*" => own(&["/"]),
                "/" => own(&["*", "%"]),
                "%" => own(&["/"]),
                "+=" => own(&["-="]),
                "-=" => own(&["+="]),
                "*=" => own(&["/="]),
                "/=" => own(&["*=", "%="]),
                "%=" => own(&["/="]),
                "<" => own(&["<=", ">"]),
                "<=" => own(&["<", ">="]),
                ">" => own(&[">=", "<"]),
                ">=" => own(&[">", "<="]),
                "==" => own(&["!="]),
                "!=" => own(&["=="]),
                "&&" => own(&["||"]),
                "||" => own(&["&&"]),
                ".." => own(&["..="]),
                "..=" => own(&[".."]),
                _ => Vec::new(),
            }
        }
        Kind::Ident => match text {
            "floor" => own(&["ceiling", "round"]),
            "ceiling" => own(&["floor", "round"]),
            "round" => own(&["floor", "ceiling"]),
            "min" => own(&["max"]),
            "max" => own(&["min"]),
            _ => Vec::new(),
        },
        Kind::Int => match text.replace('_', "").parse::<i64>() {
            Ok(v) => {
                let mut r = vec![(v + 1).to_string()];
                if v > 0 {
                    r.push((v - 1).to_string());
                }
                r
            }
            Err(_) => Vec::new(),
        },
        Kind::Float => match text.replace('_', "").parse::<f64>() {
            Ok(v) if v.is_finite() => {
                let mut r = vec![float_text(v + 1.0)];
                if v >= 1.0 {
                    r.push(float_text(v - 1.0));
                } else if v > 0.0 {
                    r.push("0.0".to_owned());
                }
                r
            }
            _ => Vec::new(),
        },
        Kind::Text => Vec::new(),
    }
}

/// A float as a Rhai literal (always with a point).
fn float_text(v: f64) -> String {
    let s = format!("{v:?}");
    if s.contains('.') || s.contains('e') {
        s
    } else {
        format!("{s}.0")
    }
}

/// 1-based line and column (in characters) of byte `at`.
fn position(src: &str, at: usize) -> (usize, usize) {
    let before = &src[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, src[line_start..at].chars().count() + 1)
}

/// Every one-token mutant of `src`, in source order.
pub fn mutants(src: &str) -> Vec<Mutant> {
    let tokens = lex(src);
    let mut out = Vec::new();
    for (at, t) in tokens.iter().enumerate() {
        for to in replacements(src, &tokens, at) {
            let (line, column) = position(src, t.start);
            let from = src[t.start..t.end].to_owned();
            let mut source = String::with_capacity(src.len() + 2);
            source.push_str(&src[..t.start]);
            source.push_str(&to);
            source.push_str(&src[t.end..]);
            out.push(Mutant {
                line,
                column,
                from,
                to,
                source,
            });
        }
    }
    out
}

/// The descriptions of `src`'s mutants.
pub fn descriptions(src: &str) -> Vec<String> {
    mutants(src).iter().map(Mutant::description).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn described(src: &str) -> Vec<String> {
        descriptions(src)
    }

    #[test]
    fn comparisons_and_literals() {
        let d = described("fn f(a) {\n    if a <= 1 { return a + 1; }\n    a\n}");
        assert_eq!(
            d,
            [
                "line 2, column 10: `<=` -> `<`",
                "line 2, column 10: `<=` -> `>=`",
                "line 2, column 13: `1` -> `2`",
                "line 2, column 13: `1` -> `0`",
                "line 2, column 26: `+` -> `-`",
                "line 2, column 28: `1` -> `2`",
                "line 2, column 28: `1` -> `0`",
            ]
        );
    }

    #[test]
    fn comments_and_strings_are_left_alone() {
        let src =
            "// a + 1 < 2\n/* 3 * /* 4 */ 5 */ let s = \"x - 1\"; let t = `${a + 1}`; let c = '+';";
        assert!(described(src).is_empty(), "{:?}", described(src));
    }

    #[test]
    fn unary_signs_are_not_swapped() {
        let d = described("let x = -a; let y = (b) - c; return -1;");
        assert_eq!(
            d,
            [
                "line 1, column 25: `-` -> `+`",
                "line 1, column 38: `1` -> `2`",
                "line 1, column 38: `1` -> `0`",
            ]
        );
    }

    #[test]
    fn floats_ranges_and_functions() {
        let d = described("for i in 0..n { x.floor() + 4.0 * 0.5 } max(a, b) && c");
        assert_eq!(
            d,
            [
                "line 1, column 10: `0` -> `1`",
                "line 1, column 11: `..` -> `..=`",
                "line 1, column 19: `floor` -> `ceiling`",
                "line 1, column 19: `floor` -> `round`",
                "line 1, column 27: `+` -> `-`",
                "line 1, column 29: `4.0` -> `5.0`",
                "line 1, column 29: `4.0` -> `3.0`",
                "line 1, column 33: `*` -> `/`",
                "line 1, column 35: `0.5` -> `1.5`",
                "line 1, column 35: `0.5` -> `0.0`",
                "line 1, column 41: `max` -> `min`",
                "line 1, column 51: `&&` -> `||`",
            ]
        );
    }

    #[test]
    fn a_mutant_replaces_one_token() {
        let m = mutants("a <= b");
        assert_eq!(m[0].source, "a < b");
        assert_eq!(m[1].source, "a >= b");
        let m = mutants("x.len() - 1e-6");
        assert_eq!(m[0].source, "x.len() + 1e-6");
        assert_eq!(m[1].source, "x.len() - 1.000001");
        assert_eq!(m[2].source, "x.len() - 0.0");
    }
}
