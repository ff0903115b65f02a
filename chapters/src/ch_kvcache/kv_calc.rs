//! The KV-cache calculator: the chapter's four formulas (GQA / MHA / MQA, MLA,
//! hybrid, CSA + HCA) for models the reader lists, at context lengths the
//! reader picks, against one GPU's memory.

use crate::ch_kvcache::formulas::{
    H200_BYTES, Layout, Million, Model, Units, WINDOW, gqa_bytes, max_batch,
};
use crate::ch_newmodels::ledger;
use crate::demo::{
    AllOk,
    Block, Demo, Msg, Output, Param, ParamError, Plot, Raw, Series, fmt_value, group_digits,
    group_u64,
};
use crate::lang::Lang;
use crate::say::kv_calc as say;

// ANCHOR: demo
/// One line of the models box: a name, a layout and bytes per stored value.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// The line's number in the box (1-based).
    pub line: usize,
    /// The model's name, as typed.
    pub name: String,
    /// Its attention layout (the chapter's [`Layout`]).
    pub layout: Layout,
    /// Bytes per stored value: 2 for BF16, 1 for FP8.
    pub dtype_bytes: u64,
}

/// Where a row's bytes come from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// A line of the box, through the chapter's formulas.
    Line(Spec),
    /// ch_newmodels' ledger: FP8 V4 with these layer counts.
    Ledger {
        /// CSA (C4) layers.
        csa: u64,
        /// HCA (C128) layers.
        hca: u64,
        /// Layers with only the sliding window.
        window_only: u64,
    },
}

/// What the cell reports for one model.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Name.
    pub name: String,
    /// Bytes added per token of context.
    pub per_token: f64,
    /// Bytes every request holds whatever its length (V4's windows).
    pub fixed: u64,
    /// Where the numbers come from.
    pub source: Source,
}

impl Row {
    /// KV bytes of one request of `tokens` tokens.
    pub fn bytes(&self, tokens: u64) -> f64 {
        self.per_token * tokens as f64 + self.fixed as f64
    }

    /// Requests of `tokens` tokens that `gpu_bytes` could hold if it held
    /// nothing but KV (no weights): an upper bound.
    pub fn fit(&self, gpu_bytes: u64, tokens: u64) -> u64 {
        max_batch(self.per_token, self.fixed, 0, gpu_bytes, tokens)
    }
}

/// A line's row under this chapter's convention: the formulas of
/// `formulas.rs` (gqa_bytes, mla_bytes, hybrid_bytes, csa_hca_bytes).
pub fn row(spec: &Spec) -> Row {
    let m = Model {
        name: "",
        layout: spec.layout,
        dtype_bytes: spec.dtype_bytes,
    };
    Row {
        name: spec.name.clone(),
        per_token: m.per_token(),
        fixed: m.fixed(),
        source: Source::Line(spec.clone()),
    }
}

/// ch_newmodels' V4 rows: (name, CSA layers, HCA layers, window-only layers).
pub const LEDGER_V4: [(&str, u64, u64, u64); 2] = [
    ("DeepSeek-V4-Flash", 21, 20, 2),
    ("DeepSeek-V4-Pro", 30, 31, 0),
];
/// Bytes of the indexer key each CSA entry adds in ch_newmodels' ledger.
pub const INDEXER_KEY_BYTES: f64 = 132.0;

/// V4-Flash and V4-Pro as ch_newmodels' ledger counts them: FP8 entries of
/// 584 B plus indexer keys per token; windows plus the compressors' float32
/// state as the fixed part.
pub fn ledger_rows() -> Vec<Row> {
    LEDGER_V4
        .iter()
        .map(|&(name, csa, hca, window_only)| {
            let (c, h, w) = (csa as f64, hca as f64, window_only as f64);
            Row {
                name: name.to_owned(),
                per_token: ledger::v4_per_token(c, h, INDEXER_KEY_BYTES),
                fixed: ledger::v4_fixed(c, h, w) as u64,
                source: Source::Ledger {
                    csa,
                    hca,
                    window_only,
                },
            }
        })
        .collect()
}

/// Which bytes a V4 (`csa_hca`) line stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Convention {
    /// This chapter's: the line's own numbers (BF16 entries of `kv_dim`
    /// values by default), no indexer keys, the windows as the fixed part.
    Chapter,
    /// ch_newmodels': the `csa_hca` lines are replaced by [`ledger_rows`].
    Ledger,
}

/// The rows for the box's lines. Under [`Convention::Ledger`] the `csa_hca`
/// lines are replaced by [`ledger_rows`], once, where the first of them was;
/// also returns the numbers of the lines replaced.
pub fn rows(specs: &[Spec], conv: Convention) -> (Vec<Row>, Vec<usize>) {
    let mut out = Vec::new();
    let mut replaced = Vec::new();
    for s in specs {
        if conv == Convention::Ledger && matches!(s.layout, Layout::CsaHca { .. }) {
            if replaced.is_empty() {
                out.extend(ledger_rows());
            }
            replaced.push(s.line);
        } else {
            out.push(row(s));
        }
    }
    (out, replaced)
}
// ANCHOR_END: demo

/// Layers of a row that keep a cache: all of them, except a hybrid's linear
/// layers (V4's window-only layers keep a window).
pub fn cached_layers(r: &Row) -> u64 {
    match &r.source {
        Source::Line(s) => match s.layout {
            Layout::Gqa { layers, .. }
            | Layout::Mla { layers, .. }
            | Layout::CsaHca { layers, .. } => layers,
            Layout::Hybrid { full_layers, .. } => full_layers,
        },
        Source::Ledger {
            csa,
            hca,
            window_only,
        } => csa + hca + window_only,
    }
}

/// The architecture, for the table: "GQA, 8 KV heads × 128 dims".
pub fn arch(r: &Row, lang: Lang) -> String {
    let heads = |kv_heads: u64, head_dim: u64| {
        let kv = group_u64(kv_heads);
        if kv_heads == 1 {
            say::heads_one { kv_heads: kv, head_dim }.text(lang)
        } else {
            say::heads { kv_heads: kv, head_dim }.text(lang)
        }
    };
    match &r.source {
        Source::Line(s) => match s.layout {
            Layout::Gqa {
                kv_heads, head_dim, ..
            } => say::arch_gqa {
                kind: if kv_heads == 1 { "MQA" } else { "GQA" },
                heads: heads(kv_heads, head_dim),
            }
            .text(lang),
            Layout::Mla {
                kv_lora_rank,
                rope_dim,
                ..
            } => say::arch_mla {
                rank: kv_lora_rank,
                rope: rope_dim,
            }
            .text(lang),
            Layout::Hybrid {
                layers,
                full_layers,
                kv_heads,
                head_dim,
            } => say::arch_hybrid {
                full: full_layers,
                layers,
                heads: heads(kv_heads, head_dim),
            }
            .text(lang),
            Layout::CsaHca {
                n_csa,
                n_hca,
                layers,
                ..
            } => say::arch_csa_hca {
                csa: n_csa,
                hca: n_hca,
                window_only: window_only(layers - n_csa - n_hca, lang),
            }
            .text(lang),
        },
        Source::Ledger {
            csa,
            hca,
            window_only: w,
        } => say::arch_ledger {
            csa,
            hca,
            window_only: window_only(*w, lang),
        }
        .text(lang),
    }
}

