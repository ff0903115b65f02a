//! Hash routing (DeepSeek-V4's first MoE layers): a fixed token-id → experts
//! table, and how a Zipf token stream loads the experts compared with uniform
//! random routing; plus the bytes a token sends per MoE layer.

use crate::demo::{
    Demo, Heatmap, Output, Param, ParamError, Plot, Raw, AllOk, check_budget,
    checked_product, checked_sum, group,
};
use crate::lang::Lang;
use crate::rng::SplitMix64;
use crate::say::routing as say;

// ANCHOR: demo
/// `k` distinct entries of `perm`, uniformly: a partial Fisher–Yates shuffle of
/// its first `k` places. Any starting order gives a uniform sample, so `perm` is
/// reused between calls and each call costs O(k). Panics if `k > perm.len()`.
fn pick_distinct<'a>(rng: &mut SplitMix64, perm: &'a mut [u32], k: usize) -> &'a [u32] {
    let n = perm.len();
    for i in 0..k {
        let j = i + rng.below((n - i) as u64) as usize;
        perm.swap(i, j);
    }
    &perm[..k]
}

/// The routing table `tid2eid`, flattened: token id `t` always goes to experts
/// `table[t·k .. (t+1)·k]`, `k` distinct experts drawn uniformly per token.
/// O(vocab·k) work. Panics if `k > experts`.
pub fn hash_table(rng: &mut SplitMix64, vocab: usize, experts: usize, k: usize) -> Vec<u32> {
    let mut perm: Vec<u32> = (0..experts as u32).collect();
    let mut table = Vec::with_capacity(vocab * k);
    for _ in 0..vocab {
        table.extend_from_slice(pick_distinct(rng, &mut perm, k));
    }
    table
}

/// Token ids from a Zipf law: id `r − 1` (rank `r`) has probability
/// `r^−s / Σ_{q=1..vocab} q^−s`. Built once; each sample is a binary search.
#[derive(Debug, Clone)]
pub struct ZipfSampler {
    /// Cumulative weights `Σ_{q ≤ r} q^−s`, one per rank.
    cdf: Vec<f64>,
    /// The exponent `s`.
    s: f64,
}

impl ZipfSampler {
    /// The sampler over `vocab` ranks with exponent `s`. Panics if `vocab == 0`.
    pub fn new(vocab: usize, s: f64) -> Self {
        assert!(vocab > 0, "a Zipf law needs at least one token");
        let mut total = 0.0;
        let cdf = (1..=vocab)
            .map(|r| {
                total += crate::math::powf(r as f64, -s);
                total
            })
            .collect();
        ZipfSampler { cdf, s }
    }

    /// One token id in `0..vocab`, in O(log vocab).
    pub fn sample(&self, rng: &mut SplitMix64) -> usize {
        let total = self.cdf[self.cdf.len() - 1];
        let u = rng.next_f64() * total;
        self.cdf
            .partition_point(|&c| c <= u)
            .min(self.cdf.len() - 1)
    }

    /// The number of token ids.
    pub fn vocab(&self) -> usize {
        self.cdf.len()
    }

    /// The probability of token id `id` (rank `id + 1`); 0 outside the vocabulary.
    pub fn probability(&self, id: usize) -> f64 {
        if id >= self.cdf.len() {
            return 0.0;
        }
        crate::math::powf((id + 1) as f64, -self.s) / self.cdf[self.cdf.len() - 1]
    }
}

/// Tokens per expert under hash routing: each token id adds 1 to each of its
/// `k` experts in `table`.
pub fn hash_loads(table: &[u32], k: usize, experts: usize, ids: &[usize]) -> Vec<u64> {
    let mut loads = vec![0u64; experts];
    for &id in ids {
        for &e in &table[id * k..(id + 1) * k] {
            loads[e as usize] += 1;
        }
    }
    loads
}

/// Tokens per expert under uniform random routing (what a perfectly balanced
/// learned router gives on average): every token picks `k` distinct experts
/// uniformly at random. Panics if `k > experts`.
pub fn uniform_loads(rng: &mut SplitMix64, tokens: usize, experts: usize, k: usize) -> Vec<u64> {
    let mut perm: Vec<u32> = (0..experts as u32).collect();
    let mut loads = vec![0u64; experts];
    for _ in 0..tokens {
        for &e in pick_distinct(rng, &mut perm, k) {
            loads[e as usize] += 1;
        }
    }
    loads
}

/// Load imbalance `max(loads) / mean(loads)`; 1 when balanced, 0 when nothing
/// was routed (or `loads` is empty).
pub fn max_over_mean(loads: &[u64]) -> f64 {
    let total: u64 = loads.iter().sum();
    if total == 0 {
        return 0.0;
    }
    let max = loads.iter().copied().max().unwrap_or(0);
    max as f64 * loads.len() as f64 / total as f64
}

