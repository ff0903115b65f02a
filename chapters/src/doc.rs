//! Markdown to blocks: HTML (with MathML and highlighted code) and directives.
//! The parser needs the `render` feature; figure substitution and escaping do not.

#[cfg(feature = "render")]
use pulldown_cmark::{
    CodeBlockKind, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd, html,
};
#[cfg(feature = "render")]
use pulldown_latex::{RenderConfig, Storage, config::DisplayMode, push_mathml};

#[cfg(feature = "render")]
use crate::highlight::highlight_rust;

/// A piece of a chapter page.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// Rendered HTML (trusted: it comes from our own Markdown).
    Html(String),
    /// A runnable cell naming a demo.
    Cell {
        /// Demo id.
        id: String,
        /// 1-based line of the directive in the Markdown.
        line: usize,
    },
    /// Questions whose answers stay folded: (question HTML, answer HTML).
    SelfTest(Vec<(String, String)>),
    /// A Rhai scratch cell where the reader calls the chapter's functions.
    Scratch {
        /// The starting code (the directive's body).
        code: String,
    },
    /// An exercise panel.
    Exercise {
        /// Exercise id, `chapter/slug`.
        id: String,
        /// 1-based line of the directive.
        line: usize,
    },
}

/// A section heading, for the table of contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    /// 1 to 6.
    pub level: u8,
    /// The anchor id.
    pub id: String,
    /// Plain text.
    pub text: String,
}

/// A parsed chapter.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Doc {
    /// Page blocks in order.
    pub blocks: Vec<Block>,
    /// Every heading in order.
    pub headings: Vec<Heading>,
}

/// A malformed directive or formula, with its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocError {
    /// 1-based line in the Markdown.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for DocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Turns a heading's text into an anchor id: `Attention: window, compression` →
