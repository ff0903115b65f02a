//! The deployment planner: the article's arithmetic, step by step, with every
//! rounding explicit. Sizes are decimal (KB = 1,000 B, GB = 10^9 B, TB =
//! 10^12 B), as the article counts them; one node holds 8 GPUs.
//!
//! Two rounding modes run the same steps: [`Mode::Article`] rounds to nearest
//! as the source does; [`Mode::Conservative`] floors what a unit can hold and
//! ceils what must be bought.

// ANCHOR: plan
/// How the planner rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Round to nearest, as the article does.
    Article,
    /// Floor the requests a unit holds; ceil units, nodes and cards.
    Conservative,
}

impl Mode {
    /// A quantity that can only be bought whole (units, nodes, cards).
    pub fn buy(self, x: f64) -> u64 {
        match self {
            Mode::Article => x.round() as u64,
            Mode::Conservative => x.ceil() as u64,
        }
    }

    /// A quantity that must fit (requests a unit holds).
    pub fn fit(self, x: f64) -> u64 {
        match self {
            Mode::Article => x.round() as u64,
            Mode::Conservative => x.floor() as u64,
        }
    }
}

/// GPUs per node.
pub const GPUS_PER_NODE: u64 = 8;

/// A KDA layer's recurrent state: `heads` matrices of `d_head × d_head`.
pub fn kda_state_bytes(layers: u64, heads: u64, d_head: u64, dtype_bytes: u64) -> u64 {
    layers * heads * d_head * d_head * dtype_bytes
}

/// KV bytes per token of `layers` MLA layers that each store `n_latents`
/// latents of `latent_dim` values (K3's gated MLA: 2 latents of 640).
pub fn latent_kv_bytes(layers: u64, latent_dim: u64, n_latents: u64, dtype_bytes: u64) -> u64 {
    layers * latent_dim * n_latents * dtype_bytes
}

/// One request in GB: `kv_kb_per_token` KB (1,000 B) per token, plus a fixed
/// part (K3's KDA state).
pub fn request_gb(kv_kb_per_token: f64, tokens: u64, fixed_gb: f64) -> f64 {
    kv_kb_per_token * tokens as f64 / 1e6 + fixed_gb
}

/// "Bare" cards: the weights and the KV of all requests divided by one card's
/// memory, each rounded up, as if memory could be shared perfectly.
pub fn bare_gpus(weight_tb: f64, kv_tb: f64, card_gb: f64) -> (u64, u64) {
    let cards = |tb: f64| (tb * 1000.0 / card_gb).ceil() as u64;
    (cards(weight_tb), cards(kv_tb))
}

/// One row of the EP table: `n_routed` experts spread over `ep` cards.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EpRow {
    /// Experts each card holds.
    pub experts_per_card: u64,
    /// Their weights, GB.
    pub weight_gb: f64,
    /// What is left for KV after the weights and `overhead_gb`, GB (negative
    /// when the card is over-full).
    pub free_gb: f64,
}

/// The EP row for `ep` cards (`ep` must divide `n_routed`).
pub fn ep_row(n_routed: u64, ep: u64, expert_gb: f64, card_gb: f64, overhead_gb: f64) -> EpRow {
    let experts_per_card = n_routed / ep;
    let weight_gb = experts_per_card as f64 * expert_gb;
    EpRow {
        experts_per_card,
        weight_gb,
        free_gb: card_gb - weight_gb - overhead_gb,
    }
}

/// The EP sizes the planner tries.
pub const EP_SIZES: [u64; 6] = [8, 16, 32, 64, 128, 256];

/// The smallest EP in [`EP_SIZES`] that divides `n_routed` and leaves at
/// least `min_free_gb` per card for KV; `None` when none does.
pub fn ep_min(
    n_routed: u64,
    expert_gb: f64,
    card_gb: f64,
    overhead_gb: f64,
    min_free_gb: f64,
) -> Option<u64> {
    EP_SIZES.into_iter().find(|&ep| {
        n_routed.is_multiple_of(ep)
            && ep_row(n_routed, ep, expert_gb, card_gb, overhead_gb).free_gb >= min_free_gb
    })
}

/// The decode side of a deployment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodePlan {
    /// Requests one unit (an EP group) holds at once.
    pub concurrency: u64,
    /// Units needed for the target.
    pub units: u64,
    /// Decode nodes.
    pub d_nodes: u64,
    /// Prefill nodes (`d_nodes / pd_ratio`).
    pub p_nodes: u64,
    /// Decode plus prefill nodes.
    pub total_nodes: u64,
    /// GPUs in all.
    pub gpus: u64,
}

