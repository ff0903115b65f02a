//! mHC: four residual streams mixed by a doubly stochastic matrix (Sinkhorn), and
//! what that constraint does to the residual path over many layers.

use ndarray::{Array1, Array2, Axis};

use crate::demo::{
    Demo, Heatmap, Output, Param, ParamError, Plot, Raw, Series, AllOk, check_budget,
    checked_product, group,
};
use crate::lang::Lang;
use crate::math;
use crate::rng::SplitMix64;
use crate::say::mhc as say;

// ANCHOR: demo
/// Residual streams (DeepSeek-V4's `hc_mult`).
pub const N: usize = 4;
/// Width of each stream in the demo.
pub const H: usize = 64;

/// Sinkhorn–Knopp: a row softmax of `logits` (plus `eps`), then alternate
/// normalisation, columns first, so every column sums to 1 (within `eps`) and
/// the rows converge to 1: `M ← M / (colsum + eps)`, then `iters − 1` times
/// `M ← M / (rowsum + eps)`, `M ← M / (colsum + eps)`.
/// `iters = 0` behaves like `iters = 1`.
pub fn sinkhorn(logits: &Array2<f64>, iters: usize, eps: f64) -> Array2<f64> {
    let mut m = logits.clone();
    for mut row in m.rows_mut() {
        let max = row.fold(f64::NEG_INFINITY, |a, &b| a.max(b));
        row.mapv_inplace(|v| math::exp(v - max));
        let sum = row.sum();
        row.mapv_inplace(|v| v / sum + eps);
    }
    m /= &(m.sum_axis(Axis(0)) + eps);
    for _ in 1..iters {
        m /= &(m.sum_axis(Axis(1)) + eps).insert_axis(Axis(1));
        m /= &(m.sum_axis(Axis(0)) + eps);
    }
    m
}

/// Logistic function `1 / (1 + e^−x)`.
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + math::exp(-x))
}

/// Before a sublayer: `mix = (W · x) / √(mean(x²) + 1e-6)` with `x` the flattened
/// streams; `pre = σ(mix[..N]·s₀ + b)`, `post = 2σ(mix[N..2N]·s₁ + b)`,
/// `comb = sinkhorn(mix[2N..]·s₂ + b as N×N, 20, 1e-6)`; the sublayer input is
/// `Σᵢ preᵢ · streamᵢ`. Returns `(input [H], post [N], comb [N, N])`.
/// Panics unless `fn_w` is `[2N + N², N·H]` and `base` has `2N + N²` entries.
pub fn mhc_pre(
    streams: &Array2<f64>,
    fn_w: &Array2<f64>,
    base: &Array1<f64>,
    scale: [f64; 3],
) -> (Array1<f64>, Array1<f64>, Array2<f64>) {
    let n = streams.nrows();
    let x = Array1::from_iter(streams.iter().copied());
    let mix = fn_w.dot(&x) / (x.dot(&x) / x.len() as f64 + 1e-6).sqrt();
    let pre = Array1::from_shape_fn(n, |i| sigmoid(mix[i] * scale[0] + base[i]));
    let post = Array1::from_shape_fn(n, |i| 2.0 * sigmoid(mix[n + i] * scale[1] + base[n + i]));
    let logits = Array2::from_shape_fn((n, n), |(i, j)| {
        let k = 2 * n + i * n + j;
        mix[k] * scale[2] + base[k]
    });
    let comb = sinkhorn(&logits, 20, 1e-6);
    (pre.dot(streams), post, comb)
}

/// After a sublayer: new stream `j` = `Σᵢ comb[i, j] · streamᵢ + post[j] · out`,
/// i.e. `combᵀ · streams + post ⊗ out`. Returns `[N, H]`.
pub fn mhc_post(
    out: &Array1<f64>,
    streams: &Array2<f64>,
    post: &Array1<f64>,
    comb: &Array2<f64>,
) -> Array2<f64> {
    comb.t().dot(streams) + &post.view().insert_axis(Axis(1)) * &out.view().insert_axis(Axis(0))
}

/// Largest singular value `‖M‖₂ = √λ_max(MᵀM)` (of the smaller Gram matrix,
/// after scaling `M` by its largest entry so the Gram matrix cannot overflow).
/// 0 for a zero or empty matrix; infinite if an entry is; NaN if an entry is.
pub fn spectral_norm(m: &Array2<f64>) -> f64 {
    if m.iter().any(|v| v.is_nan()) {
        return f64::NAN;
    }
    let a = m.fold(0.0_f64, |acc, &v| acc.max(v.abs()));
    if a == 0.0 || !a.is_finite() {
        return a;
    }
    let u = m / a;
    let gram = if u.nrows() >= u.ncols() {
        u.t().dot(&u)
    } else {
        u.dot(&u.t())
    };
    let top = symmetric_eigenvalues(gram)
        .into_iter()
        .fold(0.0_f64, f64::max);
    a * top.sqrt()
}

