//! DeepSeek-V4's CSA compressor windows: which tokens each compressed entry
//! covers when windows of 8 tokens start every 4, against disjoint blocks.

use crate::demo::Msg;
use super::formulas::{WINDOW, csa_entries};
use super::kv_calc::{INDEXER_KEY_BYTES, grouped};
use crate::ch_newmodels::ledger;
use crate::demo::{
    Demo, Heatmap, Output, Param, ParamError, Plot, Raw, AllOk, group_u64,
};
use crate::lang::Lang;
use crate::say::csa_window as say;

// ANCHOR: demo
/// The tokens (1-based, inclusive) that entry `k` (1-based) covers: `width`
/// tokens from `(k − 1) · stride + 1` on. Entry 1 of V4's CSA layout (width 8,
/// stride 4) covers tokens 1–8, entry 2 tokens 5–12, entry 3 tokens 9–16.
pub fn entry_span(k: u64, stride: u64, width: u64) -> (u64, u64) {
    let first = (k - 1) * stride + 1;
    (first, first + width - 1)
}

/// How many entries, finished or still being filled, contain token `t`
/// (1-based): the `k` with `first ≤ t ≤ last`, i.e. `j = k − 1` with
/// `t − width ≤ j · stride ≤ t − 1`. With `width = 2 · stride` that is 2 for
/// every token after the first `stride`.
pub fn covering(t: u64, stride: u64, width: u64) -> u64 {
    let last_j = (t - 1) / stride;
    let first_j = t.saturating_sub(width).div_ceil(stride);
    (last_j + 1).saturating_sub(first_j)
}

/// Tokens the compressor still holds after `tokens` tokens: every token from
/// the start of the next unfinished entry on, `tokens − entries · stride` (all
/// of them before the first entry is finished). With disjoint blocks
/// (`width = stride`) that is `tokens mod stride`; with overlap the last
/// `width − stride` tokens of a finished entry are kept for the next one.
pub fn held(tokens: u64, stride: u64, width: u64) -> u64 {
    tokens - csa_entries(tokens, stride, width) * stride
}

/// Tokens in no finished entry: those after the last finished entry's end.
pub fn uncovered(tokens: u64, stride: u64, width: u64) -> u64 {
    match csa_entries(tokens, stride, width) {
        0 => tokens,
        e => tokens - entry_span(e, stride, width).1,
    }
}

/// The counts of one context length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Context length in tokens.
    pub tokens: u64,
    /// Finished entries with overlapping windows (`width` every `stride`).
    pub overlapping: u64,
    /// Finished entries with disjoint blocks of `stride`: `tokens / stride`.
    pub disjoint: u64,
    /// Finished HCA entries, disjoint blocks of `ratio_hca`.
    pub hca: u64,
    /// Tokens in no finished overlapping entry.
    pub uncovered: u64,
    /// Tokens the overlapping compressor holds as state.
    pub held: u64,
    /// Tokens the HCA compressor holds (`tokens mod ratio_hca`).
    pub hca_held: u64,
}

/// The counts after `tokens` tokens. Disjoint blocks are the same formula with
/// `width = stride`: `csa_entries(n, s, s) = n / s`.
pub fn counts(tokens: u64, stride: u64, width: u64, ratio_hca: u64) -> Counts {
    Counts {
        tokens,
        overlapping: csa_entries(tokens, stride, width),
        disjoint: csa_entries(tokens, stride, stride),
        hca: csa_entries(tokens, ratio_hca, ratio_hca),
        uncovered: uncovered(tokens, stride, width),
        held: held(tokens, stride, width),
        hca_held: held(tokens, ratio_hca, ratio_hca),
    }
}
// ANCHOR_END: demo

/// Most tokens the picture and the heatmap show.
pub const MAX_SHOWN: u64 = 64;

/// Most entries the picture and the heatmap show per layout.
pub const MAX_ROWS: u64 = 32;

/// Longest context of the `long` list (2^40 tokens).
pub const MAX_LONG: i64 = 1 << 40;

