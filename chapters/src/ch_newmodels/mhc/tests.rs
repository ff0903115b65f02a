//! The tests of `mhc.rs`, apart from it so that a notebook can include that
//! file as it is.

use super::*;
use crate::demo::test_help::{plot, plots, table, text};
use crate::demo::defaults;
use ndarray::array;

fn random_logits(seed: u64, scale: f64) -> Array2<f64> {
    let mut rng = SplitMix64::new(seed);
    normal_matrix(&mut rng, N, N) * scale
}

fn assert_doubly_stochastic(m: &Array2<f64>) {
    for c in m.sum_axis(Axis(0)) {
        assert!((c - 1.0).abs() <= 2e-6, "column sum {c}\n{m}");
    }
    for r in m.sum_axis(Axis(1)) {
        assert!((r - 1.0).abs() <= 1e-3, "row sum {r}\n{m}");
    }
    assert!(m.iter().all(|&v| v > 0.0));
}

#[test]
fn sinkhorn_columns_and_rows_sum_to_one() {
    for seed in 1..=20 {
        assert_doubly_stochastic(&sinkhorn(&random_logits(seed, 1.0), 20, 1e-6));
        let near_eye = Array2::eye(N) * 3.0 + random_logits(seed + 100, 0.5);
        assert_doubly_stochastic(&sinkhorn(&near_eye, 20, 1e-6));
    }
    // Non-square: columns still sum to 1 after the last step.
    let wide = array![[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]];
    for c in sinkhorn(&wide, 5, 1e-6).sum_axis(Axis(0)) {
        assert!((c - 1.0).abs() <= 2e-6, "{c}");
    }
}

#[test]
fn sinkhorn_keeps_a_doubly_stochastic_matrix() {
    let p = Array2::from_shape_fn((N, N), |(i, j)| if i == j { 0.7 } else { 0.1 });
    for iters in [1, 20] {
        let m = sinkhorn(&p.mapv(f64::ln), iters, 1e-6);
        let err = (&m - &p).iter().fold(0.0_f64, |a, v| a.max(v.abs()));
        assert!(err < 1e-5, "{iters}: {err}");
    }
    // Constant logits: every entry 1/N.
    let m = sinkhorn(&Array2::from_elem((N, N), 5.0), 20, 1e-6);
    assert!(m.iter().all(|v| (v - 0.25).abs() < 1e-5));
}

#[test]
fn spectral_norm_of_known_matrices() {
    let close = |m: Array2<f64>, want: f64| {
        let got = spectral_norm(&m);
        assert!(
            (got - want).abs() <= 1e-12 * want.max(1.0),
            "{got} vs {want}"
        );
    };
    close(array![[3.0, 0.0], [0.0, 1.0]], 3.0);
    close(array![[1.0, 0.0], [0.0, -3.0]], 3.0);
    close(array![[1.0, 1.0], [0.0, 0.0]], 2f64.sqrt());
    close(Array2::zeros((3, 3)), 0.0);
    close(Array2::zeros((0, 0)), 0.0);
    close(Array2::eye(4), 1.0);
    // [[1,2,3],[4,5,6]]: AAᵀ = [[14,32],[32,77]], λ_max = (91 + √8065)/2.
    let want = ((91.0 + 8065f64.sqrt()) / 2.0).sqrt();
    close(array![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], want);
    close(array![[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]], want);
    // A rotation times 2; entries so large that MᵀM would overflow.
    let (c, s) = (0.6, 0.8);
    close(array![[c, -s], [s, c]] * 2.0, 2.0);
    close(array![[1e300, 0.0], [0.0, 1.0]], 1e300);
    assert_eq!(spectral_norm(&array![[f64::INFINITY, 0.0]]), f64::INFINITY);
    assert!(spectral_norm(&array![[1.0, f64::NAN]]).is_nan());
}

