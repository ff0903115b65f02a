//! Associative recall in a fixed-size state: plain linear attention (`S += v kᵀ`)
//! against the gated delta rule of Gated DeltaNet, and the two ways of writing
//! the gated rule (the paper's and the source article's).

use crate::demo::Msg;
use crate::demo::{
    Demo, Output, Param, ParamError, Plot, Raw, Series, AllOk, check_budget,
    checked_product, checked_sum, group,
};
use crate::lang::Lang;
use crate::say::delta_rule as say;
use crate::math;
use crate::rng::SplitMix64;

// ANCHOR: demo
/// One step of the gated delta rule in the Gated DeltaNet paper's form,
/// `S_t = S_{t−1} · α_t (I − β_t k_t k_tᵀ) + β_t v_t k_tᵀ`, that is
/// `S' = α·S − α·β·(S k) kᵀ + β·v kᵀ = α·S + β·(v − α·S k) kᵀ`: decay the
/// state, then move what the decayed state recalls for `k` a fraction `β` of
/// the way to `v`.
///
/// `s` is d_v × d_k (one row per value dimension, every row `k.len()` long),
/// `k` has d_k entries and `v` has d_v; the caller checks these shapes (a
/// mismatch is not detected: the extra entries are ignored). With a unit key
/// and `β = 1`, the new state recalls `v` (to rounding): `S' k = v`. The
/// reference recurrence of Qwen3-Next in Hugging Face transformers also decays
/// first and predicts from the decayed state (its state is stored d_k × d_v).
pub fn delta_rule_step(
    s: &[Vec<f64>],
    k: &[f64],
    v: &[f64],
    alpha: f64,
    beta: f64,
) -> Vec<Vec<f64>> {
    let mut out = s.to_vec();
    write(&mut out, k, v, Rule::Paper { alpha, beta });
    out
}

/// The same step as the source article writes it, `S' = α·S + β·(v − S k) kᵀ`:
/// the prediction error is taken from the state *before* the decay. Same
/// shapes and assumptions as [`delta_rule_step`]. For `α = 1` the two forms
/// give bit-identical states; otherwise the paper's minus the source's is
/// `(1 − α)·β·(S k) kᵀ`, and with `β = 1` the source form recalls
/// `v − (1 − α)·S k` for the key it just wrote instead of `v`.
pub fn delta_rule_step_source(
    s: &[Vec<f64>],
    k: &[f64],
    v: &[f64],
    alpha: f64,
    beta: f64,
) -> Vec<Vec<f64>> {
    let mut out = s.to_vec();
    write(&mut out, k, v, Rule::Source { alpha, beta });
    out
}

/// Gated DeltaNet's decay from the layer's gate input `a` (one number per
/// head and token), as Qwen3-Next computes it (`g = −exp(A_log) ·
/// softplus(a + dt_bias)`, `α = e^g`):
/// `α = exp(−softplus(a + dt_bias) · exp(a_log))`, strictly between 0 and 1
/// unless the exponent rounds to 0 or overflows (then 1 or 0). Larger `a`
/// or `a_log` forgets faster.
pub fn gdn_alpha(a: f64, dt_bias: f64, a_log: f64) -> f64 {
    math::exp(-softplus(a + dt_bias) * math::exp(a_log))
}

/// `ln(1 + e^x)` without overflow for large `x` or loss of the tiny result
/// for very negative `x`: `max(x, 0) + ln(1 + e^−|x|)`.
pub fn softplus(x: f64) -> f64 {
    x.max(0.0) + ln_1p(math::exp(-x.abs()))
}

/// `ln(1 + u)` accurate for tiny `u` (Goldberg's trick: the rounding of
/// `1 + u` cancels in `ln(w) · u / (w − 1)`).
fn ln_1p(u: f64) -> f64 {
    let w = 1.0 + u;
    if w == 1.0 {
        u
    } else {
        math::ln(w) * u / (w - 1.0)
    }
}

/// How a pair is written into the state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rule {
    /// Plain (additive) linear attention: `S += v kᵀ`.
    Additive,
    /// The gated delta rule, paper form ([`delta_rule_step`]).
    Paper {
        /// Decay α.
        alpha: f64,
        /// Write strength β.
        beta: f64,
    },
    /// The gated delta rule, source form ([`delta_rule_step_source`]).
    Source {
        /// Decay α.
        alpha: f64,
        /// Write strength β.
        beta: f64,
    },
}

