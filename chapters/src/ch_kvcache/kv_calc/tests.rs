//! The tests of `kv_calc.rs`, apart from it so that a notebook can include that
//! file as it is.

use super::*;
use crate::demo::test_help::{text, table, plot};
use crate::ch_kvcache::formulas::table_models;
use crate::demo::{checked_product, defaults};

crate::demo::test_help::test_helpers!();




#[test]
fn the_figures() {
    let expected = [
        ("kv_calc.qwen_per_token_kib", "320.0 KiB"),
        ("kv_calc.v3_per_token_kib", "68.6 KiB"),
        ("kv_calc.qwen35_per_token_kib", "30.0 KiB"),
        ("kv_calc.v4_per_token_kib", "7.7 KiB"),
        ("kv_calc.qwen_per_token_bytes", "327,680 B"),
        ("kv_calc.v3_per_token_bytes", "70,272 B"),
        ("kv_calc.qwen35_per_token_bytes", "30,720 B"),
        ("kv_calc.v4_per_token_bytes", "7,928 B"),
        ("kv_calc.qwen_1m_gib", "305.2 GiB"),
        ("kv_calc.v3_1m_gib", "65.4 GiB"),
        ("kv_calc.qwen35_1m_gib", "28.6 GiB"),
        ("kv_calc.v4_1m_gib", "7.4 GiB"),
        ("kv_calc.qwen_1mi_gib", "320.0 GiB"),
        ("kv_calc.v3_1mi_gib", "68.6 GiB"),
        ("kv_calc.qwen35_1mi_gib", "30.0 GiB"),
        ("kv_calc.v4_1mi_gib", "7.7 GiB"),
        ("kv_calc.qwen_1m_gb", "327.7 GB"),
        ("kv_calc.v4_1m_gb", "7.9 GB"),
        ("kv_calc.gap", "41.3×"),
        ("kv_calc.v4_window_mib", "7.6 MiB"),
        ("kv_calc.mha_values_v3", "14,336"),
        ("kv_calc.mla_values", "576"),
        ("kv_calc.mla_saving", "96.0%"),
        ("kv_calc.gqa_group", "8"),
        ("kv_calc.mha_qwen_1m_gib", "2,441.4 GiB"),
        ("kv_calc.nm_flash_per_token_kib", "3.8 KiB"),
        ("kv_calc.nm_pro_per_token_kib", "5.4 KiB"),
        // 15,420,416 B and 23,270,400 B (windows plus compressor state).
        ("kv_calc.nm_flash_fixed_mib", "14.7 MiB"),
        ("kv_calc.nm_pro_fixed_mib", "22.2 MiB"),
        ("kv_calc.h200_gib", "131.3 GiB"),
        ("kv_calc.fit_qwen", "0"),
        ("kv_calc.fit_v3", "1"),
        ("kv_calc.fit_qwen35", "3"),
        ("kv_calc.fit_v4", "12"),
        ("kv_calc.free_gb", "100 GB"),
    ];
    let got = figures();
    let got: Vec<(&str, &str)> = got.iter().map(|(n, v)| (*n, v.as_str())).collect();
    assert_eq!(got, expected);
    // 2 × 80 layers × 64 heads × 128 dims × 2 B × 10^6 tokens.
    assert_eq!(gqa_bytes(80, 64, 128, 1_000_000, 1, 2), 2_621_440_000_000);
}