#[test]
fn spectral_norm_bounds_on_random_matrices() {
    // ‖Mv‖/‖v‖ ≤ σ₁ ≤ ‖M‖_F, and σ₁² ≥ ‖M‖_F² / rank.
    for seed in 1..=20 {
        let mut rng = SplitMix64::new(seed);
        let m = normal_matrix(&mut rng, 5, 3);
        let s1 = spectral_norm(&m);
        let fro = m.iter().map(|v| v * v).sum::<f64>().sqrt();
        assert!(s1 <= fro * (1.0 + 1e-12) && s1 * s1 * 3.0 >= fro * fro * (1.0 - 1e-12));
        for _ in 0..50 {
            let v = Array1::from_shape_simple_fn(3, || rng.normal());
            let ratio = m.dot(&v).dot(&m.dot(&v)).sqrt() / v.dot(&v).sqrt();
            assert!(ratio <= s1 * (1.0 + 1e-12), "{ratio} > {s1}");
        }
        assert!((spectral_norm(&m.t().to_owned()) - s1).abs() <= 1e-12 * s1);
    }
}

#[test]
fn doubly_stochastic_products_keep_norm_one() {
    for seed in 1..=10 {
        let (_, ds) = product_norms(seed, 60, 0.15, 20);
        assert_eq!(ds.len(), 60);
        assert!(
            (0.9999..=1.0 + 1e-9).contains(&ds[59]),
            "seed {seed}: {}",
            ds[59]
        );
        // Early on, rows off by up to 1e-3 can lift the norm a hair above 1:
        // ‖A‖₂ ≤ √(‖A‖₁‖A‖∞) ≤ √(1 + 1e-3).
        for (d, v) in ds.iter().enumerate() {
            assert!(
                (0.9999..=1.0005).contains(v),
                "seed {seed} depth {}: {v}",
                d + 1
            );
        }
    }
}

#[test]
fn unconstrained_products_drift() {
    let mut at60: Vec<f64> = (1..=20)
        .map(|seed| product_norms(seed, 60, 0.15, 20).0[59])
        .collect();
    at60.sort_by(f64::total_cmp);
    assert!(at60.iter().all(|v| (0.5..=1000.0).contains(v)), "{at60:?}");
    let median = (at60[9] + at60[10]) / 2.0;
    assert!((2.0..=50.0).contains(&median), "median {median}: {at60:?}");
    // No noise: the identity every layer.
    let (free, _) = product_norms(3, 10, 0.0, 20);
    assert!(free.iter().all(|v| (v - 1.0).abs() < 1e-12));
}

#[test]
fn prefix_of_a_longer_run_is_the_shorter_run() {
    let (a, b) = product_norms(7, 30, 0.15, 20);
    let (c, d) = product_norms(7, 100, 0.15, 20);
    assert_eq!(a[..], c[..30]);
    assert_eq!(b[..], d[..30]);
}

#[test]
fn mhc_pre_and_post_shapes() {
    let mut rng = SplitMix64::new(1);
    let streams = normal_matrix(&mut rng, N, H);
    let fn_w = normal_matrix(&mut rng, 2 * N + N * N, N * H) * 0.02;
    let base = Array1::from_shape_simple_fn(2 * N + N * N, || rng.normal());
    let (input, post, comb) = mhc_pre(&streams, &fn_w, &base, [1.0; 3]);
    assert_eq!(input.dim(), H);
    assert_eq!(post.dim(), N);
    assert_eq!(comb.dim(), (N, N));
    assert!(post.iter().all(|v| (0.0..2.0).contains(v)));
    assert_doubly_stochastic(&comb);
    let out = mhc_post(&input, &streams, &post, &comb);
    assert_eq!(out.dim(), (N, H));
    // Stream j = Σᵢ comb[i, j] · streamᵢ + post[j] · out.
    let (j, h) = (1, 5);
    let want: f64 =
        (0..N).map(|k| comb[[k, j]] * streams[[k, h]]).sum::<f64>() + post[j] * input[h];
    assert!((out[[j, h]] - want).abs() < 1e-12);
    // Zero weights and base: pre = post/2 = ½, comb uniform.
    let (input, post, comb) = mhc_pre(
        &streams,
        &Array2::zeros((2 * N + N * N, N * H)),
        &Array1::zeros(2 * N + N * N),
        [1.0; 3],
    );
    let half_sum = streams.sum_axis(Axis(0)) * 0.5;
    assert!((&input - &half_sum).iter().all(|v| v.abs() < 1e-12));
    assert!(post.iter().all(|v| (v - 1.0).abs() < 1e-12));
    assert!(comb.iter().all(|v| (v - 0.25).abs() < 1e-5));
}

