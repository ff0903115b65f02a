//! DeepSeek-V4's KV compressor: every R tokens become one KV entry, streaming
//! (one token at a time, with a partial state) or all at once.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis, s};

use crate::demo::{
    Demo, Output, Param, ParamError, Plot, Raw, Series, AllOk, check_budget,
    checked_product, checked_sum, group_u64,
};
use crate::lang::Lang;
use crate::math;
use crate::say::compressor as say;
use crate::rng::SplitMix64;

// ANCHOR: demo
/// The compressor's learned weights (random here: only the structure matters).
#[derive(Debug, Clone)]
pub struct Weights {
    /// KV projection, `[D, D]`.
    pub w_kv: Array2<f64>,
    /// Gate-score projection, `[D, D]`.
    pub w_gate: Array2<f64>,
    /// Bias per position inside the window (V4 calls it `ape`), `[window, D]`.
    pub ape: Array2<f64>,
}

impl Weights {
    /// Random weights: projections ~ N(0, 1/D), position biases ~ N(0, 1/16).
    pub fn random(rng: &mut SplitMix64, dim: usize, window: usize) -> Weights {
        let mut randn =
            |rows: usize, scale: f64| Array2::from_shape_fn((rows, dim), |_| rng.normal() * scale);
        let sd = 1.0 / (dim as f64).sqrt();
        Weights {
            w_kv: randn(dim, sd),
            w_gate: randn(dim, sd),
            ape: randn(window, 0.25),
        }
    }
}

/// One entry from a window of tokens: for every dimension d separately,
/// `entry[d] = Σ_i softmax_i(score[i, d]) · kv[i, d]` over the window's tokens i.
pub fn pool(kv: ArrayView2<f64>, score: ArrayView2<f64>) -> Array1<f64> {
    let max = score.fold_axis(Axis(0), f64::NEG_INFINITY, |m, &x| m.max(x));
    let e = (&score - &max).mapv(math::exp);
    let weights = &e / &e.sum_axis(Axis(0));
    (&weights * &kv).sum_axis(Axis(0))
}

/// A streaming compressor: `push` one token per decode step. Entries cover
/// `window` tokens and start every `ratio` tokens (window = ratio: disjoint
/// blocks; window = 2·ratio: V4's overlapping C4 layout).
#[derive(Debug, Clone)]
pub struct Compressor {
    weights: Weights,
    ratio: usize,
    window: usize,
    /// Partial state: KV and raw gate scores of tokens not yet fully consumed.
    kv: Vec<Array1<f64>>,
    gate: Vec<Array1<f64>>,
    seen: usize,
    /// The finished entries.
    pub entries: Vec<Array1<f64>>,
}

impl Compressor {
    /// An empty compressor.
    pub fn new(weights: Weights, ratio: usize, window: usize) -> Compressor {
        Compressor {
            weights,
            ratio,
            window,
            kv: vec![],
            gate: vec![],
            seen: 0,
            entries: vec![],
        }
    }

    /// Adds one token's hidden state `h` (`[D]`); emits an entry when a window fills.
    pub fn push(&mut self, h: ArrayView1<f64>) {
        self.kv.push(h.dot(&self.weights.w_kv));
        self.gate.push(h.dot(&self.weights.w_gate));
        self.seen += 1;
        if self.seen >= self.window && (self.seen - self.window).is_multiple_of(self.ratio) {
            let stack = |rows: &[Array1<f64>]| {
                Array2::from_shape_fn((rows.len(), rows[0].len()), |(i, d)| rows[i][d])
            };
            let kv = stack(&self.kv);
            let score = stack(&self.gate) + &self.weights.ape;
            self.entries.push(pool(kv.view(), score.view()));
            // Keep only what the next window still needs.
            self.kv.drain(..self.ratio);
            self.gate.drain(..self.ratio);
        }
    }

    /// Tokens held in the partial state (saved, moved and rolled back with the request).
    pub fn partial_tokens(&self) -> usize {
        self.kv.len()
    }
}

/// Prefill: compress a whole sequence `h` (`[n, D]`) at once with matrix products.
pub fn compress_all(
    h: ArrayView2<f64>,
    w: &Weights,
    ratio: usize,
    window: usize,
) -> Vec<Array1<f64>> {
    let kv = h.dot(&w.w_kv);
    let gate = h.dot(&w.w_gate);
    let n = h.nrows();
    (0..)
        .map(|k| k * ratio)
        .take_while(|start| start + window <= n)
        .map(|start| {
            let score = &gate.slice(s![start..start + window, ..]) + &w.ape;
            pool(kv.slice(s![start..start + window, ..]), score.view())
        })
        .collect()
}
// ANCHOR_END: demo