/// Tokens of the sequence.
const TOKENS: Param = Param::int("tokens", "16", 1, 1_024);
/// Tokens between two CSA entries.
const STRIDE: Param = Param::int("stride", "4", 1, 64);
/// Tokens each CSA entry covers, at least the stride.
const WIDTH: Param = Param::int("width", "8", 1, 256);
/// Tokens per HCA entry.
const RATIO_HCA: Param = Param::int("ratio_hca", "128", 1, 4_096);
/// The long contexts to size.
const LONG: Param = Param::ints("long", "1,000,000 1,048,576", 1, MAX_LONG, 8);

/// The cell's parameters.
pub const PARAMS: &[Param] = &[TOKENS, STRIDE, WIDTH, RATIO_HCA, LONG];

/// The cell.
pub fn demo() -> Demo {
    Demo {
        id: "csa_window",
        params: PARAMS,
        #[cfg(feature = "render")]
        source: crate::demo::anchored(include_str!("csa_window.rs"), "demo"),
        #[cfg(feature = "run")]
        run,
    }
}

/// Checked parameters of the demo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Params {
    /// Tokens of the small example (picture, heatmap, chart).
    pub tokens: u64,
    /// A new entry every `stride` tokens.
    pub stride: u64,
    /// Tokens each entry covers (at least `stride`).
    pub width: u64,
    /// Tokens per HCA entry.
    pub ratio_hca: u64,
    /// Context lengths of the counts table.
    pub long: Vec<u64>,
}

impl Params {
    /// Validates the reader's text; every bad field gets its own message. The
    /// work is fixed by these ranges: a picture and heatmap of at most
    /// [`MAX_ROWS`] × [`MAX_SHOWN`] cells per layout, a chart of at most 1,025
    /// points per series and 8 table rows, all O(1) `u64` arithmetic (every
    /// value below 2^41), so this demo needs no budget beyond them.
    pub fn parse(raw: &Raw) -> Result<Params, Vec<ParamError>> {
        let tokens = TOKENS.read_int(raw);
        let stride = STRIDE.read_int(raw);
        let mut width = WIDTH.read_int(raw);
        let ratio_hca = RATIO_HCA.read_int(raw);
        let long = LONG.read_ints(raw);
        if let (Ok(s), Ok(w)) = (&stride, &width)
            && w < s
        {
            width = Err(ParamError::from_msg(
                WIDTH.name,
                Msg::in_all(|l| say::too_narrow { stride: s }.text(l)),
            ));
        }
        let (t, s, w, r, l) = (tokens, stride, width, ratio_hca, long).all_ok()?;
        Ok(Params {
        tokens: t as u64,
        stride: s as u64,
        width: w as u64,
        ratio_hca: r as u64,
        long: l.into_iter().map(|x| x as u64).collect(),
    })
    }
}

/// One row of the picture: an entry's label, its span and how far it is filled.
struct Row {
    label: String,
    first: u64,
    last: u64,
    finished: bool,
}

/// The entries that start within the first `shown` tokens of a sequence of
/// `tokens` tokens (at most [`MAX_ROWS`]), and how many more start there.
fn picture_rows(prefix: &str, tokens: u64, shown: u64, stride: u64, width: u64) -> (Vec<Row>, u64) {
    let started = (shown - 1) / stride + 1;
    let rows = (1..=started.min(MAX_ROWS))
        .map(|k| {
            let (first, last) = entry_span(k, stride, width);
            Row {
                label: format!("{prefix}{k}"),
                first,
                last,
                finished: last <= tokens,
            }
        })
        .collect();
    (rows, started.saturating_sub(MAX_ROWS))
}

