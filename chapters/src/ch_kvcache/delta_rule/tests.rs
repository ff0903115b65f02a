//! The tests of `delta_rule.rs`, apart from it so that a notebook can include that
//! file as it is.

use super::*;
use crate::demo::test_help::{text, table, plot};
use crate::demo::defaults;

fn outer(s: &[Vec<f64>], k: &[f64], v: &[f64], alpha: f64, beta: f64) -> Vec<Vec<f64>> {
    // The paper's product literally: S·α(I − β k kᵀ) + β v kᵀ.
    let dk = k.len();
    let m: Vec<Vec<f64>> = (0..dk)
        .map(|i| {
            (0..dk)
                .map(|j| alpha * (f64::from(u8::from(i == j)) - beta * k[i] * k[j]))
                .collect()
        })
        .collect();
    s.iter()
        .zip(v)
        .map(|(row, &vi)| {
            (0..dk)
                .map(|j| (0..dk).map(|i| row[i] * m[i][j]).sum::<f64>() + beta * vi * k[j])
                .collect()
        })
        .collect()
}

fn max_abs_diff(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    a.iter()
        .flatten()
        .zip(b.iter().flatten())
        .fold(0.0, |m, (x, y)| m.max((x - y).abs()))
}

fn random_state(rng: &mut SplitMix64, dv: usize, dk: usize) -> Vec<Vec<f64>> {
    (0..dv)
        .map(|_| (0..dk).map(|_| rng.normal()).collect())
        .collect()
}

fn unit(rng: &mut SplitMix64, d: usize) -> Vec<f64> {
    let k: Vec<f64> = (0..d).map(|_| rng.normal()).collect();
    let n = dot(&k, &k).sqrt();
    k.iter().map(|x| x / n).collect()
}

/// `n ≤ d` orthonormal keys by Gram–Schmidt on seeded Gaussians.
fn orthonormal(d: usize, n: usize, seed: u64) -> Vec<Vec<f64>> {
    let mut rng = SplitMix64::new(seed);
    let mut basis: Vec<Vec<f64>> = Vec::new();
    while basis.len() < n {
        let mut k: Vec<f64> = (0..d).map(|_| rng.normal()).collect();
        for _ in 0..2 {
            for b in &basis {
                let c = dot(&k, b);
                k.iter_mut().zip(b).for_each(|(x, y)| *x -= c * y);
            }
        }
        let norm = dot(&k, &k).sqrt();
        basis.push(k.iter().map(|x| x / norm).collect());
    }
    basis
}

#[test]
fn the_step_is_the_papers_product_also_for_rectangular_states() {
    let mut rng = SplitMix64::new(3);
    for (dv, dk) in [(4, 4), (3, 5), (6, 2)] {
        let s = random_state(&mut rng, dv, dk);
        let k = unit(&mut rng, dk);
        let v: Vec<f64> = (0..dv).map(|_| rng.normal()).collect();
        for (alpha, beta) in [(1.0, 1.0), (0.9, 0.5), (0.3, 1.7)] {
            let got = delta_rule_step(&s, &k, &v, alpha, beta);
            assert_eq!((got.len(), got[0].len()), (dv, dk));
            let d = max_abs_diff(&got, &outer(&s, &k, &v, alpha, beta));
            assert!(d < 1e-12, "{dv}×{dk} α {alpha} β {beta}: {d}");
        }
    }
}

#[test]
fn with_beta_one_the_newest_pair_is_recalled() {
    let mut rng = SplitMix64::new(5);
    let s = random_state(&mut rng, 8, 8);
    let k = unit(&mut rng, 8);
    let v: Vec<f64> = (0..8).map(|_| rng.normal()).collect();
    for alpha in [1.0, 0.9, 0.5] {
        let paper = delta_rule_step(&s, &k, &v, alpha, 1.0);
        let err = recall_errors(&paper, std::slice::from_ref(&k), std::slice::from_ref(&v))[0];
        assert!(err < 1e-14, "α {alpha}: {err}");
        // The source form recalls v − (1 − α)·S k instead.
        let source = delta_rule_step_source(&s, &k, &v, alpha, 1.0);
        for (row, (orig, vi)) in source.iter().zip(s.iter().zip(&v)) {
            let want = vi - (1.0 - alpha) * dot(orig, &k);
            assert!((dot(row, &k) - want).abs() < 1e-12);
        }
    }
}

