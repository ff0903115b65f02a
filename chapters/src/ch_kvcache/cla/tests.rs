//! The tests of `cla.rs`, apart from it so that a notebook can include that
//! file as it is.

use super::*;
use crate::demo::Block;
use crate::demo::defaults;

crate::demo::test_help::test_helpers!();

fn parts(o: &Output) -> (&str, &Vec<Vec<String>>, &Plot) {
    let [Block::Text(t), Block::Table { rows, .. }, Block::Plot(p)] = &o.blocks[..] else {
        panic!()
    };
    (t, rows, p)
}

#[test]
fn the_figures() {
    let got = figures();
    let got: Vec<(&str, &str)> = got.iter().map(|(n, v)| (*n, v.as_str())).collect();
    assert_eq!(
        got,
        [
            ("cla.qwen_cla2_1m_gib", "152.6 GiB"),
            ("cla.v3_cla2_1m_gib", "33.3 GiB"),
            ("cla.v3_cla2_layers", "31"),
            ("cla.saving_cla2", "50%"),
        ]
    );
    // 40 layers × 2 × 8 × 128 × 2 B × 10^6; 31 layers × 576 × 2 B × 10^6.
    let qwen = Attention::Gqa {
        kv_heads: 8,
        head_dim: 128,
    };
    assert_eq!(cla_bytes(80, 2, qwen, 1_000_000, 2), 163_840_000_000);
    let v3 = Attention::Mla {
        rank: 512,
        rope: 64,
    };
    assert_eq!(cla_bytes(61, 2, v3, 1_000_000, 2), 35_712_000_000);
    assert_eq!(cla_bytes(80, 1, qwen, 1, 2), gqa_bytes(80, 8, 128, 1, 1, 2));
}

#[test]
fn help_is_the_declared_range_then_the_note() {
    let d = demo();
    assert_eq!(
        d.help_in("layers", Lang::En),
        "a whole number from 1 to 1,024"
    );
    assert_eq!(
        d.help_in("kv_heads", Lang::En),
        "a whole number from 1 to 1,024; GQA only (MHA: as many as query heads; MQA: 1)"
    );
    assert_eq!(
        d.help_in("share", Lang::Zh),
        "最多 8 个整数，取值 1 到 1,024，用空格分隔；k = 1 即不共享"
    );
    assert_eq!(
        d.help_in("tokens", Lang::Zh),
        "1 到 16,777,216 之间的整数；即 2^24"
    );
    assert!(
        d.help_in("attention", Lang::En)
            .starts_with("what each layer")
    );
}

#[test]
fn odd_layer_counts_round_up() {
    assert_eq!(shared_layers(61, 2), 31);
    assert_eq!(shared_layers(61, 3), 21);
    assert_eq!(shared_layers(80, 3), 27);
    assert_eq!(shared_layers(80, 80), 1);
    assert_eq!(shared_layers(80, 1_000), 1);
    assert_eq!(shared_layers(1, 1), 1);
    assert_eq!(saving(80, 3), "66.3%", "53 of 80 layers");
    assert_eq!(saving(61, 2), "49.2%", "30 of 61 layers");
    assert_eq!(saving(80, 1), "0%");
    assert_eq!(saving(8, 3), "62.5%");
    assert_eq!(
        grouping(61, 2, Lang::En),
        "30 groups of 2 and a last group of 1"
    );
    assert_eq!(grouping(80, 4, Lang::En), "20 groups of 4");
    assert_eq!(grouping(80, 100, Lang::En), "all 80 layers share one cache");
}

