//! The tests of `planner.rs`, apart from it so that a notebook can include that
//! file as it is.

use super::*;
use crate::demo::Block;
use crate::demo::test_help::{fold, plot, table, text};
use crate::demo::defaults;

crate::demo::test_help::test_helpers!();

#[test]
fn help_is_the_declared_range_then_the_note() {
    let d = demo();
    assert_eq!(
        d.help_in(TOKENS.name, Lang::En),
        "a whole number from 10,000 to 10,000,000; tokens per request"
    );
    assert!(
        d.help_in(RHO.name, Lang::Zh)
            .starts_with("0.01 到 1 之间的数；同一时刻留在 GPU 上的请求 KV 占比")
    );
    assert!(d.help_in(EP.name, Lang::En).starts_with("the cards one"));
}




#[test]
fn the_figures() {
    let expected = [
        ("planner.k3_h200_free", "67 GB"),
        ("planner.k3_h200_unit_gb", "2,144 GB"),
        ("planner.k3_h200_concurrency", "69"),
        ("planner.k3_h200_units", "145"),
        ("planner.k3_h200_d", "580"),
        ("planner.k3_h200_p", "232"),
        ("planner.k3_h200_total", "812"),
        ("planner.k3_h200_gpus", "6,496"),
        ("planner.k3_h200_concurrency_c", "69"),
        ("planner.k3_h200_total_c", "812"),
        ("planner.v4_h200_free", "56 GB"),
        ("planner.v4_h200_unit_gb", "896 GB"),
        ("planner.v4_h200_concurrency", "147"),
        ("planner.v4_h200_units", "68"),
        ("planner.v4_h200_d", "136"),
        ("planner.v4_h200_p", "54"),
        ("planner.v4_h200_total", "190"),
        ("planner.v4_h200_gpus", "1,520"),
        ("planner.v4_h200_concurrency_c", "146"),
        ("planner.v4_h200_units_c", "69"),
        ("planner.v4_h200_d_c", "138"),
        ("planner.v4_h200_p_c", "56"),
        ("planner.v4_h200_total_c", "194"),
        ("planner.v4_h200_gpus_c", "1,552"),
        ("planner.k3_b300_free", "214 GB"),
        ("planner.k3_b300_concurrency", "222"),
        ("planner.k3_b300_d", "180"),
        ("planner.k3_b300_total", "252"),
        ("planner.k3_b300_total_c", "258"),
        ("planner.v4_b300_free", "203 GB"),
        ("planner.v4_b300_concurrency", "532"),
        ("planner.v4_b300_d", "38"),
        ("planner.v4_b300_total", "53"),
        ("planner.v4_b300_total_c", "54"),
        ("planner.k3_h200_concurrency_exact", "69.4"),
        ("planner.v4_h200_concurrency_exact", "146.9"),
        ("planner.ratio_h200", "4.3×"),
        ("planner.ratio_b300", "4.8×"),
        ("planner.ratio_h200_c", "4.2×"),
        ("planner.k3_b300_gain", "3.2×"),
        ("planner.v4_b300_gain", "3.6×"),
        ("planner.v4_over_k3_gpus", "0.23"),
        ("planner.k3_h200_per_card", "2"),
        ("planner.k3_h200_concurrency_pc", "64"),
        ("planner.k3_h200_total_pc", "880"),
        ("planner.v4_h200_per_card", "9"),
        ("planner.v4_h200_concurrency_pc", "144"),
        ("planner.v4_h200_total_pc", "196"),
        ("planner.best_k3_ep", "128"),
        ("planner.best_k3_gpus", "3,768"),
        ("planner.best_v4_ep", "128"),
        ("planner.best_v4_gpus", "720"),
    ];
    let got = figures();
    let got: Vec<(&str, &str)> = got.iter().map(|(n, v)| (*n, v.as_str())).collect();
    assert_eq!(got, expected);
}