/// The glyphs of one row over tokens `1..=shown`: █ in a finished entry, ▒
/// waiting in an unfinished one, `.` elsewhere; then the entry's span.
fn draw(row: &Row, tokens: u64, shown: u64, lang: Lang) -> String {
    let mut line: String = (1..=shown)
        .map(|t| {
            if t < row.first || t > row.last || t > tokens {
                '.'
            } else if row.finished {
                '█'
            } else {
                '▒'
            }
        })
        .collect();
    let (first, last) = (group_u64(row.first), group_u64(row.last));
    line += &say::span { first, last }.text(lang);
    if !row.finished {
        let have = tokens.min(row.last) + 1 - row.first;
        let all = row.last + 1 - row.first;
        line += &say::so_far { have, all }.text(lang);
    }
    line
}

/// "1 entry", "4 entries" in `lang`.
fn count_entries(n: u64, lang: Lang) -> String {
    if n == 1 {
        say::entries_one { n: group_u64(n) }.text(lang)
    } else {
        say::entries { n: group_u64(n) }.text(lang)
    }
}

/// "1 token", "4 tokens" in `lang`.
fn count_tokens(n: u64, lang: Lang) -> String {
    if n == 1 {
        say::tokens_one { n: group_u64(n) }.text(lang)
    } else {
        say::tokens { n: group_u64(n) }.text(lang)
    }
}

/// A ruler over tokens `1..=shown`: the token number every 8 columns.
fn ruler(shown: u64) -> String {
    let mut cols = vec![' '; shown as usize + 4];
    for t in (1..=shown).step_by(8) {
        for (i, ch) in t.to_string().chars().enumerate() {
            cols[(t - 1) as usize + i] = ch;
        }
    }
    cols.into_iter().collect::<String>().trim_end().to_owned()
}

/// The monospace picture of both layouts over the first [`MAX_SHOWN`] tokens.
pub fn picture(tokens: u64, stride: u64, width: u64, lang: Lang) -> String {
    let shown = tokens.min(MAX_SHOWN);
    let (over, over_more) = picture_rows("c", tokens, shown, stride, width);
    let (disj, disj_more) = picture_rows("d", tokens, shown, stride, stride);
    let token = say::token.text(lang);
    let pad = over
        .iter()
        .chain(&disj)
        .map(|r| r.label.len())
        .chain([token.chars().count()])
        .max()
        .unwrap_or(5)
        + 2;
    let mut out = String::new();
    if shown < tokens {
        out += &say::showing {
            shown,
            tokens: group_u64(tokens),
        }
        .text(lang);
    }
    let block = |out: &mut String, title: String, rows: &[Row], more: u64| {
        *out += &title;
        *out += &format!("{token:<pad$}{}\n", ruler(shown));
        for r in rows {
            *out += &format!("{:<pad$}{}\n", r.label, draw(r, tokens, shown, lang));
        }
        if more == 1 {
            *out += &say::more_one { more, shown }.text(lang);
        } else if more > 1 {
            let more = group_u64(more);
            *out += &say::more { more, shown }.text(lang);
        }
    };
    block(
        &mut out,
        say::over_title {
            width,
            stride,
            entries: count_entries(csa_entries(tokens, stride, width), lang),
            tokens: count_tokens(tokens, lang),
        }
        .text(lang),
        &over,
        over_more,
    );
    out += "\n";
    block(
        &mut out,
        say::disjoint_title {
            stride,
            entries: count_entries(csa_entries(tokens, stride, stride), lang),
        }
        .text(lang),
        &disj,
        disj_more,
    );
    out += &say::legend.text(lang);
    out
}

/// Where every token from some token on is covered by the same number of
/// entries (or one of two numbers, when `width` is not a multiple of
/// `stride`): `(from token, fewest, most)`.
fn steady_coverage(stride: u64, width: u64) -> (u64, u64, u64) {
    let period: Vec<u64> = (width..width + stride)
        .map(|t| covering(t, stride, width))
        .collect();
    let (lo, hi) = (
        *period.iter().min().unwrap_or(&1),
        *period.iter().max().unwrap_or(&1),
    );
    let from = (1..=width)
        .find(|&f| (f..width).all(|t| (lo..=hi).contains(&covering(t, stride, width))))
        .unwrap_or(width);
    (from, lo, hi)
}

