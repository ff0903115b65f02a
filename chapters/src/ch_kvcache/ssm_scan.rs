//! A Mamba-style selective scan on one channel: the state has a fixed size
//! however long the sequence, and an input-dependent step Δ decides how much of
//! it each token overwrites.

use crate::demo::Msg;
use super::formulas::gqa_bytes;
use crate::demo::{
    Demo, Output, Param, ParamError, Plot, Raw, Series, AllOk, check_budget,
    checked_product, group_u64,
};
use crate::lang::Lang;
use crate::say::ssm_scan as say;
use crate::math;
use crate::rng::SplitMix64;

// ANCHOR: demo
/// Width of a token vector. The scan runs on channel 0 of each token; Δ, B and
/// C are projections of the whole token, as in Mamba.
pub const D: usize = 4;

/// The diagonal of A, Mamba's "S4D-real" initialisation `A_i = −(i + 1)`:
/// channel 0 forgets slowest.
pub fn a_diag(n: usize) -> Vec<f64> {
    (0..n).map(|i| -((i + 1) as f64)).collect()
}

/// `softplus(z) = ln(1 + e^z)`: any score to a positive step Δ.
pub fn softplus(z: f64) -> f64 {
    if z > 36.0 {
        z
    } else if z < -36.0 {
        math::exp(z)
    } else {
        math::ln(1.0 + math::exp(z))
    }
}

/// One step of the scan on a diagonal A, in place: discretise with a zero-order
/// hold on A, `Ā = exp(Δ·A)` (elementwise, since A is diagonal), and with the
/// common simplification `B̄ = Δ·B` (Mamba's kernels use it instead of the exact
/// hold `(ΔA)⁻¹(exp(ΔA) − I)·ΔB`, which it matches for small ΔA); then
/// `h ← Ā ⊙ h + B̄ · x`.
pub fn step(h: &mut [f64], a: &[f64], delta: f64, b: &[f64], x: f64) {
    for ((h, &a), &b) in h.iter_mut().zip(a).zip(b) {
        *h = math::exp(delta * a) * *h + delta * b * x;
    }
}

/// The readout `y = C · h`.
pub fn readout(h: &[f64], c: &[f64]) -> f64 {
    h.iter().zip(c).map(|(h, c)| h * c).sum()
}

/// The projections that make the scan selective: for a token `x` of [`D`]
/// values, `Δ = softplus(w_Δ · x + b_Δ)`, `B = W_B x`, `C = W_C x`.
#[derive(Debug, Clone, PartialEq)]
pub struct Selective {
    /// Weights of the step's score.
    pub w_delta: [f64; D],
    /// Bias of the step's score.
    pub b_delta: f64,
    /// `W_B`, one row of [`D`] weights per state channel.
    pub w_b: Vec<[f64; D]>,
    /// `W_C`, one row per state channel.
    pub w_c: Vec<[f64; D]>,
}

impl Selective {
    /// Seeded random projections for a state of `n` values: `w_Δ ~ N(0, 1/4)`
    /// and `b_Δ = −3`, so Δ is about 0.05 for a typical token and ranges over
    /// roughly 0.003–0.7; `W_B`, `W_C ~ N(0, 1/D)`.
    pub fn random(rng: &mut SplitMix64, n: usize) -> Selective {
        let mut row = |scale: f64| std::array::from_fn(|_| rng.normal() * scale);
        let w_delta = row(0.5);
        let sd = 1.0 / (D as f64).sqrt();
        let w_b = (0..n).map(|_| row(sd)).collect();
        let w_c = (0..n).map(|_| row(sd)).collect();
        Selective {
            w_delta,
            b_delta: -3.0,
            w_b,
            w_c,
        }
    }

    /// `Δ`, `B` and `C` for token `x`.
    pub fn project(&self, x: &[f64; D]) -> (f64, Vec<f64>, Vec<f64>) {
        let dot = |w: &[f64; D]| w.iter().zip(x).map(|(w, x)| w * x).sum::<f64>();
        let delta = softplus(dot(&self.w_delta) + self.b_delta);
        (
            delta,
            self.w_b.iter().map(dot).collect(),
            self.w_c.iter().map(dot).collect(),
        )
    }
}

/// What a selective run records for every token.
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    /// The step `Δ_t`.
    pub delta: Vec<f64>,
    /// `‖h_t‖₂` after the token.
    pub norm: Vec<f64>,
    /// The output `y_t = C_t · h_t`.
    pub y: Vec<f64>,
    /// The state after the last token: `a.len()` values, whatever the length.
    pub state: Vec<f64>,
}