#[test]
fn the_steps_are_plan_rs_plans() {
    for (m, g) in pairs() {
        let s = default_setup(m, g);
        for mode in [Mode::Article, Mode::Conservative] {
            let st = steps(&s, mode);
            assert_eq!(
                st.plan,
                crate::ch_deploy::plan::plan(&m, &g, 500_000, 10_000, mode)
            );
            let d = st.plan.unwrap();
            assert_eq!(
                st.at_rho,
                Some((d.d_nodes, d.total_nodes)),
                "ρ = 1 changes nothing"
            );
        }
    }
}

#[test]
fn the_default_text_and_step_table() {
    let o = out(&[]);
    let t = text(&o, 0);
    for want in [
        "Kimi-K3 on H200 (141 GB, 4.8 TB/s) · EP 32 (the model's own; 4 nodes a unit) · 500,000-token requests · 10,000 at once · P:D = 1:2.5 · ρ = 100% · article rounding\n",
        "Article rounding: 812 nodes (580 D + 232 P), 6,496 GPUs.\n",
        "Conservative rounding: 812 nodes (580 D + 232 P), 6,496 GPUs — the same.\n",
    ] {
        assert!(t.contains(want), "missing {want:?} in\n{t}");
    }
    let (header, rows) = table(&o, 0);
    assert_eq!(
        header,
        &[
            "step",
            "how",
            "article rounding (chosen)",
            "conservative rounding"
        ]
    );
    let expected = [
        ["experts per card", "896 routed experts ÷ EP 32", "28", "28"],
        [
            "weights per card",
            "28 × 2.45 GB = 68.6 GB, rounded to whole GB as the article does",
            "69 GB",
            "69 GB",
        ],
        [
            "free for KV per card",
            "141 GB − 69 GB − 5 GB (attention and embedding)",
            "67 GB",
            "67 GB",
        ],
        ["KV per unit", "67 GB × 32 cards", "2,144 GB", "2,144 GB"],
        [
            "one request",
            "61.4 KB × 500,000 tokens + 0.207 GB (KDA state) = 30.907 GB, to 0.1 GB",
            "30.9 GB",
            "30.9 GB",
        ],
        [
            "requests per unit",
            "2,144 GB ÷ 30.9 GB; article: nearest, conservative: down",
            "69.39 → 69",
            "69.39 → 69",
        ],
        [
            "units",
            "10,000 requests ÷ requests per unit; nearest / up",
            "144.93 → 145",
            "144.93 → 145",
        ],
        ["D nodes", "units × 4 nodes a unit", "580", "580"],
        ["P nodes", "D nodes ÷ 2.5; nearest / up", "232", "232"],
        ["total nodes", "D + P", "812", "812"],
        ["GPUs", "total nodes × 8", "6,496", "6,496"],
    ];
    assert_eq!(rows, &expected.map(|r| r.map(String::from).to_vec()));
}

#[test]
fn the_plan_leads_and_its_steps_are_folded_under_it() {
    let o = out(&[]);
    let Block::Text(lead) = &o.blocks[0] else {
        panic!("{:?}", o.blocks[0])
    };
    assert!(
        lead.contains("Article rounding: 812 nodes (580 D + 232 P), 6,496 GPUs."),
        "{lead}"
    );
    let (summary, inside) = fold(&o, 0);
    assert_eq!(summary, "The plan step by step, in both roundings");
    assert!(matches!(&o.blocks[1], Block::Details { .. }));
    assert!(matches!(inside, [Block::Table { rows, .. }] if rows.len() == 11));
}

