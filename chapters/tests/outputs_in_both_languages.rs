//! A demo's output in Chinese is its English output with the words written in
//! Chinese (#12): run on its defaults in both languages, every demo gives the
//! same blocks in the same order, tables of the same shape, the same numbers in
//! every sentence, cell, title and label, the same plotted values, and Chinese
//! wherever the English has words.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used)] // tests

use chapters::Lang;
use chapters::demo::{Block, Output, Plot, defaults};

/// Demos whose output is still English on the Chinese page: their numbers and
/// shapes are checked, their words are not. Empty once #12 is done.
const ENGLISH_ONLY: &[&str] = &[];

/// Lower-case English words that may stay in a Chinese sentence: terms the
/// glossary keeps as they are (`token`, `top-k`) and code identifiers (`comb`,
/// and the modules `formulas` and `plan` of the paths `formulas::max_batch`,
/// `plan::decode_ms` that the KV-cache and deployment cells cite).
const TERMS: &[&str] = &["comb", "formulas", "plan", "token", "tokens", "top"];

/// The runs of digits in `s`, in order (`"1,024 × 4"` → `["1", "024", "4"]`).
fn numbers(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut run = String::new();
    for c in s.chars() {
        if c.is_ascii_digit() {
            run.push(c);
        } else if !run.is_empty() {
            out.push(std::mem::take(&mut run));
        }
    }
    if !run.is_empty() {
        out.push(run);
    }
    out
}

/// The English words in `s`: runs of three or more lower-case ASCII letters
/// standing alone (not the tail of `DeepSeek` or of a unit such as `KiB`),
/// other than [`TERMS`].
fn words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut run = String::new();
    let mut prev = ' ';
    let mut alone = true;
    for c in s.chars().chain([' ']) {
        if c.is_ascii_alphabetic() {
            if run.is_empty() {
                alone = !(prev.is_ascii_alphanumeric() || prev == '_');
            }
            run.push(c);
        } else {
            if alone
                && run.len() >= 3
                && run.chars().all(|c| c.is_ascii_lowercase())
                && !TERMS.contains(&run.as_str())
                && c != '_'
                && !c.is_ascii_digit()
            {
                out.push(run.clone());
            }
            run.clear();
        }
        prev = c;
    }
    out
}

