//! The `ep_sizing` cell: expert parallelism (EP) spreads a model's routed
//! experts over a group of cards; this cell shows, for each EP size the
//! planner tries, how many experts and GB each card holds and what is left
//! for KV cache, and which is the smallest EP that fits. Sizes are decimal GB
//! (10^9 B), as the article counts them.

use crate::ch_deploy::plan::{self, EpRow, RoundTo};
use crate::ch_deploy::request_kv::{input, num, pct};
use crate::demo::{AllOk, Demo, Output, Param, ParamError, Plot, Raw, group_u64};
use crate::lang::Lang;
use crate::say::ep_sizing as say;

// ANCHOR: demo
/// One EP size of the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row {
    /// Cards in the EP group.
    pub ep: u64,
    /// Whether `ep` divides the experts to place.
    pub even: bool,
    /// The fullest card: its experts, their GB, and what is left for KV.
    pub card: EpRow,
    /// Even, and at least `min_free` GB left for KV.
    pub feasible: bool,
}

/// The table for `placed` experts (routed plus redundant copies) of
/// `expert_gb` each, on cards of `card_gb` that also keep `overhead_gb` of
/// attention and embedding weights.
pub fn rows(
    placed: u64,
    expert_gb: f64,
    card_gb: f64,
    overhead_gb: f64,
    min_free: f64,
) -> Vec<Row> {
    plan::EP_SIZES
        .into_iter()
        .map(|ep| {
            let even = placed.is_multiple_of(ep);
            // An uneven split leaves some cards one expert more: size the
            // fullest, which holds ⌈placed / ep⌉.
            let fullest = placed.div_ceil(ep) * ep;
            let card = plan::ep_row(fullest, ep, expert_gb, card_gb, overhead_gb);
            Row {
                ep,
                even,
                card,
                feasible: even && card.free_gb >= min_free,
            }
        })
        .collect()
}

/// Cards (or nodes) a token's `top_k` routed experts land on, on average,
/// when the router picks `top_k` distinct experts uniformly from `experts`
/// spread evenly over `groups`: `groups` × (1 − P(a group is missed)).
pub fn expected_groups(experts: u64, top_k: u64, groups: u64) -> f64 {
    let others = experts - experts / groups;
    let missed: f64 = (0..top_k)
        .map(|i| others.saturating_sub(i) as f64 / (experts - i) as f64)
        .product();
    groups as f64 * (1.0 - missed)
}
// ANCHOR_END: demo

/// The smallest feasible EP: plan::ep_min over the experts placed.
pub fn smallest(
    placed: u64,
    expert_gb: f64,
    card_gb: f64,
    overhead_gb: f64,
    min_free: f64,
) -> Option<u64> {
    plan::ep_min(placed, expert_gb, card_gb, overhead_gb, min_free)
}

/// Kimi-K3's parameters in TB of FP8 weights as the article splits them:
/// all, attention, embedding.
pub const K3_SPLIT_TB: (f64, f64, f64) = (2.78, 0.5, 0.1);
/// Kimi-K3's shared experts (always active).
pub const K3_SHARED: u64 = 2;
/// Routed experts a Kimi-K3 token activates.
pub const K3_TOP_K: u64 = 16;
/// DeepSeek-V4-Pro's weights outside the routed experts as the article
/// counts them, TB.
pub const V4_OTHER_TB: f64 = 0.3;
/// Routed experts a DeepSeek-V4 token activates.
pub const V4_TOP_K: u64 = 8;
/// EPLB's redundant expert copies for DeepSeek-V4 (256 + 32 = 288).
pub const V4_REDUNDANT: u64 = 32;
/// Mixtral 8×7B: experts and experts per token.
pub const MIXTRAL: (u64, u64) = (8, 2);
/// DeepSeek-V4-Pro's routed experts and top-k in its config (the first
/// chapter's table), where the analysis sizes 256 and top-8.
pub const V4_PRO_CONFIG: (u64, u64) = (384, 6);

/// Bits a weight takes in MXFP4, K3's expert format: 4 bits, plus one 8-bit
/// scale per block of 32 weights.
pub const MXFP4_BITS: f64 = 4.0 + 8.0 / 32.0;