/// ", 2 window-only" (nothing for 0).
fn window_only(n: u64, lang: Lang) -> String {
    if n == 0 {
        String::new()
    } else {
        say::window_only { n: group_u64(n) }.text(lang)
    }
}

/// Values stored per token in one layer with a cache, worked out: "2 × 8 ×
/// 128 = 2,048". A V4 layer's share is the entry's width over its ratio.
pub fn values(r: &Row, lang: Lang) -> String {
    match &r.source {
        Source::Line(s) => match s.layout {
            Layout::Gqa {
                kv_heads, head_dim, ..
            }
            | Layout::Hybrid {
                kv_heads, head_dim, ..
            } => format!(
                "2 × {kv_heads} × {head_dim} = {}",
                group_u64(2 * kv_heads * head_dim)
            ),
            Layout::Mla {
                kv_lora_rank: a,
                rope_dim: b,
                ..
            } => format!("{a} + {b} = {}", group_u64(a + b)),
            Layout::CsaHca { kv_dim, .. } => say::values_csa_hca {
                kv_dim,
                a: fmt_value(kv_dim as f64 / 4.0),
                b: fmt_value(kv_dim as f64 / 128.0),
            }
            .text(lang),
        },
        Source::Ledger { .. } => say::values_ledger {
            entry: ledger::V4_ENTRY,
            key: INDEXER_KEY_BYTES,
        }
        .text(lang),
    }
}

/// The default models box: the source's comparison table.
pub const MODELS: &str = "\
Qwen3-72B: gqa layers=80 kv_heads=8 head_dim=128 bytes=2
DeepSeek-V3: mla layers=61 rank=512 rope=64 bytes=2
Qwen3.5-397B: hybrid layers=60 full=15 kv_heads=2 head_dim=256 bytes=2
DeepSeek-V4: csa_hca csa=30 hca=31 layers=61 kv_dim=512 bytes=2";

/// Longest text the models box may hold, in characters.
pub const MAX_MODELS_CHARS: usize = 4_096;
/// Most models the box may list.
pub const MAX_MODELS: usize = 12;
/// Longest model name, in characters.
pub const MAX_NAME_CHARS: usize = 48;
/// Longest context length, in tokens (2^24): with the largest values a line
/// may give, bytes per token stay below 2^37 (GQA: 2 × 1,024 × 1,024 × 4,096 ×
/// 8), so a request's bytes stay below 2^61 in `u64`.
pub const MAX_CONTEXT: u64 = 1 << 24;

/// The kinds of line, the keys each takes, in order, and their ranges.
/// `bytes` may be left out (2, BF16).
const KINDS: [(&str, &[&str]); 4] = [
    ("gqa", &["layers", "kv_heads", "head_dim", "bytes"]),
    ("mla", &["layers", "rank", "rope", "bytes"]),
    (
        "hybrid",
        &["layers", "full", "kv_heads", "head_dim", "bytes"],
    ),
    ("csa_hca", &["csa", "hca", "layers", "kv_dim", "bytes"]),
];

/// Smallest and largest value of each key.
const RANGES: [(&str, u64, u64); 10] = [
    ("layers", 1, 1_024),
    ("kv_heads", 1, 1_024),
    ("head_dim", 1, 4_096),
    ("rank", 1, 65_536),
    ("rope", 0, 4_096),
    ("full", 1, 1_024),
    ("csa", 0, 1_024),
    ("hca", 0, 1_024),
    ("kv_dim", 1, 65_536),
    ("bytes", 1, 8),
];

