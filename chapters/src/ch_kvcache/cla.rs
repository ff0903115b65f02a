//! Cross-layer attention (CLA): groups of `k` consecutive layers share one KV
//! cache, so only ceil(layers / k) layers store one. It composes with GQA or
//! MLA, whatever each of those layers stores.

use super::formulas::{gqa_bytes, mla_bytes};
use super::kv_calc::size;
use crate::ch_kvcache::formulas::Units;
use crate::demo::{AllOk, Demo, Output, Param, ParamError, Plot, Raw, Series, group_u64};
use crate::lang::Lang;
use crate::say::cla as say;

// ANCHOR: demo
/// Layers that store a KV cache when each group of `k` consecutive layers
/// (`k` ≥ 1) shares one: the lowest layer of a group stores it, the layers
/// above reuse it. ceil(layers / k): a last, smaller group still needs one.
pub fn shared_layers(layers: u64, k: u64) -> u64 {
    layers.div_ceil(k)
}

/// What each layer that keeps a cache stores per token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attention {
    /// K and V for each KV head (MHA, GQA, MQA).
    Gqa {
        /// KV heads per layer.
        kv_heads: u64,
        /// Dimensions per head.
        head_dim: u64,
    },
    /// MLA's latent plus its shared RoPE key.
    Mla {
        /// The latent's width.
        rank: u64,
        /// The RoPE key's width.
        rope: u64,
    },
}

/// KV bytes of one request of `tokens` tokens with sharing factor `k`: the
/// chapter's GQA or MLA formula over the layers that keep a cache.
pub fn cla_bytes(layers: u64, k: u64, attention: Attention, tokens: u64, dtype_bytes: u64) -> u64 {
    let cached = shared_layers(layers, k);
    match attention {
        Attention::Gqa { kv_heads, head_dim } => {
            gqa_bytes(cached, kv_heads, head_dim, tokens, 1, dtype_bytes)
        }
        Attention::Mla { rank, rope } => mla_bytes(cached, rank, rope, tokens, 1, dtype_bytes),
    }
}
// ANCHOR_END: demo

/// The share of the cache that sharing saves, 1 − ceil(layers / k) / layers,
/// as a percentage rounded half up to one decimal, without a trailing `.0`:
/// `50%`, `66.3%`. Integer arithmetic, so it is the same everywhere.
pub fn saving(layers: u64, k: u64) -> String {
    let saved = layers - shared_layers(layers, k);
    let tenths = (saved * 1_000 + layers / 2) / layers;
    if tenths.is_multiple_of(10) {
        format!("{}%", tenths / 10)
    } else {
        format!("{}.{}%", tenths / 10, tenths % 10)
    }
}

/// Largest layer count (with the other limits, a request's bytes stay below
/// 2^61: 2 × 1,024 layers × 1,024 heads × 4,096 dims × 8 B × 2^24 tokens).
pub const MAX_LAYERS: i64 = 1_024;
/// Longest request, in tokens (2^24).
pub const MAX_TOKENS: i64 = 1 << 24;
/// Sharing factors of the chart: 1 to 8.
pub const CHART_K: std::ops::RangeInclusive<u64> = 1..=8;

/// The layers of the model.
const LAYERS: Param = Param::int("layers", "80", 1, MAX_LAYERS);
/// What each layer with a cache stores.
const ATTENTION: Param = Param::choice("attention", &["GQA", "MLA"]);
/// GQA's KV heads per layer.
const KV_HEADS: Param = Param::int("kv_heads", "8", 1, 1_024);
/// GQA's dimensions per head.
const HEAD_DIM: Param = Param::int("head_dim", "128", 1, 4_096);
/// MLA's latent width.
const RANK: Param = Param::int("rank", "512", 1, 65_536);
/// MLA's RoPE key width.
const ROPE: Param = Param::int("rope", "64", 0, 4_096);
/// Bytes per stored value.
const BYTES: Param = Param::int("bytes", "2", 1, 8);
/// Tokens of the request.
const TOKENS: Param = Param::int("tokens", "1,000,000", 1, MAX_TOKENS);
/// The sharing factors to tabulate.
const SHARE: Param = Param::ints("share", "1 2 3 4", 1, MAX_LAYERS, 8);

