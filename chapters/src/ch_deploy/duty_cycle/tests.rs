//! The tests of `duty_cycle.rs`, apart from it so that a notebook can include that
//! file as it is.

use super::*;
use crate::demo::test_help::{text, table, plot, strings};
use crate::demo::defaults;

crate::demo::test_help::test_helpers!();

#[test]
fn help_is_the_declared_range_then_the_note() {
    let d = demo();
    assert_eq!(
        d.help_in(PD_RATIO.name, Lang::En),
        "a number from 0.1 to 100; decode nodes per prefill node; the article takes 2.5"
    );
    assert!(
        d.help_in(IDLE.name, Lang::Zh)
            .starts_with("最多 6 个整数，取值 0 到 1,000,000，用空格分隔；单位为秒")
    );
    assert!(d.help_in(MODE.name, Lang::En).starts_with("article: round"));
}





#[test]
fn the_figures() {
    let expected = [
        ("duty_cycle.decode_s", "5 s"),
        ("duty_cycle.rho_agent", "50%"),
        ("duty_cycle.rho_api", "25%"),
        ("duty_cycle.rho_batch", "11%"),
        ("duty_cycle.k3_h200_d_50", "290"),
        ("duty_cycle.k3_h200_d_25", "145"),
        ("duty_cycle.k3_h200_d_11", "64"),
        ("duty_cycle.k3_h200_total_50", "406"),
        ("duty_cycle.k3_h200_total_25", "203"),
        ("duty_cycle.k3_h200_total_11", "90"),
        ("duty_cycle.v4_h200_d_50", "68"),
        ("duty_cycle.v4_h200_d_25", "34"),
        ("duty_cycle.v4_h200_d_11", "15"),
        ("duty_cycle.v4_h200_total_50", "95"),
        ("duty_cycle.v4_h200_total_25", "48"),
        ("duty_cycle.v4_h200_total_11", "21"),
        ("duty_cycle.k3_b300_d_50", "90"),
        ("duty_cycle.k3_b300_d_25", "45"),
        ("duty_cycle.k3_b300_d_11", "20"),
        ("duty_cycle.k3_b300_total_50", "126"),
        ("duty_cycle.k3_b300_total_25", "63"),
        ("duty_cycle.k3_b300_total_11", "28"),
        ("duty_cycle.v4_b300_d_50", "19"),
        ("duty_cycle.v4_b300_d_25", "10"),
        ("duty_cycle.v4_b300_d_11", "4"),
        ("duty_cycle.v4_b300_total_50", "27"),
        ("duty_cycle.v4_b300_total_25", "14"),
        ("duty_cycle.v4_b300_total_11", "6"),
        ("duty_cycle.agent_over_batch", "4.5×"),
        ("duty_cycle.ratio_h200_50", "4.3×"),
        ("duty_cycle.ratio_h200_25", "4.2×"),
        ("duty_cycle.v4_full_gb", "140 GB"),
        ("duty_cycle.v4_full_ms", "29 ms"),
        ("duty_cycle.v4_full_tok_s", "34"),
        ("duty_cycle.v4_full_rho_api", "66%"),
        ("duty_cycle.k3_full_gb", "120 GB"),
        ("duty_cycle.k3_full_tok_s", "40"),
        ("duty_cycle.k3_full_rho_api", "63%"),
        ("duty_cycle.reloads_api", "500"),
        ("duty_cycle.k3_reload_tb_s", "15.4 TB/s"),
        ("duty_cycle.k3_reload_per_node", "107 GB/s"),
        ("duty_cycle.k3_off_gpu_tb", "232 TB"),
        ("duty_cycle.v4_reload_tb_s", "3 TB/s"),
        ("duty_cycle.dualpath_tokens", "67,353"),
        ("duty_cycle.context_over_dualpath", "7.4×"),
    ];
    let got = figures();
    let got: Vec<(&str, &str)> = got.iter().map(|(n, v)| (*n, v.as_str())).collect();
    assert_eq!(got, expected);
}