/// Parses the models box: one model per line, `name: kind key=value …`
/// (`#` starts a comment line). Every bad line gets one message naming it.
/// Refuses more than [`MAX_MODELS_CHARS`] characters before parsing, and stops
/// at the model past [`MAX_MODELS`], so there are at most 13 messages.
pub fn parse_models(text: &str) -> Result<Vec<Spec>, Vec<Msg>> {
    let n = text.chars().count();
    if n > MAX_MODELS_CHARS {
        let (max, n) = (group_u64(MAX_MODELS_CHARS as u64), group_u64(n as u64));
        return Err(vec![Msg::in_all(|l| say::too_long { max: &max, n: &n }.text(l))]);
    }
    let mut specs = Vec::new();
    let mut errors = Vec::new();
    let mut seen = 0;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if seen == MAX_MODELS {
            errors.push(Msg::in_all(|l| {
                let msg = say::too_many { max: MAX_MODELS }.text(l);
                say::on_line { line: i + 1, msg }.text(l)
            }));
            break;
        }
        seen += 1;
        match parse_line(t, i + 1) {
            Ok(s) => specs.push(s),
            Err(e) => errors.push(Msg::in_all(|l| {
                let msg = e.text_in(l);
                say::on_line { line: i + 1, msg }.text(l)
            })),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if specs.is_empty() {
        return Err(vec![Msg::in_all(|l| say::no_model.text(l))]);
    }
    Ok(specs)
}

/// One line; the error does not name the line (the caller does).
fn parse_line(t: &str, line: usize) -> Result<Spec, Msg> {
    let example = || Msg::in_all(|l| say::expected.text(l));
    let list = |items: &[&str], l: Lang| items.join(&say::list_sep.text(l));
    let Some(colon) = t.rfind(':') else {
        return Err(example());
    };
    let name = t[..colon].trim();
    if name.is_empty() {
        return Err(Msg::in_all(|l| say::no_name.text(l)));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(Msg::in_all(|l| {
            say::name_too_long {
                max: MAX_NAME_CHARS,
            }
            .text(l)
        }));
    }
    let mut words = t[colon + 1..].split_whitespace();
    let Some(kind) = words.next() else {
        return Err(example());
    };
    let kinds: Vec<&str> = KINDS.iter().map(|k| k.0).collect();
    let Some(&(kind, keys)) = KINDS.iter().find(|k| k.0 == kind) else {
        return Err(Msg::in_all(|l| {
            say::unknown_kind {
                kind: short(kind),
                kinds: list(&kinds, l),
            }
            .text(l)
        }));
    };
    let mut vals: Vec<Option<u64>> = vec![None; keys.len()];
    for w in words {
        let Some((k, v)) = w.split_once('=') else {
            return Err(Msg::in_all(|l| say::not_key_value { word: short(w) }.text(l)));
        };
        let Some(at) = keys.iter().position(|key| *key == k) else {
            return Err(Msg::in_all(|l| {
                say::unknown_key {
                    kind,
                    keys: list(keys, l),
                    key: short(k),
                }
                .text(l)
            }));
        };
        if vals[at].is_some() {
            return Err(Msg::in_all(|l| say::twice { key: k }.text(l)));
        }
        let digits: String = v.chars().filter(|c| *c != '_' && *c != ',').collect();
        let x: u64 = digits.parse().map_err(|_| {
            Msg::in_all(|l| {
                say::not_whole {
                    key: k,
                    value: short(v),
                }
                .text(l)
            })
        })?;
        let (_, lo, hi) = RANGES
            .iter()
            .find(|r| r.0 == k)
            .copied()
            .unwrap_or(("", 0, 0));
        if x < lo || x > hi {
            let (lo, hi) = (group_u64(lo), group_u64(hi));
            return Err(Msg::in_all(|l| {
                say::out_of_range {
                    key: k,
                    lo: &lo,
                    hi: &hi,
                }
                .text(l)
            }));
        }
        vals[at] = Some(x);
    }
    let last = keys.len() - 1;
    vals[last] = vals[last].or(Some(2));
    if let Some(missing) = keys.iter().zip(&vals).find(|(_, v)| v.is_none()) {
        return Err(Msg::in_all(|l| {
            say::missing {
                kind,
                keys: list(keys, l),
                key: missing.0,
            }
            .text(l)
        }));
    }
    let g = |i: usize| vals[i].unwrap_or(0);
    let layout = match kind {
        "gqa" => Layout::Gqa {
            layers: g(0),
            kv_heads: g(1),
            head_dim: g(2),
        },
        "mla" => Layout::Mla {
            layers: g(0),
            kv_lora_rank: g(1),
            rope_dim: g(2),
        },
        "hybrid" => {
            if g(1) > g(0) {
                return Err(Msg::in_all(|l| {
                    say::full_too_big {
                        full: g(1),
                        layers: g(0),
                    }
                    .text(l)
                }));
            }
            Layout::Hybrid {
                layers: g(0),
                full_layers: g(1),
                kv_heads: g(2),
                head_dim: g(3),
            }
        }
        _ => {
            if g(0) + g(1) == 0 || g(0) + g(1) > g(2) {
                return Err(Msg::in_all(|l| {
                    say::csa_hca_range {
                        sum: g(0) + g(1),
                        layers: g(2),
                    }
                    .text(l)
                }));
            }
            Layout::CsaHca {
                n_csa: g(0),
                n_hca: g(1),
                layers: g(2),
                kv_dim: g(3),
            }
        }
    };
    Ok(Spec {
        line,
        name: name.to_owned(),
        layout,
        dtype_bytes: g(last),
    })
}

/// At most 24 characters of the reader's text, for a message.
fn short(s: &str) -> String {
    if s.chars().nth(24).is_some() {
        format!("{}…", s.chars().take(24).collect::<String>())
    } else {
        s.to_owned()
    }
}

/// The choices of `v4_convention`, in the order of [`Convention`].
pub const CONVENTIONS: &[&str] = &[
    "this chapter (BF16 512-dim entries, no indexer keys)",
    "ch_newmodels (FP8 584-B entries + indexer keys)",
];

/// The models box, one model per line, parsed by [`parse_models`].
const MODELS_BOX: Param = Param::lines("models", MODELS);
/// Which bytes a DeepSeek-V4 (`csa_hca`) line stands for.
const V4_CONVENTION: Param = Param::choice("v4_convention", CONVENTIONS);
/// What "1M tokens" means.
const MILLION: Param = Param::choice("million", &["10^6", "2^20"]);
/// Binary or decimal units.
const UNITS: Param = Param::choice("units", &["GiB", "GB"]);
/// The context lengths the text reports.
const CONTEXTS: Param =
    Param::ints("contexts", "4,096 131,072 1,000,000", 1, MAX_CONTEXT as i64, 8);
/// GPU memory, in decimal GB.
const GPU: Param = Param::float("gpu", "141", 1.0, 1e6);

/// The cell's parameters.
pub const PARAMS: &[Param] = &[MODELS_BOX, V4_CONVENTION, MILLION, UNITS, CONTEXTS, GPU];

/// The cell.
pub fn demo() -> Demo {
    Demo {
        id: "kv_calc",
        params: PARAMS,
        #[cfg(feature = "render")]
        source: crate::demo::anchored(include_str!("kv_calc.rs"), "demo"),
        #[cfg(feature = "run")]
        run,
    }
}

/// Checked parameters of the cell. The work is O(models × (contexts + chart
/// points)), at most 12 × (8 + 15) rows of arithmetic, so it needs no budget.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// The models box.
    pub specs: Vec<Spec>,
    /// How V4 lines are counted.
    pub convention: Convention,
    /// What 1M tokens means.
    pub million: Million,
    /// Units for printing.
    pub units: Units,
    /// Context lengths for the text.
    pub contexts: Vec<u64>,
    /// GPU memory in GB (10^9 bytes).
    pub gpu_gb: f64,
}

impl Params {
    /// Validates the reader's text; every bad field (and every bad line of the
    /// models box) gets its own message.
    pub fn parse(raw: &Raw) -> Result<Params, Vec<ParamError>> {
        let specs = parse_models(raw.get(MODELS_BOX.name).map(String::as_str).unwrap_or(""));
        let conv = V4_CONVENTION.read_choice(raw);
        let million = MILLION.read_choice(raw);
        let units = UNITS.read_choice(raw);
        let contexts = CONTEXTS.read_ints(raw);
        let gpu = GPU.read_float(raw);
        // The model lines have an error each; the other fields one at most.
        match (specs, (conv, million, units, contexts, gpu).all_ok()) {
            (Ok(specs), Ok((c, m, u, l, g))) => Ok(Params {
                specs,
                convention: if c == CONVENTIONS[0] {
                    Convention::Chapter
                } else {
                    Convention::Ledger
                },
                million: if m == "10^6" {
                    Million::Decimal
                } else {
                    Million::Binary
                },
                units: if u == "GiB" {
                    Units::Binary
                } else {
                    Units::Decimal
                },
                contexts: l.into_iter().map(|x| x as u64).collect(),
                gpu_gb: g,
            }),
            (specs, rest) => Err(specs
                .err()
                .unwrap_or_default()
                .into_iter()
                .map(|m| ParamError::from_msg(MODELS_BOX.name, m))
                .chain(rest.err().unwrap_or_default())
                .collect()),
        }
    }
}

/// `v` with `digits` decimals and its whole part grouped: `2,441.4`.
pub fn grouped(v: f64, digits: usize) -> String {
    let s = format!("{:.digits$}", v.abs());
    let (whole, frac) = s.split_once('.').unwrap_or((&s, ""));
    let sign = if v < 0.0 && s.chars().any(|c| c.is_ascii_digit() && c != '0') {
        "-"
    } else {
        ""
    };
    if frac.is_empty() {
        format!("{sign}{}", group_digits(whole))
    } else {
        format!("{sign}{}.{frac}", group_digits(whole))
    }
}