#[test]
fn defaults_text_table_and_chart() {
    let o = run(&raw(&[]), Lang::En).unwrap();
    let (t, rows, p) = parts(&o);
    assert!(t.starts_with("80 layers of GQA, 8 KV heads × 128 dims, 2 B per value (BF16); one request of 1,000,000 tokens"), "{t}");
    assert!(t.contains("k = 1 (no sharing): 80 of 80 layers store a cache; 327,680 B = 320.0 KiB per token; 305.2 GiB at 1,000,000 tokens; 0% saved\n"), "{t}");
    assert!(t.contains("k = 2 (40 groups of 2): 40 of 80 layers store a cache; 163,840 B = 160.0 KiB per token; 152.6 GiB at 1,000,000 tokens; 50% saved\n"), "{t}");
    assert!(
        t.contains("k = 3 (26 groups of 3 and a last group of 2): 27 of 80 layers"),
        "{t}"
    );
    assert_eq!(
        rows,
        &[
            ["1", "80", "320.0 KiB", "305.2 GiB", "0%"],
            ["2", "40", "160.0 KiB", "152.6 GiB", "50%"],
            ["3", "27", "108.0 KiB", "103.0 GiB", "66.3%"],
            ["4", "20", "80.0 KiB", "76.3 GiB", "75%"],
        ]
        .map(|r| r.map(String::from).to_vec())
    );
    let names: Vec<&str> = p.series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "GQA, 8 KV heads × 128 dims",
            "MLA, latent 512 + RoPE key 64"
        ]
    );
    assert_eq!(p.series[0].x, (1..=8).map(|k| k as f64).collect::<Vec<_>>());
    assert_eq!(p.series[0].y[1], 163_840_000_000.0 / 1073741824.0);
    // MLA with the same 80 layers, k = 2: 40 × 576 × 2 B × 10^6.
    assert_eq!(p.series[1].y[1], 46_080_000_000.0 / 1073741824.0);
}

#[test]
fn mla_uses_its_own_fields() {
    let o = run(
        &raw(&[("attention", "MLA"), ("layers", "61"), ("share", "1 2")]),
        Lang::En,
    )
    .unwrap();
    let (t, rows, _) = parts(&o);
    assert!(
        t.starts_with("61 layers of MLA, latent 512 + RoPE key 64"),
        "{t}"
    );
    assert!(t.contains("512 + 64 = 576 values per token"));
    assert_eq!(rows[1], ["2", "31", "34.9 KiB", "33.3 GiB", "49.2%"]);
    // Changing a GQA field leaves the MLA table alone.
    let o2 = run(
        &raw(&[
            ("attention", "MLA"),
            ("layers", "61"),
            ("share", "1 2"),
            ("kv_heads", "64"),
        ]),
        Lang::En,
    )
    .unwrap();
    assert_eq!(parts(&o2).1, rows);
}

#[test]
fn bad_parameters_name_each_field() {
    let e = run(
        &raw(&[
            ("layers", "0"),
            ("attention", "MHA"),
            ("rope", "-1"),
            ("tokens", "16,777,217"),
            ("share", "0 2"),
        ]),
        Lang::En,
    )
    .unwrap_err();
    let got: Vec<(&str, &str)> = e
        .iter()
        .map(|e| (e.param.as_str(), e.message.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("layers", "must be between 1 and 1,024"),
            ("attention", "choose one of: GQA, MLA"),
            ("rope", "must be between 0 and 4,096"),
            ("tokens", "must be between 1 and 16,777,216"),
            ("share", "must be between 1 and 1,024"),
        ]
    );
    let e = run(&raw(&[("share", "1 2 3 4 5 6 7 8 9")]), Lang::En).unwrap_err();
    assert_eq!(e[0].message, "at most 8 values");
}

#[test]
fn the_largest_values_do_not_overflow() {
    let o = run(
        &raw(&[
            ("layers", "1024"),
            ("kv_heads", "1024"),
            ("head_dim", "4096"),
            ("rank", "65536"),
            ("rope", "4096"),
            ("bytes", "8"),
            ("tokens", "16777216"),
        ]),
        Lang::En,
    )
    .unwrap();
    assert!(
        parts(&o)
            .2
            .series
            .iter()
            .all(|s| s.y.iter().all(|y| y.is_finite()))
    );
    assert!(crate::demo::checked_product(&[2, 1_024, 1_024, 4_096, 8, 1 << 24]).is_some());
}

#[test]
fn the_demo_is_registered() {
    let d = super::super::demos()
        .into_iter()
        .find(|d| d.id == "cla")
        .unwrap();
    assert!(run(&defaults(d.params), Lang::En).is_ok());
}
