//! The tests of `quant.rs`, apart from it so that a notebook can include that
//! file as it is.

use super::*;
use crate::demo::test_help::{text, table, plot};
use crate::demo::defaults;
use crate::math;

/// The usual FP32 → BF16 bit trick (round to nearest even on the bits).
fn bf16_via_f32(x: f32) -> f64 {
    let b = x.to_bits();
    let r = (b + 0x7FFF + ((b >> 16) & 1)) >> 16;
    f64::from(f32::from_bits(r << 16))
}

#[test]
fn bf16_keeps_representable_values_and_rounds_like_the_bit_trick() {
    for x in [
        0.0,
        -0.0,
        1.0,
        -1.5,
        3.0,
        0.0078125,
        256.0,
        1.0 + 1.0 / 128.0,
        BF16_MAX,
        -BF16_MAX,
        pow2(-126),
        pow2(-133),
        3.0 * pow2(-133),
    ] {
        assert_eq!(bf16(x).to_bits(), x.to_bits(), "{x:e}");
    }
    // Ties to even, and the first value that rounds up.
    assert_eq!(bf16(1.0 + pow2(-8)), 1.0);
    assert_eq!(bf16(1.0 + 3.0 * pow2(-8)), 1.0 + pow2(-6));
    assert_eq!(bf16(1.0 + pow2(-8) + pow2(-30)), 1.0 + pow2(-7));
    assert_eq!(bf16(pow2(-134)), 0.0);
    assert_eq!(bf16(1e39), f64::INFINITY);
    assert_eq!(bf16(-1e39), f64::NEG_INFINITY);
    assert_eq!(
        bf16(BF16_MAX + pow2(119)),
        f64::INFINITY,
        "half an ulp: to even, 2^128"
    );
    assert_eq!(bf16(BF16_MAX + pow2(118)), BF16_MAX);
    assert!(bf16(f64::NAN).is_nan());
    let mut rng = SplitMix64::new(1);
    for _ in 0..20_000 {
        // Exact f32 values over a wide range of exponents (no double rounding).
        let x = (rng.normal() * math::exp(rng.normal() * 20.0)) as f32;
        assert_eq!(bf16(f64::from(x)), bf16_via_f32(x), "{x:e}");
    }
}

#[test]
fn e4m3_values_ties_subnormals_and_saturation() {
    for (x, want) in [
        (448.0, 448.0),
        (460.0, 448.0),
        (1e6, 448.0),
        (-1e6, -448.0),
        (0.0625, 0.0625),
        (0.1, 0.1015625),
        (1.0 / 64.0, 1.0 / 64.0),
        (pow2(-9), pow2(-9)),
        (7.0 * pow2(-9), 7.0 * pow2(-9)),
        (pow2(-10), 0.0),
        (1.5 * pow2(-10), pow2(-9)),
        (3.0 * pow2(-10), pow2(-8)),
        (17.0, 16.0),
        (19.0, 20.0),
        (232.0, 224.0),
        (240.0, 240.0),
        (-3.3, -3.25),
    ] {
        assert_eq!(e4m3(x), want, "{x}");
    }
    // 126 positive finite values: 7 subnormals and 15 binades of 8, minus
    // the one code that E4M3 spends on NaN.
    let mut seen: Vec<f64> = (1..=(460 << 11))
        .map(|i| e4m3(f64::from(i) * pow2(-11)))
        .collect();
    seen.dedup();
    assert_eq!(seen[0], 0.0, "2^-11 rounds to 0");
    assert_eq!(seen.len(), 1 + 126);
    assert_eq!(seen.last(), Some(&448.0));
}

#[test]
fn e2m1_has_eight_magnitudes() {
    let mut seen: Vec<f64> = (0..=80).map(|i| e2m1(f64::from(i) * 0.125)).collect();
    seen.dedup();
    assert_eq!(seen, [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]);
    for (x, want) in [
        (0.25, 0.0),
        (0.75, 1.0),
        (1.25, 1.0),
        (1.75, 2.0),
        (2.5, 2.0),
        (3.5, 4.0),
        (5.0, 4.0),
        (5.1, 6.0),
        (100.0, 6.0),
        (-2.6, -3.0),
    ] {
        assert_eq!(e2m1(x), want, "{x}");
    }
}