/// `bytes` in units of base^`power` (1: KiB / KB, 2: MiB / MB, 3: GiB / GB),
/// one decimal, unit named: `320.0 KiB`.
pub fn size(units: Units, bytes: f64, power: i32) -> String {
    let names = match units {
        Units::Binary => ["B", "KiB", "MiB", "GiB"],
        Units::Decimal => ["B", "KB", "MB", "GB"],
    };
    format!(
        "{} {}",
        grouped(bytes / units.base().powi(power), 1),
        names[power.clamp(0, 3) as usize]
    )
}

/// `bytes` in the largest unit that keeps the number at least 1 (up to GiB /
/// GB), one decimal; plain bytes below one KiB / KB.
pub fn size_auto(units: Units, bytes: f64) -> String {
    let power = (1..=3)
        .rev()
        .find(|&p| bytes >= units.base().powi(p))
        .unwrap_or(0);
    if power == 0 {
        format!("{} B", ledger::fmt_exact(bytes))
    } else {
        size(units, bytes, power)
    }
}

/// "1M = 10^6 = 1,000,000 tokens" or "1M = 2^20 = 1,048,576 tokens".
pub fn million_label(m: Million, lang: Lang) -> String {
    let name = match m {
        Million::Decimal => "10^6",
        Million::Binary => "2^20",
    };
    say::million {
        name,
        n: group_u64(m.tokens()),
    }
    .text(lang)
}

/// A list in prose: "a", "a and b", "a, b and c".
fn and_list(items: &[String], lang: Lang) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => say::and_list {
            rest: rest.join(&say::list_sep.text(lang)),
            last,
        }
        .text(lang),
    }
}

/// "2 B per value (BF16)".
fn dtype_name(b: u64, lang: Lang) -> String {
    match b {
        1 => say::per_value { b, dtype: "FP8" }.text(lang),
        2 => say::per_value { b, dtype: "BF16" }.text(lang),
        4 => say::per_value { b, dtype: "FP32" }.text(lang),
        _ => say::per_value_plain { b }.text(lang),
    }
}

/// What the layers with a cache store per token, in words.
fn layers_sentence(r: &Row, lang: Lang) -> String {
    let n = |x: u64| group_u64(x);
    let values = values(r, lang);
    match &r.source {
        Source::Line(s) => match s.layout {
            Layout::Gqa { layers, .. } => say::layers_gqa {
                layers: n(layers),
                values,
            }
            .text(lang),
            Layout::Mla { layers, .. } => say::layers_mla {
                layers: n(layers),
                values,
            }
            .text(lang),
            Layout::Hybrid {
                layers,
                full_layers,
                ..
            } => say::layers_hybrid {
                full: n(full_layers),
                values,
                linear: n(layers - full_layers),
            }
            .text(lang),
            Layout::CsaHca {
                n_csa,
                n_hca,
                kv_dim,
                ..
            } => say::layers_csa_hca {
                kv_dim: n(kv_dim),
                csa: n(n_csa),
                hca: n(n_hca),
                a: fmt_value(kv_dim as f64 / 4.0),
                b: fmt_value(kv_dim as f64 / 128.0),
            }
            .text(lang),
        },
        Source::Ledger { csa, hca, .. } => say::layers_ledger {
            entry: ledger::V4_ENTRY,
            key: INDEXER_KEY_BYTES,
            csa: n(*csa),
            hca: n(*hca),
        }
        .text(lang),
    }
}

/// The first lines of the text: what 1M means, the units, the GPU, and the
/// V4 convention in force.
fn preamble(p: &Params, replaced: &[usize], gpu_bytes: u64, lang: Lang) -> String {
    let units = match p.units {
        Units::Binary => say::units_binary.text(lang),
        Units::Decimal => say::units_decimal.text(lang),
    };
    let h200 = if gpu_bytes == H200_BYTES {
        say::h200.text(lang)
    } else {
        String::new()
    };
    let mut text = say::preamble {
        million: million_label(p.million, lang),
        units,
        gpu: fmt_value(p.gpu_gb),
        gpu_size: size(Units::Binary, gpu_bytes as f64, 3),
        h200,
    }
    .text(lang);
    let has_v4 = p
        .specs
        .iter()
        .any(|s| matches!(s.layout, Layout::CsaHca { .. }));
    let lines: Vec<String> = replaced
        .iter()
        .map(|&line| say::line { line }.text(lang))
        .collect();
    let (entry, key) = (ledger::V4_ENTRY, INDEXER_KEY_BYTES);
    text += &match (p.convention, has_v4) {
        (_, false) => say::no_v4.text(lang),
        (Convention::Chapter, true) => say::v4_chapter {
            window: WINDOW,
            entry,
        }
        .text(lang),
        (Convention::Ledger, true) if lines.len() == 1 => say::v4_ledger_one {
            lines: &lines[0],
            entry,
            key,
        }
        .text(lang),
        (Convention::Ledger, true) => say::v4_ledger {
            lines: and_list(&lines, lang),
            entry,
            key,
        }
        .text(lang),
    };
    text
}

/// One model's paragraph of the text.
fn paragraph(p: &Params, r: &Row, gpu_bytes: u64, lang: Lang) -> String {
    let u = p.units;
    let dtype = match &r.source {
        Source::Line(s) => say::with_dtype {
            per_value: dtype_name(s.dtype_bytes, lang),
        }
        .text(lang),
        Source::Ledger { .. } => String::new(),
    };
    let fixed = if r.fixed == 0 {
        "0 B".to_owned()
    } else {
        let what = match &r.source {
            Source::Line(_) => say::fixed_window {
                window: WINDOW,
                layers: group_u64(cached_layers(r)),
            }
            .text(lang),
            Source::Ledger { .. } => say::fixed_ledger.text(lang),
        };
        say::fixed {
            bytes: group_u64(r.fixed),
            size: size(u, r.fixed as f64, 2),
            what,
        }
        .text(lang)
    };
    let at: Vec<String> = p
        .contexts
        .iter()
        .map(|&l| {
            let (tokens, size) = (group_u64(l), size_auto(u, r.bytes(l)));
            if l == 1 {
                say::at_one { tokens, size }.text(lang)
            } else {
                say::at { tokens, size }.text(lang)
            }
        })
        .collect();
    say::paragraph {
        name: &r.name,
        arch: arch(r, lang),
        dtype,
        layers: layers_sentence(r, lang),
        bytes: ledger::fmt_exact(r.per_token),
        per: size(u, r.per_token, 1),
        fixed,
        at: at.join(" · "),
        gpu: fmt_value(p.gpu_gb),
        fit: group_u64(r.fit(gpu_bytes, p.million.tokens())),
    }
    .text(lang)
}