#[test]
fn the_forms_agree_exactly_for_alpha_one_and_differ_otherwise() {
    let mut rng = SplitMix64::new(11);
    let s = random_state(&mut rng, 6, 6);
    let k = unit(&mut rng, 6);
    let v: Vec<f64> = (0..6).map(|_| rng.normal()).collect();
    for beta in [0.0, 0.3, 1.0, 1.9] {
        assert_eq!(
            delta_rule_step(&s, &k, &v, 1.0, beta),
            delta_rule_step_source(&s, &k, &v, 1.0, beta),
            "β {beta}"
        );
    }
    for (alpha, beta) in [(0.9, 1.0), (0.5, 0.4)] {
        let paper = delta_rule_step(&s, &k, &v, alpha, beta);
        let source = delta_rule_step_source(&s, &k, &v, alpha, beta);
        // paper − source = (1 − α)·β·(S k) kᵀ.
        let want: Vec<Vec<f64>> = s
            .iter()
            .map(|row| {
                let sk = dot(row, &k);
                k.iter().map(|kj| (1.0 - alpha) * beta * sk * kj).collect()
            })
            .collect();
        let diff: Vec<Vec<f64>> = paper
            .iter()
            .zip(&source)
            .map(|(a, b)| a.iter().zip(b).map(|(x, y)| x - y).collect())
            .collect();
        assert!(max_abs_diff(&diff, &want) < 1e-12);
        assert!(max_abs_diff(&paper, &source) > 1e-3);
    }
    // Over many writes: exactly 0 at α = 1, a few percent at the default.
    assert_eq!(forms_gap(32, 16, 7, 1.0, 1.0), 0.0);
    let gap = forms_gap(32, 16, 7, 0.9, 1.0);
    assert!((0.01..0.1).contains(&gap), "{gap}");
}

#[test]
fn orthonormal_keys_are_recalled_exactly_by_both_rules() {
    for (d, n) in [(16, 16), (16, 5), (32, 32)] {
        let keys = orthonormal(d, n, 1);
        let mut rng = SplitMix64::new(2);
        let values: Vec<Vec<f64>> = (0..n)
            .map(|_| (0..d).map(|_| rng.normal()).collect())
            .collect();
        let delta = Rule::Paper {
            alpha: 1.0,
            beta: 1.0,
        };
        for rule in [delta, Rule::Additive] {
            let errs = recall_errors(&memorise(&keys, &values, rule), &keys, &values);
            let worst = errs.iter().fold(0.0_f64, |m, &e| m.max(e));
            assert!(worst < 1e-12, "d {d} n {n} {rule:?}: {worst}");
        }
    }
}

#[test]
fn with_random_unit_keys_the_delta_rule_beats_additive_below_capacity() {
    let p = Params::parse(&defaults(PARAMS)).unwrap();
    let points = sweep(p.dim, p.seed, p.alpha, p.beta);
    let ns: Vec<usize> = points.iter().map(|pt| pt.n).collect();
    assert_eq!(ns, [4, 8, 16, 24, 32, 48, 64, 96, 128]);
    for pt in &points {
        assert!(pt.delta < pt.additive, "{pt:?}");
    }
    let half = points[2];
    assert_eq!(half.n, 16);
    assert!(half.delta < 0.8 * half.additive, "{half:?}");
    // Both degrade as the load grows; additive passes 100% above capacity.
    for w in points.windows(2) {
        assert!(w[1].additive > w[0].additive && w[1].delta > w[0].delta);
    }
    assert!(points[6].additive > 1.0 && points[6].delta > 0.9);
    // Additive interference grows like √((n − 1)/d) for random unit keys.
    for pt in &points {
        let want = ((pt.n as f64 - 1.0) / 32.0).sqrt();
        assert!(
            (pt.additive - want).abs() < 0.2 * want.max(0.5),
            "{pt:?} vs {want}"
        );
    }
    // The sweep's incremental writes give the states of fresh runs.
    let (keys, values) = pairs(32, 24, 7);
    assert_eq!(
        mean_recall_error(&keys, &values, Rule::Additive),
        points[3].additive
    );
    assert_eq!(
        mean_recall_error(
            &keys,
            &values,
            Rule::Paper {
                alpha: 0.9,
                beta: 1.0
            }
        ),
        points[3].gated
    );
}

#[test]
fn a_decay_below_one_forgets_the_oldest_pairs() {
    let (keys, values) = pairs(32, 16, 7);
    let errs = |alpha| {
        recall_errors(
            &memorise(&keys, &values, Rule::Paper { alpha, beta: 1.0 }),
            &keys,
            &values,
        )
    };
    let (old1, new1, _) = quarters(&errs(1.0));
    let (old9, new9, _) = quarters(&errs(0.9));
    assert!(old1 > new1 && old9 > new9);
    assert!(old9 > old1 + 0.1, "{old9} {old1}");
    // α = 0 keeps only the newest pair, which it recalls exactly.
    let e0 = errs(0.0);
    assert!(e0[15] < 1e-14);
    assert!(e0[..15].iter().all(|&e| e > 0.5), "{e0:?}");
}

#[test]
fn gdn_alpha_is_a_decay() {
    assert!((gdn_alpha(0.0, 0.0, 0.0) - 0.5).abs() < 1e-15);
    let mut last = 1.0;
    for i in -60..=60 {
        let a = f64::from(i) * 0.25;
        let alpha = gdn_alpha(a, 0.5, -0.3);
        assert!(alpha > 0.0 && alpha < 1.0, "{a}: {alpha}");
        assert!(alpha < last, "not decreasing at {a}");
        last = alpha;
    }
    // A larger A (a_log) forgets faster.
    assert!(gdn_alpha(0.0, 0.0, 1.0) < gdn_alpha(0.0, 0.0, 0.0));
    // Stable softplus: no overflow, and the tiny tail keeps its digits.
    assert_eq!(softplus(1000.0), 1000.0);
    assert_eq!(softplus(-1000.0), 0.0);
    let tail = softplus(-40.0);
    let want = math::exp(-40.0);
    assert!((tail - want).abs() <= 1e-15 * want, "{tail} {want}");
    assert!((softplus(0.0) - std::f64::consts::LN_2).abs() < 1e-16);
    assert!((softplus(3.0) - math::ln(1.0 + math::exp(3.0))).abs() < 1e-15);
}