/// `attention-window-compression`.
pub fn slugify(text: &str) -> String {
    let mut out = String::new();
    for ch in text.chars().flat_map(char::to_lowercase) {
        if ch.is_alphanumeric() {
            out.push(ch);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_owned()
}

#[cfg(feature = "render")]
fn math(tex: &str, display: bool) -> Result<String, String> {
    let storage = Storage::new();
    let parser = pulldown_latex::Parser::new(tex, &storage);
    let mut out = String::new();
    let config = RenderConfig {
        display_mode: if display {
            DisplayMode::Block
        } else {
            DisplayMode::Inline
        },
        ..RenderConfig::default()
    };
    push_mathml(&mut out, parser, config).map_err(|e| e.to_string())?;
    // The renderer reports what it cannot parse inside the MathML (`<merror>`)
    // rather than as an error: a reader would see the message in the text.
    if let Some(at) = out.find("<merror") {
        let inner = &out[at..];
        let text: String = inner
            .split('<')
            .filter_map(|part| part.split_once('>').map(|(_, t)| t))
            .collect::<Vec<_>>()
            .join("");
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or("");
        return Err(first.to_owned());
    }
    if display {
        // A wide formula scrolls sideways on a narrow screen: the keyboard must
        // be able to reach it to scroll it (WCAG 2.1.1).
        out = out.replacen("<math ", "<math tabindex=\"0\" ", 1);
    }
    Ok(out)
}

/// Replaces every `{{name}}` with the figure of that name; unknown names are errors.
pub fn substitute(
    source: &str,
    figure: &dyn Fn(&str) -> Option<String>,
) -> Result<String, DocError> {
    let mut out = String::with_capacity(source.len());
    let mut rest = source;
    while let Some(a) = rest.find("{{") {
        out.push_str(&rest[..a]);
        let line = source[..source.len() - rest.len() + a]
            .matches('\n')
            .count()
            + 1;
        let Some(b) = rest[a..].find("}}") else {
            return Err(DocError {
                line,
                message: "`{{` without `}}`".to_owned(),
            });
        };
        let name = rest[a + 2..a + b].trim();
        match figure(name) {
            Some(v) => out.push_str(&v),
            None => {
                return Err(DocError {
                    line,
                    message: format!("unknown figure `{name}`"),
                });
            }
        }
        rest = &rest[a + b + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(feature = "render")]
/// Parses Markdown with figures substituted first.
pub fn parse_with(source: &str, figure: &dyn Fn(&str) -> Option<String>) -> Result<Doc, DocError> {
    parse(&substitute(source, figure)?)
}

#[cfg(feature = "render")]
/// Renders inline-and-block Markdown to HTML, with math: a self-test part or an
/// exercise statement. Directives in it are dropped; `line` is where `md` starts
/// in its file, so errors name the file's line.
pub fn fragment(md: &str, line: usize) -> Result<String, DocError> {
    let doc = parse(md).map_err(|e| DocError {
        line: line + e.line - 1,
        message: e.message,
    })?;
    Ok(doc
        .blocks
        .into_iter()
        .filter_map(|b| match b {
            Block::Html(h) => Some(h),
            _ => None,
        })
        .collect())
}

#[cfg(feature = "render")]
/// Parses a `selftest` body: `Q:` lines start questions, `A:` lines answers,
/// other lines continue the current part.
fn selftest(body: &str, at: usize) -> Result<Block, DocError> {
    let mut out = Vec::new();
    for (q, a, line) in selftest_items(body, at)? {
        out.push((fragment(&q, line)?, fragment(&a, line)?));
    }
    Ok(Block::SelfTest(out))
}

#[cfg(feature = "render")]
/// A `selftest` body's questions and answers as Markdown, each with the line
/// its question starts on (`at` is the directive's line): what the page
/// renders, and what a notebook prints. A malformed body is an error naming
/// the line.
pub fn selftest_items(body: &str, at: usize) -> Result<Vec<(String, String, usize)>, DocError> {
    let mut items: Vec<(String, String, usize)> = Vec::new();
    let mut in_answer = false;
    for (i, line) in body.lines().enumerate() {
        let line_no = at + 1 + i;
        let t = line.trim();
        if let Some(q) = t.strip_prefix("Q:") {
            items.push((q.trim().to_owned(), String::new(), line_no));
            in_answer = false;
        } else if let Some(a) = t.strip_prefix("A:") {
            let Some(last) = items.last_mut() else {
                return Err(DocError {
                    line: line_no,
                    message: "`A:` before any `Q:`".to_owned(),
                });
            };
            last.1 = a.trim().to_owned();
            in_answer = true;
        } else if let Some(last) = items.last_mut() {
            let part = if in_answer { &mut last.1 } else { &mut last.0 };
            part.push('\n');
            part.push_str(line);
        } else if !t.is_empty() {
            return Err(DocError {
                line: line_no,
                message: "a selftest starts with `Q:`".to_owned(),
            });
        }
    }
    if items.is_empty() {
        return Err(DocError {
            line: at,
            message: "an empty selftest".to_owned(),
        });
    }
    if let Some((_, _, line)) = items.iter().find(|(_, a, _)| a.trim().is_empty()) {
        return Err(DocError {
            line: *line,
            message: "a question without an `A:` answer".to_owned(),
        });
    }
    Ok(items)
}

#[cfg(feature = "render")]
/// Parses a chapter's Markdown (no figure substitution; see [`parse_with`]).
pub fn parse(source: &str) -> Result<Doc, DocError> {
    let line_of = |offset: usize| source[..offset].matches('\n').count() + 1;
    // Heading attributes: a translated heading keeps its English anchor,
    // `## 自测 {#self-test}`.
    let opts = Options::ENABLE_TABLES
        | Options::ENABLE_MATH
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_HEADING_ATTRIBUTES;
    let mut doc = Doc::default();
    let mut pending: Vec<Event> = Vec::new();
    let mut heading: Option<(HeadingLevel, Option<String>, Vec<Event>)> = None;
    let mut code: Option<(String, String, usize)> = None; // (info, text, line)
    let mut used_ids: Vec<String> = Vec::new();

    let flush = |pending: &mut Vec<Event>, blocks: &mut Vec<Block>| {
        if !pending.is_empty() {
            let mut s = String::new();
            html::push_html(&mut s, pending.drain(..));
            blocks.push(Block::Html(s));
        }
    };

    for (event, range) in Parser::new_ext(source, opts).into_offset_iter() {
        let line = line_of(range.start);
        if let Some((_, text, _)) = code.as_mut() {
            match event {
                Event::Text(t) => text.push_str(&t),
                Event::End(TagEnd::CodeBlock) => {
                    let (info, text, at) = code.take().unwrap_or_default();
                    let mut words = info.split_whitespace();
                    match (words.next(), words.next(), words.next()) {
                        (Some(kind @ ("cell" | "exercise")), arg, extra) => {
                            let Some(id) = arg else {
                                return Err(DocError {
                                    line: at,
                                    message: format!("`{kind}` needs an id"),
                                });
                            };
                            if extra.is_some() || !text.trim().is_empty() {
                                return Err(DocError {
                                    line: at,
                                    message: format!(
                                        "`{kind} {id}` takes one id and an empty body"
                                    ),
                                });
                            }
                            flush(&mut pending, &mut doc.blocks);
                            let id = id.to_owned();
                            doc.blocks.push(if kind == "cell" {
                                Block::Cell { id, line: at }
                            } else {
                                Block::Exercise { id, line: at }
                            });
                        }
                        (Some("scratch"), None, None) => {
                            flush(&mut pending, &mut doc.blocks);
                            doc.blocks.push(Block::Scratch {
                                code: text.trim_end().to_owned(),
                            });
                        }
                        (Some("selftest"), ..) => {
                            let block = selftest(&text, at)?;
                            flush(&mut pending, &mut doc.blocks);
                            doc.blocks.push(block);
                        }
                        (Some("rust"), ..) => pending.push(Event::Html(
                            format!(
                                "<pre class=\"code\"><code class=\"rust\">{}</code></pre>",
                                highlight_rust(&text)
                            )
                            .into(),
                        )),
                        _ => {
                            let escaped = escape(&text);
                            pending.push(Event::Html(
                                format!("<pre class=\"code\"><code>{escaped}</code></pre>").into(),
                            ));
                        }
                    }
                }
                _ => {}
            }
            continue;
        }
        let event = match event {
            Event::InlineMath(t) => Event::InlineHtml(
                math(&t, false)
                    .map_err(|m| DocError {
                        line,
                        message: format!("bad formula `{t}`: {m}"),
                    })?
                    .into(),
            ),
            Event::DisplayMath(t) => Event::Html(
                math(&t, true)
                    .map_err(|m| DocError {
                        line,
                        message: format!("bad formula: {m}"),
                    })?
                    .into(),
            ),
            Event::Start(Tag::CodeBlock(kind)) => {
                let info = match kind {
                    CodeBlockKind::Fenced(i) => i.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                code = Some((info, String::new(), line));
                continue;
            }
            e => e,
        };
        match (&mut heading, event) {
            (None, Event::Start(Tag::Heading { level, id, .. })) => {
                heading = Some((level, id.map(|i| i.to_string()), Vec::new()));
            }
            (Some(_), Event::End(TagEnd::Heading(_))) => {
                let (level, explicit, inner) =
                    heading
                        .take()
                        .unwrap_or((HeadingLevel::H2, None, Vec::new()));
                let text: String = inner
                    .iter()
                    .filter_map(|e| match e {
                        Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
                        _ => None,
                    })
                    .collect();
                let id = match explicit {
                    Some(id) => {
                        if used_ids.contains(&id) || slugify(&id) != id {
                            return Err(DocError {
                                line,
                                message: format!(
                                    "heading id `{{#{id}}}` is used twice or is not lowercase letters, digits and `-`"
                                ),
                            });
                        }
                        id
                    }
                    None => {
                        let base = slugify(&text);
                        let mut id = base.clone();
                        let mut n = 1;
                        while used_ids.contains(&id) {
                            n += 1;
                            id = format!("{base}-{n}");
                        }
                        id
                    }
                };
                used_ids.push(id.clone());
                let lv = level as u8;
                doc.headings.push(Heading {
                    level: lv,
                    id: id.clone(),
                    text,
                });
                pending.push(Event::Html(CowStr::from(format!("<h{lv} id=\"{id}\">"))));
                pending.extend(inner);
                pending.push(Event::Html(CowStr::from(format!(
                    "<a class=\"anchor\" href=\"#{id}\" aria-label=\"link to this section\" data-pagefind-ignore>#</a></h{lv}>\n"
                ))));
            }
            (Some((_, _, inner)), e) => inner.push(e),
            (None, e) => pending.push(e),
        }
    }
    flush(&mut pending, &mut doc.blocks);
    Ok(doc)
}

/// Escapes text for HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(all(test, feature = "render"))]
mod tests {
    use super::*;

    #[test]
    fn directives_split_the_html() {
        let d = parse(
            "# T\n\nText $x^2$.\n\n```cell attended\n```\n\nMore.\n\n```exercise ch/x\n```\n",
        )
        .unwrap();
        assert_eq!(d.blocks.len(), 4);
        assert!(matches!(&d.blocks[1], Block::Cell { id, line: 5 } if id == "attended"));
        assert!(matches!(&d.blocks[3], Block::Exercise { id, line: 10 } if id == "ch/x"));
        let Block::Html(h) = &d.blocks[0] else {
            panic!()
        };
        assert!(h.contains("<math"), "{h}");
        assert!(h.contains("<h1 id=\"t\">"), "{h}");
    }

    #[test]
    fn malformed_directives_name_the_line() {
        let e = parse("intro\n\n```cell\n```\n").unwrap_err();
        assert_eq!(
            e,
            DocError {
                line: 3,
                message: "`cell` needs an id".into()
            }
        );
        let e = parse("```exercise a b\n```\n").unwrap_err();
        assert_eq!(e.line, 1);
    }

    #[test]
    fn tables_and_rust_code_render() {
        let d = parse("| a | b |\n|---|---|\n| 1 | 2 |\n\n```rust\nfn f() {}\n```\n").unwrap();
        let Block::Html(h) = &d.blocks[0] else {
            panic!()
        };
        assert!(h.contains("<table>") && h.contains("<td>2</td>"), "{h}");
        assert!(h.contains("<span class=\"kw\">fn</span>"), "{h}");
    }

    #[test]
    fn headings_get_unique_anchors() {
        let d = parse("## A b\n\n## A b\n").unwrap();
        let ids: Vec<&str> = d.headings.iter().map(|h| h.id.as_str()).collect();
        assert_eq!(ids, ["a-b", "a-b-2"]);
    }

    #[test]
    fn figures_are_substituted_and_unknown_ones_fail() {
        let fig = |n: &str| (n == "a.b").then(|| "640".to_owned());
        let d = parse_with("It reads {{a.b}} entries.\n", &fig).unwrap();
        let Block::Html(h) = &d.blocks[0] else {
            panic!()
        };
        assert!(h.contains("It reads 640 entries."), "{h}");
        let e = parse_with("x\n\ny {{a.c}}\n", &fig).unwrap_err();
        assert_eq!(
            e,
            DocError {
                line: 3,
                message: "unknown figure `a.c`".into()
            }
        );
    }

    #[test]
    fn selftest_blocks() {
        let d = parse(
            "```selftest\nQ: What is *x*?\nA: It is $x$,\nand more.\nQ: Two?\nA: Yes.\n```\n",
        )
        .unwrap();
        let Block::SelfTest(items) = &d.blocks[0] else {
            panic!("{:?}", d.blocks)
        };
        assert_eq!(items.len(), 2);
        assert!(
            items[0].0.contains("<em>x</em>")
                && items[0].1.contains("<math")
                && items[0].1.contains("and more")
        );
        assert_eq!(
            parse("```selftest\nQ: no answer\n```\n").unwrap_err().line,
            2
        );
        assert_eq!(parse("```selftest\nA: first\n```\n").unwrap_err().line, 2);
    }

    #[test]
    fn a_formula_the_renderer_cannot_parse_is_an_error() {
        let err = parse("# T\n\nadd $S \\mathrel{+}= v$ here\n").unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.message.contains("bad formula"), "{}", err.message);
        assert!(
            err.message.contains("unknown primitive command"),
            "{}",
            err.message
        );
        assert!(parse("# T\n\nadd $S + v k^\\top$ here\n").is_ok());
    }

    #[test]
    fn slugs() {
        assert_eq!(
            slugify("Attention: window, compression, selection"),
            "attention-window-compression-selection"
        );
    }
}