fn has_chinese(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// Every text of a block with its place, in order: what a reader reads.
fn texts(block: &Block) -> Vec<(String, String)> {
    match block {
        Block::Text(t) => vec![("text".into(), t.clone())],
        Block::Table { header, rows } => {
            let mut v: Vec<_> = header
                .iter()
                .enumerate()
                .map(|(i, h)| (format!("header {i}"), h.clone()))
                .collect();
            for (r, row) in rows.iter().enumerate() {
                for (c, cell) in row.iter().enumerate() {
                    v.push((format!("row {r} column {c}"), cell.clone()));
                }
            }
            v
        }
        Block::Plot(p) => plot_texts(p),
        Block::Details { summary, blocks } => {
            let mut v = vec![("fold summary".into(), summary.clone())];
            for (i, b) in blocks.iter().enumerate() {
                v.extend(
                    texts(b)
                        .into_iter()
                        .map(|(place, t)| (format!("fold block {i}, {place}"), t)),
                );
            }
            v
        }
    }
}

fn plot_texts(p: &Plot) -> Vec<(String, String)> {
    let mut v = vec![
        ("title".into(), p.title.clone()),
        ("x label".into(), p.x_label.clone()),
        ("y label".into(), p.y_label.clone()),
    ];
    for (i, s) in p.series.iter().enumerate() {
        v.push((format!("series {i}"), s.name.clone()));
    }
    if let Some(h) = &p.heatmap {
        v.push(("colour bar".into(), h.z_label.clone()));
        for (i, x) in h.x.iter().enumerate() {
            v.push((format!("heatmap column {i}"), x.clone()));
        }
        for (i, y) in h.y.iter().enumerate() {
            v.push((format!("heatmap row {i}"), y.clone()));
        }
    }
    v
}

/// The kind and shape of a block, and its plotted values.
fn shape(block: &Block) -> String {
    match block {
        Block::Text(_) => "text".into(),
        Block::Table { header, rows } => format!(
            "table {} × {:?}",
            header.len(),
            rows.iter().map(Vec::len).collect::<Vec<_>>()
        ),
        Block::Plot(p) => format!(
            "plot log {}/{}; series {:?}; heatmap {:?}",
            p.log_x,
            p.log_y,
            p.series
                .iter()
                .map(|s| (&s.x, &s.y, s.bars, s.dashed))
                .collect::<Vec<_>>(),
            p.heatmap.as_ref().map(|h| (&h.z, h.z_range))
        ),
        Block::Details { blocks, .. } => format!(
            "fold of [{}]",
            blocks.iter().map(shape).collect::<Vec<_>>().join("; ")
        ),
    }
}

/// What differs between the two outputs of `id`, one line each.
fn differences(id: &str, en: &Output, zh: &Output, words_checked: bool) -> Vec<String> {
    let mut bad = Vec::new();
    if en.blocks.len() != zh.blocks.len() {
        bad.push(format!(
            "{id}: {} blocks in English, {} in Chinese",
            en.blocks.len(),
            zh.blocks.len()
        ));
        return bad;
    }
    for (b, (e, z)) in en.blocks.iter().zip(&zh.blocks).enumerate() {
        if shape(e) != shape(z) {
            bad.push(format!("{id} block {b}: {} ≠ {}", shape(e), shape(z)));
            continue;
        }
        for ((place, et), (_, zt)) in texts(e).into_iter().zip(texts(z)) {
            if numbers(&et) != numbers(&zt) {
                bad.push(format!(
                    "{id} block {b} {place}: numbers {:?} ≠ {:?} in {et:?} / {zt:?}",
                    numbers(&et),
                    numbers(&zt)
                ));
            }
            if words_checked && !words(&et).is_empty() && !has_chinese(&zt) {
                bad.push(format!(
                    "{id} block {b} {place}: English words {:?} but no Chinese in {zt:?}",
                    words(&et)
                ));
            }
            if words_checked && !words(&zt).is_empty() {
                bad.push(format!(
                    "{id} block {b} {place}: English words {:?} left in {zt:?}",
                    words(&zt)
                ));
            }
        }
    }
    bad
}

#[test]
fn every_demo_speaks_both_languages_with_the_same_numbers() {
    let demos = chapters::all_demos();
    for id in ENGLISH_ONLY {
        assert!(demos.iter().any(|d| d.id == *id), "no demo `{id}`");
    }
    let mut bad = Vec::new();
    for d in &demos {
        let raw = defaults(d.params);
        let en = (d.run)(&raw, Lang::En).unwrap();
        let zh = (d.run)(&raw, Lang::Zh).unwrap();
        let translated = !ENGLISH_ONLY.contains(&d.id);
        bad.extend(differences(d.id, &en, &zh, translated));
        if translated {
            assert_ne!(en, zh, "{}: the Chinese output is the English one", d.id);
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The checks above catch what they are meant to.
#[test]
fn the_checks_can_fail() {
    assert_eq!(numbers("1,024 × 4 (0.5)"), ["1", "024", "4", "0", "5"]);
    assert_eq!(
        words("context 4,096: C4 layer of DeepSeek-V4, 12 KiB, top-k, read_bytes"),
        ["context", "layer"]
    );
    let out = |t: &str| Output {
        blocks: vec![Block::Text(t.into())],
    };
    assert!(differences("x", &out("1 token"), &out("1 个 token"), true).is_empty());
    assert_eq!(
        differences("x", &out("2 tokens"), &out("3 个 token"), true).len(),
        1
    );
    assert_eq!(
        differences("x", &out("2 layers"), &out("2 layers"), true).len(),
        2
    );
    assert!(differences("x", &out("2 layers"), &out("2 layers"), false).is_empty());
    let table = |h: &str, rows: usize| Output {
        blocks: vec![Block::Table {
            header: vec![h.into()],
            rows: vec![vec!["1".into()]; rows],
        }],
    };
    assert_eq!(
        differences("x", &table("context", 2), &table("上下文", 1), true).len(),
        1
    );
    assert!(differences("x", &table("context", 2), &table("上下文", 2), true).is_empty());
}