#[test]
fn defaults_give_text_table_two_charts_and_the_figures() {
    let out = run(&defaults(PARAMS), Lang::En).unwrap();
    assert_eq!(out.blocks.len(), 4);
    let t = text(&out, 0);
    let f: std::collections::BTreeMap<_, _> = figures().into_iter().collect();
    for line in [
        format!(
            "n = 16 (n/d = 0.5): additive S += v kᵀ {}, delta rule (α = 1) {}",
            f["delta_rule.additive_half"], f["delta_rule.delta_half"]
        ),
        format!(
            "n = 64 (n/d = 2): additive S += v kᵀ {}, delta rule (α = 1) {}",
            f["delta_rule.additive_double"], f["delta_rule.delta_double"]
        ),
        format!(
            "‖S_paper − S_source‖ / ‖S_paper‖ = {};",
            f["delta_rule.forms_gap"]
        ),
        "the oldest 4 pairs against the newest 4 pairs".to_owned(),
    ] {
        assert!(t.contains(&line), "{line}\n{t}");
    }
    assert_eq!(f["delta_rule.dim"], "32");
    // The gate at zero inputs: a half-life of one step.
    assert_eq!(format!("{:.3}", gdn_alpha(0.0, 0.0, 0.0)), "0.500");
    assert_eq!(f["delta_rule.alpha"], "0.9");
    assert_eq!(f["delta_rule.pairs"], "16");
    // The gap is the one the cell prints, at the cell's α.
    assert_eq!(
        f["delta_rule.forms_gap"],
        pct(forms_gap(32, 16, 7, 0.9, 1.0))
    );
    assert!(f.values().all(|v| !v.is_empty()));
    let (header, rows) = table(&out, 0);
    assert_eq!(header.len(), 5);
    assert_eq!(rows.len(), 9);
    assert_eq!(rows[2][..2], ["16", "0.5"]);
    assert_eq!(rows[2][2], f["delta_rule.additive_half"]);
    let sweep_plot = plot(&out, 0);
    assert_eq!(sweep_plot.series.len(), 3);
    assert_eq!(sweep_plot.series[0].x[0], 0.125);
    let age = plot(&out, 1);
    assert!(age.series.iter().all(|s| s.x.len() == 16));
    assert!(work(32, 16).unwrap() < 2_500_000);
}

#[test]
fn reruns_are_bit_identical() {
    let mut raw = defaults(PARAMS);
    raw.insert("alpha".into(), "0.97".into());
    raw.insert("beta".into(), "0.6".into());
    assert_eq!(run(&raw, Lang::En).unwrap(), run(&raw, Lang::En).unwrap());
    assert_eq!(figures(), figures());
    let (a, _) = pairs(8, 3, 9);
    let (b, _) = pairs(8, 10, 9);
    assert_eq!(a[..], b[..3]);
}

#[test]
fn small_and_odd_dimensions_run() {
    for (d, n) in [("2", "1"), ("5", "3"), ("64", "40")] {
        let mut raw = defaults(PARAMS);
        raw.insert("dim".into(), d.into());
        raw.insert("pairs".into(), n.into());
        let out = run(&raw, Lang::En).unwrap();
        let p = plot(&out, 0);
        assert!(p.series.iter().flat_map(|s| &s.y).all(|y| y.is_finite()));
    }
    assert_eq!(sweep_sizes(2), [1, 2, 3, 4, 6, 8]);
}

#[test]
fn bad_parameters_name_each_field() {
    let mut raw = defaults(PARAMS);
    raw.insert("dim".into(), "1".into());
    raw.insert("pairs".into(), "0".into());
    raw.insert("alpha".into(), "1.5".into());
    raw.insert("beta".into(), "x".into());
    raw.insert("seed".into(), "-1".into());
    let errs = run(&raw, Lang::En).unwrap_err();
    let names: Vec<&str> = errs.iter().map(|e| e.param.as_str()).collect();
    assert_eq!(names, ["dim", "pairs", "alpha", "beta", "seed"]);
    let mut raw = defaults(PARAMS);
    raw.insert("dim".into(), "64".into());
    raw.insert("pairs".into(), "4,096".into());
    let errs = run(&raw, Lang::En).unwrap_err();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].param, "pairs");
    assert!(
        errs[0]
            .message
            .contains("exceeds the cell's budget of 20,000,000 multiply-adds")
    );
    // d = 64 itself fits, and so does the largest n at d = 32.
    raw.insert("pairs".into(), "1".into());
    assert!(run(&raw, Lang::En).is_ok());
    assert!(work(64, 1).unwrap() <= MAX_WORK);
    assert!(work(32, 1_400).unwrap() <= MAX_WORK);
}
