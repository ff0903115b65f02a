//! Rust syntax highlighting for the book's listings, done at build time with
//! syntect (Sublime Text's Rust grammar). The output is HTML spans with the
//! book's short classes (`kw`, `ty`, `str`, `num`, `com`, `mac`), which the
//! theme colours in light and dark.

use std::sync::OnceLock;

use syntect::easy::ScopeRangeIterator;
use syntect::parsing::{ParseState, ScopeStack, SyntaxSet};
use syntect::util::LinesWithEndings;

use crate::doc::escape;

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

const PRIMITIVES: &[&str] = &[
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32",
    "f64", "bool", "char", "str",
];

/// The book's class for a piece of text (trimmed) under this scope stack.
fn class_of(stack: &ScopeStack, text: &str) -> Option<&'static str> {
    for scope in stack.as_slice().iter().rev() {
        let name = scope.build_string();
        let has = |p: &str| name == p || name.starts_with(&format!("{p}."));
        let class = if has("comment") {
            "com"
        } else if has("string") || has("constant.character") {
            "str"
        } else if has("constant.numeric") {
            "num"
        } else if has("support.macro") || has("entity.name.macro") || has("support.function.macro")
        {
            "mac"
        } else if has("punctuation") {
            // `//`, quotes: the scope around them decides.
            continue;
        } else if has("keyword.operator") {
            // `as` is a keyword; `+` and `=` stay plain.
            return text
                .chars()
                .all(|c| c.is_ascii_alphabetic())
                .then_some("kw");
        } else if (has("storage.type") && PRIMITIVES.contains(&text))
            || has("entity.name.type")
            || has("support.type")
            || has("entity.name.struct")
            || has("entity.name.enum")
            || has("entity.name.trait")
            || has("entity.name.impl")
        {
            "ty"
        } else if has("keyword")
            || has("storage")
            || has("constant.language")
            || has("variable.language")
        {
            "kw"
        } else {
            continue;
        };
        return Some(class);
    }
    // The grammar leaves most type names in paths and generics unscoped.
    let mut chars = text.chars();
    let capital = chars.next().is_some_and(|c| c.is_ascii_uppercase());
    (capital && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')).then_some("ty")
}

/// Highlights Rust source as HTML (text escaped, spans for the classes above).
/// Source the grammar cannot parse comes out escaped and unhighlighted.
pub fn highlight_rust(src: &str) -> String {
    highlight(src, "rs")
}

/// Highlights Python source as HTML, as [`highlight_rust`] does Rust.
pub fn highlight_python(src: &str) -> String {
    highlight(src, "py")
}

/// Highlights `src` with the grammar of files ending in `.ext`.
fn highlight(src: &str, ext: &str) -> String {
    let set = syntaxes();
    let Some(syntax) = set.find_syntax_by_extension(ext) else {
        return escape(src);
    };
    let mut state = ParseState::new(syntax);
    let mut stack = ScopeStack::new();
    let mut out = String::with_capacity(src.len() * 2);
    for line in LinesWithEndings::from(src) {
        let Ok(ops) = state.parse_line(line, set) else {
            return escape(src);
        };
        for (range, op) in ScopeRangeIterator::new(&ops, line) {
            if stack.apply(op).is_err() {
                return escape(src);
            }
            let text = &line[range];
            let word = text.trim();
            let lead = &text[..text.len() - text.trim_start().len()];
            let tail = &text[lead.len() + word.len()..];
            match class_of(&stack, word).filter(|_| !word.is_empty()) {
                Some(c) if c == "com" || c == "str" => {
                    // Comments and strings stay one span, spaces and quotes included.
                    let open = format!("<span class=\"{c}\">");
                    let joined = out.ends_with("</span>")
                        && out[..out.len() - 7]
                            .rfind("<span")
                            .map(|i| &out[i..])
                            .is_some_and(|t| t.starts_with(&open));
                    if joined {
                        out.truncate(out.len() - 7);
                    } else {
                        out.push_str(&open);
                    }
                    out.push_str(&escape(text));
                    out.push_str("</span>");
                }
                Some(c) => {
                    out.push_str(lead);
                    out.push_str(&format!("<span class=\"{c}\">{}</span>", escape(word)));
                    out.push_str(tail);
                }
                None => out.push_str(&escape(text)),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_for_the_usual_tokens() {
        let h = highlight_rust(
            "// sum\npub fn f(x: u64) -> String { let s = \"a<b\"; println!(\"{s}\"); x + 42 }\n",
        );
        assert!(h.contains("<span class=\"com\">// sum"), "{h}");
        assert!(h.contains("<span class=\"ty\">String</span>"), "{h}");
        assert!(h.contains("<span class=\"kw\">let</span>"), "{h}");
        assert!(h.contains("<span class=\"kw\">pub</span>"), "{h}");
        assert!(h.contains("<span class=\"kw\">fn</span>"), "{h}");
        assert!(h.contains("<span class=\"ty\">u64</span>"), "{h}");
        assert!(h.contains("&quot;a&lt;b&quot;</span>"), "{h}");
        assert!(h.contains("<span class=\"mac\">println!</span>"), "{h}");
        assert!(h.contains("<span class=\"num\">42</span>"), "{h}");
    }

    #[test]
    fn text_survives_whole() {
        let src = "fn a() -> Vec<u8> { vec![1, 2] } // <&>\n";
        let h = highlight_rust(src);
        let mut plain = String::new();
        let mut in_tag = false;
        for c in h.chars() {
            match c {
                '<' => in_tag = true,
                '>' if in_tag => in_tag = false,
                c if !in_tag => plain.push(c),
                _ => {}
            }
        }
        assert_eq!(plain, escape(src));
    }
}
