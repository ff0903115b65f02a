//! The tests of `decode_step.rs`, apart from it so that a notebook can include that
//! file as it is.

use super::*;
use crate::demo::test_help::{text, table, plot};
use crate::demo::defaults;

crate::demo::test_help::test_helpers!();




#[test]
fn help_is_the_declared_range_then_the_note() {
    let d = demo();
    assert_eq!(
        d.help_in(TOKENS.name, Lang::En),
        "a whole number from 1 to 100,000,000; the article's average context is 500,000"
    );
    assert_eq!(
        d.help_in(H200_BW.name, Lang::Zh),
        "0.01 到 1,000 之间的数；单位 TB/s（十进制）；H200 SXM 为 4.8"
    );
}

#[test]
fn figures_at_the_defaults() {
    let expected = [
        ("decode_step.k3_kv_gb", "30.7 GB"),
        ("decode_step.v4_kv_gb", "6.1 GB"),
        ("decode_step.k3_h200_ms", "28.1 ms"),
        ("decode_step.v4_h200_ms", "11.5 ms"),
        ("decode_step.k3_b300_ms", "16.8 ms"),
        ("decode_step.k3_h200_margin", "44%"),
        ("decode_step.v4_h200_margin", "77%"),
        ("decode_step.bw_gain", "1.67×"),
        ("decode_step.cost_ratio", "0.41"),
        ("decode_step.k3_active_h200", "74%"),
        ("decode_step.k3_active_b300", "36%"),
        ("decode_step.v4_active_h200", "35%"),
        ("decode_step.v4_h200_tok_s", "87.1"),
    ];
    let got = figures();
    let got: Vec<(&str, &str)> = got.iter().map(|(n, v)| (*n, v.as_str())).collect();
    assert_eq!(got, expected);
    // The same as plan's test of the article's figures.
    let c = Params::parse(&defaults(PARAMS)).unwrap().cases();
    assert_eq!(c[0].2.ms(AVG_TOKENS), plan::decode_ms(104.0, 30.7, 4.8));
}

#[test]
fn the_default_text_and_table() {
    let o = out(&[]);
    let t = text(&o, 0);
    for s in [
        "Context 500,000 tokens, KV as the article counts it",
        "  Kimi-K3 on H200: (104 + 30.7) GB / 4.8 TB/s = 28.1 ms, 44% under 50 ms; reading the 0.207 GB KDA state too: 28.1 ms\n",
        "  DeepSeek-V4-Pro on H200: (49 + 6.1) GB / 4.8 TB/s = 11.5 ms, 77% under 50 ms\n",
        "  Kimi-K3 on B300: (104 + 30.7) GB / 8 TB/s = 16.8 ms, 66% under 50 ms; reading the 0.207 GB KDA state too: 16.9 ms\n",
        "  DeepSeek-V4-Pro on B300: (49 + 6.1) GB / 8 TB/s = 6.9 ms, 86% under 50 ms\n",
        "DeepSeek-V4-Pro reads 0.41 of Kimi-K3's bytes a step: (49 + 6.1) / (104 + 30.7)",
        "Kimi-K3 on H200 reaches 50 ms at 2,214,983 tokens, past the 1,048,576 tokens both models accept (ch_newmodels' ledger).\n",
        "B300's bandwidth gain is 8 / 4.8 = 1.67×, not the article's 2×; its memory gain is 288 / 141 = 2.04×. Kimi-K3's step goes from 28.1 ms to 16.8 ms.",
        "It is not the time to the first token (TTFT)",
        "The article calls its 50 ms target TTFT.",
        "(Kimi-K3 at EP = 32: 28 experts, 68.6 GB)",
        "Kimi-K3's 104 GB is 74% of an H200's 141 GB and 36% of a B300's 288 GB; DeepSeek-V4-Pro's 49 GB is 35% of an H200's.",
    ] {
        assert!(t.contains(s), "missing {s:?} in\n{t}");
    }
    let rows = table(&o, 0).1;
    assert_eq!(
        rows[0],
        [
            "Kimi-K3",
            "H200",
            "104 GB",
            "30.7 GB",
            "4.8 TB/s",
            "28.1 ms",
            "44% under 50 ms",
            "28.1 ms",
            "35.6",
            "2,214,983 tokens"
        ]
    );
    assert_eq!(rows[1][7], "—");
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
            "target, 50 ms"
        ]
    );
    assert!(p.log_x && !p.log_y);
    assert!(p.series[4].dashed && p.series[..4].iter().all(|s| !s.dashed));
    // 2^12 .. 2^22 and 500,000.
    assert_eq!(p.series[0].x.len(), 12);
    let i = p.series[0].x.iter().position(|&x| x == 500_000.0).unwrap();
    assert_eq!(p.series[0].y[i], plan::decode_ms(104.0, 30.7, 4.8));
    // K3 on H200 crosses 50 ms between 2^21 and 2^22 tokens.
    let y = &p.series[0].y;
    assert!(y[y.len() - 2] < 50.0 && y[y.len() - 1] > 50.0);
}

#[test]
fn over_the_target_and_never() {
    let o = out(&[("tokens", "4,000,000"), ("target_ms", "20")]);
    let t = text(&o, 0);
    assert!(
        t.contains("Kimi-K3 on H200: (104 + 245.6) GB / 4.8 TB/s = 72.8 ms, 264% over 20 ms"),
        "{t}"
    );
    assert_eq!(table(&o, 0).1[0][9], "never (the weights alone take longer)");
    assert_eq!(table(&o, 0).1[1][9], "3,852,459 tokens");
    assert!(t.contains("The article calls its 50 ms target TTFT."));
    let o = out(&[("target_ms", "30")]);
    assert!(
        text(&o, 0).contains("Kimi-K3 on H200 reaches 30 ms at 651,465 tokens.\n"),
        "{}",
        text(&o, 0)
    );
    let o = out(&[("b300_bw", "9.6")]);
    assert!(
        text(&o, 0).contains("= 2.00×; its memory gain"),
        "{}",
        text(&o, 0)
    );
}

#[test]
fn bad_parameters_are_named() {
    let e = errors(&[
        ("tokens", "0"),
        ("target_ms", "0"),
        ("h200_bw", "x"),
        ("b300_bw", "2000"),
        ("k3_active", "-1"),
        ("v4_active", ""),
    ]);
    let names: Vec<&str> = e.iter().map(|e| e.param.as_str()).collect();
    assert_eq!(
        names,
        [
            "tokens",
            "target_ms",
            "h200_bw",
            "b300_bw",
            "k3_active",
            "v4_active"
        ]
    );
    assert_eq!(e[0].message, "must be between 1 and 100,000,000");
}

#[test]
fn the_demo_is_registered_and_fast() {
    let d = super::super::demos()
        .into_iter()
        .find(|d| d.id == "decode_step")
        .unwrap();
    let t0 = std::time::Instant::now();
    assert!((d.run)(&defaults(d.params), Lang::En).is_ok());
    assert!(t0.elapsed().as_millis() < 50);
}