#[test]
fn formats_and_their_edges() {
    assert_eq!(quant_error("int4", &[1.0]), None);
    assert_eq!(quantize("FP8", &[1.0]), None);
    for f in ["bf16", "fp8", "fp4"] {
        assert_eq!(quant_error(f, &[]), Some(0.0));
        assert_eq!(quant_error(f, &[0.0; 40]), Some(0.0));
    }
    // A tensor's largest value survives FP8 (scale rounded to FP32) closely.
    let back = quantize("fp8", &[3.0, -0.5, 1e-3]).unwrap();
    assert!((back[0] - 3.0).abs() < 1e-6, "{back:?}");
    // FP4: a block far smaller than the tensor's largest gets a zero scale.
    let mut x = vec![1000.0; 16];
    x.extend([1e-9; 16]);
    let back = quantize("fp4", &x).unwrap();
    assert_eq!(back[16..], [0.0; 16]);
    assert!((back[0] - 1000.0).abs() < 1e-3);
    // A last, shorter block is quantized on its own.
    assert_eq!(quantize("fp4", &[1.0; 20]).unwrap().len(), 20);
    // Bits with scales.
    assert_eq!(bits(Format::Fp4, 128), 4.5);
    assert_eq!(bits(Format::Vq, 128), 3.625);
    assert_eq!(bits(Format::Fp8, 128), 8.0);
}

#[test]
fn the_rotation_is_orthogonal() {
    let mut rng = SplitMix64::new(4);
    for d in [2, 16, 128, 1024] {
        let signs = random_signs(d, 9);
        let x: Vec<f64> = (0..d).map(|_| rng.normal() * 3.0).collect();
        let mut y: Vec<f64> = x.iter().zip(&signs).map(|(a, s)| a * s).collect();
        fwht(&mut y);
        let (nx, ny) = (
            x.iter().map(|v| v * v).sum::<f64>(),
            y.iter().map(|v| v * v).sum::<f64>(),
        );
        assert!((nx - ny).abs() <= 1e-12 * nx, "{d}: {nx} {ny}");
        fwht(&mut y);
        let back: Vec<f64> = y.iter().zip(&signs).map(|(a, s)| a * s).collect();
        assert!(rms_diff(&x, &back) < 1e-12, "{d}");
    }
    // H e₀ / √d: every entry 1/√d.
    let mut e = vec![0.0; 8];
    e[0] = 1.0;
    fwht(&mut e);
    assert!(e.iter().all(|v| (v - 8f64.sqrt().recip()).abs() < 1e-15));
}

#[test]
fn lloyd_max_levels_are_centroids_of_their_cells() {
    // Centroid of φ over [a, b] = (φ(a) − φ(b)) / ∫_a^b φ, the integral by Simpson.
    let phi = |x: f64| math::exp(-x * x / 2.0) / (2.0 * std::f64::consts::PI).sqrt();
    let integral = |a: f64, b: f64| {
        let n = 2_000;
        let h = (b - a) / f64::from(n);
        let inner: f64 = (1..n)
            .map(|i| phi(a + f64::from(i) * h) * if i % 2 == 1 { 4.0 } else { 2.0 })
            .sum();
        (phi(a) + phi(b) + inner) * h / 3.0
    };
    for half in [&LLOYD_MAX_3[..], &LLOYD_MAX_4[..]] {
        let mut levels: Vec<f64> = half.iter().rev().map(|l| -l).collect();
        levels.extend(half);
        for (i, &l) in levels.iter().enumerate().skip(half.len()) {
            let a = (levels[i - 1] + l) / 2.0;
            let b = levels.get(i + 1).map_or(12.0, |n| (l + n) / 2.0);
            let centroid = (phi(a) - phi(b)) / integral(a, b);
            assert!((centroid - l).abs() < 2e-3, "{l}: {centroid}");
        }
    }
    // The decision threshold between 0.2451 and 0.7560 is their midpoint.
    assert_eq!(nearest_level(0.5, &LLOYD_MAX_3), 0.2451);
    assert_eq!(nearest_level(0.51, &LLOYD_MAX_3), 0.756);
    assert_eq!(nearest_level(-0.4, &LLOYD_MAX_3), -0.2451);
    assert_eq!(nearest_level(9.0, &LLOYD_MAX_4), 2.7326);
}

