//! Bits per stored value: BF16, FP8 (E4M3), FP4 (E2M1 with block scales) and a
//! rotate-then-round stand-in for ~3.5-bit vector quantization, measured on
//! seeded KV-like vectors with outlier channels.

use crate::demo::Msg;
use super::formulas::{Model, Units, table_model};
use crate::demo::{
    Demo, Output, Param, ParamError, Plot, Raw, Series, AllOk, check_budget,
    checked_product, group,
};
use crate::lang::Lang;
use crate::say::quant as say;
use crate::rng::SplitMix64;

// ANCHOR: demo
/// Rounds `x` to the nearest number with `man_bits` bits after the binary
/// point of its significand and an exponent of at least `min_exp` (below
/// 2^min_exp the spacing stays 2^(min_exp − man_bits): subnormals), ties to
/// even. No upper limit: the callers saturate or overflow. Exact: the
/// spacing `q` is a power of two, so `x / q` and `r · q` are exact and
/// `round_ties_even` is the only rounding.
fn round_to_grid(x: f64, man_bits: i32, min_exp: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    // floor(log2 |x|) from the exponent bits; an f64 subnormal reads as
    // 2^−1023, below every `min_exp` used here, which is all that matters.
    let exp = ((x.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let q = pow2(exp.max(min_exp) - man_bits);
    (x / q).round_ties_even() * q
}

/// 2^e for −1022 ≤ e ≤ 1023, built from its bits (exact).
fn pow2(e: i32) -> f64 {
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// Largest finite BF16, (2 − 2^−7) · 2^127.
pub const BF16_MAX: f64 = 3.389_531_389_251_535_5e38;

/// BF16: 1 sign, 8 exponent, 7 fraction bits (8 significant bits, FP32's
/// range). Rounded once from `f64`, to nearest, ties to even, subnormals
/// down to 2^−133, and ±infinity past the largest finite value (as IEEE
/// rounding does). For an `f64` that is an exact `f32` this equals the usual
/// bit trick on the FP32 bits, `(b + 0x7FFF + ((b >> 16) & 1)) >> 16`.
pub fn bf16(x: f64) -> f64 {
    let r = round_to_grid(x, 7, -126);
    if r.abs() > BF16_MAX {
        f64::INFINITY.copysign(x)
    } else {
        r
    }
}

/// Largest FP8 E4M3 value (OCP FP8: 1.75 · 2^8; E4M3 has no infinities).
pub const E4M3_MAX: f64 = 448.0;

/// FP8 E4M3: 1 sign, 4 exponent (bias 7), 3 fraction bits; normals from
/// 2^−6, subnormals down to 2^−9; round to nearest, ties to even, and
/// saturate at ±448 (the OCP spec's saturating conversion).
pub fn e4m3(x: f64) -> f64 {
    round_to_grid(x, 3, -6).clamp(-E4M3_MAX, E4M3_MAX)
}

/// Largest FP4 E2M1 value.
pub const E2M1_MAX: f64 = 6.0;

/// FP4 E2M1: 1 sign, 2 exponent, 1 fraction bit, so the magnitudes are
/// 0, 0.5, 1, 1.5, 2, 3, 4 and 6; round to nearest, ties to even (0.25 → 0,
/// 0.75 → 1, 2.5 → 2, 5 → 4), saturate at ±6.
pub fn e2m1(x: f64) -> f64 {
    round_to_grid(x, 1, 0).clamp(-E2M1_MAX, E2M1_MAX)
}

/// Values sharing one FP4 scale (NVFP4).
pub const FP4_BLOCK: usize = 16;

/// Quantizes then dequantizes `values` (one tensor) in `format`; `None` for
/// a format other than these three (values finite and below 10^38, so the
/// FP32 scales are finite):
///
/// - `"bf16"`: each value through [`bf16`]. 16 bits per value.
/// - `"fp8"`: E4M3 with one scale per tensor, `s = max|x| / 448` stored in
///   FP32; `x ≈ e4m3(x / s) · s`. 8 bits per value plus 32 bits per tensor.
/// - `"fp4"`: NVFP4-style E2M1: a per-tensor FP32 scale `g = max|x| / (448·6)`
///   and, per block of 16 consecutive values, a scale `s_b = e4m3(max_b|x| / (6·g))`
///   stored in FP8 E4M3; `x ≈ e2m1(x / (s_b·g)) · s_b·g`. A block whose stored
///   scale is 0 comes back as zeros. 4 + 8/16 = 4.5 bits per value plus 32
///   bits per tensor; the last block may be shorter.
pub fn quantize(format: &str, values: &[f64]) -> Option<Vec<f64>> {
    let amax = |xs: &[f64]| xs.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
    let fp32 = |x: f64| x as f32 as f64;
    match format {
        "bf16" => Some(values.iter().map(|&x| bf16(x)).collect()),
        "fp8" => {
            let s = fp32(amax(values) / E4M3_MAX);
            Some(
                values
                    .iter()
                    .map(|&x| if s == 0.0 { 0.0 } else { e4m3(x / s) * s })
                    .collect(),
            )
        }
        "fp4" => {
            let g = fp32(amax(values) / (E4M3_MAX * E2M1_MAX));
            let mut out = Vec::with_capacity(values.len());
            for block in values.chunks(FP4_BLOCK) {
                let s = if g == 0.0 {
                    0.0
                } else {
                    e4m3(amax(block) / (E2M1_MAX * g)) * g
                };
                out.extend(
                    block
                        .iter()
                        .map(|&x| if s == 0.0 { 0.0 } else { e2m1(x / s) * s }),
                );
            }
            Some(out)
        }
        _ => None,
    }
}

/// Root-mean-square reconstruction error of [`quantize`]: `√(mean (x − x̂)²)`;
/// `None` for an unknown format, `Some(0.0)` for no values.
pub fn quant_error(format: &str, values: &[f64]) -> Option<f64> {
    let back = quantize(format, values)?;
    Some(rms_diff(values, &back))
}

/// `√(mean (a − b)²)`, 0 for empty slices.
pub fn rms_diff(a: &[f64], b: &[f64]) -> f64 {
    if a.is_empty() {
        return 0.0;
    }
    let sum: f64 = a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum();
    (sum / a.len() as f64).sqrt()
}

/// Orthonormal fast Walsh–Hadamard transform in place: `x ← H x / √d`, with
/// `d = x.len()` a power of two. Its own inverse.
pub fn fwht(x: &mut [f64]) {
    let mut h = 1;
    while h < x.len() {
        for start in (0..x.len()).step_by(2 * h) {
            for i in start..start + h {
                let (a, b) = (x[i], x[i + h]);
                x[i] = a + b;
                x[i + h] = a - b;
            }
        }
        h *= 2;
    }
    let norm = 1.0 / (x.len() as f64).sqrt();
    x.iter_mut().for_each(|v| *v *= norm);
}

/// `dim` seeded random signs (±1): the diagonal of the rotation `H·D`, shared
/// by every vector.
pub fn random_signs(dim: usize, seed: u64) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed);
    (0..dim)
        .map(|_| if rng.next_u64() >> 63 == 0 { 1.0 } else { -1.0 })
        .collect()
}

/// Positive half of the 3-bit (8-level) Lloyd–Max quantizer of a unit
/// Gaussian (Max, 1960); the levels are ± these.
pub const LLOYD_MAX_3: [f64; 4] = [0.2451, 0.7560, 1.3440, 2.1520];
/// Positive half of the 4-bit (16-level) Lloyd–Max quantizer of a unit Gaussian.
pub const LLOYD_MAX_4: [f64; 8] = [
    0.1284, 0.3881, 0.6568, 0.9424, 1.2562, 1.6181, 2.0690, 2.7326,
];

/// The level of `±half` nearest to `u`.
pub fn nearest_level(u: f64, half: &[f64]) -> f64 {
    let a = u.abs();
    let best =
        half.iter().copied().fold(
            half[0],
            |b, l| if (a - l).abs() < (a - b).abs() { l } else { b },
        );
    best.copysign(u)
}

/// The vector-quantization stand-in, one vector of power-of-two length:
/// rotate (`y = H·D·x`, so each coordinate of `y / ‖x‖ · √d` is close to a
/// unit Gaussian even when `x` has outlier channels), round the first half of
/// the coordinates to the 4-bit and the second half to the 3-bit Lloyd–Max
/// levels, keep `‖x‖` in BF16, then scale back and rotate back (`x̂ = D·H·ŷ`).
/// 3.5 bits per value plus 16 bits per vector.
pub fn vq_roundtrip(x: &[f64], signs: &[f64]) -> Vec<f64> {
    let d = x.len();
    let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
    let stored = bf16(norm);
    if stored == 0.0 {
        return vec![0.0; d];
    }
    let mut y: Vec<f64> = x.iter().zip(signs).map(|(v, s)| v * s).collect();
    fwht(&mut y);
    let root = (d as f64).sqrt();
    for (j, yj) in y.iter_mut().enumerate() {
        let table: &[f64] = if j < d / 2 {
            &LLOYD_MAX_4
        } else {
            &LLOYD_MAX_3
        };
        *yj = nearest_level(*yj * root / norm, table) * stored / root;
    }
    fwht(&mut y);
    y.iter().zip(signs).map(|(v, s)| v * s).collect()
}

/// RMS error of [`vq_roundtrip`] over `values` cut into vectors of `dim`
/// (a power of two dividing `values.len()`), with the rotation's signs from `seed`.
pub fn vq_error(values: &[f64], dim: usize, seed: u64) -> f64 {
    rms_diff(values, &vq_all(values, dim, seed))
}

/// [`vq_roundtrip`] of every vector of `dim` values in `values`.
pub fn vq_all(values: &[f64], dim: usize, seed: u64) -> Vec<f64> {
    let signs = random_signs(dim, seed);
    values
        .chunks(dim)
        .flat_map(|x| vq_roundtrip(x, &signs))
        .collect()
}

/// Seeded KV-like data, `vectors × dim` values, vector by vector: unit
/// Gaussians, except `outliers` channels (distinct, chosen at random, the
/// same in every vector) whose values are 10 times larger. Returns the values
/// and whether each channel is an outlier.
pub fn kv_data(vectors: usize, dim: usize, outliers: usize, seed: u64) -> (Vec<f64>, Vec<bool>) {
    let mut rng = SplitMix64::new(seed);
    let mut channels: Vec<usize> = (0..dim).collect();
    for i in 0..outliers.min(dim) {
        let j = i + rng.below((dim - i) as u64) as usize;
        channels.swap(i, j);
    }
    let mut scale = vec![1.0; dim];
    for &c in &channels[..outliers.min(dim)] {
        scale[c] = 10.0;
    }
    let values = (0..vectors * dim)
        .map(|i| rng.normal() * scale[i % dim])
        .collect();
    (values, scale.iter().map(|&s| s > 1.0).collect())
}
// ANCHOR_END: demo

/// Bits per value of a format, scales included, for vectors of `dim` values:
/// BF16 16, FP8 8 (its one FP32 scale per tensor is left out: per layer it
/// is nothing next to millions of values), FP4 4.5, VQ 3.5 + 16/dim.
pub fn bits(format: Format, dim: usize) -> f64 {
    match format {
        Format::Bf16 => 16.0,
        Format::Fp8 => 8.0,
        Format::Fp4 => 4.0 + 8.0 / FP4_BLOCK as f64,
        Format::Vq => 3.5 + 16.0 / dim as f64,
    }
}

/// The rungs of the ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// BF16.
    Bf16,
    /// FP8 E4M3, per-tensor scale.
    Fp8,
    /// FP4 E2M1, per-16 E4M3 scales.
    Fp4,
    /// The rotate-then-round stand-in for ~3.5-bit vector quantization.
    Vq,
}