/// The summary text.
fn summary(p: &Params, lang: Lang) -> String {
    let (s, w) = (p.stride, p.width);
    let c = counts(p.tokens, s, w, p.ratio_hca);
    let mut text = say::counts {
        tokens: count_tokens(p.tokens, lang),
        over: count_entries(c.overlapping, lang),
        w,
        s,
        disjoint: count_entries(c.disjoint, lang),
        ratio: fmt_ratio(p.tokens, s),
        hca: count_entries(c.hca, lang),
        r: p.ratio_hca,
    }
    .text(lang);
    let (from, lo, hi) = steady_coverage(s, w);
    let each = if lo == hi {
        count_entries(lo, lang)
    } else {
        say::entries_either { lo, hi }.text(lang)
    };
    text += &if from > 1 {
        say::steady {
            from,
            each,
            before: from - 1,
        }
        .text(lang)
    } else {
        say::steady_all { each }.text(lang)
    };
    let n = p.tokens;
    let range = |k: u64| match k {
        1 => say::range_one { n: group_u64(n) }.text(lang),
        _ => say::range {
            first: group_u64(n - k + 1),
            last: group_u64(n),
            k,
        }
        .text(lang),
    };
    text += &match c.held {
        0 => say::held_none.text(lang),
        k => say::held { range: range(k) }.text(lang),
    };
    text += &match c.uncovered {
        0 => say::uncovered_none.text(lang),
        1 => say::uncovered_one { range: range(1) }.text(lang),
        k => say::uncovered { range: range(k) }.text(lang),
    };
    if w - 1 <= WINDOW {
        text += &say::in_window {
            held: w - 1,
            window: WINDOW,
        }
        .text(lang);
    }
    if w.is_multiple_of(s) && w > s {
        let k = w / s - 1;
        text += &say::fewer {
            w,
            s,
            k,
            fewer: count_entries(k, lang),
        }
        .text(lang);
    }
    text
}

/// `n / d` exactly when it divides, else with two decimals.
fn fmt_ratio(n: u64, d: u64) -> String {
    if n.is_multiple_of(d) {
        group_u64(n / d)
    } else {
        format!("{:.2}", n as f64 / d as f64)
    }
}

/// The coverage heatmap: one row per overlapping entry that starts within the
/// first [`MAX_SHOWN`] tokens (at most [`MAX_ROWS`]), one column per token; 1
/// where a finished entry covers the token, 0.5 where the token waits in an
/// unfinished entry, 0 elsewhere.
pub fn coverage(tokens: u64, stride: u64, width: u64, lang: Lang) -> Heatmap {
    let shown = tokens.min(MAX_SHOWN);
    let (rows, _) = picture_rows("c", tokens, shown, stride, width);
    Heatmap {
        x: (1..=shown).map(|t| t.to_string()).collect(),
        y: rows.iter().map(|r| r.label.clone()).collect(),
        z: rows
            .iter()
            .map(|r| {
                (1..=shown)
                    .map(|t| {
                        if t < r.first || t > r.last || t > tokens {
                            0.0
                        } else if r.finished {
                            1.0
                        } else {
                            0.5
                        }
                    })
                    .collect()
            })
            .collect(),
        z_label: say::covered_waiting.text(lang),
        z_range: Some((0.0, 1.0)),
    }
}