#[test]
fn v4_shows_what_rounding_changes() {
    let o = out(&[("model", "DeepSeek-V4-Pro")]);
    let t = text(&o, 0);
    assert!(
        t.contains("Article rounding: 190 nodes (136 D + 54 P), 1,520 GPUs.\n"),
        "{t}"
    );
    assert!(
        t.contains("Conservative rounding: 194 nodes (138 D + 56 P), 1,552 GPUs.\n"),
        "{t}"
    );
    let (_, rows) = table(&o, 0);
    let get = |step: &str| rows.iter().find(|r| r[0] == step).unwrap()[2..].to_vec();
    assert_eq!(get("weights per card"), ["82 GB", "82 GB"]);
    assert_eq!(
        rows[1][1],
        "16 × 5.1 GB = 81.6 GB, rounded to whole GB as the article does"
    );
    assert_eq!(get("one request"), ["6.1 GB", "6.1 GB"]);
    assert_eq!(get("requests per unit"), ["146.89 → 147", "146.89 → 146"]);
    assert_eq!(get("units"), ["68.03 → 68", "68.49 → 69"]);
    assert_eq!(get("P nodes"), ["54.4 → 54", "55.2 → 56"]);
    assert_eq!(get("GPUs"), ["1,520", "1,552"]);
    let o = out(&[("model", "DeepSeek-V4-Pro"), ("mode", "conservative")]);
    assert_eq!(table(&o, 0).0[3], "conservative rounding (chosen)");
    assert!(text(&o, 0).ends_with("conservative rounding\n\nArticle rounding: 190 nodes (136 D + 54 P), 1,520 GPUs.\nConservative rounding: 194 nodes (138 D + 56 P), 1,552 GPUs.\n"));
}

#[test]
fn the_article_mode_reproduces_the_articles_tables() {
    let o = out(&[]);
    let (header, rows) = table(&o, 1);
    assert_eq!(header.len(), 11);
    let expected = [
        [
            "Kimi-K3", "H200", "32", "69 GB", "67 GB", "69", "145", "580", "232", "812", "6,496",
        ],
        [
            "DeepSeek-V4-Pro",
            "H200",
            "16",
            "82 GB",
            "56 GB",
            "147",
            "68",
            "136",
            "54",
            "190",
            "1,520",
        ],
        [
            "Kimi-K3", "B300", "32", "69 GB", "214 GB", "222", "45", "180", "72", "252", "2,016",
        ],
        [
            "DeepSeek-V4-Pro",
            "B300",
            "16",
            "82 GB",
            "203 GB",
            "532",
            "19",
            "38",
            "15",
            "53",
            "424",
        ],
    ];
    assert_eq!(rows, &expected.map(|r| r.map(String::from).to_vec()));
    let n = text(&o, 1);
    for want in [
        "Kimi-K3 needs 4.3× the nodes of DeepSeek-V4-Pro on H200 and 4.8× on B300; on H200 K3 needs 3.2× the nodes it needs on B300, and V4 3.6×. The other rounding gives 4.2×, 4.8×, 3.1× and 3.6×.\n",
        "(104 GB + 30.9 GB) ÷ 4.8 TB/s = 28.1 ms at batch 1",
        "the fewest GPUs for these requests come at EP 128: 3,768 GPUs (336 D + 135 P nodes, 492 requests a unit), against 6,496 GPUs at EP 32.",
        "a unit of EP 128 spans 16 nodes (4 at EP 32), so every MoE layer's all-to-all dispatch and combine crosses the network between 16 nodes, and each token's 16 routed experts can sit on up to 16 of them.",
    ] {
        assert!(n.contains(want), "missing {want:?} in\n{n}");
    }
    let o = out(&[("model", "DeepSeek-V4-Pro")]);
    let n = text(&o, 1);
    assert!(n.contains("at EP 128: 720 GPUs"), "{n}");
    assert!(
        n.contains("each token's 8 routed experts can sit on up to 8 of them"),
        "{n}"
    );
    assert!(n.contains("(49 GB + 6.1 GB) ÷ 4.8 TB/s = 11.5 ms"), "{n}");
}