/// Every rung, widest first.
pub const FORMATS: [Format; 4] = [Format::Bf16, Format::Fp8, Format::Fp4, Format::Vq];

impl Format {
    /// Name in the table.
    pub fn name(self, lang: Lang) -> String {
        match self {
            Format::Bf16 => "BF16".to_owned(),
            Format::Fp8 => "FP8 E4M3".to_owned(),
            Format::Fp4 => say::name_fp4.text(lang),
            Format::Vq => say::name_vq.text(lang),
        }
    }

    /// What is stored besides the values.
    pub fn stored(self, lang: Lang) -> String {
        match self {
            Format::Bf16 => say::stored_bf16.text(lang),
            Format::Fp8 => say::stored_fp8.text(lang),
            Format::Fp4 => say::stored_fp4.text(lang),
            Format::Vq => say::stored_vq.text(lang),
        }
    }
}

/// What one run measures for one format.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rung {
    /// The format.
    pub format: Format,
    /// Bits per value, scales included.
    pub bits: f64,
    /// RMS error divided by the data's RMS.
    pub rel_error: f64,
    /// The same over the ordinary (non-outlier) channels only: their RMS
    /// error divided by their RMS. NaN when every channel is an outlier.
    pub plain_error: f64,
}

/// The four rungs on `vectors × dim` seeded values with `outliers` outlier
/// channels; the VQ rotation's signs come from `seed + 1`.
pub fn ladder(vectors: usize, dim: usize, outliers: usize, seed: u64) -> Vec<Rung> {
    let (data, outlier) = kv_data(vectors, dim, outliers, seed);
    let plain = |xs: &[f64]| -> Vec<f64> {
        xs.iter()
            .enumerate()
            .filter(|(i, _)| !outlier[i % dim])
            .map(|(_, x)| *x)
            .collect()
    };
    let zeros = vec![0.0; data.len()];
    let (rms, plain_data) = (rms_diff(&data, &zeros), plain(&data));
    let plain_rms = rms_diff(&plain_data, &zeros);
    FORMATS
        .iter()
        .map(|&format| {
            let back = match format {
                Format::Bf16 => quantize("bf16", &data),
                Format::Fp8 => quantize("fp8", &data),
                Format::Fp4 => quantize("fp4", &data),
                Format::Vq => Some(vq_all(&data, dim, seed.wrapping_add(1))),
            }
            .unwrap_or_default();
            Rung {
                format,
                bits: bits(format, dim),
                rel_error: rms_diff(&data, &back) / rms,
                plain_error: rms_diff(&plain_data, &plain(&back)) / plain_rms,
            }
        })
        .collect()
}