#[test]
fn the_box_parses_to_the_chapters_table_models() {
    let specs = parse_models(MODELS).unwrap();
    let models = table_models();
    assert_eq!(specs.len(), models.len());
    for (s, m) in specs.iter().zip(&models) {
        assert_eq!(
            (s.name.as_str(), s.layout, s.dtype_bytes),
            (m.name, m.layout, m.dtype_bytes)
        );
    }
    assert_eq!(
        specs.iter().map(|s| s.line).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
}

#[test]
fn the_ledger_rows_are_ch_newmodels_rows() {
    for r in ledger_rows() {
        let m = ledger::model(&r.name).unwrap();
        assert_eq!(r.per_token, m.per_token, "{}", r.name);
        assert_eq!(r.fixed as f64, m.fixed, "{}", r.name);
    }
}

#[test]
fn the_default_table_reproduces_the_source() {
    let o = out(&[]);
    let (header, rows) = table(&o, 0);
    assert_eq!(
        header,
        &[
            "model",
            "architecture",
            "layers with a cache",
            "values per token per layer",
            "per token",
            "at 1M = 10^6 = 1,000,000 tokens"
        ]
    );
    let expected = [
        [
            "Qwen3-72B",
            "GQA, 8 KV heads × 128 dims",
            "80",
            "2 × 8 × 128 = 2,048",
            "320.0 KiB",
            "305.2 GiB",
        ],
        [
            "DeepSeek-V3",
            "MLA, latent 512 + RoPE key 64",
            "61",
            "512 + 64 = 576",
            "68.6 KiB",
            "65.4 GiB",
        ],
        [
            "Qwen3.5-397B",
            "hybrid: GQA in 15 of 60 layers, 2 KV heads × 256 dims",
            "15",
            "2 × 2 × 256 = 1,024",
            "30.0 KiB",
            "28.6 GiB",
        ],
        [
            "DeepSeek-V4",
            "CSA + HCA: 30 CSA (4:1), 31 HCA (128:1)",
            "61",
            "512 ÷ 4 = 128 (CSA), 512 ÷ 128 = 4 (HCA)",
            "7.7 KiB",
            "7.4 GiB",
        ],
    ];
    assert_eq!(rows, &expected.map(|r| r.map(String::from).to_vec()));
}

#[test]
fn the_default_text() {
    let o = out(&[]);
    let t = text(&o, 0);
    for want in [
        "1M = 10^6 = 1,000,000 tokens · sizes in KiB, MiB, GiB (powers of 1,024) · GPU: 141 GB = 131.3 GiB, one H200\n",
        "csa_hca lines follow this chapter's convention",
        "\nQwen3-72B — GQA, 8 KV heads × 128 dims, 2 B per value (BF16)\n  stores K and V in each of 80 layers: 2 × 8 × 128 = 2,048 values per token per layer\n  per token: 327,680 B = 320.0 KiB; fixed per request: 0 B\n  one request of 4,096 tokens: 1.2 GiB · 131,072 tokens: 40.0 GiB · 1,000,000 tokens: 305.2 GiB\n  requests of 1M tokens that 141 GB could hold, KV only: 0\n",
        "fixed per request: 7,995,392 B = 7.6 MiB (a 128-token window in each of 61 layers)",
        "DeepSeek-V4's 7.4 GiB",
        "At 1M tokens the largest cache, Qwen3-72B's 305.2 GiB, is 41.3× the smallest, DeepSeek-V4's 7.4 GiB.",
        "KV only: 17\n",
        "upper bounds",
    ] {
        assert!(t.contains(want), "missing {want:?} in\n{t}");
    }
}

#[test]
fn million_switches_the_last_column_and_the_ratio() {
    let o = out(&[("million", "2^20")]);
    let (header, rows) = table(&o, 0);
    assert_eq!(header[5], "at 1M = 2^20 = 1,048,576 tokens");
    let last: Vec<&str> = rows.iter().map(|r| r[5].as_str()).collect();
    assert_eq!(last, ["320.0 GiB", "68.6 GiB", "30.0 GiB", "7.7 GiB"]);
    assert!(text(&o, 0).starts_with("1M = 2^20 = 1,048,576 tokens"));
    // The listed context lengths do not change.
    assert!(text(&o, 0).contains("1,000,000 tokens: 305.2 GiB"));
}

#[test]
fn units_switch_to_decimal() {
    let o = out(&[("units", "GB")]);
    let (_, rows) = table(&o, 0);
    assert_eq!(rows[0][4..], ["327.7 KB", "327.7 GB"]);
    assert_eq!(rows[3][4..], ["7.9 KB", "7.9 GB"]);
    let t = text(&o, 0);
    assert!(t.contains("7,995,392 B = 8.0 MB"), "{t}");
    assert!(t.contains("sizes in KB, MB, GB"));
    let p = plot(&o, 0);
    assert_eq!(p.y_label, "KV cache (GB)");
    assert_eq!(p.series.last().unwrap().y[0], 141.0);
}

#[test]
fn the_ch_newmodels_convention_shows_flash_and_pro() {
    let o = out(&[("v4_convention", CONVENTIONS[1])]);
    let (_, rows) = table(&o, 0);
    let names: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        names,
        [
            "Qwen3-72B",
            "DeepSeek-V3",
            "Qwen3.5-397B",
            "DeepSeek-V4-Flash",
            "DeepSeek-V4-Pro"
        ]
    );
    assert_eq!(rows[3][2], "43");
    assert_eq!(rows[3][4], "3.8 KiB");
    assert_eq!(rows[4][4], "5.4 KiB");
    let t = text(&o, 0);
    assert!(
        t.contains("line 4 is replaced by that chapter's ledger rows"),
        "{t}"
    );
    assert!(
        t.contains("15,420,416 B = 14.7 MiB (windows plus the compressors' state)"),
        "{t}"
    );
    assert_eq!(plot(&o, 0).series.len(), 6);
    // Without a csa_hca line the switch says it does nothing.
    let first_two: String = MODELS.lines().take(2).collect::<Vec<_>>().join("\n");
    let o = out(&[("v4_convention", CONVENTIONS[1]), ("models", &first_two)]);
    assert!(text(&o, 0).contains("No csa_hca line, so v4_convention changes nothing."));
    // Two csa_hca lines: both named, the ledger rows once.
    let two = format!(
        "{MODELS}\n# a comment\nV4 FP8: csa_hca csa=30 hca=31 layers=61 kv_dim=512 bytes=1"
    );
    let o = out(&[("v4_convention", CONVENTIONS[1]), ("models", &two)]);
    assert_eq!(table(&o, 0).1.len(), 5);
    assert!(
        text(&o, 0).contains("line 4 and line 6 are replaced"),
        "{}",
        text(&o, 0)
    );
}