/// The model's routed experts.
const EXPERTS: Param = Param::int("experts", "896", 1, 100_000);
/// One expert's weights, GB.
const EXPERT_GB: Param = Param::float("expert_gb", "2.45", 0.001, 10_000.0);
/// One card's memory, GB.
const CARD_GB: Param = Param::float("card_gb", "141", 1.0, 10_000.0);
/// The other weights every card keeps, GB.
const OVERHEAD_GB: Param = Param::float("overhead_gb", "5", 0.0, 10_000.0);
/// Redundant copies of busy experts.
const REDUNDANT: Param = Param::int("redundant", "0", 0, 100_000);
/// The least GB a feasible row leaves for KV.
const MIN_FREE: Param = Param::float("min_free", "10", 0.0, 10_000.0);
/// Routed experts per token (at most the routed experts).
const TOP_K: Param = Param::int("top_k", "16", 1, 1_024);

/// The cell's parameters.
pub const PARAMS: &[Param] = &[
    EXPERTS,
    EXPERT_GB,
    CARD_GB,
    OVERHEAD_GB,
    REDUNDANT,
    MIN_FREE,
    TOP_K,
];

/// The cell.
pub fn demo() -> Demo {
    Demo {
        id: "ep_sizing",
        params: PARAMS,
        #[cfg(feature = "render")]
        source: crate::demo::anchored(include_str!("ep_sizing.rs"), "demo"),
        #[cfg(feature = "run")]
        run,
    }
}

/// Checked parameters. The work is six rows and a product of at most 1,024
/// factors per row, so the cell needs no budget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Routed experts.
    pub experts: u64,
    /// GB per expert.
    pub expert_gb: f64,
    /// One card's memory, GB.
    pub card_gb: f64,
    /// Attention and embedding weights per card, GB.
    pub overhead_gb: f64,
    /// Redundant copies placed with the experts.
    pub redundant: u64,
    /// Least GB a feasible row leaves for KV.
    pub min_free: f64,
    /// Routed experts per token.
    pub top_k: u64,
}

impl Params {
    /// Validates the reader's text; every bad field gets its own message.
    pub fn parse(raw: &Raw) -> Result<Params, Vec<ParamError>> {
        let experts = EXPERTS.read_int(raw);
        let expert_gb = EXPERT_GB.read_float(raw);
        let card_gb = CARD_GB.read_float(raw);
        let overhead_gb = OVERHEAD_GB.read_float(raw);
        let redundant = REDUNDANT.read_int(raw);
        let min_free = MIN_FREE.read_float(raw);
        let top_k = TOP_K.read_int(raw).and_then(|k| match &experts {
            Ok(e) if k > *e => {
                let n = group_u64(*e as u64);
                Err(ParamError::said(TOP_K.name, &say::top_k_max { n: &n }))
            }
            _ => Ok(k),
        });
        let (e, g, c, o, r, m, k) = (
            experts,
            expert_gb,
            card_gb,
            overhead_gb,
            redundant,
            min_free,
            top_k,
        )
            .all_ok()?;
        Ok(Params {
            experts: e as u64,
            expert_gb: g,
            card_gb: c,
            overhead_gb: o,
            redundant: r as u64,
            min_free: m,
            top_k: k as u64,
        })
    }

    /// Experts to place: routed plus redundant copies.
    pub fn placed(&self) -> u64 {
        self.experts + self.redundant
    }

    /// The table for these parameters.
    pub fn rows(&self) -> Vec<Row> {
        rows(
            self.placed(),
            self.expert_gb,
            self.card_gb,
            self.overhead_gb,
            self.min_free,
        )
    }

    /// The smallest feasible EP.
    pub fn smallest(&self) -> Option<u64> {
        smallest(
            self.placed(),
            self.expert_gb,
            self.card_gb,
            self.overhead_gb,
            self.min_free,
        )
    }
}

/// The defaults: Kimi-K3 on an H200.
pub fn k3_params() -> Params {
    let m = plan::k3();
    Params {
        experts: m.n_routed,
        expert_gb: m.expert_gb,
        card_gb: plan::H200.memory_gb,
        overhead_gb: m.overhead_gb,
        redundant: 0,
        min_free: 10.0,
        top_k: K3_TOP_K,
    }
}

/// DeepSeek-V4-Pro on an H200, without EPLB's copies.
pub fn v4_params() -> Params {
    let m = plan::v4();
    Params {
        experts: m.n_routed,
        expert_gb: m.expert_gb,
        card_gb: plan::H200.memory_gb,
        overhead_gb: m.overhead_gb,
        redundant: 0,
        min_free: 10.0,
        top_k: V4_TOP_K,
    }
}