/// `N(0, 1)` entries, drawn row by row.
fn normal_matrix(rng: &mut SplitMix64, rows: usize, cols: usize) -> Array2<f64> {
    Array2::from_shape_simple_fn((rows, cols), || rng.normal())
}

/// The residual path alone over `depth` layers: for d = 1..=depth, `‖A_d ⋯ A_1‖₂`
/// with `A = I + noise·N(0,1)` (unconstrained hyper-connections) and with
/// `A = sinkhorn(3I + 0.5·N(0,1), iters, 1e-6)ᵀ` (mHC), and the two products
/// after the last layer. A product that overflows `f64` reports `inf` from there on.
pub fn residual_path(seed: u64, depth: usize, noise: f64, iters: usize) -> ResidualPath {
    let mut rng = SplitMix64::new(seed);
    let eye = Array2::<f64>::eye(N);
    let (mut prod_free, mut prod_ds) = (eye.clone(), eye.clone());
    let (mut free, mut ds) = (Vec::with_capacity(depth), Vec::with_capacity(depth));
    for _ in 0..depth {
        let a = &eye + &(normal_matrix(&mut rng, N, N) * noise);
        prod_free = a.dot(&prod_free);
        let logits = &eye * 3.0 + normal_matrix(&mut rng, N, N) * 0.5;
        prod_ds = sinkhorn(&logits, iters, 1e-6).t().dot(&prod_ds);
        free.push(finite_or_inf(spectral_norm(&prod_free)));
        ds.push(finite_or_inf(spectral_norm(&prod_ds)));
    }
    ResidualPath { free, ds, free_product: prod_free, ds_product: prod_ds }
}

/// What [`residual_path`] measures.
pub struct ResidualPath {
    /// `‖A_d ⋯ A_1‖₂` per depth, unconstrained.
    pub free: Vec<f64>,
    /// The same with doubly stochastic mixing matrices.
    pub ds: Vec<f64>,
    /// The unconstrained product after the last layer.
    pub free_product: Array2<f64>,
    /// The doubly stochastic product after the last layer.
    pub ds_product: Array2<f64>,
}

/// The two norm curves of [`residual_path`], `(free, ds)`.
pub fn product_norms(seed: u64, depth: usize, noise: f64, iters: usize) -> (Vec<f64>, Vec<f64>) {
    let path = residual_path(seed, depth, noise, iters);
    (path.free, path.ds)
}
// ANCHOR_END: demo

/// NaN (from `inf − inf` in an overflowed product) reads as overflow.
fn finite_or_inf(v: f64) -> f64 {
    if v.is_nan() { f64::INFINITY } else { v }
}

/// Eigenvalues of a symmetric matrix by cyclic Jacobi rotations (exact to
/// rounding for the small matrices used here).
fn symmetric_eigenvalues(mut a: Array2<f64>) -> Vec<f64> {
    let n = a.nrows();
    for _sweep in 0..64 {
        let total: f64 = a.iter().map(|v| v * v).sum();
        let off: f64 = total - a.diag().iter().map(|v| v * v).sum::<f64>();
        if off <= 1e-32 * total || !off.is_finite() {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = a[[p, q]];
                if apq == 0.0 {
                    continue;
                }
                let theta = (a[[q, q]] - a[[p, p]]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..n {
                    let (akp, akq) = (a[[k, p]], a[[k, q]]);
                    a[[k, p]] = c * akp - s * akq;
                    a[[k, q]] = s * akp + c * akq;
                }
                for k in 0..n {
                    let (apk, aqk) = (a[[p, k]], a[[q, k]]);
                    a[[p, k]] = c * apk - s * aqk;
                    a[[q, k]] = s * apk + c * aqk;
                }
            }
        }
    }
    a.diag().to_vec()
}

/// Most Sinkhorn iterations the cell runs: `layers × iterations` (one 4 × 4
/// matrix per layer; the single layer shown first adds at most 200 more).
pub const MAX_SINKHORN: u64 = 20_000;

/// Largest singular value the chart plots. Plotly's log axis pads its range by
/// a few decades past the largest value, and near `f64::MAX` (1.8e308) that
/// padding overflows into "NaN×10^Infinity" tick labels; the text reports larger
/// values and where the product overflowed.
pub const CHART_MAX: f64 = 1e200;

/// The work of one run, `layers × iterations` Sinkhorn iterations, in 64-bit
/// arithmetic; `None` past `u64::MAX`.
pub fn work(depth: u64, iters: u64) -> Option<u64> {
    checked_product(&[depth, iters])
}