/// The models of the chapter's table, by name, for the `model` choice.
pub const MODELS: [&str; 4] = ["Qwen3-72B", "DeepSeek-V3", "Qwen3.5-397B", "DeepSeek-V4"];

/// Most values one run may quantize (about 5 ms natively in release).
pub const MAX_VALUES: u64 = 262_144;

/// Values per vector (the head dim); must also be a power of two.
const DIM: Param = Param::int("dim", "128", 16, 4_096);
/// Vectors to quantize; with `dim`, at most [`MAX_VALUES`] values.
const VECTORS: Param = Param::int("vectors", "64", 1, 16_384);
/// Outlier channels, at most `dim`.
const OUTLIERS: Param = Param::int("outliers", "2", 0, 4_096);
/// Seed of the data.
const SEED: Param = Param::int("seed", "7", 0, u32::MAX as i64);
/// The model whose cache is sized.
const MODEL: Param = Param::choice("model", &MODELS);
/// Context length, in tokens.
const TOKENS: Param = Param::int("tokens", "1,000,000", 1, 1 << 30);

/// The cell's parameters.
pub const PARAMS: &[Param] = &[DIM, VECTORS, OUTLIERS, SEED, MODEL, TOKENS];

/// The cell.
pub fn demo() -> Demo {
    Demo {
        id: "quant",
        params: PARAMS,
        #[cfg(feature = "render")]
        source: crate::demo::anchored(include_str!("quant.rs"), "demo"),
        #[cfg(feature = "run")]
        run,
    }
}