/// Entries and partial-state tokens after `n_tokens` with disjoint blocks of `ratio`.
pub fn compressor_counts(n_tokens: u64, ratio: u64) -> (u64, u64) {
    (n_tokens / ratio, n_tokens % ratio)
}

/// Prefix-cache reuse on a compressed layer: entries that can be reused, the
/// tokens they cover, and the tail that must be recomputed (or restored from a
/// saved partial state).
pub fn prefix_reuse(prefix_len: u64, ratio: u64) -> (u64, u64, u64) {
    let entries = prefix_len / ratio;
    (entries, entries * ratio, prefix_len - entries * ratio)
}

/// Most work the cell does: `(tokens + 2) × D²` element operations. Each token
/// meets the two `D × D` projections (on both paths), and the two matrices are
/// drawn first; everything else is smaller.
pub const MAX_WORK: u64 = 1 << 21;

/// Largest KV dimension D. Drawing the two `D × D` weight matrices costs about
/// as much as 16 tokens (each normal sample takes a logarithm and a cosine), so
/// at D = 512 the weights alone would take most of the budget.
pub const MAX_DIM: u64 = 256;

/// The work of one run, `(tokens + 2) × D²`, in 64-bit arithmetic (`usize` is
/// 32 bits in WASM); `None` past `u64::MAX`.
pub fn work(tokens: u64, dim: u64) -> Option<u64> {
    checked_product(&[checked_sum(&[tokens, 2])?, dim, dim])
}

/// Disjoint blocks of R, or V4's overlapping windows of 2R.
const LAYOUT: Param = Param::choice("layout", &["disjoint", "overlapping"]);
/// The tokens to feed (with D, under [`MAX_WORK`]).
const TOKENS: Param = Param::int("tokens", "22", 0, 4_096);
/// The compression ratio R: tokens per entry.
const RATIO: Param = Param::int("ratio", "4", 1, 256);
/// The KV dimension D.
const DIM: Param = Param::int("dim", "8", 1, MAX_DIM as i64);
/// The seed of the random weights and tokens.
const SEED: Param = Param::int("seed", "1", 0, i64::MAX);

/// The cell's parameters.
pub const PARAMS: &[Param] = &[LAYOUT, TOKENS, RATIO, DIM, SEED];

/// The cell.
pub fn demo() -> Demo {
    Demo {
        id: "compressor",
        params: PARAMS,
        #[cfg(feature = "render")]
        source: crate::demo::anchored(include_str!("compressor.rs"), "demo"),
        #[cfg(feature = "run")]
        run,
    }
}

/// Checked parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Params {
    /// Overlapping windows of 2R (V4's C4 layers) instead of disjoint blocks.
    pub overlap: bool,
    /// Tokens to feed.
    pub tokens: usize,
    /// Compression ratio R.
    pub ratio: usize,
    /// KV dimension D.
    pub dim: usize,
    /// RNG seed.
    pub seed: u64,
}

impl Params {
    /// Validates the reader's text, and refuses a run whose work
    /// ([`work`]) is over [`MAX_WORK`] before anything is computed.
    pub fn parse(raw: &Raw) -> Result<Params, Vec<ParamError>> {
        let layout = LAYOUT.read_choice(raw);
        let mut tokens = TOKENS.read_int(raw);
        let dim = DIM.read_int(raw);
        if let (Ok(t), Ok(d)) = (&tokens, &dim)
            && let Err(e) = check_budget(
                TOKENS.name,
                &say::budget_what,
                work(*t as u64, *d as u64),
                MAX_WORK,
                &say::budget_unit,
                &say::budget_lower,
            )
        {
            tokens = Err(e);
        }
        let (l, tokens, ratio, dim, seed) = (
            layout,
            tokens,
            RATIO.read_int(raw),
            dim,
            SEED.read_int(raw),
        )
            .all_ok()?;
        Ok(Params {
            overlap: l == "overlapping",
            tokens: tokens as usize,
            ratio: ratio as usize,
            dim: dim as usize,
            seed: seed as u64,
        })
    }
}

