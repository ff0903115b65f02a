//! How many KV entries one query attends to in each kind of DeepSeek-V4 layer.

use crate::demo::{
    Demo, Output, Param, ParamError, Plot, Raw, AllOk, group,
};
use crate::lang::Lang;
use crate::say::attended as say;
use super::ledger;

// ANCHOR: demo
/// Entries a query at position `pos` (0-based) attends to in one layer:
/// the raw tokens of the sliding window, plus the compressed entries finished so
/// far (one per `ratio` tokens), capped at `topk` by the indexer when `topk > 0`.
/// A layer with `ratio <= 1` has only the window.
pub fn attended(pos: u64, ratio: u64, topk: u64, window: u64) -> u64 {
    let swa = window.min(pos + 1);
    if ratio <= 1 {
        return swa;
    }
    let done = (pos + 1) / ratio;
    swa + if topk > 0 { done.min(topk) } else { done }
}

/// One row of the demo's table: what each kind of layer sees at context `len`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// Context length in tokens.
    pub len: u64,
    /// Full attention: every token.
    pub full: u64,
    /// C4 layer: window + top-k of the compressed entries.
    pub c4: u64,
    /// Compressed entries the C4 indexer scores (one per 4 tokens).
    pub scored: u64,
    /// C128 layer: window + every compressed entry.
    pub c128: u64,
    /// Window-only layer.
    pub swa: u64,
}

/// The table for the last token of each context length.
pub fn rows(lens: &[u64], window: u64, topk: u64) -> Vec<Row> {
    lens.iter()
        .map(|&len| Row {
            len,
            full: len,
            c4: attended(len - 1, 4, topk, window),
            scored: len / 4,
            c128: attended(len - 1, 128, 0, window),
            swa: attended(len - 1, 1, 0, window),
        })
        .collect()
}

/// DeepSeek-V4-Flash's layers: C4, C128 and window-only.
pub const FLASH_LAYERS: (u64, u64, u64) = (21, 20, 2);
/// Bytes of the indexer key each C4 entry carries (the ledger's accounting).
pub const INDEXER_KEY: f64 = 132.0;

/// Bytes one decode step reads for one request at context `len` in a model
/// with `layers` (C4, C128, window-only), three ways: the indexer keys the C4
/// indexer scores (all of them, to pick its top-k), the C128 entries, and the
/// chosen C4 entries plus every layer's window. Entries attended stay flat with
/// the context; the first of these grows with it.
pub fn step_bytes(len: u64, layers: (u64, u64, u64), topk: u64, window: u64) -> [f64; 3] {
    let (c4, c128, swa) = layers;
    let entry = ledger::V4_ENTRY;
    let win = window.min(len);
    let chosen = attended(len - 1, 4, topk, window) - win;
    let c128_entries = attended(len - 1, 128, 0, window) - win;
    [
        (c4 * (len / 4)) as f64 * INDEXER_KEY,
        (c128 * c128_entries) as f64 * entry,
        (c4 * chosen + (c4 + c128 + swa) * win) as f64 * entry,
    ]
}
// ANCHOR_END: demo

/// Longest context the demo accepts (2^24 tokens).
pub const MAX_LEN: i64 = 1 << 24;

/// The context lengths to tabulate, in tokens.
const CONTEXTS: Param = Param::ints("contexts", "4,096 131,072 1,048,576", 1, MAX_LEN, 8);
/// The sliding window, in tokens.
const WINDOW: Param = Param::int("window", "128", 1, 1 << 20);
/// The C4 indexer's top-k, in entries (0: no cap).
const TOPK: Param = Param::int("topk", "512", 0, 1 << 20);

/// The cell's parameters.
pub const PARAMS: &[Param] = &[CONTEXTS, WINDOW, TOPK];