/// Context lengths of the chart: 2^10 to 2^24 tokens.
pub fn chart_lengths() -> Vec<u64> {
    (10..=24).map(|e| 1u64 << e).collect()
}

/// Runs the demo: text per model, the source's comparison table, and a
/// log-log chart of bytes against context length with the GPU's memory.
pub fn run(raw: &Raw, lang: Lang) -> Result<Output, Vec<ParamError>> {
    let p = Params::parse(raw)?;
    let u = p.units;
    let (rows, replaced) = rows(&p.specs, p.convention);
    let mt = p.million.tokens();
    let gpu_bytes = (p.gpu_gb * 1e9).round() as u64;
    let mut text = preamble(&p, &replaced, gpu_bytes, lang);
    for r in &rows {
        text += &paragraph(&p, r, gpu_bytes, lang);
    }
    let by = |a: &&Row, b: &&Row| a.bytes(mt).total_cmp(&b.bytes(mt));
    if let (Some(big), Some(small)) = (rows.iter().max_by(by), rows.iter().min_by(by))
        && rows.len() > 1
    {
        text += &say::ratio {
            big: &big.name,
            big_size: size(u, big.bytes(mt), 3),
            x: grouped(big.bytes(mt) / small.bytes(mt), 1),
            small: &small.name,
            small_size: size(u, small.bytes(mt), 3),
        }
        .text(lang);
    }
    let gpu = fmt_value(p.gpu_gb);
    text += &say::upper_bounds { gpu: &gpu }.text(lang);
    let header = vec![
        say::col_model.text(lang),
        say::col_arch.text(lang),
        say::col_layers.text(lang),
        say::col_values.text(lang),
        say::col_per_token.text(lang),
        say::col_at {
            million: million_label(p.million, lang),
        }
        .text(lang),
    ];
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.name.clone(),
                arch(r, lang),
                group_u64(cached_layers(r)),
                values(r, lang),
                size(u, r.per_token, 1),
                size(u, r.bytes(mt), 3),
            ]
        })
        .collect();
    let xs = chart_lengths();
    let giga = u.base().powi(3);
    let unit = match u {
        Units::Binary => "GiB",
        Units::Decimal => "GB",
    };
    let line = |name: String, y: &dyn Fn(u64) -> f64, dashed: bool| Series {
        name,
        x: xs.iter().map(|&x| x as f64).collect(),
        y: xs.iter().map(|&x| y(x)).collect(),
        bars: false,
        dashed,
    };
    let mut series: Vec<Series> = rows
        .iter()
        .map(|r| line(r.name.clone(), &|x| r.bytes(x) / giga, false))
        .collect();
    let gpu_name = if gpu_bytes == H200_BYTES {
        say::gpu_h200.text(lang)
    } else {
        say::gpu { gpu: &gpu }.text(lang)
    };
    series.push(line(gpu_name, &|_| gpu_bytes as f64 / giga, true));
    let plot = Plot {
        title: say::chart_title { unit }.text(lang),
        x_label: say::chart_x.text(lang),
        y_label: say::chart_y { unit }.text(lang),
        log_x: true,
        log_y: true,
        series,
        heatmap: None,
    };
    Ok(Output {
        blocks: vec![
            Block::Text(text),
            Block::Table {
                header,
                rows: table,
            },
            Block::Plot(plot),
        ],
    })
}

/// DeepSeek-V3's hidden size: MHA by the source's count would store K and V
/// of this width per token and layer.
pub const V3_HIDDEN: u64 = 7_168;
/// Query heads of the source's Qwen3-72B (its 8 KV heads serve 8 each).
pub const QWEN_Q_HEADS: u64 = 64;
/// Weights assumed on one H200 for the "requests that fit" figures: 41 GB,
/// leaving 100 GB for KV.
pub const FIT_WEIGHTS: u64 = 41_000_000_000;

/// The default models' rows under a convention.
pub fn default_rows(conv: Convention) -> Vec<Row> {
    rows(&parse_models(MODELS).unwrap_or_default(), conv).0
}