/// Checked parameters of the demo.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Values per vector, a power of two.
    pub dim: usize,
    /// Vectors.
    pub vectors: usize,
    /// Outlier channels.
    pub outliers: usize,
    /// Seed of the data (and, plus one, of the rotation).
    pub seed: u64,
    /// The model whose cache is sized.
    pub model: Model,
    /// Context length in tokens.
    pub tokens: u64,
}

impl Params {
    /// Validates the reader's text; every bad field gets its own message.
    /// More than [`MAX_VALUES`] values is refused (on `vectors`) before the run.
    pub fn parse(raw: &Raw) -> Result<Params, Vec<ParamError>> {
        let dim = DIM.read_int(raw).and_then(|d| {
            if (d as u64).is_power_of_two() {
                Ok(d)
            } else {
                Err(ParamError::from_msg(
                    DIM.name,
                    Msg::in_all(|l| say::not_power_of_two { dim: group(d) }.text(l)),
                ))
            }
        });
        let mut vectors = VECTORS.read_int(raw);
        let mut outliers = OUTLIERS.read_int(raw);
        let seed = SEED.read_int(raw);
        let model = MODEL.read_choice(raw);
        let tokens = TOKENS.read_int(raw);
        let what = Msg::in_all(|l| say::budget_what.text(l));
        let unit = Msg::in_all(|l| say::budget_unit.text(l));
        let lower = Msg::in_all(|l| say::budget_lower.text(l));
        if let (Ok(d), Ok(v)) = (&dim, &vectors)
            && let Err(e) = check_budget(
                VECTORS.name,
                &what,
                checked_product(&[*v as u64, *d as u64]),
                MAX_VALUES,
                &unit,
                &lower,
            )
        {
            vectors = Err(e);
        }
        if let (Ok(d), Ok(o)) = (&dim, &outliers)
            && o > d
        {
            outliers = Err(ParamError::from_msg(
                OUTLIERS.name,
                Msg::in_all(|l| say::too_many_outliers { dim: group(*d) }.text(l)),
            ));
        }
        let model = model.and_then(|name| {
            table_model(name).ok_or_else(|| {
                ParamError::from_msg(MODEL.name, Msg::in_all(|l| say::no_such_model { name }.text(l)))
            })
        });
        let (dim, vectors, outliers, seed, model, tokens) = (dim, vectors, outliers, seed, model, tokens).all_ok()?;
        Ok(Params {
        dim: dim as usize,
        vectors: vectors as usize,
        outliers: outliers as usize,
        seed: seed as u64,
        model,
        tokens: tokens as u64,
    })
    }
}