/// GB with one decimal and a real minus sign: "−1.2 GB".
pub fn gb(v: f64) -> String {
    format!("{} GB", num(v, 1))
}

/// GB as the reader typed them: "5 GB", "2.45 GB".
fn gb_in(v: f64) -> String {
    format!("{} GB", input(v))
}

/// Nodes of 8 cards an EP group spans.
fn nodes(ep: u64) -> u64 {
    ep.div_ceil(plan::GPUS_PER_NODE)
}

/// "56" or "4 on 128 cards, 3 on 128 (not even)".
fn experts_cell(placed: u64, r: &Row, lang: Lang) -> String {
    if r.even {
        group_u64(r.card.experts_per_card)
    } else {
        let more = placed % r.ep;
        let (a, b, rest) = (
            group_u64(r.card.experts_per_card),
            group_u64(r.card.experts_per_card - 1),
            group_u64(r.ep - more),
        );
        if more == 1 {
            say::uneven_cell_one { a, more, b, rest }.text(lang)
        } else {
            let more = group_u64(more);
            say::uneven_cell { a, more, b, rest }.text(lang)
        }
    }
}

/// "yes", "yes, the smallest", "no: not even", "no: 3.8 GB < 10 GB".
fn verdict(r: &Row, smallest: Option<u64>, min_free: f64, lang: Lang) -> String {
    if r.feasible {
        if smallest == Some(r.ep) {
            say::yes_smallest.text(lang)
        } else {
            say::yes.text(lang)
        }
    } else if !r.even {
        say::no_uneven.text(lang)
    } else {
        say::no_free {
            free: gb(r.card.free_gb),
            min: gb_in(min_free),
        }
        .text(lang)
    }
}

/// Whether the parameters are Kimi-K3's on an H200 (the defaults).
fn is_k3(p: &Params) -> bool {
    let k = k3_params();
    (
        p.experts,
        p.expert_gb,
        p.card_gb,
        p.overhead_gb,
        p.redundant,
    ) == (k.experts, k.expert_gb, k.card_gb, k.overhead_gb, 0)
}

/// Whether the experts, their size, the card and the overhead are
/// DeepSeek-V4-Pro's on an H200 (any redundant copies).
fn is_v4(p: &Params) -> bool {
    let v = v4_params();
    (p.experts, p.expert_gb, p.card_gb, p.overhead_gb)
        == (v.experts, v.expert_gb, v.card_gb, v.overhead_gb)
}

/// What the article's K3 rows leave out, for the default parameters.
fn k3_notes(p: &Params, lang: Lang) -> String {
    let r16 = plan::ep_row(p.experts, 16, p.expert_gb, p.card_gb, p.overhead_gb);
    let r32 = plan::ep_row(p.experts, 32, p.expert_gb, p.card_gb, p.overhead_gb);
    let (total, attn, embed) = K3_SPLIT_TB;
    let moe = total - attn - embed;
    let other_gb = (attn + embed) * 1000.0;
    let cards = expected_groups(p.experts, p.top_k, 32);
    let node_count = nodes(32);
    let reached = expected_groups(p.experts, p.top_k, node_count);
    let all = p.experts + K3_SHARED;
    let routed = group_u64(p.experts);
    let mut text = say::k3_split {
        total: input(total),
        attn: input(attn),
        embed: input(embed),
        moe: num(moe, 2),
        moe_r: num(moe.round_to(1), 1),
        routed: &routed,
        shared: K3_SHARED,
        all: group_u64(all),
        each: num(moe.round_to(1) * 1000.0 / all as f64, 2),
        each_raw: num(moe * 1000.0 / all as f64, 2),
    }
    .text(lang);
    text += &say::k3_rows {
        left16: num(r16.free_gb + p.overhead_gb, 0),
        overhead: gb_in(p.overhead_gb),
        card: input(p.card_gb),
        w16: num(r16.weight_gb, 1),
        bare16: gb(r16.free_gb + p.overhead_gb),
        free16: gb(r16.free_gb),
        w32: num(r32.weight_gb, 1),
        overhead_n: input(p.overhead_gb),
        free32: num(r32.free_gb, 1),
        printed: num(plan::article_free_gb(&plan::k3(), &plan::H200), 0),
    }
    .text(lang);
    text += &say::k3_missing {
        shared: K3_SHARED,
        expert_gb: input(p.expert_gb),
        shared_gb: gb(K3_SHARED as f64 * p.expert_gb),
        other: gb_in(other_gb),
        times: num(other_gb / p.overhead_gb, 0),
        overhead: gb_in(p.overhead_gb),
        other_32: gb(other_gb / 32.0),
    }
    .text(lang);
    let v4 = plan::v4();
    text += &say::k3_routing {
        top_k: p.top_k,
        routed: &routed,
        shared: K3_SHARED,
        active: pct(k3_active_share(p.top_k), 1),
        v4_k: V4_TOP_K,
        v4_n: v4.n_routed,
        v4_share: pct(V4_TOP_K as f64 / v4.n_routed as f64, 1),
        mx_k: MIXTRAL.1,
        mx_n: MIXTRAL.0,
        mx_share: pct(MIXTRAL.1 as f64 / MIXTRAL.0 as f64, 0),
        reach: p.top_k.min(32),
        reach_share: pct(p.top_k.min(32) as f64 / 32.0, 0),
        cards: num(cards, 1),
        reached: num(reached, 2),
        nodes: node_count,
    }
    .text(lang);
    text
}