/// Writes one pair into `s` in place. Row `i` of `S` only needs row `i` of
/// `S k`, so each row reads, then updates itself.
pub fn write(s: &mut [Vec<f64>], k: &[f64], v: &[f64], rule: Rule) {
    let (alpha, beta, read) = match rule {
        Rule::Additive => (1.0, 1.0, 0.0),
        // The paper's form predicts v from the decayed state α·S.
        Rule::Paper { alpha, beta } => (alpha, beta, alpha),
        Rule::Source { alpha, beta } => (alpha, beta, 1.0),
    };
    for (row, &vi) in s.iter_mut().zip(v) {
        let err = beta * (vi - read * dot(row, k));
        for (sij, &kj) in row.iter_mut().zip(k) {
            *sij = alpha * *sij + err * kj;
        }
    }
}

/// A zero d_v × d_k state with every pair written in order.
pub fn memorise(keys: &[Vec<f64>], values: &[Vec<f64>], rule: Rule) -> Vec<Vec<f64>> {
    let (dk, dv) = (
        keys.first().map_or(0, Vec::len),
        values.first().map_or(0, Vec::len),
    );
    let mut s = vec![vec![0.0; dk]; dv];
    for (k, v) in keys.iter().zip(values) {
        write(&mut s, k, v, rule);
    }
    s
}

/// Recall error of each pair, oldest first: `‖S k_i − v_i‖ / ‖v_i‖`.
pub fn recall_errors(s: &[Vec<f64>], keys: &[Vec<f64>], values: &[Vec<f64>]) -> Vec<f64> {
    keys.iter()
        .zip(values)
        .map(|(k, v)| {
            let (mut err, mut norm) = (0.0, 0.0);
            for (row, &vi) in s.iter().zip(v) {
                let got = dot(row, k);
                err += (got - vi) * (got - vi);
                norm += vi * vi;
            }
            (err / norm).sqrt()
        })
        .collect()
}

/// `n` seeded pairs of dimension `d`: Gaussian keys scaled to unit length (as
/// Gated DeltaNet L2-normalises q and k), Gaussian values. Drawn key then
/// value, pair by pair, so a shorter list is a prefix of a longer one.
pub fn pairs(d: usize, n: usize, seed: u64) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    let mut rng = SplitMix64::new(seed);
    let (mut keys, mut values) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for _ in 0..n {
        let k: Vec<f64> = (0..d).map(|_| rng.normal()).collect();
        let norm = k.iter().map(|x| x * x).sum::<f64>().sqrt();
        keys.push(k.iter().map(|x| x / norm).collect());
        values.push((0..d).map(|_| rng.normal()).collect());
    }
    (keys, values)
}

/// `Σ aᵢ·bᵢ` (over the shorter of the two).
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The mean of a slice (0 when empty).
pub fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

/// Mean of the recall errors after writing all the pairs with `rule`.
pub fn mean_recall_error(keys: &[Vec<f64>], values: &[Vec<f64>], rule: Rule) -> f64 {
    mean(&recall_errors(&memorise(keys, values, rule), keys, values))
}
// ANCHOR_END: demo

/// The loads of the sweep as fractions of `d`: from d/8 to 4d.
pub const SWEEP: [(usize, usize); 9] = [
    (1, 8),
    (1, 4),
    (1, 2),
    (3, 4),
    (1, 1),
    (3, 2),
    (2, 1),
    (3, 1),
    (4, 1),
];

/// The numbers of pairs the sweep writes for dimension `d`: `d·r` rounded
/// down, at least 1, without repeats.
pub fn sweep_sizes(d: usize) -> Vec<usize> {
    let mut ns: Vec<usize> = SWEEP.iter().map(|&(a, b)| (d * a / b).max(1)).collect();
    ns.dedup();
    ns
}

/// One point of the sweep: mean recall errors after writing `n` pairs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SweepPoint {
    /// Pairs written.
    pub n: usize,
    /// Additive linear attention.
    pub additive: f64,
    /// Delta rule with α = 1 (DeltaNet).
    pub delta: f64,
    /// Gated delta rule with the reader's α (paper form).
    pub gated: f64,
}