#[test]
fn the_article_mode_reproduces_the_articles_tables() {
    let o = out(&[]);
    let (header, rows) = table(&o, 0);
    assert_eq!(
        header,
        &[
            "D nodes",
            "upper bound (ρ = 100%)",
            "ρ = 50% (idle 5 s)",
            "ρ = 25% (idle 15 s)",
            "ρ = 11.1% (idle 40 s)"
        ]
    );
    assert_eq!(
        rows,
        &strings([
            ["Kimi-K3 on H200", "580", "290", "145", "64"],
            ["DeepSeek-V4-Pro on H200", "136", "68", "34", "15"],
            ["Kimi-K3 on B300", "180", "90", "45", "20"],
            ["DeepSeek-V4-Pro on B300", "38", "19", "10", "4"],
        ])
    );
    let (header, rows) = table(&o, 1);
    assert_eq!(header[0], "total nodes (P + D)");
    assert_eq!(
        rows,
        &strings([
            ["Kimi-K3 on H200", "812", "406", "203", "90"],
            ["DeepSeek-V4-Pro on H200", "190", "95", "48", "21"],
            ["Kimi-K3 on B300", "252", "126", "63", "28"],
            ["DeepSeek-V4-Pro on B300", "53", "27", "14", "6"],
        ])
    );
}

#[test]
fn the_default_text() {
    let o = out(&[]);
    let t = text(&o, 0);
    for want in [
        "Decode time of one request: 1,000 tokens ÷ 200 tokens/s = 5 s.\n",
        "  idle 5 s (high-interaction agent): 5 ÷ (5 + 5) = 50%\n",
        "  idle 15 s (standard API): 5 ÷ (5 + 15) = 25%\n",
        "  idle 40 s (low-frequency batch): 5 ÷ (5 + 40) = 11.1%\n",
        "each model at its own EP (K3 32, V4 16), article rounding. HiCache keeps D × ρ decode nodes, and P = D ÷ 2.5 prefill nodes, both rounded to nearest.",
    ] {
        assert!(t.contains(want), "missing {want:?} in\n{t}");
    }
    let n = text(&o, 1);
    for want in [
        "Kimi-K3 ÷ DeepSeek-V4-Pro, total nodes on H200: 4.3× at the upper bound, 4.3× at ρ = 50%, 4.2× at ρ = 25%, 4.3× at ρ = 11.1%.\n",
        "on B300: 4.8× at the upper bound, 4.7× at ρ = 50%, 4.5× at ρ = 25%, 4.7× at ρ = 11.1%.\n",
        "The load pattern moves the count too: ρ = 50% is 4.5× ρ = 11.1%, and Kimi-K3 on H200 needs 406 nodes against 90 (4.5×); the gap between K3 and V4 on H200 at the upper bound is 4.3×.\n",
        "a K3 request of 30.9 GB takes 0.62 s and a V4 request of 6.1 GB 0.12 s, both under the shortest idle time here, 5 s.",
        "K3's KDA state is a fixed 0.207 GB whatever the context (0.7% of the request at 500,000 tokens), 4 ms at that rate",
    ] {
        assert!(n.contains(want), "missing {want:?} in\n{n}");
    }
}

#[test]
fn conservative_rounding_and_other_inputs() {
    let o = out(&[("mode", "conservative")]);
    let (_, rows) = table(&o, 1);
    // The upper bounds are the planner's conservative ones.
    let upper: Vec<&str> = rows.iter().map(|r| r[1].as_str()).collect();
    assert_eq!(upper, ["812", "194", "258", "54"]);
    assert!(text(&o, 0).contains("both rounded up."));
    // A slower K3-like decode raises ρ.
    let o = out(&[("tok_per_s", "125"), ("idle", "0 8")]);
    let t = text(&o, 0);
    assert!(t.contains("= 8 s.\n"), "{t}");
    assert!(t.contains("  idle 0 s: 8 ÷ (8 + 0) = 100%\n"), "{t}");
    assert!(t.contains("  idle 8 s: 8 ÷ (8 + 8) = 50%\n"), "{t}");
    let (_, rows) = table(&o, 1);
    assert_eq!(rows[0][1..], ["812", "812", "406"]);
    // No idle time, no offload.
    let o = out(&[("idle", "0")]);
    assert!(!text(&o, 1).contains("shortest idle"));
    assert!(
        !text(&o, 1).contains("load pattern"),
        "one ρ, no comparison"
    );
    let o = out(&[("idle", "1 0")]);
    assert!(text(&o, 1).contains(", both under the shortest idle time here, 1 s."));
}