/// Everything the cell shows, computed.
#[derive(Debug, Clone)]
pub struct Computed {
    /// Entries from streaming.
    pub streamed: Vec<Array1<f64>>,
    /// Entries from the batch path.
    pub batch: Vec<Array1<f64>>,
    /// Tokens left in the streaming compressor's partial state.
    pub partial: usize,
    /// Largest |streaming − batch| over all entries and dimensions.
    pub max_abs_diff: f64,
    /// Window length (R or 2R).
    pub window: usize,
    /// Gate weights of dimension 0 for each entry's tokens: (token index, weight).
    pub weights_dim0: Vec<Vec<(usize, f64)>>,
}

/// Runs both paths on the same random sequence.
pub fn compute(p: &Params) -> Computed {
    let window = if p.overlap { 2 * p.ratio } else { p.ratio };
    let mut rng = SplitMix64::new(p.seed);
    let w = Weights::random(&mut rng, p.dim, window);
    let h = Array2::from_shape_fn((p.tokens, p.dim), |_| rng.normal());
    let mut c = Compressor::new(w.clone(), p.ratio, window);
    for row in h.rows() {
        c.push(row);
    }
    let batch = compress_all(h.view(), &w, p.ratio, window);
    let max_abs_diff = c
        .entries
        .iter()
        .zip(&batch)
        .flat_map(|(a, b)| a.iter().zip(b.iter()).map(|(x, y)| (x - y).abs()))
        .fold(0.0, f64::max);
    let gate = h.dot(&w.w_gate);
    let weights_dim0 = (0..batch.len())
        .map(|k| {
            let start = k * p.ratio;
            let scores: Vec<f64> = (0..window)
                .map(|i| gate[[start + i, 0]] + w.ape[[i, 0]])
                .collect();
            let max = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let sum: f64 = scores.iter().map(|s| math::exp(s - max)).sum();
            scores
                .iter()
                .enumerate()
                .map(|(i, s)| (start + i, math::exp(s - max) / sum))
                .collect()
        })
        .collect();
    Computed {
        partial: c.partial_tokens(),
        streamed: c.entries,
        batch,
        max_abs_diff,
        window,
        weights_dim0,
    }
}

/// Runs the demo.
pub fn run(raw: &Raw, lang: Lang) -> Result<Output, Vec<ParamError>> {
    let p = Params::parse(raw)?;
    let r = compute(&p);
    let tokens = |n: usize| match n {
        1 => say::tokens_one { n }.text(lang),
        _ => say::tokens { n: group_u64(n as u64) }.text(lang),
    };
    let entries = |n: usize| match n {
        1 => say::entries_one { n }.text(lang),
        _ => say::entries { n: group_u64(n as u64) }.text(lang),
    };
    let layout = if p.overlap {
        say::layout_overlapping {
            window: tokens(r.window),
            ratio: tokens(p.ratio),
        }
        .text(lang)
    } else {
        say::layout_disjoint {
            ratio: tokens(p.ratio),
        }
        .text(lang)
    };
    // Identical results read as such, not as "0.0e0".
    let diff = if r.max_abs_diff == 0.0 {
        say::diff_zero.text(lang)
    } else {
        format!("{:.1e}", r.max_abs_diff)
    };
    let text = say::summary {
        n: tokens(p.tokens),
        dim: p.dim,
        layout,
        streamed: entries(r.streamed.len()),
        partial: tokens(r.partial),
        batch: entries(r.batch.len()),
        diff,
    }
    .text(lang);
    let shown = p.dim.min(4);
    let mut header = vec![say::col_entry.text(lang), say::col_tokens.text(lang)];
    header.extend((0..shown).map(|d| say::col_dim { d }.text(lang)));
    let rows = r
        .batch
        .iter()
        .enumerate()
        .take(64)
        .map(|(k, e)| {
            let start = k * p.ratio + 1;
            let mut row = vec![
                (k + 1).to_string(),
                format!("{start}–{}", start + r.window - 1),
            ];
            row.extend((0..shown).map(|d| format!("{:+.4}", e[d])));
            row
        })
        .collect();
    let series = r
        .weights_dim0
        .iter()
        .enumerate()
        .take(16)
        .map(|(k, ws)| {
            Series::bars(
                say::series_entry { k: k + 1 }.text(lang),
                ws.iter().map(|(t, _)| t + 1),
                ws.iter().map(|(_, w)| w),
            )
        });
    let plot = Plot::new(
        say::chart_title.text(lang),
        say::chart_x.text(lang),
        say::chart_y.text(lang),
    )
    .series(series);
    Ok(Output::new().text(text).table(header, rows).plot(plot))
}

#[cfg(test)]
mod tests;