/// The sweep over [`sweep_sizes`]: the same seeded pairs are written one by
/// one under each rule, and at each size `n` the first `n` are read back (the
/// state after `n` writes does not depend on the pairs that follow).
pub fn sweep(d: usize, seed: u64, alpha: f64, beta: f64) -> Vec<SweepPoint> {
    let ns = sweep_sizes(d);
    let (keys, values) = pairs(d, ns.last().copied().unwrap_or(1), seed);
    let rules = [
        Rule::Additive,
        Rule::Paper { alpha: 1.0, beta },
        Rule::Paper { alpha, beta },
    ];
    let mut states = vec![vec![vec![0.0; d]; d]; rules.len()];
    let mut written = 0;
    let mut points = Vec::with_capacity(ns.len());
    for &n in &ns {
        for (s, &rule) in states.iter_mut().zip(&rules) {
            for t in written..n {
                write(s, &keys[t], &values[t], rule);
            }
        }
        written = n;
        let err = |s: &[Vec<f64>]| mean(&recall_errors(s, &keys[..n], &values[..n]));
        points.push(SweepPoint {
            n,
            additive: err(&states[0]),
            delta: err(&states[1]),
            gated: err(&states[2]),
        });
    }
    points
}

/// `‖a − b‖ / ‖a‖` in the Frobenius norm (0 when both are zero).
pub fn relative_gap(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    let (mut diff, mut norm) = (0.0, 0.0);
    for (ra, rb) in a.iter().zip(b) {
        for (x, y) in ra.iter().zip(rb) {
            diff += (x - y) * (x - y);
            norm += x * x;
        }
    }
    if diff == 0.0 {
        0.0
    } else {
        (diff / norm).sqrt()
    }
}

/// The relative gap between the paper's and the source's form after writing
/// the first `n` seeded pairs of dimension `d` with the same α and β.
pub fn forms_gap(d: usize, n: usize, seed: u64, alpha: f64, beta: f64) -> f64 {
    let (keys, values) = pairs(d, n, seed);
    relative_gap(
        &memorise(&keys, &values, Rule::Paper { alpha, beta }),
        &memorise(&keys, &values, Rule::Source { alpha, beta }),
    )
}

/// Most multiply-adds one run may take: d = 64 with a few dozen pairs (the
/// defaults take about 2,300,000).
pub const MAX_WORK: u64 = 20_000_000;

/// Multiply-adds of one run: a write costs 2·d² (read `S k`, then update)
/// and reading one key back d². The sweep writes 4d pairs (its largest size)
/// under 3 rules and reads back Σ n over its sizes under each; the reader's
/// `n` pairs are written and read back under 4 rules (α = 1, α, the source
/// form, additive). `None` past `u64::MAX`.
pub fn work(d: u64, n: u64) -> Option<u64> {
    let sizes = sweep_sizes(d.min(1 << 20) as usize);
    let read: u64 = sizes.iter().map(|&x| x as u64).sum();
    let most = sizes.last().map_or(0, |&x| x as u64);
    let units = checked_sum(&[
        checked_product(&[3, 2, most])?,
        checked_product(&[3, read])?,
        checked_product(&[4, 3, n])?,
    ])?;
    checked_product(&[d, d, units])
}

/// The dimension d of keys and values (the state is d × d).
const DIM: Param = Param::int("dim", "32", 2, 64);
/// Pairs written; with `dim`, at most [`MAX_WORK`] multiply-adds.
const PAIRS: Param = Param::int("pairs", "16", 1, 4_096);
/// The decay α.
const ALPHA: Param = Param::float("alpha", "0.9", 0.0, 1.0);
/// The write strength β.
const BETA: Param = Param::float("beta", "1", 0.0, 2.0);
/// Seed of the keys and values.
const SEED: Param = Param::int("seed", "7", 0, u32::MAX as i64);

/// The cell's parameters.
pub const PARAMS: &[Param] = &[DIM, PAIRS, ALPHA, BETA, SEED];