#[test]
fn the_chart() {
    let o = out(&[]);
    let p = plot(&o, 0);
    let names: Vec<&str> = p.series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Kimi-K3 on H200",
            "DeepSeek-V4-Pro on H200",
            "Kimi-K3 on B300",
            "DeepSeek-V4-Pro on B300",
            "idle 5 s: ρ = 50%",
            "idle 15 s: ρ = 25%",
            "idle 40 s: ρ = 11.1%"
        ]
    );
    // 20 steps of 0.05 plus the reader's 1/9 (0.5 and 0.25 are steps).
    let k3_h200 = &p.series[0];
    assert_eq!(k3_h200.x.len(), 21);
    assert_eq!((k3_h200.x[0], k3_h200.x[20]), (0.05, 1.0));
    assert_eq!(k3_h200.y[20], 812.0);
    let at = |x: f64| k3_h200.y[k3_h200.x.iter().position(|&v| v == x).unwrap()];
    assert_eq!([at(0.5), at(0.25), at(1.0 / 9.0)], [406.0, 203.0, 90.0]);
    let mark = &p.series[6];
    assert!(mark.dashed);
    assert_eq!(mark.x, [1.0 / 9.0; 4]);
    assert_eq!(mark.y, [90.0, 28.0, 21.0, 6.0]);
}

#[test]
fn bad_params_are_named() {
    for (k, v, msg) in [
        ("out_tokens", "0", "must be between 1 and 10,000,000"),
        ("tok_per_s", "0", "must be between 0.1 and 100000"),
        ("idle", "5 15 40 1 2 3 4", "at most 6 values"),
        ("idle", "-1", "must be between 0 and 1,000,000"),
        ("idle", "", "enter at least one whole number"),
        ("mode", "x", "choose one of: article, conservative"),
        ("pd_ratio", "200", "must be between 0.1 and 100"),
    ] {
        let e = run(&raw(&[(k, v)]), Lang::En).unwrap_err();
        assert_eq!(e.len(), 1, "{k}");
        assert_eq!((e[0].param.as_str(), e[0].message.as_str()), (k, msg));
    }
    let all: Vec<(&str, &str)> = PARAMS.iter().map(|p| (p.name, "x")).collect();
    let e = run(&raw(&all), Lang::En).unwrap_err();
    let names: Vec<&str> = e.iter().map(|e| e.param.as_str()).collect();
    assert_eq!(names, PARAMS.iter().map(|p| p.name).collect::<Vec<_>>());
}

#[test]
fn the_extremes_run() {
    for changes in [
        [
            ("out_tokens", "10,000,000"),
            ("tok_per_s", "0.1"),
            ("idle", "0 1000000"),
        ],
        [
            ("out_tokens", "1"),
            ("tok_per_s", "100000"),
            ("idle", "1000000 0 1 2 3 4"),
        ],
    ] {
        let o = out(&changes);
        assert_eq!(o.blocks.len(), 5);
        assert!(
            plot(&o, 0)
                .series
                .iter()
                .all(|s| s.x.iter().chain(&s.y).all(|v| v.is_finite()))
        );
    }
}

#[test]
fn the_demo_is_registered() {
    let d = super::super::demos()
        .into_iter()
        .find(|d| d.id == "duty_cycle")
        .unwrap();
    assert!(run(&defaults(d.params), Lang::En).is_ok());
}