/// The share of Kimi-K3's experts a token activates when it picks `top_k`
/// routed experts: (top_k + 2 shared) / (896 + 2).
pub fn k3_active_share(top_k: u64) -> f64 {
    let n = plan::k3().n_routed;
    (top_k + K3_SHARED) as f64 / (n + K3_SHARED) as f64
}

/// What the article's V4 rows say, and EPLB's copies.
fn v4_notes(p: &Params, lang: Lang) -> String {
    let v = v4_params();
    let r = |placed: u64, ep: u64| plan::ep_row(placed, ep, v.expert_gb, v.card_gb, v.overhead_gb);
    let (r8, r16) = (r(v.experts, 8), r(v.experts, 16));
    let eplb = v.experts + V4_REDUNDANT;
    let e16 = r(eplb, 16);
    let m = plan::v4();
    let (total, other) = (m.weight_tb, V4_OTHER_TB);
    let redundant_hint = if p.redundant == V4_REDUNDANT {
        String::new()
    } else {
        say::redundant_hint { n: V4_REDUNDANT }.text(lang)
    };
    let mut text = say::v4_rows {
        total: input(total),
        other: input(other),
        experts: v.experts,
        each: num((total - other) * 1000.0 / v.experts as f64, 3),
        each_r: input(v.expert_gb),
        e8: r8.experts_per_card,
        w8: gb(r8.weight_gb),
        e16: r16.experts_per_card,
        w16: gb(r16.weight_gb),
        free16: gb(r16.free_gb),
        printed16: num(r16.weight_gb, 0),
        printed_free: num(plan::article_free_gb(&m, &plan::H200), 0),
    }
    .text(lang);
    text += &say::v4_eplb {
        copies: V4_REDUNDANT,
        experts: v.experts,
        placed: eplb,
        per_card: e16.experts_per_card,
        w_card: gb(e16.weight_gb),
        free: gb(e16.free_gb),
        redundant_hint,
    }
    .text(lang);
    text
}