/// The selective scan over `tokens` (the input `x_t` is channel 0 of each).
pub fn selective_scan(sel: &Selective, a: &[f64], tokens: &[[f64; D]]) -> Trace {
    let mut h = vec![0.0; a.len()];
    let mut trace = Trace {
        delta: Vec::with_capacity(tokens.len()),
        norm: Vec::with_capacity(tokens.len()),
        y: Vec::with_capacity(tokens.len()),
        state: Vec::new(),
    };
    for x in tokens {
        let (delta, b, c) = sel.project(x);
        step(&mut h, a, delta, &b, x[0]);
        trace.delta.push(delta);
        trace.norm.push(h.iter().map(|v| v * v).sum::<f64>().sqrt());
        trace.y.push(readout(&h, &c));
    }
    trace.state = h;
    trace
}

/// How much of an impulse the state still holds, per step.
#[derive(Debug, Clone, PartialEq)]
pub struct Memory {
    /// `h_t / h_0` in the slowest channel (largest `A_i`), t = 0..=steps.
    pub slowest: Vec<f64>,
    /// `h_t[i] / h_0[i]` averaged over the channels.
    pub mean: Vec<f64>,
}

/// The impulse experiment at a constant step Δ: `x_0 = 1`, then zeros, with
/// `B = 1` in every channel, so `h_0 = Δ` and after t more steps
/// `h_t = exp(Δ·A)^t ⊙ h_0`: the fraction left is `exp(Δ·A_i·t)`. Zeros rather
/// than noise after the impulse: with Δ and B fixed the scan is linear in x,
/// so the impulse's share of the state is the same whatever follows, and with
/// zeros it is the whole state.
pub fn impulse_memory(a: &[f64], delta: f64, steps: usize) -> Memory {
    let ones = vec![1.0; a.len()];
    let slow = (0..a.len())
        .max_by(|&i, &j| a[i].total_cmp(&a[j]))
        .unwrap_or(0);
    let mut h = vec![0.0; a.len()];
    step(&mut h, a, delta, &ones, 1.0);
    let h0 = h.clone();
    let mut memory = Memory {
        slowest: Vec::with_capacity(steps + 1),
        mean: Vec::with_capacity(steps + 1),
    };
    for t in 0..=steps {
        if t > 0 {
            step(&mut h, a, delta, &ones, 0.0);
        }
        memory.slowest.push(h[slow] / h0[slow]);
        let sum: f64 = h.iter().zip(&h0).map(|(h, h0)| h / h0).sum();
        memory.mean.push(sum / a.len() as f64);
    }
    memory
}
// ANCHOR_END: demo

/// Bytes per state value: the state kept in f32 (an assumption; BF16 halves it).
pub const STATE_BYTES: u64 = 4;

/// The KV cache the state is compared with: one attention head of this many
/// dimensions, K and V, in BF16 (2 B a value), one layer: 512 B a token.
pub const KV_HEAD_DIM: u64 = 128;

/// Bytes per KV value (BF16).
pub const KV_BYTES: u64 = 2;

/// The long context the text quotes.
pub const LONG: u64 = 1_000_000;

/// Most work a run may do, in state updates: `(state + 16) × steps × (Δ values + 1)`
/// (see [`work`]); about 20 ms natively at the limit.
pub const MAX_WORK: u64 = 1_000_000;

/// What one token costs besides its state updates, in state updates: drawing
/// it (four normal samples), its Δ (a softplus) and recording the step. With
/// one state value, this is most of the time.
pub const PER_TOKEN: u64 = 16;

/// Smallest fraction the log-scale memory chart draws: twelve decades keep its
/// tick labels apart on a phone (a hundred decades overprint each other), and
/// a trillionth of the impulse is gone for any purpose. The text reports
/// smaller values.
pub const CHART_MIN: f64 = 1e-12;

/// Most points per chart series (longer runs are sampled evenly).
pub const MAX_POINTS: usize = 500;

/// KV bytes of one head after `tokens` tokens.
pub fn kv_bytes(tokens: u64) -> u64 {
    gqa_bytes(1, 1, KV_HEAD_DIM, tokens, 1, KV_BYTES)
}