/// The figures the chapter's text quotes from this cell: (name, value).
pub fn figures() -> Vec<(&'static str, String)> {
    let rows = default_rows(Convention::Chapter);
    let find = |name: &str| rows.iter().find(|r| r.name == name);
    let (Some(qwen), Some(v3), Some(q35), Some(v4)) = (
        find("Qwen3-72B"),
        find("DeepSeek-V3"),
        find("Qwen3.5-397B"),
        find("DeepSeek-V4"),
    ) else {
        return Vec::new();
    };
    let (b, d) = (Units::Binary, Units::Decimal);
    let (m, mi) = (Million::Decimal.tokens(), Million::Binary.tokens());
    let per_token = |r: &Row| format!("{} B", ledger::fmt_exact(r.per_token));
    let nm = ledger_rows();
    let mha_values = 2 * V3_HIDDEN;
    let mla_values = 512 + 64;
    let mha_qwen = gqa_bytes(80, QWEN_Q_HEADS, 128, m, 1, 2) as f64;
    let fit = |r: &Row| group_u64(max_batch(r.per_token, r.fixed, FIT_WEIGHTS, H200_BYTES, m));
    vec![
        ("kv_calc.qwen_per_token_kib", size(b, qwen.per_token, 1)),
        ("kv_calc.v3_per_token_kib", size(b, v3.per_token, 1)),
        ("kv_calc.qwen35_per_token_kib", size(b, q35.per_token, 1)),
        ("kv_calc.v4_per_token_kib", size(b, v4.per_token, 1)),
        ("kv_calc.qwen_per_token_bytes", per_token(qwen)),
        ("kv_calc.v3_per_token_bytes", per_token(v3)),
        ("kv_calc.qwen35_per_token_bytes", per_token(q35)),
        ("kv_calc.v4_per_token_bytes", per_token(v4)),
        ("kv_calc.qwen_1m_gib", size(b, qwen.bytes(m), 3)),
        ("kv_calc.v3_1m_gib", size(b, v3.bytes(m), 3)),
        ("kv_calc.qwen35_1m_gib", size(b, q35.bytes(m), 3)),
        ("kv_calc.v4_1m_gib", size(b, v4.bytes(m), 3)),
        ("kv_calc.qwen_1mi_gib", size(b, qwen.bytes(mi), 3)),
        ("kv_calc.v3_1mi_gib", size(b, v3.bytes(mi), 3)),
        ("kv_calc.qwen35_1mi_gib", size(b, q35.bytes(mi), 3)),
        ("kv_calc.v4_1mi_gib", size(b, v4.bytes(mi), 3)),
        ("kv_calc.qwen_1m_gb", size(d, qwen.bytes(m), 3)),
        ("kv_calc.v4_1m_gb", size(d, v4.bytes(m), 3)),
        (
            "kv_calc.gap",
            format!("{}×", grouped(qwen.bytes(m) / v4.bytes(m), 1)),
        ),
        ("kv_calc.v4_window_mib", size(b, v4.fixed as f64, 2)),
        ("kv_calc.mha_values_v3", group_u64(mha_values)),
        ("kv_calc.mla_values", group_u64(mla_values)),
        (
            "kv_calc.mla_saving",
            format!(
                "{}%",
                grouped(100.0 * (1.0 - mla_values as f64 / mha_values as f64), 1)
            ),
        ),
        ("kv_calc.gqa_group", group_u64(QWEN_Q_HEADS / 8)),
        ("kv_calc.mha_qwen_1m_gib", size(b, mha_qwen, 3)),
        (
            "kv_calc.nm_flash_per_token_kib",
            size(b, nm[0].per_token, 1),
        ),
        ("kv_calc.nm_pro_per_token_kib", size(b, nm[1].per_token, 1)),
        ("kv_calc.nm_flash_fixed_mib", size(b, nm[0].fixed as f64, 2)),
        ("kv_calc.nm_pro_fixed_mib", size(b, nm[1].fixed as f64, 2)),
        ("kv_calc.h200_gib", size(b, H200_BYTES as f64, 3)),
        ("kv_calc.fit_qwen", fit(qwen)),
        ("kv_calc.fit_v3", fit(v3)),
        ("kv_calc.fit_qwen35", fit(q35)),
        ("kv_calc.fit_v4", fit(v4)),
        (
            "kv_calc.free_gb",
            format!("{} GB", grouped((H200_BYTES - FIT_WEIGHTS) as f64 / 1e9, 0)),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ch_kvcache::formulas::table_models;
    use crate::demo::{checked_product, defaults};

    crate::demo::test_helpers!();

    fn text(o: &Output) -> &str {
        o.text_at(0)
    }

    fn table(o: &Output) -> (&Vec<String>, &Vec<Vec<String>>) {
        o.table_at(1)
    }

    fn plot(o: &Output) -> &Plot {
        o.plot_at(2)
    }

    #[test]
    fn the_figures() {
        let expected = [
            ("kv_calc.qwen_per_token_kib", "320.0 KiB"),
            ("kv_calc.v3_per_token_kib", "68.6 KiB"),
            ("kv_calc.qwen35_per_token_kib", "30.0 KiB"),
            ("kv_calc.v4_per_token_kib", "7.7 KiB"),
            ("kv_calc.qwen_per_token_bytes", "327,680 B"),
            ("kv_calc.v3_per_token_bytes", "70,272 B"),
            ("kv_calc.qwen35_per_token_bytes", "30,720 B"),
            ("kv_calc.v4_per_token_bytes", "7,928 B"),
            ("kv_calc.qwen_1m_gib", "305.2 GiB"),
            ("kv_calc.v3_1m_gib", "65.4 GiB"),
            ("kv_calc.qwen35_1m_gib", "28.6 GiB"),
            ("kv_calc.v4_1m_gib", "7.4 GiB"),
            ("kv_calc.qwen_1mi_gib", "320.0 GiB"),
            ("kv_calc.v3_1mi_gib", "68.6 GiB"),
            ("kv_calc.qwen35_1mi_gib", "30.0 GiB"),
            ("kv_calc.v4_1mi_gib", "7.7 GiB"),
            ("kv_calc.qwen_1m_gb", "327.7 GB"),
            ("kv_calc.v4_1m_gb", "7.9 GB"),
            ("kv_calc.gap", "41.3×"),
            ("kv_calc.v4_window_mib", "7.6 MiB"),
            ("kv_calc.mha_values_v3", "14,336"),
            ("kv_calc.mla_values", "576"),
            ("kv_calc.mla_saving", "96.0%"),
            ("kv_calc.gqa_group", "8"),
            ("kv_calc.mha_qwen_1m_gib", "2,441.4 GiB"),
            ("kv_calc.nm_flash_per_token_kib", "3.8 KiB"),
            ("kv_calc.nm_pro_per_token_kib", "5.4 KiB"),
            // 15,420,416 B and 23,270,400 B (windows plus compressor state).
            ("kv_calc.nm_flash_fixed_mib", "14.7 MiB"),
            ("kv_calc.nm_pro_fixed_mib", "22.2 MiB"),
            ("kv_calc.h200_gib", "131.3 GiB"),
            ("kv_calc.fit_qwen", "0"),
            ("kv_calc.fit_v3", "1"),
            ("kv_calc.fit_qwen35", "3"),
            ("kv_calc.fit_v4", "12"),
            ("kv_calc.free_gb", "100 GB"),
        ];
        let got = figures();
        let got: Vec<(&str, &str)> = got.iter().map(|(n, v)| (*n, v.as_str())).collect();
        assert_eq!(got, expected);
        // 2 × 80 layers × 64 heads × 128 dims × 2 B × 10^6 tokens.
        assert_eq!(gqa_bytes(80, 64, 128, 1_000_000, 1, 2), 2_621_440_000_000);
    }

    #[test]
    fn the_box_parses_to_the_chapters_table_models() {
        let specs = parse_models(MODELS).unwrap();
        let models = table_models();
        assert_eq!(specs.len(), models.len());
        for (s, m) in specs.iter().zip(&models) {
            assert_eq!(
                (s.name.as_str(), s.layout, s.dtype_bytes),
                (m.name, m.layout, m.dtype_bytes)
            );
        }
        assert_eq!(
            specs.iter().map(|s| s.line).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
    }

    #[test]
    fn the_ledger_rows_are_ch_newmodels_rows() {
        for r in ledger_rows() {
            let m = ledger::model(&r.name).unwrap();
            assert_eq!(r.per_token, m.per_token, "{}", r.name);
            assert_eq!(r.fixed as f64, m.fixed, "{}", r.name);
        }
    }

    #[test]
    fn the_default_table_reproduces_the_source() {
        let o = out(&[]);
        let (header, rows) = table(&o);
        assert_eq!(
            header,
            &[
                "model",
                "architecture",
                "layers with a cache",
                "values per token per layer",
                "per token",
                "at 1M = 10^6 = 1,000,000 tokens"
            ]
        );
        let expected = [
            [
                "Qwen3-72B",
                "GQA, 8 KV heads × 128 dims",
                "80",
                "2 × 8 × 128 = 2,048",
                "320.0 KiB",
                "305.2 GiB",
            ],
            [
                "DeepSeek-V3",
                "MLA, latent 512 + RoPE key 64",
                "61",
                "512 + 64 = 576",
                "68.6 KiB",
                "65.4 GiB",
            ],
            [
                "Qwen3.5-397B",
                "hybrid: GQA in 15 of 60 layers, 2 KV heads × 256 dims",
                "15",
                "2 × 2 × 256 = 1,024",
                "30.0 KiB",
                "28.6 GiB",
            ],
            [
                "DeepSeek-V4",
                "CSA + HCA: 30 CSA (4:1), 31 HCA (128:1)",
                "61",
                "512 ÷ 4 = 128 (CSA), 512 ÷ 128 = 4 (HCA)",
                "7.7 KiB",
                "7.4 GiB",
            ],
        ];
        assert_eq!(rows, &expected.map(|r| r.map(String::from).to_vec()));
    }

    #[test]
    fn the_default_text() {
        let o = out(&[]);
        let t = text(&o);
        for want in [
            "1M = 10^6 = 1,000,000 tokens · sizes in KiB, MiB, GiB (powers of 1,024) · GPU: 141 GB = 131.3 GiB, one H200\n",
            "csa_hca lines follow this chapter's convention",
            "\nQwen3-72B — GQA, 8 KV heads × 128 dims, 2 B per value (BF16)\n  stores K and V in each of 80 layers: 2 × 8 × 128 = 2,048 values per token per layer\n  per token: 327,680 B = 320.0 KiB; fixed per request: 0 B\n  one request of 4,096 tokens: 1.2 GiB · 131,072 tokens: 40.0 GiB · 1,000,000 tokens: 305.2 GiB\n  requests of 1M tokens that 141 GB could hold, KV only: 0\n",
            "fixed per request: 7,995,392 B = 7.6 MiB (a 128-token window in each of 61 layers)",
            "DeepSeek-V4's 7.4 GiB",
            "At 1M tokens the largest cache, Qwen3-72B's 305.2 GiB, is 41.3× the smallest, DeepSeek-V4's 7.4 GiB.",
            "KV only: 17\n",
            "upper bounds",
        ] {
            assert!(t.contains(want), "missing {want:?} in\n{t}");
        }
    }

    #[test]
    fn million_switches_the_last_column_and_the_ratio() {
        let o = out(&[("million", "2^20")]);
        let (header, rows) = table(&o);
        assert_eq!(header[5], "at 1M = 2^20 = 1,048,576 tokens");
        let last: Vec<&str> = rows.iter().map(|r| r[5].as_str()).collect();
        assert_eq!(last, ["320.0 GiB", "68.6 GiB", "30.0 GiB", "7.7 GiB"]);
        assert!(text(&o).starts_with("1M = 2^20 = 1,048,576 tokens"));
        // The listed context lengths do not change.
        assert!(text(&o).contains("1,000,000 tokens: 305.2 GiB"));
    }

    #[test]
    fn units_switch_to_decimal() {
        let o = out(&[("units", "GB")]);
        let (_, rows) = table(&o);
        assert_eq!(rows[0][4..], ["327.7 KB", "327.7 GB"]);
        assert_eq!(rows[3][4..], ["7.9 KB", "7.9 GB"]);
        let t = text(&o);
        assert!(t.contains("7,995,392 B = 8.0 MB"), "{t}");
        assert!(t.contains("sizes in KB, MB, GB"));
        let p = plot(&o);
        assert_eq!(p.y_label, "KV cache (GB)");
        assert_eq!(p.series.last().unwrap().y[0], 141.0);
    }

    #[test]
    fn the_ch_newmodels_convention_shows_flash_and_pro() {
        let o = out(&[("v4_convention", CONVENTIONS[1])]);
        let (_, rows) = table(&o);
        let names: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
        assert_eq!(
            names,
            [
                "Qwen3-72B",
                "DeepSeek-V3",
                "Qwen3.5-397B",
                "DeepSeek-V4-Flash",
                "DeepSeek-V4-Pro"
            ]
        );
        assert_eq!(rows[3][2], "43");
        assert_eq!(rows[3][4], "3.8 KiB");
        assert_eq!(rows[4][4], "5.4 KiB");
        let t = text(&o);
        assert!(
            t.contains("line 4 is replaced by that chapter's ledger rows"),
            "{t}"
        );
        assert!(
            t.contains("15,420,416 B = 14.7 MiB (windows plus the compressors' state)"),
            "{t}"
        );
        assert_eq!(plot(&o).series.len(), 6);
        // Without a csa_hca line the switch says it does nothing.
        let first_two: String = MODELS.lines().take(2).collect::<Vec<_>>().join("\n");
        let o = out(&[("v4_convention", CONVENTIONS[1]), ("models", &first_two)]);
        assert!(text(&o).contains("No csa_hca line, so v4_convention changes nothing."));
        // Two csa_hca lines: both named, the ledger rows once.
        let two = format!(
            "{MODELS}\n# a comment\nV4 FP8: csa_hca csa=30 hca=31 layers=61 kv_dim=512 bytes=1"
        );
        let o = out(&[("v4_convention", CONVENTIONS[1]), ("models", &two)]);
        assert_eq!(table(&o).1.len(), 5);
        assert!(
            text(&o).contains("line 4 and line 6 are replaced"),
            "{}",
            text(&o)
        );
    }

    #[test]
    fn fp8_halves_the_bytes() {
        let o = out(&[(
            "models",
            "A: gqa layers=80 kv_heads=8 head_dim=128 bytes=1\nB: gqa layers=80 kv_heads=8 head_dim=128",
        )]);
        let (_, rows) = table(&o);
        assert_eq!(rows[0][4], "160.0 KiB");
        assert_eq!(rows[1][4], "320.0 KiB", "bytes defaults to 2");
        assert!(text(&o).contains("1 B per value (FP8)"));
        let o = out(&[("models", "M: gqa layers=2 kv_heads=1 head_dim=64")]);
        assert_eq!(table(&o).1[0][1], "MQA, 1 KV head × 64 dims");
        assert!(!text(&o).contains("largest cache"), "one model, no ratio");
    }

    #[test]
    fn the_chart_has_one_series_per_model_and_the_gpu() {
        let o = out(&[]);
        let p = plot(&o);
        assert!(p.log_x && p.log_y);
        let names: Vec<&str> = p.series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Qwen3-72B",
                "DeepSeek-V3",
                "Qwen3.5-397B",
                "DeepSeek-V4",
                "one H200, 141 GB"
            ]
        );
        let gpu = p.series.last().unwrap();
        assert!(gpu.dashed && p.series[..4].iter().all(|s| !s.dashed));
        assert_eq!(gpu.x.first(), Some(&1024.0));
        assert_eq!(gpu.x.last(), Some(&16_777_216.0));
        assert!(gpu.y.iter().all(|&y| y == 141e9 / 1073741824.0));
        assert_eq!(p.series[0].y[0], 1024.0 * 327_680.0 / 1073741824.0);
        let o = out(&[("gpu", "80")]);
        assert_eq!(plot(&o).series[4].name, "GPU memory, 80 GB");
        assert!(text(&o).contains("GPU: 80 GB = 74.5 GiB\n"));
    }

    #[test]
    fn bad_lines_are_named() {
        let bad = "\
Qwen3-72B: gqa layers=80 kv_heads=8 head_dim=128 bytes=2
no colon here
X: attn layers=3
Y: mla layers=61 rank=512
Z: gqa layers=80 kv_heads=8 head_dim=128 rank=3
W: gqa layers=0 kv_heads=8 head_dim=128
V: hybrid layers=10 full=11 kv_heads=2 head_dim=256
U: csa_hca csa=30 hca=32 layers=61 kv_dim=512
T: gqa layers=8x kv_heads=8 head_dim=128
: gqa layers=8 kv_heads=8 head_dim=128
S: gqa layers=8 layers=9 kv_heads=8 head_dim=128
R: gqa layers
Q: csa_hca csa=0 hca=0 layers=61 kv_dim=512";
        let e = errors(&[("models", bad)]);
        let msgs: Vec<&str> = e.iter().map(|e| e.message.as_str()).collect();
        assert!(e.iter().all(|e| e.param == "models"));
        assert_eq!(
            msgs,
            [
                "line 2: expected `name: kind key=value …`, e.g. `Qwen3-72B: gqa layers=80 kv_heads=8 head_dim=128 bytes=2`",
                "line 3: unknown kind `attn` (use gqa, mla, hybrid, csa_hca)",
                "line 4: mla needs layers, rank, rope, bytes: `rope` is missing",
                "line 5: gqa takes layers, kv_heads, head_dim, bytes; `rank` is not one of them",
                "line 6: layers must be between 1 and 1,024",
                "line 7: full = 11 is more than layers = 10",
                "line 8: csa + hca = 62 must be between 1 and layers = 61",
                "line 9: layers: `8x` is not a whole number",
                "line 10: the model needs a name before `:`",
                "line 11: `layers` is given twice",
                "line 12: `layers` is not key=value",
                "line 13: at most 12 models",
            ]
        );
        let e = errors(&[("models", "Q: csa_hca csa=0 hca=0 layers=61 kv_dim=512")]);
        assert_eq!(
            e[0].message,
            "line 1: csa + hca = 0 must be between 1 and layers = 61"
        );
        let e = errors(&[("models", "# only a comment\n\n")]);
        assert_eq!(e[0].message, "enter at least one model");
        let long = format!("{}: gqa layers=1 kv_heads=1 head_dim=1", "n".repeat(49));
        assert_eq!(
            errors(&[("models", &long)])[0].message,
            "line 1: a name has at most 48 characters"
        );
        // A colon in the name is fine: the last one ends it.
        let o = out(&[("models", "Llama: 3: gqa layers=1 kv_heads=1 head_dim=1")]);
        assert_eq!(table(&o).1[0][0], "Llama: 3");
    }

    #[test]
    fn over_limit_inputs_are_refused() {
        let e = errors(&[("models", &"x".repeat(5_000))]);
        assert_eq!(
            e[0].message,
            "at most 4,096 characters (this text has 5,000)"
        );
        let thirteen: String = (1..=13)
            .map(|i| format!("M{i}: gqa layers=1 kv_heads=1 head_dim=1\n"))
            .collect();
        assert_eq!(
            errors(&[("models", &thirteen)])[0].message,
            "line 13: at most 12 models"
        );
        assert!(parse_models(&thirteen[..thirteen.rfind("M13").unwrap()]).is_ok());
        for (k, v, msg) in [
            ("contexts", "16,777,217", "must be between 1 and 16,777,216"),
            ("contexts", "1 2 3 4 5 6 7 8 9", "at most 8 values"),
            ("gpu", "0.5", "must be between 1 and 1000000"),
            ("million", "10^9", "choose one of: 10^6, 2^20"),
            ("units", "TiB", "choose one of: GiB, GB"),
        ] {
            let e = errors(&[(k, v)]);
            assert_eq!((e[0].param.as_str(), e[0].message.as_str()), (k, msg));
        }
        // Every bad field at once, each named.
        let e = errors(&[("models", "x"), ("units", "x"), ("gpu", "x")]);
        let names: Vec<&str> = e.iter().map(|e| e.param.as_str()).collect();
        assert_eq!(names, ["models", "units", "gpu"]);
        let help = demo().help_in(MODELS_BOX.name, Lang::En);
        assert!(help.contains("12 models") && help.contains("4,096 characters"));
        assert!(MODELS.chars().count() <= MAX_MODELS_CHARS);
    }

    #[test]
    fn the_largest_values_cannot_overflow() {
        let max = |k: &str| RANGES.iter().find(|r| r.0 == k).unwrap().2;
        // GQA is the largest per token: 2 × layers × heads × dim × bytes.
        let gqa = [
            2,
            max("layers"),
            max("kv_heads"),
            max("head_dim"),
            max("bytes"),
        ];
        let per = checked_product(&gqa).unwrap();
        assert!(checked_product(&[per, MAX_CONTEXT]).is_some());
        let mla = (max("rank") + max("rope")) * max("layers") * max("bytes");
        assert!(mla < per);
        let window = checked_product(&[max("layers"), WINDOW, max("kv_dim"), max("bytes")]);
        assert!(window.unwrap() < 1 << 40);
        let line = format!(
            "Big: gqa layers={} kv_heads={} head_dim={} bytes={}",
            max("layers"),
            max("kv_heads"),
            max("head_dim"),
            max("bytes")
        );
        let spec = &parse_models(&line).unwrap()[0];
        let Layout::Gqa {
            layers,
            kv_heads,
            head_dim,
        } = spec.layout
        else {
            panic!()
        };
        assert_eq!(
            gqa_bytes(layers, kv_heads, head_dim, MAX_CONTEXT, 1, spec.dtype_bytes),
            per * MAX_CONTEXT
        );
        let o = out(&[
            ("models", &line),
            ("contexts", "16,777,216"),
            ("gpu", "1000000"),
        ]);
        assert!(plot(&o).series[0].y.iter().all(|y| y.is_finite()));
        let csa = "V: csa_hca csa=1024 hca=0 layers=1024 kv_dim=65536 bytes=8";
        assert!(
            out(&[("models", csa), ("contexts", "16,777,216")])
                .blocks
                .len()
                == 3
        );
    }

    #[test]
    fn formatting_helpers() {
        assert_eq!(grouped(2_441.406_25, 1), "2,441.4");
        assert_eq!(grouped(100.0, 0), "100");
        assert_eq!(grouped(-0.01, 1), "0.0");
        assert_eq!(size_auto(Units::Binary, 500.0), "500 B");
        assert_eq!(size_auto(Units::Binary, 40.0 * 1048576.0), "40.0 MiB");
        assert_eq!(size_auto(Units::Decimal, 2e12), "2,000.0 GB");
        assert_eq!(size(Units::Decimal, 1_000.0, 1), "1.0 KB");
    }

    #[test]
    fn the_demo_is_registered() {
        let d = super::super::demos()
            .into_iter()
            .find(|d| d.id == "kv_calc")
            .unwrap();
        assert!(run(&defaults(d.params), Lang::En).is_ok());
    }
}