/// A positive ratio as a percentage with two significant digits: `0.0256` →
/// `2.6%`, `0.00234` → `0.23%`, `0.113` → `11%`.
pub fn pct2(v: f64) -> String {
    let p = 100.0 * v;
    let floors = [10.0, 1.0, 0.1, 0.01, 0.001, 0.0001];
    for (decimals, floor) in floors.iter().enumerate() {
        let s = format!("{p:.decimals$}");
        if s.parse::<f64>().is_ok_and(|r| r >= *floor) {
            return format!("{s}%");
        }
    }
    format!("{p:.1e}%")
}

/// `16 / bits` with one decimal and a times sign: `4.6×`.
pub fn ratio(bits: f64) -> String {
    format!("{:.1}×", 16.0 / bits)
}

/// Bytes in GiB with one decimal, or MiB below 1 GiB.
fn size(bytes: f64) -> String {
    if bytes >= (1u64 << 30) as f64 {
        Units::Binary.giga(bytes, 1)
    } else {
        Units::Binary.mega(bytes, 1)
    }
}

/// Bits per value shown with up to 3 decimals: `4.5`, `3.625`.
fn fmt_bits(b: f64) -> String {
    let s = format!("{b:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Runs the demo: the ladder's bits, bytes and measured errors as text, a
/// table and a chart of bytes against error.
pub fn run(raw: &Raw, lang: Lang) -> Result<Output, Vec<ParamError>> {
    let p = Params::parse(raw)?;
    let rungs = ladder(p.vectors, p.dim, p.outliers, p.seed);
    let bf16_bytes = p.model.bytes(p.tokens);
    let bytes = |r: &Rung| bf16_bytes * r.bits / 16.0;
    let tokens = group(p.tokens as i64);
    let model = p.model.name;
    let plain = |r: &Rung| {
        if r.plain_error.is_nan() {
            "–".to_owned()
        } else {
            pct2(r.plain_error)
        }
    };
    let smaller = |r: &Rung| say::smaller { ratio: ratio(r.bits) }.text(lang);

    let (vectors, dim, outliers, seed, bf16_size) = (
        group(p.vectors as i64),
        group(p.dim as i64),
        group(p.outliers as i64),
        p.seed,
        size(bf16_bytes),
    );
    let mut text = if p.outliers == 1 {
        say::intro_one {
            vectors,
            dim,
            outliers,
            seed,
            model,
            tokens: &tokens,
            size: &bf16_size,
        }
        .text(lang)
    } else {
        say::intro {
            vectors,
            dim,
            outliers,
            seed,
            model,
            tokens: &tokens,
            size: &bf16_size,
        }
        .text(lang)
    };
    for r in &rungs {
        text += &say::rung {
            name: r.format.name(lang),
            bits: fmt_bits(r.bits),
            stored: r.format.stored(lang),
            cmp: if r.format == Format::Bf16 {
                say::reference.text(lang)
            } else {
                smaller(r)
            },
            size: size(bytes(r)),
            error: pct2(r.rel_error),
            plain: plain(r),
        }
        .text(lang);
    }
    if p.outliers > 0 {
        text += &say::outliers_note.text(lang);
    }
    text += &say::vq_note {
        vq: ratio(3.5),
        vq_cell: ratio(bits(Format::Vq, p.dim)),
        dim: group(p.dim as i64),
        bits: fmt_bits(bits(Format::Vq, p.dim)),
        three: ratio(3.0),
        fp32: format!("{:.1}", 32.0 / 3.5),
    }
    .text(lang);

    let header = [
        say::col_format.text(lang),
        say::col_bits.text(lang),
        say::col_stored.text(lang),
        say::col_vs_bf16.text(lang),
        say::col_bytes {
            model,
            tokens: &tokens,
        }
        .text(lang),
        say::col_error.text(lang),
        say::col_plain.text(lang),
    ];
    let rows = rungs
        .iter()
        .map(|r| {
            vec![
                r.format.name(lang),
                fmt_bits(r.bits),
                r.format.stored(lang),
                if r.format == Format::Bf16 {
                    "1×".to_owned()
                } else {
                    smaller(r)
                },
                size(bytes(r)),
                pct2(r.rel_error),
                plain(r),
            ]
        })
        .collect();
    let gib = (1u64 << 30) as f64;
    let points = rungs.iter().filter(|r| r.rel_error > 0.0).map(|r| {
        let name = say::series {
            name: r.format.name(lang),
            bits: fmt_bits(r.bits),
        };
        Series::line(name.text(lang), [bytes(r) / gib], [100.0 * r.rel_error])
    });
    let plain = (p.outliers > 0 && p.outliers < p.dim).then(|| {
        Series::line(
            say::series_plain.text(lang),
            rungs.iter().map(|r| bytes(r) / gib),
            rungs.iter().map(|r| 100.0 * r.plain_error),
        )
        .dashed()
    });
    let plot = Plot::new(
        say::chart_title {
            model,
            tokens: &tokens,
        }
        .text(lang),
        say::chart_x.text(lang),
        say::chart_y.text(lang),
    )
    .log_y()
    .series(points)
    .series(plain);
    Ok(Output::new().text(text).table(header, rows).plot(plot))
}

/// The figures the chapter's text quotes from this cell: (name, value).
pub fn figures() -> Vec<(&'static str, String)> {
    let p = Params::parse(&crate::demo::defaults(PARAMS))
        .unwrap_or_else(|e| panic!("the quant cell's defaults: {e:?}"));
    let rungs = ladder(p.vectors, p.dim, p.outliers, p.seed);
    let rung = |f: Format| {
        rungs
            .iter()
            .find(|r| r.format == f)
            .copied()
            .unwrap_or_else(|| panic!("no {f:?} rung"))
    };
    let err = |f: Format| pct2(rung(f).rel_error);
    let plain = |f: Format| pct2(rung(f).plain_error);
    let qwen =
        table_model("Qwen3-72B").unwrap_or_else(|| panic!("Qwen3-72B is in the chapter's table"));
    let fp4 = bits(Format::Fp4, p.dim);
    vec![
        ("quant.vq_ratio", ratio(3.5)),
        ("quant.three_bit_ratio", ratio(3.0)),
        (
            "quant.fp8_half",
            size(qwen.bytes(1_000_000) * bits(Format::Fp8, p.dim) / 16.0),
        ),
        ("quant.fp4_bits", fmt_bits(fp4)),
        ("quant.fp4_ratio", ratio(fp4)),
        ("quant.bf16_err", err(Format::Bf16)),
        ("quant.fp8_err", err(Format::Fp8)),
        ("quant.fp4_err", err(Format::Fp4)),
        ("quant.vq_err", err(Format::Vq)),
        ("quant.fp8_err_plain", plain(Format::Fp8)),
        ("quant.fp4_err_plain", plain(Format::Fp4)),
        ("quant.vq_bits", fmt_bits(bits(Format::Vq, p.dim))),
    ]
}

#[cfg(test)]
mod tests;