/// The work of one run, `(state + 16) × steps × (Δ values + 1)` state updates
/// (one impulse run per Δ and the selective run, each token costing
/// [`PER_TOKEN`] besides its `state` updates), in 64-bit arithmetic; `None`
/// past `u64::MAX`.
pub fn work(state: u64, steps: u64, deltas: u64) -> Option<u64> {
    checked_product(&[state.checked_add(PER_TOKEN)?, steps, deltas.checked_add(1)?])
}

/// The state size N, values per channel.
const STATE: Param = Param::int("state", "16", 1, 256);
/// Steps (tokens); with the others, at most [`MAX_WORK`] state updates.
const STEPS: Param = Param::int("steps", "256", 1, 20_000);
/// The constant Δ values of the impulse runs.
const DELTAS: Param = Param::floats("deltas", "0.01 0.1 1", 1e-4, 10.0, 6);
/// Seed of the inputs.
const SEED: Param = Param::int("seed", "7", 0, u32::MAX as i64);

/// The cell's parameters.
pub const PARAMS: &[Param] = &[STATE, STEPS, DELTAS, SEED];

/// The cell.
pub fn demo() -> Demo {
    Demo {
        id: "ssm_scan",
        params: PARAMS,
        #[cfg(feature = "render")]
        source: crate::demo::anchored(include_str!("ssm_scan.rs"), "demo"),
        #[cfg(feature = "run")]
        run,
    }
}

/// Checked parameters of the demo.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// State values per channel, N.
    pub state: usize,
    /// Tokens of the runs, T.
    pub steps: usize,
    /// The constant steps of the impulse experiment.
    pub deltas: Vec<f64>,
    /// Seed of the selective run's tokens and projections.
    pub seed: u64,
}

impl Params {
    /// Validates the reader's text; every bad field gets its own message. A
    /// run over [`MAX_WORK`] state updates ([`work`]) is refused before it
    /// starts.
    pub fn parse(raw: &Raw) -> Result<Params, Vec<ParamError>> {
        let state = STATE.read_int(raw);
        let mut steps = STEPS.read_int(raw);
        let deltas = DELTAS.read_floats(raw);
        let seed = SEED.read_int(raw);
        let what = Msg::in_all(|l| say::budget_what.text(l));
        let unit = Msg::in_all(|l| say::budget_unit.text(l));
        let lower = Msg::in_all(|l| say::budget_lower.text(l));
        if let (Ok(n), Ok(t), Ok(d)) = (&state, &steps, &deltas)
            && let Err(e) = check_budget(
                STEPS.name,
                &what,
                work(*n as u64, *t as u64, d.len() as u64),
                MAX_WORK,
                &unit,
                &lower,
            )
        {
            steps = Err(e);
        }
        let (n, t, d, s) = (state, steps, deltas, seed).all_ok()?;
        Ok(Params {
        state: n as usize,
        steps: t as usize,
        deltas: d,
        seed: s as u64,
    })
    }
}

/// A fraction as a percentage: one decimal from 0.1% up, else with an
/// exponent (`6.6×10⁻¹¹⁰%`); `0%` once it has underflowed `f64`.
pub fn fmt_percent(fraction: f64) -> String {
    let pct = 100.0 * fraction;
    if pct == 0.0 {
        "0%".to_owned()
    } else if pct >= 0.1 {
        format!("{pct:.1}%")
    } else {
        // Scientific notation for people: 6.6×10⁻¹¹⁰%, not Rust's 6.6e-110%.
        let sci = format!("{pct:.1e}");
        let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
        let sup: String = exp
            .chars()
            .map(|c| match c {
                '-' => '⁻',
                d => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹']
                    [d.to_digit(10).unwrap_or(0) as usize],
            })
            .collect();
        format!("{mantissa}×10{sup}%")
    }
}