/// The cell.
pub fn demo() -> Demo {
    Demo {
        id: "attended",
        params: PARAMS,
        #[cfg(feature = "render")]
        source: crate::demo::anchored(include_str!("attended.rs"), "demo"),
        #[cfg(feature = "run")]
        run,
    }
}

/// Checked parameters of the demo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Params {
    /// Context lengths to tabulate.
    pub lens: Vec<u64>,
    /// Sliding-window size.
    pub window: u64,
    /// Indexer top-k of the C4 layers.
    pub topk: u64,
}

impl Params {
    /// Validates the reader's text; every bad field gets its own message.
    /// The work is fixed by these ranges: at most 8 table rows and 18 chart
    /// points of O(1) arithmetic in `u64` (every value below 2^25), so this
    /// demo needs no budget beyond them.
    pub fn parse(raw: &Raw) -> Result<Params, Vec<ParamError>> {
        let lens = CONTEXTS.read_ints(raw);
        let window = WINDOW.read_int(raw);
        let topk = TOPK.read_int(raw);
        let (l, w, k) = (lens, window, topk).all_ok()?;
        Ok(Params {
        lens: l.into_iter().map(|x| x as u64).collect(),
        window: w as u64,
        topk: k as u64,
    })
    }
}

/// Runs the demo: text, table and a log-log chart against full attention.
pub fn run(raw: &Raw, lang: Lang) -> Result<Output, Vec<ParamError>> {
    let p = Params::parse(raw)?;
    let table = rows(&p.lens, p.window, p.topk);
    let mut text = String::new();
    for r in &table {
        let [len, full, c4, scored, c128, swa] =
            [r.len, r.full, r.c4, r.scored, r.c128, r.swa].map(|v| group(v as i64));
        let (len, full) = (format!("{len:>9}"), format!("{full:>9}"));
        text += &say::row { len, full, c4, scored, c128, swa }.text(lang);
    }
    // What the longest context costs one V4-Flash request in bytes read a step.
    if let Some(&len) = p.lens.iter().max() {
        let [keys, c128, chosen] = step_bytes(len, FLASH_LAYERS, p.topk, p.window);
        let all = keys + c128 + chosen;
        text += &say::step_bytes {
            len: group(len as i64),
            all: mb(all),
            keys: mb(keys),
            share: format!("{:.0}%", 100.0 * keys / all),
            c128: mb(c128),
            chosen: mb(chosen),
        }
        .text(lang);
    }
    let header = [
        say::col_context.text(lang),
        say::col_full.text(lang),
        "C4 + top-k".to_owned(),
        say::col_scored.text(lang),
        "C128".to_owned(),
        say::col_window.text(lang),
    ];
    let cells = table
        .iter()
        .map(|r| {
            [r.len, r.full, r.c4, r.scored, r.c128, r.swa]
                .iter()
                .map(|v| group(*v as i64))
                .collect()
        })
        .collect();
    let xs: Vec<u64> = (7..=24).map(|e| 1u64 << e).collect();
    let c4 = if p.topk == 0 {
        say::c4_no_cap.text(lang)
    } else {
        format!("C4 + top-{}", p.topk)
    };
    let at = |ratio: u64, topk: u64| xs.iter().map(move |&l| attended(l - 1, ratio, topk, p.window));
    let plot = Plot::new(
        say::chart_title.text(lang),
        say::chart_x.text(lang),
        say::chart_y.text(lang),
    )
    .log_x()
    .log_y()
    .dashed(&header[1], &xs, &xs)
    .line(c4, &xs, at(4, p.topk))
    .line("C128", &xs, at(128, 0))
    .line(&header[5], &xs, at(1, 0));
    Ok(Output::new().text(text).table(header, cells).plot(plot))
}

/// Decimal megabytes with one decimal: `726.7 MB`.
pub fn mb(bytes: f64) -> String {
    let tenths = (bytes / 1e5).round() as i64;
    format!("{}.{} MB", group(tenths / 10), tenths % 10)
}

#[cfg(test)]
mod tests;