#[test]
fn measured_errors_are_ordered_by_bits() {
    // On the default data: BF16 < FP8 < FP4 < the VQ stand-in, which spends
    // the fewest bits. Without outliers the stand-in lands near the
    // Lloyd–Max error of a unit Gaussian, √((0.009497 + 0.03455) / 2) = 14.8%.
    let p = Params::parse(&defaults(PARAMS)).unwrap();
    let (data, _) = kv_data(p.vectors, p.dim, p.outliers, p.seed);
    let err = |f| quant_error(f, &data).unwrap();
    assert!(err("bf16") < err("fp8") && err("fp8") < err("fp4"));
    let r = ladder(p.vectors, p.dim, p.outliers, p.seed);
    let e: Vec<f64> = r.iter().map(|r| r.rel_error).collect();
    assert!(e.windows(2).all(|w| w[0] < w[1]), "{e:?}");
    assert!(e[0] < 0.003 && (0.02..0.04).contains(&e[1]), "{e:?}");
    let clean = ladder(p.vectors, p.dim, 0, p.seed);
    assert!((clean[3].rel_error - 0.148).abs() < 0.01, "{clean:?}");
    // Outliers: FP8 keeps each value's relative precision; FP4's blocks
    // and the stand-in's per-vector norm let them swamp ordinary channels.
    assert!((r[1].plain_error - clean[1].plain_error).abs() < 0.005);
    assert!(r[2].plain_error > 1.3 * clean[2].plain_error, "{r:?}");
    assert!(r[3].plain_error > 1.3 * clean[3].plain_error, "{r:?}");
    assert_eq!(clean[2].rel_error, clean[2].plain_error);
}

#[test]
fn outlier_channels_are_distinct_and_ten_times_larger() {
    let (x, outlier) = kv_data(512, 32, 3, 5);
    assert_eq!(outlier.iter().filter(|&&o| o).count(), 3);
    let rms = |c: usize| {
        let s: f64 = x.iter().skip(c).step_by(32).map(|v| v * v).sum();
        (s / 512.0).sqrt()
    };
    for (c, &big) in outlier.iter().enumerate() {
        let want = if big { 10.0 } else { 1.0 };
        assert!((rms(c) / want - 1.0).abs() < 0.15, "{c}: {}", rms(c));
    }
    let (_, all) = kv_data(1, 16, 16, 5);
    assert!(all.iter().all(|&o| o));
}

#[test]
fn defaults_give_text_table_chart_and_the_figures() {
    let out = run(&defaults(PARAMS), Lang::En).unwrap();
    assert_eq!(out.blocks.len(), 3);
    let f: std::collections::BTreeMap<_, _> = figures().into_iter().collect();
    let p = Params::parse(&defaults(PARAMS)).unwrap();
    let vq = ladder(p.vectors, p.dim, p.outliers, p.seed)
        .into_iter()
        .find(|r| r.format == Format::Vq)
        .unwrap();
    assert_eq!(f["quant.vq_ratio"], "4.6×");
    assert_eq!(f["quant.three_bit_ratio"], "5.3×");
    assert_eq!(f["quant.fp8_half"], "152.6 GiB");
    assert_eq!(f["quant.fp4_bits"], "4.5");
    assert_eq!(f["quant.fp4_ratio"], "3.6×");
    assert_eq!(f["quant.vq_bits"], "3.625");
    let t = text(&out, 0);
    for line in [
        format!(
            "FP8 E4M3: 8 bits per value (8-bit values + 1 FP32 scale per tensor), 2.0× smaller → 152.6 GiB, error {}",
            f["quant.fp8_err"]
        ),
        "FP4 E2M1 (NVFP4-style): 4.5 bits per value".to_owned(),
        format!(
            "error {} (ordinary channels {})",
            f["quant.vq_err"],
            pct2(vq.plain_error)
        ),
        "a stand-in for TurboQuant, not TurboQuant itself".to_owned(),
        "16 / 3.5 = 4.6×".to_owned(),
        "32 / 3.5 = 9.1×".to_owned(),
    ] {
        assert!(t.contains(&line), "{line}\n{t}");
    }
    let (header, rows) = table(&out, 0);
    assert_eq!(header.len(), 7);
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0][4], "305.2 GiB");
    assert_eq!(rows[2][3], "3.6× smaller");
    let plot = plot(&out, 0);
    assert!(plot.log_y);
    assert_eq!(plot.series.len(), 5);
    assert!(plot.series[..4].iter().all(|s| s.x.len() == 1));
    assert!(plot.series.iter().flat_map(|s| &s.y).all(|&y| y > 0.0));
    assert_eq!(
        MODELS.to_vec(),
        super::super::formulas::table_models()
            .iter()
            .map(|m| m.name)
            .collect::<Vec<_>>()
    );
}