/// The cell's parameters.
pub const PARAMS: &[Param] = &[
    LAYERS, ATTENTION, KV_HEADS, HEAD_DIM, RANK, ROPE, BYTES, TOKENS, SHARE,
];

/// The cell.
pub fn demo() -> Demo {
    Demo {
        id: "cla",
        params: PARAMS,
        #[cfg(feature = "render")]
        source: crate::demo::anchored(include_str!("cla.rs"), "demo"),
        #[cfg(feature = "run")]
        run,
    }
}

/// Checked parameters. The work is one formula per sharing factor (at most 8)
/// and per chart point (16), so the cell needs no budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Params {
    /// Layers of the model.
    pub layers: u64,
    /// GQA's KV heads and head dim.
    pub gqa: Attention,
    /// MLA's rank and RoPE dims.
    pub mla: Attention,
    /// Whether the text and the table use MLA (else GQA).
    pub use_mla: bool,
    /// Bytes per stored value.
    pub dtype_bytes: u64,
    /// Tokens of the request.
    pub tokens: u64,
    /// Sharing factors to tabulate.
    pub share: Vec<u64>,
}

impl Params {
    /// Validates the reader's text; every bad field gets its own message.
    pub fn parse(raw: &Raw) -> Result<Params, Vec<ParamError>> {
        let layers = LAYERS.read_int(raw);
        let attention = ATTENTION.read_choice(raw);
        let kv_heads = KV_HEADS.read_int(raw);
        let head_dim = HEAD_DIM.read_int(raw);
        let rank = RANK.read_int(raw);
        let rope = ROPE.read_int(raw);
        let bytes = BYTES.read_int(raw);
        let tokens = TOKENS.read_int(raw);
        let share = SHARE.read_ints(raw);
        let (layers, a, kv_heads, head_dim, rank, rope, bytes, tokens, share) = (
            layers, attention, kv_heads, head_dim, rank, rope, bytes, tokens, share,
        )
            .all_ok()?;
        let u = |v: i64| v as u64;
        Ok(Params {
            layers: u(layers),
            gqa: Attention::Gqa {
                kv_heads: u(kv_heads),
                head_dim: u(head_dim),
            },
            mla: Attention::Mla {
                rank: u(rank),
                rope: u(rope),
            },
            use_mla: a == "MLA",
            dtype_bytes: u(bytes),
            tokens: u(tokens),
            share: share.into_iter().map(u).collect(),
        })
    }
}

/// "GQA, 8 KV heads × 128 dims" or "MLA, latent 512 + RoPE key 64".
fn describe(a: Attention, lang: Lang) -> String {
    match a {
        Attention::Gqa { kv_heads: 1, head_dim } => say::gqa_one { kv_heads: 1, head_dim }.text(lang),
        Attention::Gqa { kv_heads, head_dim } => say::gqa { kv_heads, head_dim }.text(lang),
        Attention::Mla { rank, rope } => say::mla { rank, rope }.text(lang),
    }
}

/// Values one layer with a cache stores per token, worked out.
fn values(a: Attention) -> String {
    match a {
        Attention::Gqa { kv_heads, head_dim } => format!(
            "2 × {kv_heads} × {head_dim} = {}",
            group_u64(2 * kv_heads * head_dim)
        ),
        Attention::Mla { rank, rope } => format!("{rank} + {rope} = {}", group_u64(rank + rope)),
    }
}

/// How the layers group for sharing factor `k`, in words.
fn grouping(layers: u64, k: u64, lang: Lang) -> String {
    let rest = layers % k;
    let groups = group_u64(layers / k);
    if k == 1 {
        say::grouping_none.text(lang)
    } else if k >= layers {
        say::grouping_all { layers }.text(lang)
    } else if rest == 0 {
        say::grouping_even { groups, k }.text(lang)
    } else {
        say::grouping_rest { groups, k, rest }.text(lang)
    }
}