#[test]
fn rho_adds_the_hicache_rows() {
    let o = out(&[("rho", "0.25")]);
    let (_, rows) = table(&o, 0);
    let tail: Vec<Vec<String>> = rows[11..].to_vec();
    let expected = [
        [
            "D nodes at ρ = 25%",
            "D nodes × 0.25; nearest / up",
            "145",
            "145",
        ],
        [
            "P nodes at ρ = 25%",
            "D nodes at ρ ÷ 2.5; nearest / up",
            "58",
            "58",
        ],
        ["total nodes at ρ = 25%", "D + P", "203", "203"],
        ["GPUs at ρ = 25%", "total nodes × 8", "1,624", "1,624"],
    ];
    assert_eq!(tail, expected.map(|r| r.map(String::from).to_vec()));
    let (header, rows) = table(&o, 1);
    assert_eq!(
        header[11..],
        ["D nodes at ρ = 25%", "total nodes at ρ = 25%"]
    );
    let last: Vec<&[String]> = rows.iter().map(|r| &r[11..]).collect();
    assert_eq!(
        last,
        [["145", "203"], ["34", "48"], ["45", "63"], ["10", "14"]]
            .map(|r| r.map(String::from))
            .iter()
            .map(|r| &r[..])
            .collect::<Vec<_>>()
    );
    assert!(text(&o, 0).contains(
        "with every request's KV on the GPUs; 203 nodes (145 D + 58 P), 1,624 GPUs at ρ = 25%"
    ));
    let p = plot(&o, 0);
    assert_eq!(p.series[0].y[9], 203.0);
    assert_eq!(p.series[4].y, [203.0]);
}

#[test]
fn larger_eps_and_custom_cards() {
    let o = out(&[("ep", "128")]);
    let t = text(&o, 0);
    assert!(t.contains("EP 128 (chosen; 16 nodes a unit)"), "{t}");
    let (_, rows) = table(&o, 0);
    assert_eq!(
        rows[1][1],
        "7 × 2.45 GB = 17.15 GB, rounded to whole GB as the article does"
    );
    assert_eq!(rows[2][2], "119 GB");
    // The article's rounding of 17.15 GB to 17 GB: 119 GB free, 492.94 a unit.
    assert_eq!(rows[5][2..], ["492.94 → 493", "492.94 → 492"]);
    let n = text(&o, 1);
    assert!(n.contains("at EP 128: 3,768 GPUs"), "{n}");
    assert!(n.contains("against 3,768 GPUs at EP 128."), "{n}");
    assert!(!n.contains("The price"), "{n}");
    // From EP 256, V4's best is the smaller EP 128.
    let o = out(&[("model", "DeepSeek-V4-Pro"), ("ep", "256")]);
    let n = text(&o, 1);
    assert!(
            n.contains("The smaller EP also keeps each MoE layer's all-to-all within fewer nodes (16 against 32)."),
            "{n}"
        );
    // EP 16 overfills an H200 with K3's experts.
    let o = out(&[("ep", "16")]);
    let t = text(&o, 0);
    assert!(t.contains("no plan: a unit cannot hold one request"), "{t}");
    assert!(
        t.contains("56 experts of 2.45 GB leave nothing of a 141 GB card for KV"),
        "{t}"
    );
    assert_eq!(table(&o, 0).1[2][2], "-1 GB");
    assert_eq!(
        plot(&o, 0).series.len(),
        4,
        "no point for a plan that does not exist"
    );
    // A custom card.
    let o = out(&[("gpu", "custom"), ("card_gb", "192"), ("card_tb_s", "8")]);
    let t = text(&o, 0);
    assert!(
        t.starts_with("Kimi-K3 on custom card (192 GB, 8 TB/s)"),
        "{t}"
    );
    assert_eq!(table(&o, 0).1[2][2], "118 GB");
    assert!(text(&o, 1).contains("÷ 8 TB/s = 16.9 ms"));
    // A small target: round-to-nearest buys no unit.
    let o = out(&[("target", "30")]);
    assert!(text(&o, 0).contains("Article rounding: 0 nodes (0 D + 0 P), 0 GPUs.\n"));
    assert!(text(&o, 0).contains("Round-to-nearest buys 0 units"));
    assert!(text(&o, 1).contains("Kimi-K3 needs — the nodes of DeepSeek-V4-Pro on H200"));
    assert!(text(&o, 0).contains("Conservative rounding: 6 nodes (4 D + 2 P), 48 GPUs.\n"));
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
            "your plan: Kimi-K3 on H200, EP 32"
        ]
    );
    assert_eq!(p.series[0].x.len(), 20);
    assert_eq!(p.series[0].x[0], 1_000.0);
    assert_eq!(p.series[0].x[19], 20_000.0);
    let at = |i: usize| p.series[i].y[9];
    assert_eq!([at(0), at(1), at(2), at(3)], [812.0, 190.0, 252.0, 53.0]);
    assert_eq!((p.series[4].x[0], p.series[4].y[0]), (10_000.0, 812.0));
    assert_eq!(chart_targets(1), [1, 2]);
    assert_eq!(chart_targets(15)[..3], [2, 3, 5]);
}