/// Loads of one batch under both routers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchLoads {
    /// Tokens in the batch.
    pub batch: usize,
    /// Tokens per expert with the hash table.
    pub hash: Vec<u64>,
    /// Tokens per expert with uniform routing.
    pub uniform: Vec<u64>,
}

/// The experiment: one random table, then for each batch size a token
/// stream drawn from `zipf` routed by the table and by the uniform router.
pub fn simulate(
    seed: u64,
    zipf: &ZipfSampler,
    experts: usize,
    k: usize,
    batches: &[usize],
) -> Vec<BatchLoads> {
    let mut rng = SplitMix64::new(seed);
    let table = hash_table(&mut rng, zipf.vocab(), experts, k);
    batches
        .iter()
        .map(|&batch| {
            let ids: Vec<usize> = (0..batch).map(|_| zipf.sample(&mut rng)).collect();
            BatchLoads {
                batch,
                hash: hash_loads(&table, k, experts, &ids),
                uniform: uniform_loads(&mut rng, batch, experts, k),
            }
        })
        .collect()
}

/// The floor no hash table removes: every expert of the most frequent token
/// receives that token's share `p_max` of the stream, against a mean share of
/// `k / experts`, so the busiest expert carries at least `p_max · experts / k`
/// times the mean load (on average over batches). A better table cannot lower
/// it; only replicating the hot experts can.
pub fn load_floor(p_max: f64, experts: usize, k: usize) -> f64 {
    p_max * experts as f64 / k as f64
}

/// Bytes one token sends per MoE layer in expert-parallel dispatch:
/// `hidden × topk × bytes_per_elem` (a copy of its activation to each expert).
pub fn dispatch_bytes(hidden: u64, topk: u64, bytes_per_elem: u64) -> u64 {
    hidden * topk * bytes_per_elem
}

/// Models in the dispatch table: (name, dimension dispatched, experts per token).
pub const MODELS: &[(&str, u64, u64)] = &[
    ("DeepSeek-V3", 7168, 8),
    ("DeepSeek-V4-Pro", 7168, 6),
    ("Kimi-K3 (latent 3584)", 3584, 16),
    ("Kimi-K3 without the latent projection", 7168, 16),
];
// ANCHOR_END: demo

/// The name of [`MODELS`]`[i]` in `lang`: the Kimi-K3 variants' words come
/// from the catalog.
fn model_name(i: usize, lang: Lang) -> String {
    match i {
        2 => say::kimi_latent.text(lang),
        3 => say::kimi_no_latent.text(lang),
        _ => MODELS[i].0.to_owned(),
    }
}

/// Largest vocabulary the demo accepts (Gemma's 262,144). Building the Zipf
/// law costs one `powf` per token id, the most expensive step per unit.
pub const MAX_VOCAB: u64 = 1 << 18;
/// Largest routing table the demo builds: `vocab × topk` entries.
pub const MAX_TABLE: u64 = 1 << 20;
/// Most tokens the demo draws from the Zipf law: the sum of the batch sizes.
pub const MAX_TOKENS: u64 = 1 << 17;
/// Most expert assignments the demo makes per router: `Σ batches × topk`.
pub const MAX_ROUTED: u64 = 1 << 19;

/// Entries of the routing table, `vocab × topk`, in 64-bit arithmetic
/// (`usize` is 32 bits in WASM); `None` past `u64::MAX`.
pub fn table_entries(vocab: u64, topk: u64) -> Option<u64> {
    checked_product(&[vocab, topk])
}

/// Expert assignments per router, `Σ batches × topk`, in 64-bit arithmetic;
/// `None` past `u64::MAX`.
pub fn routed_assignments(batches: &[u64], topk: u64) -> Option<u64> {
    checked_product(&[checked_sum(batches)?, topk])
}

/// The seed of the table and the token streams.
const SEED: Param = Param::int("seed", "1", 0, u32::MAX as i64);
/// The vocabulary: rows of the table.
const VOCAB: Param = Param::int("vocab", "129,280", 1, MAX_VOCAB as i64);
/// The routed experts.
const EXPERTS: Param = Param::int("experts", "256", 2, 4_096);
/// Experts per token (at most `experts`, with the vocabulary under [`MAX_TABLE`]).
const TOPK: Param = Param::int("topk", "6", 1, 4_096);
/// The Zipf exponent of the token stream.
const ZIPF: Param = Param::float("zipf", "1.1", 0.0, 3.0);
/// The batch sizes, in tokens (under [`MAX_TOKENS`] and [`MAX_ROUTED`] in all).
const BATCHES: Param = Param::ints("batches", "256 4,096 65,536", 1, MAX_TOKENS as i64, 6);
/// The batch whose loads are charted (one of `batches`).
const CHART_BATCH: Param = Param::int("chart_batch", "4,096", 1, MAX_TOKENS as i64);