#[test]
fn defaults_give_text_table_plot() {
    let out = run(&defaults(PARAMS), Lang::En).unwrap();
    assert_eq!(out.blocks.len(), 5);
    // The two heatmaps: 4 × 4, and doubly stochastic to within what the
    // default Sinkhorn iterations reach.
    for p in plots(&out).skip(1) {
        let h = p.heatmap.as_ref().expect("a heatmap");
        assert_eq!((h.x.len(), h.y.len()), (N, N));
        let m = Array2::from_shape_fn((N, N), |(i, j)| h.z[i][j]);
        for sums in [m.sum_axis(Axis(0)), m.sum_axis(Axis(1))] {
            assert!(sums.iter().all(|s| (s - 1.0).abs() < 1e-3), "{m}");
        }
    }
    let t = text(&out, 0);
    assert!(
        t.contains("sublayer input [64]; residual streams [4, 64]"),
        "{t}"
    );
    assert!(
        t.contains("doubly stochastic 1.0000") || t.contains("doubly stochastic 0.9999"),
        "{t}"
    );
    let (header, rows) = table(&out, 0);
    assert_eq!(header.len(), 3);
    let firsts: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(firsts, ["1", "10", "30", "60"]);
    let plot = plot(&out, 0);
    assert!(plot.log_y);
    assert_eq!(plot.series.len(), 2);
    assert!(plot.series.iter().all(|s| s.x.len() == 60 && !s.bars));
}

#[test]
fn other_depths_and_overflow() {
    let mut raw = defaults(PARAMS);
    raw.insert("depth".into(), "20".into());
    let out = run(&raw, Lang::En).unwrap();
    let (_, rows) = table(&out, 0);
    let firsts: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(firsts, ["1", "10", "20"]);
    raw.insert("depth".into(), "1,000".into());
    raw.insert("noise".into(), "2".into());
    raw.insert("iters".into(), "1".into());
    let out = run(&raw, Lang::En).unwrap();
    let (_, rows) = table(&out, 0);
    assert_eq!(rows.last().unwrap()[0], "1,000");
    let plot = plot(&out, 0);
    assert!(
        plot.series
            .iter()
            .all(|s| s.y.iter().all(|y| y.is_finite() && *y > 0.0))
    );
    assert_eq!(plot.series[1].x.len(), 1_000);
}

#[test]
fn one_iteration_and_one_layer_are_singular() {
    // #30: the text said "after 1 iterations" and "after 1 layers".
    let cases = [
        (
            "1",
            ["after 1 iteration:", "after 1 layer:"],
            [
                "One mixing matrix (1 Sinkhorn iteration)",
                "Product of 1 doubly stochastic matrix",
            ],
        ),
        (
            "2",
            ["after 2 iterations:", "after 2 layers:"],
            [
                "One mixing matrix (2 Sinkhorn iterations)",
                "Product of 2 doubly stochastic matrices",
            ],
        ),
    ];
    for (n, phrases, want_titles) in cases {
        let mut raw = defaults(PARAMS);
        raw.insert("depth".into(), n.into());
        raw.insert("iters".into(), n.into());
        let out = run(&raw, Lang::En).unwrap();
        let text = text(&out, 0);
        for phrase in phrases {
            assert!(text.contains(phrase), "{phrase}: {text}");
        }
        let titles: Vec<&str> = plots(&out)
            .filter(|p| p.heatmap.is_some())
            .map(|p| p.title.as_str())
            .collect();
        assert_eq!(titles, want_titles);
    }
}

