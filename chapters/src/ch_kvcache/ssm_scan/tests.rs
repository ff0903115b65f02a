//! The tests of `ssm_scan.rs`, apart from it so that a notebook can include that
//! file as it is.

use super::*;
use crate::demo::test_help::{plot, plots, table, text};
use crate::demo::Block;
use crate::demo::defaults;

crate::demo::test_help::test_helpers!();


#[test]
fn figures_have_the_expected_values() {
    let f = figures();
    let get = |n: &str| f.iter().find(|(k, _)| *k == n).unwrap().1.clone();
    assert_eq!(f.len(), 4);
    assert_eq!(get("ssm_scan.state_values"), "16");
    assert_eq!(get("ssm_scan.keep_small"), "7.7%");
    assert_eq!(get("ssm_scan.keep_large"), "6.6×10⁻¹¹⁰%");
    assert_eq!(fmt_percent(0.000_42), "4.2×10⁻²%");
    assert_eq!(get("ssm_scan.steps"), "256");
    let p = Params::parse(&defaults(PARAMS)).unwrap();
    assert_eq!(p.deltas, [0.01, 0.1, 1.0]);
}

#[test]
fn the_scan_matches_the_closed_form() {
    let a = a_diag(16);
    for d in [0.01, 0.1, 1.0, 3.0] {
        let m = impulse_memory(&a, d, 256);
        assert_eq!(m.slowest[0], 1.0);
        assert_eq!(m.mean[0], 1.0);
        for t in [1, 16, 64, 256] {
            let want = math::exp(-d * t as f64);
            assert!(
                (m.slowest[t] - want).abs() <= 1e-12 * want,
                "Δ {d} t {t}: {} vs {want}",
                m.slowest[t]
            );
            let mean: f64 = a.iter().map(|ai| math::exp(d * ai * t as f64)).sum::<f64>() / 16.0;
            assert!((m.mean[t] - mean).abs() <= 1e-12 * mean.max(1e-300));
        }
    }
    assert_eq!(softplus(0.0), math::ln(2.0));
    assert_eq!(softplus(50.0), 50.0);
    assert!((softplus(-40.0) - math::exp(-40.0)).abs() < 1e-30);
}

#[test]
fn a_larger_delta_forgets_faster() {
    let a = a_diag(16);
    let deltas = [0.001, 0.01, 0.1, 0.5, 1.0, 2.0];
    let left: Vec<(f64, f64)> = deltas
        .iter()
        .map(|&d| {
            let m = impulse_memory(&a, d, 256);
            (m.slowest[256], m.mean[256])
        })
        .collect();
    for w in left.windows(2) {
        assert!(w[1].0 < w[0].0 && w[1].1 < w[0].1, "{left:?}");
    }
    // And over time for one Δ.
    let m = impulse_memory(&a, 0.1, 100);
    assert!(m.slowest.windows(2).all(|w| w[1] < w[0]));
}

#[test]
fn the_state_size_does_not_depend_on_the_length() {
    let mut rng = SplitMix64::new(3);
    let sel = Selective::random(&mut rng, 16);
    let a = a_diag(16);
    for steps in [1, 16, 1_000, 20_000] {
        let xs = tokens(&mut rng, steps);
        let trace = selective_scan(&sel, &a, &xs);
        assert_eq!(trace.state.len(), 16);
        assert_eq!(trace.norm.len(), steps);
        assert!(trace.norm.iter().all(|v| v.is_finite() && *v < 100.0));
    }
    let text_at = |steps: &str| {
        let out = run(&raw(&[("steps", steps)]), Lang::En).unwrap();
        let t = text(&out, 0).to_owned();
        t.lines()
            .next()
            .unwrap()
            .split(" after")
            .next()
            .unwrap()
            .to_owned()
    };
    assert_eq!(text_at("16"), text_at("4,096"));
    assert_eq!(
        text_at("16"),
        "state: 16 values per channel, in f32 (4 B each): 64 B"
    );
}

#[test]
fn defaults_run() {
    let out = run(&defaults(PARAMS), Lang::En).unwrap();
    assert_eq!(out.blocks.len(), 5);
    let t = text(&out, 0);
    assert!(t.contains("state: 16 values per channel, in f32 (4 B each): 64 B after 1 token, after 256 tokens and after 1,000,000\n"), "{t}");
    assert!(t.contains("BF16 = 512 B a token): 131,072 B (128.0 KiB) after 256 tokens, 512,000,000 B (488.3 MiB) after 1,000,000\n"), "{t}");
    assert!(
        t.contains("  Δ = 0.01: 7.7% (e^(ΔAt) = 7.7%), average 0.5%\n"),
        "{t}"
    );
    assert!(
        t.contains("  Δ = 1: 6.6×10⁻¹¹⁰% (e^(ΔAt) = 6.6×10⁻¹¹⁰%)"),
        "{t}"
    );
    assert!(
        t.contains("  Δ = 1: below 1e-12 after 28 steps; the chart stops there\n"),
        "{t}"
    );
    let (header, rows) = table(&out, 0);
    assert_eq!(header.len(), 8);
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0][..2], ["0.01", "70"]);
    assert_eq!(rows[2][..2], ["1", "1"]);
    for plot in plots(&out) {
        for s in &plot.series {
            assert!(s.y.iter().all(|v| v.is_finite()), "{}", s.name);
            assert_eq!(s.x.len(), s.y.len());
        }
    }
    let memory = plot(&out, 0);
    assert_eq!(memory.series.len(), 3);
    // Δ = 0.01 and 0.1 stay above the chart's floor for all 257 points;
    // Δ = 1 falls below it after 28 steps.
    let lens: Vec<usize> = memory.series.iter().map(|s| s.x.len()).collect();
    assert_eq!(lens, [257, 257, 28]);
    assert!(
        memory
            .series
            .iter()
            .flat_map(|s| &s.y)
            .all(|&v| v >= CHART_MIN)
    );
}