/// Units of `cards` cards on `nodes_per_unit` nodes, with `free_gb_per_card`
/// each for KV; requests of `request_gb`; `concurrent` requests to serve;
/// `pd_ratio` decode nodes per prefill node. `None` when a unit cannot hold a
/// single request.
pub fn decode_plan(
    free_gb_per_card: f64,
    cards: u64,
    request_gb: f64,
    nodes_per_unit: u64,
    concurrent: u64,
    pd_ratio: f64,
    mode: Mode,
) -> Option<DecodePlan> {
    let concurrency = mode.fit(free_gb_per_card * cards as f64 / request_gb);
    plan_for(concurrency, nodes_per_unit, concurrent, pd_ratio, mode)
}

/// The rest of a decode plan once a unit's concurrency is known; `None` when
/// it is 0.
fn plan_for(
    concurrency: u64,
    nodes_per_unit: u64,
    concurrent: u64,
    pd_ratio: f64,
    mode: Mode,
) -> Option<DecodePlan> {
    if concurrency == 0 {
        return None;
    }
    let units = mode.buy(concurrent as f64 / concurrency as f64);
    let d_nodes = units * nodes_per_unit;
    let p_nodes = mode.buy(d_nodes as f64 / pd_ratio);
    let total_nodes = d_nodes + p_nodes;
    Some(DecodePlan {
        concurrency,
        units,
        d_nodes,
        p_nodes,
        total_nodes,
        gpus: total_nodes * GPUS_PER_NODE,
    })
}

/// The share of a request's life it spends decoding: decode time over decode
/// plus idle time; 0 when nothing is generated.
pub fn duty_cycle(out_tokens: f64, tok_per_s: f64, idle_s: f64) -> f64 {
    let decode = if out_tokens > 0.0 {
        out_tokens / tok_per_s
    } else {
        0.0
    };
    if decode <= 0.0 {
        0.0
    } else {
        decode / (decode + idle_s)
    }
}

/// Decode nodes when only a share `rho` of the requests' KV is on the GPUs
/// (the rest offloaded by HiCache), and the total with prefill nodes.
pub fn hicache_nodes(d_nodes: u64, rho: f64, pd_ratio: f64, mode: Mode) -> (u64, u64) {
    let d = mode.buy(d_nodes as f64 * rho);
    (d, d + mode.buy(d as f64 / pd_ratio))
}

/// Milliseconds per decode step when every step reads `active_gb` of weights
/// and `kv_gb` of cache at `bw_tb_s`: a bandwidth bound at batch 1.
pub fn decode_ms(active_gb: f64, kv_gb: f64, bw_tb_s: f64) -> f64 {
    (active_gb + kv_gb) / bw_tb_s
}
// ANCHOR_END: plan

/// A GPU as the article specifies it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gpu {
    /// Name.
    pub name: &'static str,
    /// HBM per card, GB.
    pub memory_gb: f64,
    /// HBM bandwidth, TB/s.
    pub bandwidth_tb_s: f64,
}

/// NVIDIA H200 SXM: 141 GB, 4.8 TB/s.
pub const H200: Gpu = Gpu {
    name: "H200",
    memory_gb: 141.0,
    bandwidth_tb_s: 4.8,
};

/// NVIDIA B300: 288 GB, 8 TB/s.
pub const B300: Gpu = Gpu {
    name: "B300",
    memory_gb: 288.0,
    bandwidth_tb_s: 8.0,
};

/// A model as the article sizes it for deployment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Model {
    /// Name.
    pub name: &'static str,
    /// All parameters, TB of FP8 weights.
    pub weight_tb: f64,
    /// Activated parameters per token, GB of FP8 weights.
    pub active_gb: f64,
    /// Routed experts.
    pub n_routed: u64,
    /// One routed expert, GB (FP8).
    pub expert_gb: f64,
    /// Attention and embedding weights each card keeps besides its experts, GB.
    pub overhead_gb: f64,
    /// KV per token of context, KB, in the article's convention.
    pub kv_kb_per_token: f64,
    /// Fixed state per request, GB (K3's KDA state).
    pub fixed_gb: f64,
    /// The EP the article deploys.
    pub ep: u64,
}

/// K3's KDA state: 69 layers × 96 heads × 128² × 2 B (BF16).
pub fn k3_kda_bytes() -> u64 {
    kda_state_bytes(69, 96, 128, 2)
}

/// Kimi-K3 as the article sizes it: 2.8 TB of FP8 weights, 104 GB active;
/// 896 routed experts of 2.2 TB / 898 ≈ 2.45 GB (the article rounds to 2.45);
/// 5 GB of attention and embedding per card; 24 MLA layers of two 640-dim
/// BF16 latents (61.44 KB per token); the KDA state, which the article counts
/// as 207 "MB" (207 MiB = 0.217 GB).
pub fn k3() -> Model {
    Model {
        name: "Kimi-K3",
        weight_tb: 2.8,
        active_gb: 104.0,
        n_routed: 896,
        expert_gb: 2.45,
        overhead_gb: 5.0,
        kv_kb_per_token: latent_kv_bytes(24, 640, 2, 2) as f64 / 1000.0,
        fixed_gb: 0.207,
        ep: 32,
    }
}

