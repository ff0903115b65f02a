//! The tests of `ep_sizing.rs`, apart from it so that a notebook can include that
//! file as it is.

use super::*;
use crate::demo::test_help::{text, table, plot};
use crate::demo::defaults;

crate::demo::test_help::test_helpers!();




const V4: &[(&str, &str)] = &[
    ("experts", "256"),
    ("expert_gb", "5.1"),
    ("overhead_gb", "3"),
    ("top_k", "8"),
];

#[test]
fn help_is_the_declared_range_then_the_note() {
    let d = demo();
    assert_eq!(
        d.help_in(TOP_K.name, Lang::En),
        "a whole number from 1 to 1,024; at most the routed experts; Kimi-K3 16, DeepSeek-V4 8"
    );
    assert_eq!(
        d.help_in(EXPERT_GB.name, Lang::Zh),
        "0.001 到 10,000 之间的数；十进制 GB；Kimi-K3 为 2.45，DeepSeek-V4-Pro 为 5.1"
    );
}

#[test]
fn figures_at_the_defaults() {
    let expected = [
        ("ep_sizing.k3_moe_tb", "2.2 TB"),
        ("ep_sizing.k3_expert_gb", "2.45 GB"),
        ("ep_sizing.v4_expert_gb", "5.1 GB"),
        ("ep_sizing.k3_ep8_experts", "112"),
        ("ep_sizing.k3_ep16_experts", "56"),
        ("ep_sizing.k3_ep32_experts", "28"),
        ("ep_sizing.v4_ep8_experts", "32"),
        ("ep_sizing.v4_ep16_experts", "16"),
        ("ep_sizing.k3_ep8_weight", "274.4 GB"),
        ("ep_sizing.k3_ep16_weight", "137.2 GB"),
        ("ep_sizing.k3_ep16_free_article", "3.8 GB"),
        ("ep_sizing.k3_ep16_free", "−1.2 GB"),
        ("ep_sizing.k3_ep16_over", "1.2 GB"),
        ("ep_sizing.mxfp4_bits", "4.25"),
        ("ep_sizing.k3_expert_mxfp4_gb", "1.30 GB"),
        ("ep_sizing.k3_ep16_free_mxfp4", "63.1 GB"),
        ("ep_sizing.k3_min_ep_mxfp4", "16"),
        ("ep_sizing.k3_ep32_weight", "68.6 GB"),
        ("ep_sizing.k3_ep32_free", "67.4 GB"),
        ("ep_sizing.v4_ep8_weight", "163.2 GB"),
        ("ep_sizing.v4_ep16_weight", "81.6 GB"),
        ("ep_sizing.v4_ep16_free", "56.4 GB"),
        ("ep_sizing.v4_eplb_experts", "18"),
        ("ep_sizing.v4_eplb_weight", "91.8 GB"),
        ("ep_sizing.v4_eplb_free", "46.2 GB"),
        ("ep_sizing.k3_active_share", "2.0%"),
        ("ep_sizing.v4_active_share", "3.1%"),
        ("ep_sizing.mixtral_active_share", "25%"),
        ("ep_sizing.k3_fanout", "50%"),
        ("ep_sizing.k3_expected_nodes", "3.96"),
        ("ep_sizing.k3_min_ep", "32"),
        ("ep_sizing.v4_min_ep", "16"),
        ("ep_sizing.k3_shared_gb", "4.9 GB"),
        ("ep_sizing.k3_other_over_overhead", "120×"),
        ("ep_sizing.v4_other_over_overhead", "100×"),
        ("ep_sizing.v4_config_active_share", "1.6%"),
    ];
    let got = figures();
    let got: Vec<(&str, &str)> = got.iter().map(|(n, v)| (*n, v.as_str())).collect();
    assert_eq!(got, expected);
}

#[test]
fn the_table_agrees_with_plan() {
    for p in [k3_params(), v4_params()] {
        for r in p.rows() {
            if r.even {
                let want = plan::ep_row(p.placed(), r.ep, p.expert_gb, p.card_gb, p.overhead_gb);
                assert_eq!(r.card, want);
            }
        }
        let first = p.rows().into_iter().find(|r| r.feasible).map(|r| r.ep);
        assert_eq!(first, p.smallest());
    }
    // 896 over 256 cards: 128 cards hold 4, 128 hold 3.
    let r = rows(896, 2.45, 141.0, 5.0, 10.0);
    assert!(!r[5].even && !r[5].feasible);
    assert_eq!(r[5].card.experts_per_card, 4);
    // Uniform routing: 1 expert reaches 1 card; all experts reach all.
    assert_eq!(expected_groups(896, 1, 32), 1.0);
    assert_eq!(expected_groups(64, 64, 8), 8.0);
}