#[test]
fn the_chart_plots_exactly_the_layers_asked_for() {
    // It used to plot at least 100 layers whatever the input.
    for depth in [1, 10, 99, 100, 250] {
        let mut raw = defaults(PARAMS);
        raw.insert("depth".into(), depth.to_string());
        let out = run(&raw, Lang::En).unwrap();
        let plot = plot(&out, 0);
        for s in &plot.series {
            let want: Vec<f64> = (1..=depth).map(f64::from).collect();
            assert_eq!(s.x, want, "depth {depth}, {}", s.name);
        }
    }
}

#[test]
fn overflowing_products_are_reported_and_kept_off_the_chart() {
    let mut raw = defaults(PARAMS);
    raw.insert("depth".into(), "1,000".into());
    raw.insert("noise".into(), "2".into());
    let (free, _) = product_norms(1, 1_000, 2.0, 20);
    let past = free.iter().position(|&v| v > CHART_MAX).unwrap() + 1;
    let inf = free.iter().position(|v| v.is_infinite()).unwrap() + 1;
    assert!(past < inf && inf < 1_000, "{past} {inf}");
    let out = run(&raw, Lang::En).unwrap();
    let t = text(&out, 0);
    let line = format!(
        "the unconstrained product passes 1e200 at layer {past}; the chart stops there and the product overflowed f64 (> 1.8e308) at layer {inf}\n"
    );
    assert!(t.contains(&line), "{t}");
    assert!(t.contains("unconstrained overflow (> 1.8e308)"), "{t}");
    assert!(!t.contains("doubly stochastic product passes"), "{t}");
    let plot = plot(&out, 0);
    let free_curve = &plot.series[0];
    assert_eq!(free_curve.x.len(), past - 1);
    for s in &plot.series {
        assert!(
            s.y.iter()
                .all(|y| y.is_finite() && *y > 0.0 && *y <= CHART_MAX),
            "{}",
            s.name
        );
    }
    assert_eq!(
        chart_note("x", &[1.0, 0.0, 2.0], Lang::En),
        "the x product underflowed to 0 at layer 2; the chart stops there\n"
    );
    assert_eq!(chart_note("x", &[1.0, 2.0], Lang::En), "");
    // Without overflow there is no note.
    let out = run(&defaults(PARAMS), Lang::En).unwrap();
    let t = text(&out, 0);
    assert!(!t.contains("passes"), "{t}");
}

#[test]
fn work_is_estimated_and_refused_before_running() {
    assert_eq!(work(1_000, 200), Some(200_000));
    assert_eq!(work(u64::MAX, 2), None);
    let mut raw = defaults(PARAMS);
    raw.insert("depth".into(), "1,000".into());
    raw.insert("iters".into(), "200".into());
    let errs = run(&raw, Lang::En).unwrap_err();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].param, "depth");
    assert_eq!(
        errs[0].message,
        "layers × Sinkhorn iterations = 200,000 exceeds the cell's budget of 20,000 Sinkhorn iterations; lower layers or iterations"
    );
    for (depth, iters) in [("1,000", "20"), ("100", "200")] {
        raw.insert("depth".into(), depth.into());
        raw.insert("iters".into(), iters.into());
        assert!(run(&raw, Lang::En).is_ok(), "{depth} × {iters}");
    }
    for lang in Lang::ALL {
        assert!(
            demo()
                .help_in(DEPTH.name, lang)
                .contains(&group(MAX_SINKHORN as i64))
        );
    }
}

#[test]
fn bad_parameters_name_each_field() {
    let mut raw = defaults(PARAMS);
    raw.insert("depth".into(), "0".into());
    raw.insert("noise".into(), "abc".into());
    raw.insert("iters".into(), "".into());
    let errs = run(&raw, Lang::En).unwrap_err();
    let names: Vec<&str> = errs.iter().map(|e| e.param.as_str()).collect();
    assert_eq!(names, ["depth", "noise", "iters"]);
    assert_eq!(errs[1].message, "`abc` is not a number");
    raw = defaults(PARAMS);
    raw.insert("seed".into(), "-1".into());
    assert_eq!(run(&raw, Lang::En).unwrap_err()[0].param, "seed");
}