#[test]
fn fp8_halves_the_bytes() {
    let o = out(&[(
        "models",
        "A: gqa layers=80 kv_heads=8 head_dim=128 bytes=1\nB: gqa layers=80 kv_heads=8 head_dim=128",
    )]);
    let (_, rows) = table(&o, 0);
    assert_eq!(rows[0][4], "160.0 KiB");
    assert_eq!(rows[1][4], "320.0 KiB", "bytes defaults to 2");
    assert!(text(&o, 0).contains("1 B per value (FP8)"));
    let o = out(&[("models", "M: gqa layers=2 kv_heads=1 head_dim=64")]);
    assert_eq!(table(&o, 0).1[0][1], "MQA, 1 KV head × 64 dims");
    assert!(!text(&o, 0).contains("largest cache"), "one model, no ratio");
}

#[test]
fn the_chart_has_one_series_per_model_and_the_gpu() {
    let o = out(&[]);
    let p = plot(&o, 0);
    assert!(p.log_x && p.log_y);
    let names: Vec<&str> = p.series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Qwen3-72B",
            "DeepSeek-V3",
            "Qwen3.5-397B",
            "DeepSeek-V4",
            "one H200, 141 GB"
        ]
    );
    let gpu = p.series.last().unwrap();
    assert!(gpu.dashed && p.series[..4].iter().all(|s| !s.dashed));
    assert_eq!(gpu.x.first(), Some(&1024.0));
    assert_eq!(gpu.x.last(), Some(&16_777_216.0));
    assert!(gpu.y.iter().all(|&y| y == 141e9 / 1073741824.0));
    assert_eq!(p.series[0].y[0], 1024.0 * 327_680.0 / 1073741824.0);
    let o = out(&[("gpu", "80")]);
    assert_eq!(plot(&o, 0).series[4].name, "GPU memory, 80 GB");
    assert!(text(&o, 0).contains("GPU: 80 GB = 74.5 GiB\n"));
}

#[test]
fn bad_lines_are_named() {
    let bad = "\
Qwen3-72B: gqa layers=80 kv_heads=8 head_dim=128 bytes=2
no colon here
X: attn layers=3
Y: mla layers=61 rank=512
Z: gqa layers=80 kv_heads=8 head_dim=128 rank=3
W: gqa layers=0 kv_heads=8 head_dim=128
V: hybrid layers=10 full=11 kv_heads=2 head_dim=256
U: csa_hca csa=30 hca=32 layers=61 kv_dim=512
T: gqa layers=8x kv_heads=8 head_dim=128
: gqa layers=8 kv_heads=8 head_dim=128
S: gqa layers=8 layers=9 kv_heads=8 head_dim=128
R: gqa layers
Q: csa_hca csa=0 hca=0 layers=61 kv_dim=512";
    let e = errors(&[("models", bad)]);
    let msgs: Vec<&str> = e.iter().map(|e| e.message.as_str()).collect();
    assert!(e.iter().all(|e| e.param == "models"));
    assert_eq!(
        msgs,
        [
            "line 2: expected `name: kind key=value …`, e.g. `Qwen3-72B: gqa layers=80 kv_heads=8 head_dim=128 bytes=2`",
            "line 3: unknown kind `attn` (use gqa, mla, hybrid, csa_hca)",
            "line 4: mla needs layers, rank, rope, bytes: `rope` is missing",
            "line 5: gqa takes layers, kv_heads, head_dim, bytes; `rank` is not one of them",
            "line 6: layers must be between 1 and 1,024",
            "line 7: full = 11 is more than layers = 10",
            "line 8: csa + hca = 62 must be between 1 and layers = 61",
            "line 9: layers: `8x` is not a whole number",
            "line 10: the model needs a name before `:`",
            "line 11: `layers` is given twice",
            "line 12: `layers` is not key=value",
            "line 13: at most 12 models",
        ]
    );
    let e = errors(&[("models", "Q: csa_hca csa=0 hca=0 layers=61 kv_dim=512")]);
    assert_eq!(
        e[0].message,
        "line 1: csa + hca = 0 must be between 1 and layers = 61"
    );
    let e = errors(&[("models", "# only a comment\n\n")]);
    assert_eq!(e[0].message, "enter at least one model");
    let long = format!("{}: gqa layers=1 kv_heads=1 head_dim=1", "n".repeat(49));
    assert_eq!(
        errors(&[("models", &long)])[0].message,
        "line 1: a name has at most 48 characters"
    );
    // A colon in the name is fine: the last one ends it.
    let o = out(&[("models", "Llama: 3: gqa layers=1 kv_heads=1 head_dim=1")]);
    assert_eq!(table(&o, 0).1[0][0], "Llama: 3");
}