/// DeepSeek-V4-Pro as the article sizes it: 1.6 TB of FP8 weights, 49 GB
/// active; 256 routed experts of (1.6 − 0.3) TB / 256 ≈ 5.1 GB; 3 GB of
/// attention and embedding per card; 12.2 KB per token (10% of V3.2's 61 ×
/// 2,048 B, which is 122 KiB, not KB); no fixed state counted.
pub fn v4() -> Model {
    Model {
        name: "DeepSeek-V4-Pro",
        weight_tb: 1.6,
        active_gb: 49.0,
        n_routed: 256,
        expert_gb: 5.1,
        overhead_gb: 3.0,
        kv_kb_per_token: 12.2,
        fixed_gb: 0.0,
        ep: 16,
    }
}

/// Free GB per card for KV as the article takes it: the card minus the
/// weights rounded to whole GB (69, 82) minus the overhead.
pub fn article_free_gb(m: &Model, gpu: &Gpu) -> f64 {
    let row = ep_row(m.n_routed, m.ep, m.expert_gb, gpu.memory_gb, m.overhead_gb);
    gpu.memory_gb - row.weight_gb.round() - m.overhead_gb
}

/// The article's per-request GB at `tokens`, to one decimal as it prints them
/// (30.9 for K3 and 6.1 for V4 at 500K).
pub fn article_request_gb(m: &Model, tokens: u64) -> f64 {
    (request_gb(m.kv_kb_per_token.round_to(1), tokens, m.fixed_gb) * 10.0).round() / 10.0
}

/// Rounding to a number of decimals.
pub trait RoundTo {
    /// `self` rounded to `digits` decimals.
    fn round_to(self, digits: i32) -> f64;
}

impl RoundTo for f64 {
    fn round_to(self, digits: i32) -> f64 {
        let s = 10f64.powi(digits);
        (self * s).round() / s
    }
}

/// The decode plan of `m` on `gpu` for `concurrent` requests of `tokens`,
/// P:D = 1:2.5, with the article's inputs (free GB and request GB as it
/// rounds them); the mode decides the rounding of the steps.
pub fn plan(m: &Model, gpu: &Gpu, tokens: u64, concurrent: u64, mode: Mode) -> Option<DecodePlan> {
    decode_plan(
        article_free_gb(m, gpu),
        m.ep,
        article_request_gb(m, tokens),
        m.ep.div_ceil(GPUS_PER_NODE),
        concurrent,
        2.5,
        mode,
    )
}

/// [`plan`] without pooling: under data-parallel attention a request's cache
/// stays on one card, so a card holds ⌊free / request⌋ whole requests and a
/// unit that many times its cards; rounded as a buyer must. Returns the
/// requests a card holds and the plan (`None` when a card holds none).
pub fn plan_per_card(m: &Model, gpu: &Gpu, tokens: u64, concurrent: u64) -> (u64, Option<DecodePlan>) {
    let per_card = (article_free_gb(m, gpu) / article_request_gb(m, tokens)).floor() as u64;
    let plan = plan_for(
        per_card * m.ep,
        m.ep.div_ceil(GPUS_PER_NODE),
        concurrent,
        2.5,
        Mode::Conservative,
    );
    (per_card, plan)
}

/// The design question: the EP (one of [`EP_SIZES`] that divides
/// `n_routed`) whose conservative decode plan needs the fewest GPUs, one unit
/// being `ep` cards on `ep / 8` nodes (rounded up); ties go to the smaller EP.
/// Returns `(ep, plan)`, or `None` when no EP leaves room for one request.
pub fn best_plan(
    n_routed: u64,
    expert_gb: f64,
    overhead_gb: f64,
    card_gb: f64,
    request_gb: f64,
    concurrent: u64,
    pd_ratio: f64,
) -> Option<(u64, DecodePlan)> {
    let mut best: Option<(u64, DecodePlan)> = None;
    for ep in EP_SIZES {
        if !n_routed.is_multiple_of(ep) {
            continue;
        }
        let row = ep_row(n_routed, ep, expert_gb, card_gb, overhead_gb);
        if row.free_gb <= 0.0 {
            continue;
        }
        let Some(p) = decode_plan(
            row.free_gb,
            ep,
            request_gb,
            ep.div_ceil(GPUS_PER_NODE),
            concurrent,
            pd_ratio,
            Mode::Conservative,
        ) else {
            continue;
        };
        if best.is_none_or(|(_, b)| p.gpus < b.gpus) {
            best = Some((ep, p));
        }
    }
    best
}

#[cfg(test)]
mod tests;
