//! The KV-cache calculator: the chapter's four formulas (GQA / MHA / MQA, MLA,
//! hybrid, CSA + HCA) for models the reader lists, at context lengths the
//! reader picks, against one GPU's memory.

use crate::ch_kvcache::formulas::{
    H200_BYTES, Layout, Million, Model, Units, WINDOW, gqa_bytes, max_batch,
};
use crate::ch_newmodels::ledger;
use crate::demo::{
    AllOk,
    Demo, Msg, Output, Param, ParamError, Plot, Raw, Series, fmt_value, group_digits,
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
    let gpu_name = if gpu_bytes == H200_BYTES {
        say::gpu_h200.text(lang)
    } else {
        say::gpu { gpu: &gpu }.text(lang)
    };
    let plot = Plot::new(
        say::chart_title { unit }.text(lang),
        say::chart_x.text(lang),
        say::chart_y { unit }.text(lang),
    )
    .log_x()
    .log_y()
    .series(
        rows.iter()
            .map(|r| Series::line(&r.name, &xs, xs.iter().map(|&x| r.bytes(x) / giga))),
    )
    .dashed(gpu_name, &xs, vec![gpu_bytes as f64 / giga; xs.len()]);
    Ok(Output::new().text(text).table(header, table).plot(plot))
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
mod tests;