/// The cell's parameters.
pub const PARAMS: &[Param] = &[SEED, VOCAB, EXPERTS, TOPK, ZIPF, BATCHES, CHART_BATCH];

/// The cell.
pub fn demo() -> Demo {
    Demo {
        id: "routing",
        params: PARAMS,
        #[cfg(feature = "render")]
        source: crate::demo::anchored(include_str!("routing.rs"), "demo"),
        #[cfg(feature = "run")]
        run,
    }
}

/// Checked parameters of the demo.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Seed of the table and the token streams.
    pub seed: u64,
    /// Vocabulary size (rows of the table).
    pub vocab: usize,
    /// Routed experts.
    pub experts: usize,
    /// Experts per token.
    pub topk: usize,
    /// Zipf exponent of the token stream.
    pub zipf: f64,
    /// Batch sizes in tokens.
    pub batches: Vec<usize>,
    /// The batch whose per-expert loads are charted (one of `batches`).
    pub chart_batch: usize,
}

impl Params {
    /// Validates the reader's text; every bad field gets its own message, and
    /// fields that depend on others (`topk`, `batches`, `chart_batch`) are
    /// checked against them when those parsed. The work of the run is
    /// estimated here, in 64-bit arithmetic, and refused past [`MAX_TABLE`],
    /// [`MAX_TOKENS`] and [`MAX_ROUTED`], before anything is built.
    pub fn parse(raw: &Raw) -> Result<Params, Vec<ParamError>> {
        let seed = SEED.read_int(raw).map(|v| v as u64);
        let vocab = VOCAB.read_int(raw).map(|v| v as u64);
        let experts = EXPERTS.read_int(raw).map(|v| v as u64);
        let mut topk = TOPK.read_int(raw).map(|v| v as u64);
        if let (Ok(k), Ok(e)) = (&topk, &experts)
            && k > e
        {
            topk = Err(ParamError::said(
                TOPK.name,
                &say::topk_max {
                    n: group(*e as i64),
                },
            ));
        }
        if let (Ok(k), Ok(v)) = (&topk, &vocab)
            && let Err(e) = check_budget(
                TOPK.name,
                &say::budget_table_what,
                table_entries(*v, *k),
                MAX_TABLE,
                &say::budget_table_unit,
                &say::budget_table_lower,
            )
        {
            topk = Err(e);
        }
        let zipf = ZIPF.read_float(raw);
        let mut batches = BATCHES
            .read_ints(raw)
            .map(|b| b.into_iter().map(|v| v as u64).collect::<Vec<_>>());
        if let Ok(b) = &batches
            && let Err(e) = check_budget(
                BATCHES.name,
                &say::budget_tokens_what,
                checked_sum(b),
                MAX_TOKENS,
                &say::budget_tokens_unit,
                &say::budget_tokens_lower,
            )
        {
            batches = Err(e);
        }
        if let (Ok(b), Ok(k)) = (&batches, &topk)
            && let Err(e) = check_budget(
                BATCHES.name,
                &say::budget_routed_what,
                routed_assignments(b, *k),
                MAX_ROUTED,
                &say::budget_routed_unit,
                &say::budget_routed_lower,
            )
        {
            batches = Err(e);
        }
        let mut chart_batch = CHART_BATCH.read_int(raw).map(|v| v as u64);
        if let (Ok(c), Ok(b)) = (&chart_batch, &batches)
            && !b.contains(c)
        {
            let list: Vec<String> = b.iter().map(|&v| group(v as i64)).collect();
            chart_batch = Err(ParamError::in_all(
                CHART_BATCH.name,
                Lang::ALL.map(|lang| {
                    let list = list.join(say::list_sep.as_str(lang));
                    say::chart_batch_not_listed { list }.text(lang)
                }),
            ));
        }
        let (seed, vocab, experts, topk, zipf, batches, chart_batch) = (seed, vocab, experts, topk, zipf, batches, chart_batch).all_ok()?;
        Ok(Params {
        seed,
        // All four are bounded by the checks above, so they fit a 32-bit usize.
        vocab: vocab as usize,
        experts: experts as usize,
        topk: topk as usize,
        zipf,
        batches: batches.into_iter().map(|b| b as usize).collect(),
        chart_batch: chart_batch as usize,
    })
    }
}