#[test]
fn long_runs_are_sampled_and_underflow_is_reported() {
    let out = run(
        &raw(&[("steps", "10,000"), ("state", "4"), ("deltas", "0.01 10")]),
        Lang::En,
    )
    .unwrap();
    let t = text(&out, 0);
    assert!(t.contains("Δ = 10: 0%"), "{t}");
    assert!(
        t.contains("Δ = 10: below 1e-12 after 3 steps; the chart stops there"),
        "{t}"
    );
    for plot in plots(&out) {
        assert!(plot.series.iter().all(|s| s.x.len() <= MAX_POINTS + 2));
        assert!(
            plot.series
                .iter()
                .all(|s| s.y.iter().all(|v| !plot.log_y || *v >= CHART_MIN))
        );
    }
}

#[test]
fn a_seed_gives_the_same_bits_every_time() {
    let bits = |out: &Output| -> Vec<u64> {
        out.blocks
            .iter()
            .flat_map(|b| match b {
                Block::Plot(p) => p
                    .series
                    .iter()
                    .flat_map(|s| s.x.iter().chain(&s.y).map(|v| v.to_bits()))
                    .collect(),
                _ => vec![],
            })
            .collect()
    };
    let (a, b) = (
        run(&defaults(PARAMS), Lang::En).unwrap(),
        run(&defaults(PARAMS), Lang::En).unwrap(),
    );
    assert_eq!(a, b);
    assert_eq!(bits(&a), bits(&b));
    let c = run(&raw(&[("seed", "8")]), Lang::En).unwrap();
    assert_ne!(bits(&a), bits(&c));
}

#[test]
fn the_budget_is_checked_before_running() {
    assert_eq!(work(16, 256, 3), Some(32_768));
    assert_eq!(work(u64::MAX, 2, 1), None);
    let errs = run(&raw(&[("state", "256"), ("steps", "20,000")]), Lang::En).unwrap_err();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].param, "steps");
    assert_eq!(
        errs[0].message,
        "(state + 16) × steps × (Δ values + 1) = 21,760,000 exceeds the cell's budget of 1,000,000 state updates; lower state, steps or the number of Δ values"
    );
    assert!(run(&raw(&[("state", "256"), ("steps", "919")]), Lang::En).is_ok());
    assert!(run(&raw(&[("state", "256"), ("steps", "920")]), Lang::En).is_err());
    assert!(
        run(
            &raw(&[("state", "1"), ("steps", "20,000"), ("deltas", "1")]),
            Lang::En
        )
        .is_ok()
    );
    assert_eq!(
        run(&raw(&[("steps", "20,001")]), Lang::En).unwrap_err()[0].message,
        "must be between 1 and 20,000"
    );
    for lang in Lang::ALL {
        assert!(
            demo()
                .help_in(STEPS.name, lang)
                .contains(&group_u64(MAX_WORK))
        );
    }
}

#[test]
fn bad_parameters_name_each_field() {
    let errs = run(
        &raw(&[
            ("state", "0"),
            ("steps", "x"),
            ("deltas", "0.1 -1"),
            ("seed", "-1"),
        ]),
        Lang::En,
    )
    .unwrap_err();
    let names: Vec<&str> = errs.iter().map(|e| e.param.as_str()).collect();
    assert_eq!(names, ["state", "steps", "deltas", "seed"]);
    assert_eq!(errs[2].message, "must be between 0.0001 and 10");
    let errs = run(&raw(&[("deltas", "")]), Lang::En).unwrap_err();
    assert_eq!(errs[0].message, "enter at least one number");
    let errs = run(&raw(&[("deltas", "1 2 3 4 5 6 7")]), Lang::En).unwrap_err();
    assert_eq!(errs[0].message, "at most 6 values");
    let errs = run(&raw(&[("deltas", "0.1 abc")]), Lang::En).unwrap_err();
    assert_eq!(errs[0].message, "`abc` is not a number");
    assert!(run(&raw(&[("deltas", "0.01, 0.1; 1")]), Lang::En).is_ok());
    assert!(run(&raw(&[("steps", "1"), ("state", "1")]), Lang::En).is_ok());
}