#[test]
fn bad_params_are_named() {
    for (k, v, msg) in [
        ("model", "K4", "choose one of: Kimi-K3, DeepSeek-V4-Pro"),
        ("gpu", "A100", "choose one of: H200, B300, custom"),
        ("card_gb", "0", "must be between 1 and 100000"),
        ("card_tb_s", "x", "`x` is not a number"),
        (
            "ep",
            "12",
            "choose one of: model's own, 8, 16, 32, 64, 128, 256",
        ),
        (
            "ep",
            "256",
            "Kimi-K3's 896 routed experts do not split evenly over 256 cards; choose 8, 16, 32, 64, 128",
        ),
        ("tokens", "9,999", "must be between 10,000 and 10,000,000"),
        ("target", "0", "must be between 1 and 10,000,000"),
        ("pd_ratio", "0", "must be between 0.1 and 100"),
        ("rho", "1.5", "must be between 0.01 and 1"),
        ("mode", "floor", "choose one of: article, conservative"),
    ] {
        let e = errors(&[(k, v)]);
        assert_eq!(e.len(), 1, "{k}");
        assert_eq!((e[0].param.as_str(), e[0].message.as_str()), (k, msg));
    }
    let e = errors(&[
        ("model", "x"),
        ("gpu", "x"),
        ("card_gb", "x"),
        ("card_tb_s", "x"),
        ("ep", "x"),
        ("tokens", "x"),
        ("target", "x"),
        ("pd_ratio", "x"),
        ("rho", "x"),
        ("mode", "x"),
    ]);
    let names: Vec<&str> = e.iter().map(|e| e.param.as_str()).collect();
    assert_eq!(names, PARAMS.iter().map(|p| p.name).collect::<Vec<_>>());
    // V4's 256 experts split over 256 cards.
    assert!(
        run(
            &raw(&[("model", "DeepSeek-V4-Pro"), ("ep", "256")]),
            Lang::En
        )
        .is_ok()
    );
}

#[test]
fn the_extremes_run() {
    for changes in [
        [
            ("tokens", "10,000,000"),
            ("target", "10,000,000"),
            ("gpu", "custom"),
            ("card_gb", "1"),
        ],
        [
            ("tokens", "10,000"),
            ("target", "1"),
            ("gpu", "custom"),
            ("card_gb", "100000"),
        ],
        [
            ("tokens", "10,000"),
            ("target", "10,000,000"),
            ("pd_ratio", "0.1"),
            ("rho", "0.01"),
        ],
    ] {
        for model in MODELS {
            let mut c = changes.to_vec();
            c.push(("model", model));
            let o = out(&c);
            assert_eq!(o.blocks.len(), 5);
            for i in [0, 1] {
                let t = text(&o, i);
                assert!(!t.contains("NaN") && !t.contains("inf"), "{t}");
            }
            assert!(
                plot(&o, 0)
                    .series
                    .iter()
                    .all(|s| s.y.iter().all(|y| y.is_finite()))
            );
        }
    }
}

#[test]
fn the_choices_follow_plan_rs() {
    assert_eq!(MODELS, [k3().name, v4().name]);
    assert_eq!(GPUS[..2], [H200.name, B300.name]);
    let sizes: Vec<String> = EP_SIZES.iter().map(|x| x.to_string()).collect();
    assert_eq!(EPS[1..], sizes);
    assert_eq!((top_k(&k3()), top_k(&v4())), (16, 8));
}

#[test]
fn the_demo_is_registered() {
    let d = super::super::demos()
        .into_iter()
        .find(|d| d.id == "planner")
        .unwrap();
    assert!(run(&defaults(d.params), Lang::En).is_ok());
}