#[test]
fn over_limit_inputs_are_refused() {
    let e = errors(&[("models", &"x".repeat(5_000))]);
    assert_eq!(
        e[0].message,
        "at most 4,096 characters (this text has 5,000)"
    );
    let thirteen: String = (1..=13)
        .map(|i| format!("M{i}: gqa layers=1 kv_heads=1 head_dim=1\n"))
        .collect();
    assert_eq!(
        errors(&[("models", &thirteen)])[0].message,
        "line 13: at most 12 models"
    );
    assert!(parse_models(&thirteen[..thirteen.rfind("M13").unwrap()]).is_ok());
    for (k, v, msg) in [
        ("contexts", "16,777,217", "must be between 1 and 16,777,216"),
        ("contexts", "1 2 3 4 5 6 7 8 9", "at most 8 values"),
        ("gpu", "0.5", "must be between 1 and 1000000"),
        ("million", "10^9", "choose one of: 10^6, 2^20"),
        ("units", "TiB", "choose one of: GiB, GB"),
    ] {
        let e = errors(&[(k, v)]);
        assert_eq!((e[0].param.as_str(), e[0].message.as_str()), (k, msg));
    }
    // Every bad field at once, each named.
    let e = errors(&[("models", "x"), ("units", "x"), ("gpu", "x")]);
    let names: Vec<&str> = e.iter().map(|e| e.param.as_str()).collect();
    assert_eq!(names, ["models", "units", "gpu"]);
    let help = demo().help_in(MODELS_BOX.name, Lang::En);
    assert!(help.contains("12 models") && help.contains("4,096 characters"));
    assert!(MODELS.chars().count() <= MAX_MODELS_CHARS);
}

#[test]
fn the_largest_values_cannot_overflow() {
    let max = |k: &str| RANGES.iter().find(|r| r.0 == k).unwrap().2;
    // GQA is the largest per token: 2 × layers × heads × dim × bytes.
    let gqa = [
        2,
        max("layers"),
        max("kv_heads"),
        max("head_dim"),
        max("bytes"),
    ];
    let per = checked_product(&gqa).unwrap();
    assert!(checked_product(&[per, MAX_CONTEXT]).is_some());
    let mla = (max("rank") + max("rope")) * max("layers") * max("bytes");
    assert!(mla < per);
    let window = checked_product(&[max("layers"), WINDOW, max("kv_dim"), max("bytes")]);
    assert!(window.unwrap() < 1 << 40);
    let line = format!(
        "Big: gqa layers={} kv_heads={} head_dim={} bytes={}",
        max("layers"),
        max("kv_heads"),
        max("head_dim"),
        max("bytes")
    );
    let spec = &parse_models(&line).unwrap()[0];
    let Layout::Gqa {
        layers,
        kv_heads,
        head_dim,
    } = spec.layout
    else {
        panic!()
    };
    assert_eq!(
        gqa_bytes(layers, kv_heads, head_dim, MAX_CONTEXT, 1, spec.dtype_bytes),
        per * MAX_CONTEXT
    );
    let o = out(&[
        ("models", &line),
        ("contexts", "16,777,216"),
        ("gpu", "1000000"),
    ]);
    assert!(plot(&o, 0).series[0].y.iter().all(|y| y.is_finite()));
    let csa = "V: csa_hca csa=1024 hca=0 layers=1024 kv_dim=65536 bytes=8";
    assert!(
        out(&[("models", csa), ("contexts", "16,777,216")])
            .blocks
            .len()
            == 3
    );
}

#[test]
fn formatting_helpers() {
    assert_eq!(grouped(2_441.406_25, 1), "2,441.4");
    assert_eq!(grouped(100.0, 0), "100");
    assert_eq!(grouped(-0.01, 1), "0.0");
    assert_eq!(size_auto(Units::Binary, 500.0), "500 B");
    assert_eq!(size_auto(Units::Binary, 40.0 * 1048576.0), "40.0 MiB");
    assert_eq!(size_auto(Units::Decimal, 2e12), "2,000.0 GB");
    assert_eq!(size(Units::Decimal, 1_000.0, 1), "1.0 KB");
}

#[test]
fn the_demo_is_registered() {
    let d = super::super::demos()
        .into_iter()
        .find(|d| d.id == "kv_calc")
        .unwrap();
    assert!(run(&defaults(d.params), Lang::En).is_ok());
}
