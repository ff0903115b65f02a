//! The notebooks' printing helper. The part between the anchors is copied into
//! every notebook's setup cell, where `demo` is the crate-level module made
//! from `chapters/src/demo.rs`; the notebook check compiles the same code here
//! to compute what a call cell must print.

use chapters::demo;

/// This file, for the notebooks' setup cell.
pub const SOURCE: &str = include_str!("show.rs");

// ANCHOR: notebook
/// A cell's parameters by name, as the page's inputs hold them.
pub fn params(pairs: &[(&str, &str)]) -> demo::Raw {
    pairs
        .iter()
        .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
        .collect()
}

/// Prints a cell's output as text: text blocks as they are, tables with
/// aligned columns, a chart as its data table, a fold as its summary line over
/// what it holds (open: a notebook has nothing to click), and parameter errors
/// by name.
pub fn show(out: &Result<demo::Output, Vec<demo::ParamError>>) {
    print!("{}", output_text(out));
}

/// What [`show`] prints.
pub fn output_text(out: &Result<demo::Output, Vec<demo::ParamError>>) -> String {
    let blocks = match out {
        Ok(o) => &o.blocks,
        Err(errors) => {
            return errors
                .iter()
                .map(|e| format!("error in `{}`: {}\n", e.param, e.message))
                .collect();
        }
    };
    let mut s = String::new();
    blocks_text(blocks, &mut s);
    s
}

/// Each of `blocks` as [`output_text`] prints it, a blank line between two.
fn blocks_text(blocks: &[demo::Block], s: &mut String) {
    for (i, b) in blocks.iter().enumerate() {
        if i > 0 {
            s.push('\n');
        }
        match b {
            demo::Block::Text(t) => {
                s.push_str(t.trim_end());
                s.push('\n');
            }
            demo::Block::Table { header, rows } => s.push_str(&aligned(header, rows)),
            demo::Block::Plot(p) => {
                s.push_str(&format!("Chart: {}", p.title));
                if !p.y_label.is_empty() {
                    s.push_str(&format!(" (y: {})", p.y_label));
                }
                s.push('\n');
                let (header, rows) = p.data_table();
                s.push_str(&aligned(&header, &rows));
            }
            demo::Block::Details { summary, blocks } => {
                s.push_str(&format!("▸ {summary}\n"));
                blocks_text(blocks, s);
            }
        }
    }
}

/// A table as text: columns padded to their widest cell, a rule under the header.
fn aligned(header: &[String], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            if i < widths.len() {
                widths[i] = widths[i].max(c.chars().count());
            } else {
                widths.push(c.chars().count());
            }
        }
    }
    let line = |cells: &[String]| {
        let padded: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let pad = widths[i].saturating_sub(c.chars().count());
                format!("{c}{}", " ".repeat(pad))
            })
            .collect();
        format!("{}\n", padded.join("  ").trim_end())
    };
    let mut s = line(header);
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    s.push_str(&format!("{}\n", rule.join("  ")));
    for r in rows {
        s.push_str(&line(r));
    }
    s
}
// ANCHOR_END: notebook

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_align_and_errors_name_their_parameter() {
        let out = Ok(demo::Output {
            blocks: vec![
                demo::Block::Text("two lines\nof text\n".into()),
                demo::Block::Table {
                    header: vec!["model".into(), "bytes".into()],
                    rows: vec![
                        vec!["V4".into(), "1,024".into()],
                        vec!["Qwen3-72B".into(), "8".into()],
                    ],
                },
                demo::Block::Details {
                    summary: "step by step".into(),
                    blocks: vec![demo::Block::Text("one\n".into())],
                },
            ],
        });
        assert_eq!(
            output_text(&out),
            "two lines\nof text\n\nmodel      bytes\n---------  -----\nV4         1,024\nQwen3-72B  8\n\n▸ step by step\none\n"
        );
        let err = Err(vec![demo::ParamError::new(
            "tokens",
            "enter a whole number",
            "请输入一个整数",
        )]);
        assert_eq!(
            output_text(&err),
            "error in `tokens`: enter a whole number\n"
        );
        assert_eq!(
            params(&[("a", "1")]).get("a").map(String::as_str),
            Some("1")
        );
    }
}