/// Runs the demo: what is placed, the smallest feasible EP, notes on the
/// article's rows; a table per EP size; a chart of GB per card against EP.
pub fn run(raw: &Raw, lang: Lang) -> Result<Output, Vec<ParamError>> {
    let p = Params::parse(raw)?;
    let placed = p.placed();
    let table = p.rows();
    let small = p.smallest();
    let mut text = say::intro_place {
        routed: group_u64(p.experts),
        redundant: group_u64(p.redundant),
        placed: group_u64(placed),
        expert_gb: input(p.expert_gb),
        card: input(p.card_gb),
        overhead: gb_in(p.overhead_gb),
        per_node: plan::GPUS_PER_NODE,
    }
    .text(lang);
    text += &say::intro_feasible {
        min_free: gb_in(p.min_free),
        rejected: num(
            k3_params().card_gb - plan::ep_row(896, 16, 2.45, 141.0, 0.0).weight_gb,
            0,
        ),
        accepted_v4: num(plan::article_free_gb(&plan::v4(), &plan::H200), 0),
        accepted_k3: num(plan::article_free_gb(&plan::k3(), &plan::H200), 0),
    }
    .text(lang);
    text += &match small.and_then(|ep| table.iter().find(|r| r.ep == ep)) {
        Some(r) => {
            let (ep, nodes, per_node) = (r.ep, nodes(r.ep), plan::GPUS_PER_NODE);
            let experts = group_u64(r.card.experts_per_card);
            let (weight, free) = (gb(r.card.weight_gb), gb(r.card.free_gb));
            if nodes == 1 {
                say::smallest_one { ep, nodes, per_node, experts, weight, free }.text(lang)
            } else {
                let nodes = group_u64(nodes);
                say::smallest { ep, nodes, per_node, experts, weight, free }.text(lang)
            }
        }
        None => say::none_feasible {
            max: plan::EP_SIZES[plan::EP_SIZES.len() - 1],
            placed: group_u64(placed),
            min_free: gb_in(p.min_free),
        }
        .text(lang),
    };
    if let Some(r) = table.iter().find(|r| !r.even) {
        text += &say::uneven {
            ep: r.ep,
            placed: group_u64(placed),
        }
        .text(lang);
    }
    if let Some(r16) = table.iter().find(|r| r.ep == 16) {
        text += &say::at_16 {
            experts: experts_cell(placed, r16, lang),
            weight: gb(r16.card.weight_gb),
            card: input(p.card_gb),
            w: num(r16.card.weight_gb, 1),
            bare: gb(r16.card.free_gb + p.overhead_gb),
            free: gb(r16.card.free_gb),
        }
        .text(lang);
    }
    if is_k3(&p) {
        text += &k3_notes(&p, lang);
    }
    if is_v4(&p) {
        text += &v4_notes(&p, lang);
    }
    let header = vec![
        say::col_ep.text(lang),
        say::col_nodes.text(lang),
        say::col_experts.text(lang),
        say::col_weights.text(lang),
        say::col_free.text(lang),
        say::col_feasible.text(lang),
    ];
    let cells = table
        .iter()
        .map(|r| {
            vec![
                group_u64(r.ep),
                group_u64(nodes(r.ep)),
                experts_cell(placed, r, lang),
                gb(r.card.weight_gb),
                gb(r.card.free_gb),
                verdict(r, small, p.min_free, lang),
            ]
        })
        .collect();
    Ok(Output::new()
        .text(text)
        .table(header, cells)
        .plot(plot(&table, &p, lang)))
}

/// GB per card (the fullest) against EP: experts' weights, what is left for
/// KV, the card's memory and min_free.
fn plot(table: &[Row], p: &Params, lang: Lang) -> Plot {
    let x: Vec<u64> = table.iter().map(|r| r.ep).collect();
    let card = say::series_card {
        gb: input(p.card_gb),
    };
    let min_free = say::series_min_free {
        gb: input(p.min_free),
    };
    Plot::new(
        say::chart_title.text(lang),
        say::chart_x.text(lang),
        say::chart_y.text(lang),
    )
    .log_x()
    .line(
        say::series_weights.text(lang),
        &x,
        table.iter().map(|r| r.card.weight_gb),
    )
    .line(
        say::series_free.text(lang),
        &x,
        table.iter().map(|r| r.card.free_gb),
    )
    .dashed(card.text(lang), &x, vec![p.card_gb; table.len()])
    .dashed(min_free.text(lang), &x, vec![p.min_free; table.len()])
}

/// The row for `ep` in a table (`None` if `ep` is not tried).
fn at(table: &[Row], ep: u64) -> Option<Row> {
    table.iter().find(|r| r.ep == ep).copied()
}