/// Bytes with a binary unit: `131,072 B (128.0 KiB)`.
fn fmt_bytes(b: u64) -> String {
    let units = [(1u64 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    match units.iter().find(|(u, _)| b >= *u) {
        Some((u, name)) => format!("{} B ({:.1} {name})", group_u64(b), b as f64 / *u as f64),
        None => format!("{} B", group_u64(b)),
    }
}

/// A Δ for labels: as typed, without trailing zeros.
fn fmt_delta(d: f64) -> String {
    format!("{d}")
}

/// The seeded tokens of the selective run: `steps` tokens of [`D`] values
/// ~ N(0, 1), drawn after the projections.
fn tokens(rng: &mut SplitMix64, steps: usize) -> Vec<[f64; D]> {
    (0..steps)
        .map(|_| std::array::from_fn(|_| rng.normal()))
        .collect()
}

/// The steps a chart samples: every k-th of `0..=last` (at most about
/// [`MAX_POINTS`]), always with `last`.
fn sampled(first: usize, last: usize) -> Vec<usize> {
    let every = (last - first).div_ceil(MAX_POINTS).max(1);
    let mut ts: Vec<usize> = (first..=last).step_by(every).collect();
    if ts.last() != Some(&last) {
        ts.push(last);
    }
    ts
}

/// Runs the demo: the fixed state against a growing KV cache, the impulse's
/// memory for each Δ, and a selective run over seeded tokens.
pub fn run(raw: &Raw, lang: Lang) -> Result<Output, Vec<ParamError>> {
    let p = Params::parse(raw)?;
    let (n, t_max) = (p.state, p.steps);
    let a = a_diag(n);
    let mut rng = SplitMix64::new(p.seed);
    let sel = Selective::random(&mut rng, n);
    let xs = tokens(&mut rng, t_max);
    let trace = selective_scan(&sel, &a, &xs);
    let memories: Vec<Memory> = p
        .deltas
        .iter()
        .map(|&d| impulse_memory(&a, d, t_max))
        .collect();

    let state_bytes = trace.state.len() as u64 * STATE_BYTES;
    let t64 = t_max as u64;
    let values = trace.state.len() as u64;
    let (held, long) = (fmt_bytes(state_bytes), group_u64(LONG));
    let (kv_one, kv_t, kv_long) = (
        kv_bytes(1),
        fmt_bytes(kv_bytes(t64)),
        fmt_bytes(kv_bytes(LONG)),
    );
    let mut text = say::state {
        values: count_values(values, lang),
        b: STATE_BYTES,
        held,
        tokens: count_tokens(t64, lang),
        long: &long,
        dims: KV_HEAD_DIM,
        kv_one,
        kv_t,
        kv_long,
    }
    .text(lang);
    let slow_a = a[0];
    let a_text = format!("{slow_a}").replace('-', "−");
    text += &say::impulse {
        steps: count_steps(t64, lang),
        a: &a_text,
        channels: count_channels(n as u64, lang),
    }
    .text(lang);
    for (d, m) in p.deltas.iter().zip(&memories) {
        let closed = math::exp(d * slow_a * t_max as f64);
        text += &say::left {
            delta: fmt_delta(*d),
            left: fmt_percent(m.slowest[t_max]),
            exact: fmt_percent(closed),
            mean: fmt_percent(m.mean[t_max]),
        }
        .text(lang);
    }
    for (d, m) in p.deltas.iter().zip(&memories) {
        if let Some(stop) = m.slowest.iter().position(|&v| v < CHART_MIN) {
            text += &say::below {
                delta: fmt_delta(*d),
                min: format!("{CHART_MIN:e}"),
                steps: count_steps(stop as u64, lang),
            }
            .text(lang);
        }
    }
    let (dmin, dmax) = trace
        .delta
        .iter()
        .fold((f64::INFINITY, 0.0_f64), |(lo, hi), &d| {
            (lo.min(d), hi.max(d))
        });
    let (peak_at, peak) =
        trace.norm.iter().enumerate().fold(
            (0, 0.0_f64),
            |best, (i, &v)| if v > best.1 { (i, v) } else { best },
        );
    let seed = p.seed;
    text += &say::selective {
        seed,
        tokens: count_tokens(t64, lang),
        dmin: format!("{dmin:.4}"),
        dmax: format!("{dmax:.4}"),
        peak: format!("{peak:.4}"),
        at: peak_at + 1,
        last: format!("{:.4}", trace.norm[t_max - 1]),
        values: count_values(values, lang),
    }
    .text(lang);

    let mut marks: Vec<usize> = [16, 64, t_max]
        .into_iter()
        .filter(|&t| t <= t_max)
        .collect();
    marks.dedup();
    let mut header = vec!["Δ".to_owned(), say::col_half.text(lang)];
    for &t in &marks {
        header.push(say::col_slowest { t }.text(lang));
        header.push(say::col_average { t }.text(lang));
    }
    let rows = p
        .deltas
        .iter()
        .zip(&memories)
        .map(|(d, m)| {
            let half = m
                .slowest
                .iter()
                .position(|&v| v <= 0.5)
                .map_or_else(|| format!("> {}", group_u64(t64)), |t| group_u64(t as u64));
            let mut row = vec![fmt_delta(*d), half];
            for &t in &marks {
                row.push(fmt_percent(m.slowest[t]));
                row.push(fmt_percent(m.mean[t]));
            }
            row
        })
        .collect();

    let ts = sampled(0, t_max);
    let memory_plot = Plot::new(
        say::memory_title { a: &a_text }.text(lang),
        say::memory_x.text(lang),
        say::memory_y.text(lang),
    )
    .log_y()
    .series(p.deltas.iter().zip(&memories).map(|(d, m)| {
        let (x, y): (Vec<_>, Vec<_>) = ts
            .iter()
            .map(|&t| (t, m.slowest[t]))
            .take_while(|&(_, v)| v >= CHART_MIN)
            .unzip();
        Series::line(format!("Δ = {}", fmt_delta(*d)), x, y)
    }));
    let run_ts = sampled(1, t_max);
    let at_run = |v: &[f64]| -> Vec<f64> { run_ts.iter().map(|&t| v[t - 1]).collect() };
    let run_plot = Plot::new(
        say::run_title {
            seed,
            n,
            state: group_u64(state_bytes),
            kv: group_u64(kv_bytes(t64)),
        }
        .text(lang),
        say::run_x.text(lang),
        say::run_y.text(lang),
    )
    .line("‖h_t‖", &run_ts, at_run(&trace.norm))
    .line("y_t", &run_ts, at_run(&trace.y))
    .dashed("Δ_t", &run_ts, at_run(&trace.delta));
    let bytes_plot = Plot::new(
        say::bytes_title.text(lang),
        say::bytes_x.text(lang),
        say::bytes_y.text(lang),
    )
    .log_y()
    .line(
        say::ssm_state { n, b: STATE_BYTES }.text(lang),
        &run_ts,
        vec![state_bytes; run_ts.len()],
    )
    .line(
        say::kv_cache { kv_one }.text(lang),
        &run_ts,
        run_ts.iter().map(|&t| kv_bytes(t as u64)),
    );
    Ok(Output::new()
        .text(text)
        .table(header, rows)
        .plot(memory_plot)
        .plot(run_plot)
        .plot(bytes_plot))
}

/// "1 value", "16 values" in `lang`.
fn count_values(n: u64, lang: Lang) -> String {
    if n == 1 {
        say::values_one { n: group_u64(n) }.text(lang)
    } else {
        say::values { n: group_u64(n) }.text(lang)
    }
}

/// "1 token", "4,096 tokens" in `lang`.
fn count_tokens(n: u64, lang: Lang) -> String {
    if n == 1 {
        say::tokens_one { n: group_u64(n) }.text(lang)
    } else {
        say::tokens { n: group_u64(n) }.text(lang)
    }
}

/// "1 channel", "16 channels" in `lang`.
fn count_channels(n: u64, lang: Lang) -> String {
    if n == 1 {
        say::channels_one { n: group_u64(n) }.text(lang)
    } else {
        say::channels { n: group_u64(n) }.text(lang)
    }
}

/// "1 step", "4,096 steps" in `lang`.
fn count_steps(n: u64, lang: Lang) -> String {
    if n == 1 {
        say::steps_one { n: group_u64(n) }.text(lang)
    } else {
        say::steps { n: group_u64(n) }.text(lang)
    }
}

/// The figures the chapter's text quotes from this cell: (name, value), at
/// the cell's defaults; `keep_small` and `keep_large` are the first and last
/// default Δ (0.01 and 1).
pub fn figures() -> Vec<(&'static str, String)> {
    let p = Params::parse(&crate::demo::defaults(PARAMS))
        .unwrap_or_else(|e| panic!("the ssm_scan defaults: {e:?}"));
    let a = a_diag(p.state);
    let left = |d: f64| impulse_memory(&a, d, p.steps).slowest[p.steps];
    let (small, large) = (p.deltas[0], p.deltas[p.deltas.len() - 1]);
    vec![
        ("ssm_scan.state_values", group_u64(p.state as u64)),
        ("ssm_scan.keep_small", fmt_percent(left(small))),
        ("ssm_scan.keep_large", fmt_percent(left(large))),
        ("ssm_scan.steps", group_u64(p.steps as u64)),
    ]
}

#[cfg(test)]
mod tests;