#[test]
fn the_default_table_text_and_chart() {
    let o = out(&[]);
    let rows = table(&o, 0).1;
    let want = [
        [
            "8",
            "1",
            "112",
            "274.4 GB",
            "−138.4 GB",
            "no: −138.4 GB < 10 GB",
        ],
        [
            "16",
            "2",
            "56",
            "137.2 GB",
            "−1.2 GB",
            "no: −1.2 GB < 10 GB",
        ],
        ["32", "4", "28", "68.6 GB", "67.4 GB", "yes, the smallest"],
        ["64", "8", "14", "34.3 GB", "101.7 GB", "yes"],
        ["128", "16", "7", "17.2 GB", "118.8 GB", "yes"],
        [
            "256",
            "32",
            "4 on 128 cards, 3 on 128 (not even)",
            "9.8 GB",
            "126.2 GB",
            "no: not even",
        ],
    ];
    assert_eq!(rows, &want.map(|r| r.map(String::from).to_vec()));
    let t = text(&o, 0);
    for s in [
        "Experts to place: 896 routed + 0 redundant = 896, 2.45 GB each",
        "it rejects a row that leaves 4 GB and accepts 56 GB and 67 GB",
        "Smallest feasible EP: 32 (4 nodes of 8 cards): 28 experts = 68.6 GB a card, 67.4 GB left for KV.\n",
        "From EP = 256, 896 experts do not divide evenly",
        "At EP = 16 a card holds 56 experts = 137.2 GB: 141 − 137.2 = 3.8 GB without the other weights, −1.2 GB with them.\n",
        "2.78 TB − 0.5 TB of attention − 0.1 TB of embedding = 2.18 TB of experts, which it rounds to 2.2 TB and divides by 896 routed + 2 shared = 898 experts: 2.45 GB each (2.43 GB from the unrounded 2.18 TB)",
        "The article's EP = 16 row leaves 4 GB: it drops the 5 GB of other weights that its EP = 32 row counts (141 − 137.2 = 3.8 GB without them, −1.2 GB with them). Its EP = 32 row: 141 − 68.6 − 5 = 67.4 GB, printed as 67 GB.",
        "the 2 shared experts (2 × 2.45 = 4.9 GB)",
        "leaves 600 GB of attention and embedding outside the experts, 120× the 5 GB a card is charged",
        "spread over 32 cards, 600 GB would still be 18.8 GB a card",
        "a token picks 16 of 896 routed experts plus 2 shared, 2.0% of all experts (DeepSeek-V4: 8 of 256, 3.1%; Mixtral: 2 of 8, 25%)",
        "reach at most 16 of 32 cards (50%); if the router picked uniformly, 12.8 cards on average, and 3.96 of the 4 nodes",
    ] {
        assert!(t.contains(s), "missing {s:?} in\n{t}");
    }
    assert!(!t.contains("DeepSeek-V4-Pro as the article"));
    let p = plot(&o, 0);
    assert!(p.log_x && !p.log_y);
    assert_eq!(p.series[0].x, [8.0, 16.0, 32.0, 64.0, 128.0, 256.0]);
    assert_eq!(
        p.series[1].y[1],
        plan::ep_row(896, 16, 2.45, 141.0, 5.0).free_gb
    );
    assert!(p.series[2].dashed && p.series[2].y == [141.0; 6]);
    assert_eq!(p.series[3].name, "min_free, 10 GB");
}

#[test]
fn deepseek_v4_with_and_without_eplb() {
    let o = out(V4);
    let t = text(&o, 0);
    for s in [
        "Smallest feasible EP: 16 (2 nodes of 8 cards): 16 experts = 81.6 GB a card, 56.4 GB left for KV.\n",
        "(1.6 − 0.3) TB / 256 experts = 5.078 GB each, which it rounds to 5.1 GB. EP = 8: 32 experts, 163.2 GB a card, more than the card; EP = 16: 16 experts, 81.6 GB a card, 56.4 GB left for KV (printed as 82 and 56 GB).",
        "256 + 32 = 288 experts: EP = 16 puts 18 on a card, 91.8 GB, and leaves 46.2 GB (set redundant = 32 to see that table)",
    ] {
        assert!(t.contains(s), "missing {s:?} in\n{t}");
    }
    assert!(!t.contains("Kimi-K3 as the article"));
    let mut with = V4.to_vec();
    with.push(("redundant", "32"));
    let o = out(&with);
    assert!(!text(&o, 0).contains("set redundant"));
    let rows = table(&o, 0).1;
    assert_eq!(
        rows[1][2..],
        ["18", "91.8 GB", "46.2 GB", "yes, the smallest"]
    );
    // 288 = 2^5 × 9: EP = 64 and up are not even.
    assert_eq!(rows[3][2], "5 on 32 cards, 4 on 32 (not even)");
}

#[test]
fn nothing_feasible_is_said() {
    let o = out(&[("min_free", "10000")]);
    assert!(text(&o, 0).contains("No EP up to 256 is feasible"));
    assert!(table(&o, 0).1.iter().all(|r| r[5].starts_with("no")));
    let o = out(&[("experts", "7"), ("top_k", "2")]);
    assert!(text(&o, 0).contains("From EP = 8, 7 experts do not divide evenly"));
    assert_eq!(table(&o, 0).1[0][2], "1 on 7 cards, 0 on 1 (not even)");
}

#[test]
fn bad_parameters_are_named() {
    let e = errors(&[
        ("experts", "0"),
        ("expert_gb", "x"),
        ("card_gb", "0"),
        ("overhead_gb", "-1"),
        ("redundant", "1.5"),
        ("min_free", ""),
        ("top_k", "2000"),
    ]);
    let names: Vec<&str> = e.iter().map(|e| e.param.as_str()).collect();
    assert_eq!(
        names,
        [
            "experts",
            "expert_gb",
            "card_gb",
            "overhead_gb",
            "redundant",
            "min_free",
            "top_k"
        ]
    );
    let e = errors(&[("experts", "8"), ("top_k", "9")]);
    assert_eq!(
        (e[0].param.as_str(), e[0].message.as_str()),
        ("top_k", "at most the routed experts (8)")
    );
}

#[test]
fn the_demo_is_registered_and_fast() {
    let d = super::super::demos()
        .into_iter()
        .find(|d| d.id == "ep_sizing")
        .unwrap();
    let t0 = std::time::Instant::now();
    assert!((d.run)(&defaults(d.params), Lang::En).is_ok());
    assert!(t0.elapsed().as_millis() < 50);
}