#[test]
fn every_model_and_small_contexts() {
    for m in MODELS {
        let mut raw = defaults(PARAMS);
        raw.insert("model".into(), m.into());
        raw.insert("tokens".into(), "4,096".into());
        raw.insert("outliers".into(), "0".into());
        let out = run(&raw, Lang::En).unwrap();
        let plot = plot(&out, 0);
        assert_eq!(plot.series.len(), 4, "{m}");
    }
    let mut raw = defaults(PARAMS);
    raw.insert("model".into(), "DeepSeek-V4".into());
    let v4 = run(&raw, Lang::En).unwrap();
    let (_, rows) = table(&v4, 0);
    // V4's 7.4 GiB of compressed entries at 10^6 tokens plus its 7.6 MiB of windows.
    assert_eq!(rows[0][4], "7.4 GiB");
    raw.insert("outliers".into(), "128".into());
    assert!(run(&raw, Lang::En).is_ok());
}

#[test]
fn percentages_keep_two_significant_digits() {
    assert_eq!(pct2(0.0256), "2.6%");
    assert_eq!(pct2(0.00234), "0.23%");
    assert_eq!(pct2(0.113), "11%");
    assert_eq!(pct2(0.0996), "10%");
    assert_eq!(pct2(0.000999), "0.10%");
    assert_eq!(pct2(1.5), "150%");
}

#[test]
fn reruns_are_bit_identical() {
    let raw = defaults(PARAMS);
    assert_eq!(run(&raw, Lang::En).unwrap(), run(&raw, Lang::En).unwrap());
    assert_eq!(figures(), figures());
}

#[test]
fn bad_parameters_name_each_field() {
    let mut raw = defaults(PARAMS);
    raw.insert("dim".into(), "100".into());
    let errs = run(&raw, Lang::En).unwrap_err();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].param, "dim");
    assert!(
        errs[0].message.contains("power of two"),
        "{}",
        errs[0].message
    );
    let mut raw = defaults(PARAMS);
    raw.insert("dim".into(), "8".into());
    raw.insert("vectors".into(), "0".into());
    raw.insert("outliers".into(), "-1".into());
    raw.insert("seed".into(), "x".into());
    raw.insert("model".into(), "GPT".into());
    raw.insert("tokens".into(), "0".into());
    let errs = run(&raw, Lang::En).unwrap_err();
    let names: Vec<&str> = errs.iter().map(|e| e.param.as_str()).collect();
    assert_eq!(
        names,
        ["dim", "vectors", "outliers", "seed", "model", "tokens"]
    );
    let mut raw = defaults(PARAMS);
    raw.insert("dim".into(), "4,096".into());
    raw.insert("vectors".into(), "65".into());
    raw.insert("outliers".into(), "5,000".into());
    let errs = run(&raw, Lang::En).unwrap_err();
    let names: Vec<&str> = errs.iter().map(|e| e.param.as_str()).collect();
    assert_eq!(names, ["vectors", "outliers"]);
    assert!(
        errs[0]
            .message
            .contains("exceeds the cell's budget of 262,144 values")
    );
    raw.insert("outliers".into(), "16".into());
    raw.insert("dim".into(), "8".into());
    assert_eq!(run(&raw, Lang::En).unwrap_err()[0].param, "dim");
    raw.insert("dim".into(), "16".into());
    raw.insert("outliers".into(), "17".into());
    let errs = run(&raw, Lang::En).unwrap_err();
    assert_eq!(errs[0].param, "outliers");
    assert_eq!(errs[0].message, "at most dim (16) channels");
}