/// Runs the demo: the picture, the counts at long contexts, the coverage
/// heatmap and entries against n for both layouts.
pub fn run(raw: &Raw, lang: Lang) -> Result<Output, Vec<ParamError>> {
    let p = Params::parse(raw)?;
    let (s, w) = (p.stride, p.width);
    let text = format!("{}\n{}", summary(&p, lang), picture(p.tokens, s, w, lang));
    let overlapping = say::overlapping { w, s }.text(lang);
    let disjoint = say::disjoint { s }.text(lang);
    let header = vec![
        say::col_context.text(lang),
        overlapping.clone(),
        disjoint.clone(),
        say::col_hca { r: p.ratio_hca }.text(lang),
        say::col_uncovered.text(lang),
        say::col_held.text(lang),
        say::col_hca_held.text(lang),
    ];
    let rows = p
        .long
        .iter()
        .map(|&n| {
            let c = counts(n, s, w, p.ratio_hca);
            [
                c.tokens,
                c.overlapping,
                c.disjoint,
                c.hca,
                c.uncovered,
                c.held,
                c.hca_held,
            ]
            .iter()
            .map(|&v| group_u64(v))
            .collect()
        })
        .collect();
    let heatmap = Plot::heatmap(
        say::heatmap_title { w, s }.text(lang),
        say::token.text(lang),
        say::heatmap_y.text(lang),
        coverage(p.tokens, s, w, lang),
    );
    let ns = 1..=p.tokens;
    let chart = Plot::new(
        say::chart_title.text(lang),
        say::chart_x.text(lang),
        say::chart_y.text(lang),
    )
    .line(overlapping, ns.clone(), ns.clone().map(|n| csa_entries(n, s, w)))
    .line(disjoint, ns.clone(), ns.clone().map(|n| csa_entries(n, s, s)))
    .dashed(
        format!("n / {s}"),
        ns.clone(),
        ns.map(|n| n as f64 / s as f64),
    );
    Ok(Output::new()
        .text(text)
        .table(header, rows)
        .plot(heatmap)
        .plot(chart))
}

/// What one V4-Pro CSA layer holds after `tokens` tokens and what one decode
/// step reads of it, in bytes, as ch_newmodels' ledger counts them (584-B FP8
/// entries, a 132-B indexer key per entry): (stored, keys read, entries read).
/// The indexer scores every entry, so it reads every key; attention then reads
/// the `topk` entries it chose. The 128-token window is left out of both.
pub fn csa_layer_bytes(tokens: u64, topk: u64) -> (f64, f64, f64) {
    let entries = csa_entries(tokens, 4, 8) as f64;
    let (entry, key) = (ledger::V4_ENTRY, INDEXER_KEY_BYTES);
    (
        entries * (entry + key),
        entries * key,
        entries.min(topk as f64) * entry,
    )
}

/// V4-Pro's indexer top-k.
const PRO_TOPK: u64 = 1_024;

/// The figures the chapter's text quotes from this cell: (name, value).
pub fn figures() -> Vec<(&'static str, String)> {
    let (m, mi) = (1_000_000, 1u64 << 20);
    let n = |v: u64| group_u64(v);
    let (stored, keys, chosen) = csa_layer_bytes(mi, PRO_TOPK);
    let mib = |b: f64| format!("{} MiB", grouped(b / (1u64 << 20) as f64, 1));
    vec![
        ("csa_window.csa_stored_mib", mib(stored)),
        ("csa_window.csa_keys_mib", mib(keys)),
        ("csa_window.csa_topk_mib", format!("{} MiB", grouped(chosen / (1u64 << 20) as f64, 2))),
        ("csa_window.csa_read_ratio", format!("{}×", grouped(stored / (keys + chosen), 1))),
        (
            "csa_window.csa_entry_ratio",
            format!("{}×", grouped(csa_entries(mi, 4, 8) as f64 / PRO_TOPK as f64, 0)),
        ),
        ("csa_window.entries_16", n(csa_entries(16, 4, 8))),
        ("csa_window.disjoint_16", n(csa_entries(16, 4, 4))),
        ("csa_window.entries_1m", n(csa_entries(m, 4, 8))),
        ("csa_window.disjoint_1m", n(csa_entries(m, 4, 4))),
        ("csa_window.entries_1mi", n(csa_entries(mi, 4, 8))),
        ("csa_window.disjoint_1mi", n(csa_entries(mi, 4, 4))),
        ("csa_window.hca_1m", n(csa_entries(m, 128, 128))),
    ]
}

#[cfg(test)]
mod tests;