/// The cell.
pub fn demo() -> Demo {
    Demo {
        id: "delta_rule",
        params: PARAMS,
        #[cfg(feature = "render")]
        source: crate::demo::anchored(include_str!("delta_rule.rs"), "demo"),
        #[cfg(feature = "run")]
        run,
    }
}

/// Checked parameters of the demo.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// d = d_k = d_v.
    pub dim: usize,
    /// Pairs written for the old-vs-new and form comparisons.
    pub pairs: usize,
    /// Decay α.
    pub alpha: f64,
    /// Write strength β.
    pub beta: f64,
    /// Seed of the pairs.
    pub seed: u64,
}

impl Params {
    /// Validates the reader's text; every bad field gets its own message. A
    /// run over [`MAX_WORK`] multiply-adds ([`work`]) is refused before it
    /// starts, on `pairs` (any d up to 64 fits with one pair).
    pub fn parse(raw: &Raw) -> Result<Params, Vec<ParamError>> {
        let dim = DIM.read_int(raw);
        let mut pairs = PAIRS.read_int(raw);
        let alpha = ALPHA.read_float(raw);
        let beta = BETA.read_float(raw);
        let seed = SEED.read_int(raw);
        let what = Msg::in_all(|l| say::budget_what.text(l));
        let unit = Msg::in_all(|l| say::budget_unit.text(l));
        let lower = Msg::in_all(|l| say::budget_lower.text(l));
        if let (Ok(d), Ok(n)) = (&dim, &pairs)
            && let Err(e) = check_budget(
                PAIRS.name,
                &what,
                work(*d as u64, *n as u64),
                MAX_WORK,
                &unit,
                &lower,
            )
        {
            pairs = Err(e);
        }
        let (dim, pairs, alpha, beta, seed) = (dim, pairs, alpha, beta, seed).all_ok()?;
        Ok(Params {
        dim: dim as usize,
        pairs: pairs as usize,
        alpha,
        beta,
        seed: seed as u64,
    })
    }
}

/// A ratio as a percentage with one decimal: `0.0812` → `8.1%`.
pub fn pct(v: f64) -> String {
    format!("{:.1}%", 100.0 * v)
}

/// Recall errors of the oldest and newest quarter (at least one pair each)
/// and of all pairs.
fn quarters(errs: &[f64]) -> (f64, f64, f64) {
    let q = (errs.len() / 4).max(1);
    (mean(&errs[..q]), mean(&errs[errs.len() - q..]), mean(errs))
}