/// The seed of the random draws.
const SEED: Param = Param::int("seed", "1", 0, u32::MAX as i64);
/// The mixing matrices multiplied (with the iterations, under [`MAX_SINKHORN`]).
const DEPTH: Param = Param::int("depth", "60", 1, 1_000);
/// The noise added to the identity in the unconstrained matrices.
const NOISE: Param = Param::float("noise", "0.15", 0.0, 2.0);
/// Sinkhorn iterations for each doubly stochastic matrix.
const ITERS: Param = Param::int("iters", "20", 1, 200);

/// The cell's parameters.
pub const PARAMS: &[Param] = &[SEED, DEPTH, NOISE, ITERS];

/// The cell.
pub fn demo() -> Demo {
    Demo {
        id: "mhc",
        params: PARAMS,
        #[cfg(feature = "render")]
        source: crate::demo::anchored(include_str!("mhc.rs"), "demo"),
        #[cfg(feature = "run")]
        run,
    }
}

/// Checked parameters of the demo.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Seed of the random draws.
    pub seed: u64,
    /// Number of mixing matrices multiplied.
    pub depth: usize,
    /// Scale of the noise added to the identity in the unconstrained matrices.
    pub noise: f64,
    /// Sinkhorn iterations for the doubly stochastic matrices.
    pub iters: usize,
}

impl Params {
    /// Validates the reader's text; every bad field gets its own message. A
    /// run over [`MAX_SINKHORN`] iterations ([`work`]) is refused before it starts.
    pub fn parse(raw: &Raw) -> Result<Params, Vec<ParamError>> {
        let seed = SEED.read_int(raw);
        let mut depth = DEPTH.read_int(raw);
        let noise = NOISE.read_float(raw);
        let iters = ITERS.read_int(raw);
        if let (Ok(d), Ok(i)) = (&depth, &iters)
            && let Err(e) = check_budget(
                DEPTH.name,
                &say::budget_what,
                work(*d as u64, *i as u64),
                MAX_SINKHORN,
                &say::budget_unit,
                &say::budget_lower,
            )
        {
            depth = Err(e);
        }
        let (seed, depth, noise, iters) = (seed, depth, noise, iters).all_ok()?;
        Ok(Params {
        seed: seed as u64,
        depth: depth as usize,
        noise,
        iters: iters as usize,
    })
    }
}

/// A norm for the reader: 4 decimals, scientific when huge or tiny.
fn fmt_norm(v: f64, lang: Lang) -> String {
    if !v.is_finite() {
        say::overflow.text(lang)
    } else if v >= 1e5 || (v != 0.0 && v < 1e-3) {
        format!("{v:.3e}")
    } else {
        format!("{v:.4}")
    }
}

/// Whether the log-scale chart can draw `v`: finite, positive and at most
/// [`CHART_MAX`].
fn chartable(v: f64) -> bool {
    v.is_finite() && v > 0.0 && v <= CHART_MAX
}

/// A line for the text when the chart of `norms` stops early: at the first
/// layer whose norm passes [`CHART_MAX`] (and where the product overflowed
/// `f64`) or underflowed to 0. Empty when every layer is charted.
fn chart_note(name: &str, norms: &[f64], lang: Lang) -> String {
    let layer = |pred: &dyn Fn(f64) -> bool| norms.iter().position(|&v| pred(v)).map(|i| i + 1);
    let Some(stop) = layer(&|v| !chartable(v)) else {
        return String::new();
    };
    let at = group(stop as i64);
    if norms[stop - 1] == 0.0 {
        return say::underflow { name, at }.text(lang);
    }
    let max = format!("{CHART_MAX:e}");
    let mut line = say::passes { name, max, at }.text(lang);
    if let Some(inf) = layer(&|v| !v.is_finite()) {
        let at = group(inf as i64);
        line += &say::overflowed { at }.text(lang);
    }
    line + "\n"
}

/// Sums as `[1.0000, 0.9999, …]`.
fn fmt_sums(v: &Array1<f64>) -> String {
    let parts: Vec<String> = v.iter().map(|x| format!("{x:.4}")).collect();
    format!("[{}]", parts.join(", "))
}