/// The figures the chapter's text quotes from this cell: (name, value).
pub fn figures() -> Vec<(&'static str, String)> {
    let (k, v) = (k3_params(), v4_params());
    let (kt, vt) = (k.rows(), v.rows());
    let eplb = Params {
        redundant: V4_REDUNDANT,
        ..v
    };
    let et = eplb.rows();
    // K3's experts as it ships them (MXFP4), where the analysis counts FP8.
    let mx = Params {
        expert_gb: k.expert_gb * MXFP4_BITS / 8.0,
        ..k
    };
    let mt = mx.rows();
    let (Some(k8), Some(k16), Some(k32), Some(v8), Some(v16), Some(e16), Some(m16)) = (
        at(&kt, 8),
        at(&kt, 16),
        at(&kt, 32),
        at(&vt, 8),
        at(&vt, 16),
        at(&et, 16),
        at(&mt, 16),
    ) else {
        return Vec::new();
    };
    let (total, attn, embed) = K3_SPLIT_TB;
    let moe = (total - attn - embed).round_to(1);
    let ep_text = |e: Option<u64>| e.map_or_else(|| "none".to_owned(), group_u64);
    vec![
        ("ep_sizing.k3_moe_tb", format!("{} TB", num(moe, 1))),
        (
            "ep_sizing.k3_expert_gb",
            format!(
                "{} GB",
                num(moe * 1000.0 / (k.experts + K3_SHARED) as f64, 2)
            ),
        ),
        (
            "ep_sizing.v4_expert_gb",
            format!(
                "{} GB",
                num(
                    (plan::v4().weight_tb - V4_OTHER_TB) * 1000.0 / v.experts as f64,
                    1
                )
            ),
        ),
        ("ep_sizing.k3_ep8_experts", group_u64(k8.card.experts_per_card)),
        ("ep_sizing.k3_ep16_experts", group_u64(k16.card.experts_per_card)),
        ("ep_sizing.k3_ep32_experts", group_u64(k32.card.experts_per_card)),
        ("ep_sizing.v4_ep8_experts", group_u64(v8.card.experts_per_card)),
        ("ep_sizing.v4_ep16_experts", group_u64(v16.card.experts_per_card)),
        ("ep_sizing.k3_ep8_weight", gb(k8.card.weight_gb)),
        ("ep_sizing.k3_ep16_weight", gb(k16.card.weight_gb)),
        (
            "ep_sizing.k3_ep16_free_article",
            gb(k16.card.free_gb + k.overhead_gb),
        ),
        ("ep_sizing.k3_ep16_free", gb(k16.card.free_gb)),
        ("ep_sizing.k3_ep16_over", gb(-k16.card.free_gb)),
        ("ep_sizing.mxfp4_bits", num(MXFP4_BITS, 2)),
        (
            "ep_sizing.k3_expert_mxfp4_gb",
            format!("{} GB", num(mx.expert_gb, 2)),
        ),
        ("ep_sizing.k3_ep16_free_mxfp4", gb(m16.card.free_gb)),
        ("ep_sizing.k3_min_ep_mxfp4", ep_text(mx.smallest())),
        ("ep_sizing.k3_ep32_weight", gb(k32.card.weight_gb)),
        ("ep_sizing.k3_ep32_free", gb(k32.card.free_gb)),
        ("ep_sizing.v4_ep8_weight", gb(v8.card.weight_gb)),
        ("ep_sizing.v4_ep16_weight", gb(v16.card.weight_gb)),
        ("ep_sizing.v4_ep16_free", gb(v16.card.free_gb)),
        (
            "ep_sizing.v4_eplb_experts",
            group_u64(e16.card.experts_per_card),
        ),
        ("ep_sizing.v4_eplb_weight", gb(e16.card.weight_gb)),
        ("ep_sizing.v4_eplb_free", gb(e16.card.free_gb)),
        (
            "ep_sizing.k3_active_share",
            pct(k3_active_share(K3_TOP_K), 1),
        ),
        (
            "ep_sizing.v4_active_share",
            pct(V4_TOP_K as f64 / v.experts as f64, 1),
        ),
        (
            "ep_sizing.mixtral_active_share",
            pct(MIXTRAL.1 as f64 / MIXTRAL.0 as f64, 0),
        ),
        (
            "ep_sizing.k3_fanout",
            pct(K3_TOP_K.min(32) as f64 / 32.0, 0),
        ),
        (
            "ep_sizing.k3_expected_nodes",
            num(expected_groups(k.experts, K3_TOP_K, nodes(32)), 2),
        ),
        ("ep_sizing.k3_min_ep", ep_text(k.smallest())),
        ("ep_sizing.v4_min_ep", ep_text(v.smallest())),
        ("ep_sizing.k3_shared_gb", gb(K3_SHARED as f64 * k.expert_gb)),
        (
            "ep_sizing.k3_other_over_overhead",
            format!("{}×", num((attn + embed) * 1000.0 / k.overhead_gb, 0)),
        ),
        (
            "ep_sizing.v4_other_over_overhead",
            format!("{}×", num(V4_OTHER_TB * 1000.0 / v.overhead_gb, 0)),
        ),
        (
            "ep_sizing.v4_config_active_share",
            pct(V4_PRO_CONFIG.1 as f64 / V4_PRO_CONFIG.0 as f64, 1),
        ),
    ]
}

#[cfg(test)]
mod tests;