/// `n/d` for the reader: `0.5`, `0.125`, `4`.
fn ratio(n: usize, d: usize) -> String {
    let r = n as f64 / d as f64;
    let s = format!("{r:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Runs the demo: the sweep over n/d as text, a table and a chart, then old
/// against new pairs under the decay, and the paper's form against the source's.
pub fn run(raw: &Raw, lang: Lang) -> Result<Output, Vec<ParamError>> {
    let p = Params::parse(raw)?;
    let (d, n, alpha, beta) = (p.dim, p.pairs, p.alpha, p.beta);
    let points = sweep(d, p.seed, alpha, beta);

    let mut text = say::intro {
        d,
        dd: group((d * d) as i64),
        seed: p.seed,
        beta,
        alpha,
    }
    .text(lang);
    for pt in points
        .iter()
        .filter(|pt| pt.n * 2 == d || pt.n == 2 * d || pt.n == d)
    {
        text += &say::sweep_row {
            n: group(pt.n as i64),
            r: ratio(pt.n, d),
            a: pct(pt.additive),
            b: pct(pt.delta),
            alpha,
            c: pct(pt.gated),
        }
        .text(lang);
    }
    text += &say::capacity.text(lang);

    let (keys, values) = pairs(d, n, p.seed);
    let runs = [
        (say::run_delta.text(lang), Rule::Paper { alpha: 1.0, beta }),
        (say::run_paper { alpha }.text(lang), Rule::Paper { alpha, beta }),
        (say::run_source { alpha }.text(lang), Rule::Source { alpha, beta }),
        (say::additive.text(lang), Rule::Additive),
    ];
    let states: Vec<Vec<Vec<f64>>> = runs
        .iter()
        .map(|(_, rule)| memorise(&keys, &values, *rule))
        .collect();
    let per_pair: Vec<Vec<f64>> = states
        .iter()
        .map(|s| recall_errors(s, &keys, &values))
        .collect();
    let gap = relative_gap(&states[1], &states[2]);
    let q = (n / 4).max(1);
    let (written, last) = (group(n as i64), n - 1);
    let scale = format!("{:.3}", alpha.powi((n - 1).min(i32::MAX as usize) as i32));
    let oldest = group(q as i64);
    text += &if q == 1 {
        say::ages_one {
            written: &written,
            q: oldest,
            last,
            scale,
        }
        .text(lang)
    } else {
        say::ages {
            written: &written,
            q: oldest,
            last,
            scale,
        }
        .text(lang)
    };
    for ((name, _), errs) in runs.iter().zip(&per_pair) {
        let (old, new, all) = quarters(errs);
        text += &say::age_row {
            name,
            old: pct(old),
            new: pct(new),
            all: pct(all),
        }
        .text(lang);
    }
    text += &say::forms {
        alpha,
        beta,
        gap: pct(gap),
        why: if alpha == 1.0 {
            say::forms_agree.text(lang)
        } else {
            say::forms_differ.text(lang)
        },
    }
    .text(lang);

    let header = vec![
        say::col_pairs.text(lang),
        "n/d".to_owned(),
        say::col_additive.text(lang),
        say::col_delta.text(lang),
        say::col_gated { alpha }.text(lang),
    ];
    let rows = points
        .iter()
        .map(|pt| {
            vec![
                group(pt.n as i64),
                ratio(pt.n, d),
                pct(pt.additive),
                pct(pt.delta),
                pct(pt.gated),
            ]
        })
        .collect();
    let xs: Vec<f64> = points.iter().map(|pt| pt.n as f64 / d as f64).collect();
    let sweep_plot = Plot::new(
        say::sweep_title { d }.text(lang),
        say::sweep_x.text(lang),
        say::sweep_y.text(lang),
    )
    .dashed(
        say::additive.text(lang),
        &xs,
        points.iter().map(|pt| pt.additive),
    )
    .line(say::delta.text(lang), &xs, points.iter().map(|pt| pt.delta))
    .line(
        say::gated { alpha }.text(lang),
        &xs,
        points.iter().map(|pt| pt.gated),
    );
    let age_title = if n == 1 {
        say::age_title_one { n: &written }.text(lang)
    } else {
        say::age_title { n: &written }.text(lang)
    };
    let ages = runs.iter().zip(&per_pair).take(3).enumerate();
    let age_plot = Plot::new(age_title, say::age_x.text(lang), say::age_y.text(lang)).series(
        ages.map(|(i, ((name, _), errs))| {
            let line = Series::line(name, 1..=n, errs);
            if i == 2 { line.dashed() } else { line }
        }),
    );
    Ok(Output::new()
        .text(text)
        .table(header, rows)
        .plot(sweep_plot)
        .plot(age_plot))
}

/// The figures the chapter's text quotes from this cell: (name, value).
pub fn figures() -> Vec<(&'static str, String)> {
    let p = Params::parse(&crate::demo::defaults(PARAMS))
        .unwrap_or_else(|e| panic!("the delta_rule cell's defaults: {e:?}"));
    let d = p.dim;
    let points = sweep(d, p.seed, p.alpha, p.beta);
    let at = |n: usize| {
        points
            .iter()
            .find(|pt| pt.n == n)
            .copied()
            .unwrap_or_else(|| panic!("the sweep has no point at n = {n}"))
    };
    let (half, double) = (at(d / 2), at(2 * d));
    vec![
        ("delta_rule.dim", d.to_string()),
        ("delta_rule.additive_half", pct(half.additive)),
        ("delta_rule.delta_half", pct(half.delta)),
        ("delta_rule.gated_half", pct(half.gated)),
        ("delta_rule.additive_double", pct(double.additive)),
        ("delta_rule.delta_double", pct(double.delta)),
        ("delta_rule.gated_double", pct(double.gated)),
        (
            "delta_rule.forms_gap",
            pct(forms_gap(d, p.pairs, p.seed, p.alpha, p.beta)),
        ),
        ("delta_rule.alpha", p.alpha.to_string()),
        ("delta_rule.pairs", p.pairs.to_string()),
    ]
}

#[cfg(test)]
mod tests;