/// Runs the demo: one mHC layer on random weights, then the residual path over
/// many layers as text, a table and a log-scale chart.
pub fn run(raw: &Raw, lang: Lang) -> Result<Output, Vec<ParamError>> {
    let p = Params::parse(raw)?;
    let mut rng = SplitMix64::new(p.seed);
    let embedding = Array1::from_shape_simple_fn(H, || rng.normal());
    let streams = Array2::from_shape_fn((N, H), |(_, h)| embedding[h]);
    let fn_w = normal_matrix(&mut rng, 2 * N + N * N, N * H) * 0.02;
    let base = Array1::from_shape_simple_fn(2 * N + N * N, || rng.normal());
    let (input, post, comb) = mhc_pre(&streams, &fn_w, &base, [1.0; 3]);
    let streams = mhc_post(&input.mapv(math::tanh), &streams, &post, &comb);
    let layer = sinkhorn(
        &(Array2::eye(N) * 3.0 + normal_matrix(&mut rng, N, N) * 0.5),
        p.iters,
        1e-6,
    );

    let d = p.depth;
    let path = residual_path(p.seed, d, p.noise, p.iters);
    let (free, ds) = (&path.free, &path.ds);
    let (comb_rows, comb_cols) = (
        fmt_sums(&comb.sum_axis(Axis(1))),
        fmt_sums(&comb.sum_axis(Axis(0))),
    );
    let (layer_rows, layer_cols) = (
        fmt_sums(&layer.sum_axis(Axis(1))),
        fmt_sums(&layer.sum_axis(Axis(0))),
    );
    let (width, n, h) = (input.len(), streams.nrows(), streams.ncols());
    let (layers, free_d, ds_d) = (
        group(d as i64),
        fmt_norm(free[d - 1], lang),
        fmt_norm(ds[d - 1], lang),
    );
    let iters = group(p.iters as i64);
    let (after_iters, after_layers) = (
        match p.iters {
            1 => say::after_iters_one { n: &iters }.text(lang),
            _ => say::after_iters { n: &iters }.text(lang),
        },
        match d {
            1 => say::after_layers_one { n: &layers }.text(lang),
            _ => say::after_layers { n: &layers }.text(lang),
        },
    );
    let mut text = say::summary {
        comb_rows,
        comb_cols,
        after_iters,
        layer_rows,
        layer_cols,
        width,
        n,
        h,
        after_layers,
        free: free_d,
        ds: ds_d,
    }
    .text(lang);
    let names = [say::unconstrained.text(lang), say::doubly_stochastic.text(lang)];
    for (name, norms) in names.iter().zip([&free, &ds]) {
        text += &chart_note(name, norms, lang);
    }

    let mut depths: Vec<usize> = [1, 10, 30, 60, d].into_iter().filter(|&x| x <= d).collect();
    depths.sort_unstable();
    depths.dedup();
    let rows = depths
        .iter()
        .map(|&x| {
            vec![
                group(x as i64),
                fmt_norm(free[x - 1], lang),
                fmt_norm(ds[x - 1], lang),
            ]
        })
        .collect();

    let curve = |name: String, ys: &[f64]| {
        let (x, y): (Vec<_>, Vec<&f64>) = (1..=d)
            .zip(ys)
            .take_while(|(_, y)| chartable(**y))
            .unzip();
        Series::line(name, x, y)
    };
    let plot = Plot::new(
        say::chart_title.text(lang),
        say::layers.text(lang),
        say::chart_y.text(lang),
    )
    .log_y()
    .series([
        curve(say::series_free.text(lang), free),
        curve(say::series_ds.text(lang), ds),
    ]);
    let streams_axis: Vec<String> = (0..N).map(|i| i.to_string()).collect();
    let matrix = |title: String, m: &Array2<f64>| {
        let grid = Heatmap {
            x: streams_axis.clone(),
            y: streams_axis.clone(),
            z: m.rows().into_iter().map(|r| r.to_vec()).collect(),
            z_label: say::weight.text(lang),
            // On 0..1 a product that has mixed to 1/4 everywhere reads as
            // uniform, instead of its last-digit differences filling the scale.
            z_range: Some((0.0, 1.0)),
        };
        Plot::heatmap(
            title,
            say::from_stream.text(lang),
            say::to_stream.text(lang),
            grid,
        )
    };
    // Row i of the product says how much of each stream reaches stream i; the
    // layer's matrix is applied transposed (see residual_path), so show Aᵀ.
    let one = matrix(
        match p.iters {
            1 => say::one_matrix_one { n: &iters }.text(lang),
            _ => say::one_matrix { n: &iters }.text(lang),
        },
        &layer.t().to_owned(),
    );
    let product = matrix(
        match d {
            1 => say::product_one { n: &layers }.text(lang),
            _ => say::product { n: &layers }.text(lang),
        },
        &path.ds_product,
    );
    let header: Vec<String> = [say::layers.text(lang)].into_iter().chain(names).collect();
    Ok(Output::new()
        .text(text)
        .table(header, rows)
        .plot(plot)
        .plot(one)
        .plot(product))
}

#[cfg(test)]
mod tests;