/// Runs the demo: a line and a table row per sharing factor, and a chart of
/// the bytes against k for GQA and for MLA with the same layers.
pub fn run(raw: &Raw, lang: Lang) -> Result<Output, Vec<ParamError>> {
    let p = Params::parse(raw)?;
    let attention = if p.use_mla { p.mla } else { p.gqa };
    let gib = |b: u64| size(Units::Binary, b as f64, 3);
    let tokens = group_u64(p.tokens);
    let (at, request) = if p.tokens == 1 {
        (say::at_one { tokens: &tokens }.text(lang), say::request_one { tokens: &tokens }.text(lang))
    } else {
        (say::at { tokens: &tokens }.text(lang), say::request { tokens: &tokens }.text(lang))
    };
    let b = p.dtype_bytes;
    let per_value = match b {
        1 => say::per_value { b, dtype: "FP8" }.text(lang),
        2 => say::per_value { b, dtype: "BF16" }.text(lang),
        4 => say::per_value { b, dtype: "FP32" }.text(lang),
        _ => say::per_value_plain { b }.text(lang),
    };
    let layers = group_u64(p.layers);
    let mut text = say::intro {
        layers: &layers,
        kind: describe(attention, lang),
        per_value,
        request,
        values: values(attention),
    }
    .text(lang);
    let mut rows = Vec::new();
    for &k in &p.share {
        let cached = shared_layers(p.layers, k);
        let per_token = cla_bytes(p.layers, k, attention, 1, p.dtype_bytes);
        let total = cla_bytes(p.layers, k, attention, p.tokens, p.dtype_bytes);
        text += &say::row {
            k,
            how: grouping(p.layers, k, lang),
            n: group_u64(cached),
            layers: &layers,
            bytes: group_u64(per_token),
            per: size(Units::Binary, per_token as f64, 1),
            all: gib(total),
            at: &at,
            saved: saving(p.layers, k),
        }
        .text(lang);
        rows.push(vec![
            group_u64(k),
            group_u64(cached),
            size(Units::Binary, per_token as f64, 1),
            gib(total),
            saving(p.layers, k),
        ]);
    }
    text += &say::outro.text(lang);
    let header = [
        "k".to_owned(),
        say::col_layers.text(lang),
        say::col_per_token.text(lang),
        at.clone(),
        say::col_saved.text(lang),
    ];
    let xs: Vec<u64> = CHART_K.collect();
    let gib = |k: u64, a: Attention| {
        cla_bytes(p.layers, k, a, p.tokens, p.dtype_bytes) as f64 / (1u64 << 30) as f64
    };
    let line = |a: Attention| Series::line(describe(a, lang), &xs, xs.iter().map(|&k| gib(k, a)));
    let plot = Plot::new(
        say::chart_title { tokens: &tokens, layers: &layers }.text(lang),
        say::chart_x.text(lang),
        say::chart_y.text(lang),
    )
    .series([line(p.gqa), line(p.mla)]);
    Ok(Output::new().text(text).table(header, rows).plot(plot))
}

/// The figures the chapter's text quotes from this cell: (name, value).
pub fn figures() -> Vec<(&'static str, String)> {
    let m = 1_000_000;
    let qwen = Attention::Gqa {
        kv_heads: 8,
        head_dim: 128,
    };
    let v3 = Attention::Mla {
        rank: 512,
        rope: 64,
    };
    let gib = |b: u64| size(Units::Binary, b as f64, 3);
    vec![
        ("cla.qwen_cla2_1m_gib", gib(cla_bytes(80, 2, qwen, m, 2))),
        ("cla.v3_cla2_1m_gib", gib(cla_bytes(61, 2, v3, m, 2))),
        ("cla.v3_cla2_layers", group_u64(shared_layers(61, 2))),
        ("cla.saving_cla2", saving(80, 2)),
    ]
}

#[cfg(test)]
mod tests;
