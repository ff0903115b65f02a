//! A small Rust syntax highlighter producing HTML spans (`kw`, `ty`, `str`, `num`,
//! `com`, `mac`), enough for the book's code listings.

use crate::doc::escape;

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "false", "fn", "for", "if",
    "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self",
    "Self", "static", "struct", "super", "trait", "true", "type", "use", "where", "while", "dyn",
];

/// Highlights Rust source as HTML.
pub fn highlight_rust(src: &str) -> String {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len() * 2);
    let mut i = 0;
    let span = |out: &mut String, class: &str, text: &str| {
        out.push_str(&format!("<span class=\"{class}\">{}</span>", escape(text)));
    };
    while i < chars.len() {
        let c = chars[i];
        let rest = |j: usize| chars[i..j].iter().collect::<String>();
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            let j = chars[i..]
                .iter()
                .position(|&ch| ch == '\n')
                .map_or(chars.len(), |p| i + p);
            span(&mut out, "com", &rest(j));
            i = j;
        } else if c == '"' {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '"' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            let j = (j + 1).min(chars.len());
            span(&mut out, "str", &rest(j));
            i = j;
        } else if c.is_ascii_digit() {
            let mut j = i;
            while j < chars.len()
                && (chars[j].is_ascii_alphanumeric() || chars[j] == '_' || chars[j] == '.')
            {
                if chars[j] == '.' && !chars.get(j + 1).is_some_and(char::is_ascii_digit) {
                    break;
                }
                j += 1;
            }
            span(&mut out, "num", &rest(j));
            i = j;
        } else if c.is_alphabetic() || c == '_' {
            let mut j = i;
            while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
                j += 1;
            }
            let word = rest(j);
            if chars.get(j) == Some(&'!') {
                span(&mut out, "mac", &format!("{word}!"));
                j += 1;
            } else if KEYWORDS.contains(&word.as_str()) {
                span(&mut out, "kw", &word);
            } else if word.starts_with(char::is_uppercase)
                || [
                    "u64", "i64", "f64", "usize", "bool", "u8", "u32", "i32", "f32",
                ]
                .contains(&word.as_str())
            {
                span(&mut out, "ty", &word);
            } else {
                out.push_str(&escape(&word));
            }
            i = j;
        } else {
            out.push_str(&escape(&c.to_string()));
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_and_escaping() {
        let h =
            highlight_rust("pub fn f(x: u64) -> Vec<u8> { // a < b\n    \"s\" ; 1.5; todo!() }");
        assert!(h.starts_with("<span class=\"kw\">pub</span> <span class=\"kw\">fn</span> f(x: <span class=\"ty\">u64</span>)"), "{h}");
        assert!(h.contains("<span class=\"com\">// a &lt; b</span>"), "{h}");
        assert!(
            h.contains("<span class=\"str\">&quot;s&quot;</span>"),
            "{h}"
        );
        assert!(h.contains("<span class=\"num\">1.5</span>"), "{h}");
        assert!(h.contains("<span class=\"mac\">todo!</span>"), "{h}");
        assert!(h.contains("&lt;"));
    }
}