/// Runs the demo: imbalance per batch as text and a table, the charted batch's
/// per-expert loads as bars, and the dispatch bytes per token.
pub fn run(raw: &Raw, lang: Lang) -> Result<Output, Vec<ParamError>> {
    let p = Params::parse(raw)?;
    let zipf = ZipfSampler::new(p.vocab, p.zipf);
    let results = simulate(p.seed, &zipf, p.experts, p.topk, &p.batches);

    let tokens = |n: usize| match n {
        1 => say::tokens_one { n }.text(lang),
        _ => say::tokens { n: group(n as i64) }.text(lang),
    };
    let mut text = String::new();
    for r in &results {
        text += &say::batch {
            tokens: tokens(r.batch),
            hash: format!("{:.1}", max_over_mean(&r.hash)),
            uniform: format!("{:.1}", max_over_mean(&r.uniform)),
        }
        .text(lang);
    }
    let p_max = zipf.probability(0);
    let floor = load_floor(p_max, p.experts, p.topk);
    text += &say::floor {
        share: format!("{:.1}", 100.0 * p_max),
        floor: format!("{floor:.1}"),
    }
    .text(lang);
    let rows = results
        .iter()
        .map(|r| {
            vec![
                group(r.batch as i64),
                format!("{:.2}", max_over_mean(&r.hash)),
                format!("{:.2}", max_over_mean(&r.uniform)),
            ]
        })
        .collect();

    let charted = results.iter().find(|r| r.batch == p.chart_batch);
    let experts = 0..p.experts;
    let plot = Plot::new(
        say::chart_title {
            tokens: tokens(p.chart_batch),
            experts: match p.topk {
                1 => say::experts_one { n: 1 }.text(lang),
                k => say::experts { n: group(k as i64) }.text(lang),
            },
        }
        .text(lang),
        say::expert_id.text(lang),
        say::chart_y.text(lang),
    )
    .bars(
        say::hash_routing.text(lang),
        experts.clone(),
        charted.map(|r| &r.hash).into_iter().flatten(),
    )
    .bars(
        say::uniform_routing.text(lang),
        experts,
        charted.map(|r| &r.uniform).into_iter().flatten(),
    )
    // A level line across the experts: its two ends.
    .dashed(
        say::floor_series.text(lang),
        [0, p.experts - 1],
        [floor * (p.chart_batch * p.topk) as f64 / p.experts as f64; 2],
    );
    // Every batch at once: each expert's load as a multiple of the mean, one row
    // per batch and router, so hot experts show as columns that stay bright.
    let relative = |loads: &[u64]| -> Vec<f64> {
        let total: u64 = loads.iter().sum();
        let mean = total as f64 / loads.len().max(1) as f64;
        loads
            .iter()
            .map(|&l| if mean > 0.0 { l as f64 / mean } else { 0.0 })
            .collect()
    };
    let mut labels = Vec::new();
    let mut z = Vec::new();
    for (router, loads_of) in [
        (
            say::hash.text(lang),
            (|r: &BatchLoads| &r.hash) as fn(&BatchLoads) -> &Vec<u64>,
        ),
        (say::uniform.text(lang), |r: &BatchLoads| &r.uniform),
    ] {
        for r in &results {
            let batch = group(r.batch as i64);
            labels.push(say::loads_row { router: &router, batch }.text(lang));
            z.push(relative(loads_of(r)));
        }
    }
    let loads = Plot::heatmap(
        say::loads_title.text(lang),
        say::expert_id.text(lang),
        say::loads_y.text(lang),
        Heatmap {
            x: (0..p.experts).map(|e| e.to_string()).collect(),
            y: labels,
            z,
            z_label: say::loads_z.text(lang),
            z_range: None,
        },
    );

    let dispatch = MODELS
        .iter()
        .enumerate()
        .map(|(i, &(_, hidden, topk))| {
            let bytes = dispatch_bytes(hidden, topk, 1);
            let kib = if bytes.is_multiple_of(1024) {
                group((bytes / 1024) as i64)
            } else {
                format!("{:.1}", bytes as f64 / 1024.0)
            };
            vec![
                model_name(i, lang),
                group(hidden as i64),
                topk.to_string(),
                group(bytes as i64),
                kib,
            ]
        })
        .collect();
    let batches = [
        say::col_batch.text(lang),
        say::col_hash.text(lang),
        say::col_uniform.text(lang),
    ];
    let dispatch_header = [
        say::col_model.text(lang),
        say::col_values.text(lang),
        say::col_topk.text(lang),
        say::col_bytes.text(lang),
        "KiB".to_owned(),
    ];
    Ok(Output::new()
        .text(text)
        .table(batches, rows)
        .plot(plot)
        .plot(loads)
        .text(say::dispatch_intro.text(lang))
        .table(dispatch_header, dispatch))
}

#[cfg(test)]
mod tests;
