//! The tests of `request_kv.rs`, apart from it so that a notebook can include that
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
        d.help_in(CONTEXTS.name, Lang::En),
        "up to 8 whole numbers from 1 to 100,000,000, separated by spaces"
    );
    assert_eq!(
        d.help_in(CARD_GB.name, Lang::Zh),
        "1 到 10,000 之间的数；十进制 GB（10^9 B）；一张 H200 是 141；用于只算显存时的卡数"
    );
    assert!(
        d.help_in(CONVENTION.name, Lang::En)
            .starts_with("article: K3")
    );
}




#[test]
fn figures_at_the_defaults() {
    let expected = [
        ("request_kv.k3_layer_bytes", "2,560 B"),
        ("request_kv.k3_per_token_kb", "61.4 KB"),
        ("request_kv.k3_kda_layer_bytes", "3,145,728 B"),
        ("request_kv.k3_kda_mib", "207 MiB"),
        ("request_kv.k3_kda_mb", "217 MB"),
        ("request_kv.k3_1m_gb", "61.4 GB"),
        ("request_kv.k3_1m_total_gb", "61.6 GB"),
        ("request_kv.kda_share_1m", "0.3%"),
        ("request_kv.v32_per_token_bytes", "124,928 B"),
        ("request_kv.v32_per_token_kib", "122.0 KiB"),
        ("request_kv.v4_per_token_kb", "12.2 KB"),
        ("request_kv.v4_from_exact_v32_kb", "12.5 KB"),
        ("request_kv.v4_1m_gb", "12.2 GB"),
        ("request_kv.k3_over_v4", "5.0×"),
        ("request_kv.k3_over_v4_per_token", "5.0×"),
        ("request_kv.k3_10k_tb", "616 TB"),
        ("request_kv.v4_10k_tb", "122 TB"),
        ("request_kv.k3_500k_gb", "30.9 GB"),
        ("request_kv.v4_500k_gb", "6.1 GB"),
        ("request_kv.kda_share_500k", "0.7%"),
        ("request_kv.nm_k3_per_token_kib", "27.0 KiB"),
        ("request_kv.nm_v4_per_token_kib", "5.4 KiB"),
        ("request_kv.nm_k3_fixed_mib", "414 MiB"),
        ("request_kv.kda_transfer_ms", "4.1 ms"),
        ("request_kv.kda_transfer_ms_exact", "4.3 ms"),
        ("request_kv.v4_transfer_s", "0.12 s"),
        ("request_kv.k3_weight_cards", "20"),
        ("request_kv.k3_kv_cards", "4,369"),
        ("request_kv.k3_bare_total", "4,389"),
        ("request_kv.v4_weight_cards", "12"),
        ("request_kv.v4_kv_cards", "866"),
        ("request_kv.v4_kv_cards_unrounded", "865.2"),
        ("request_kv.v4_bare_total", "878"),
        ("request_kv.bare_ratio", "5.0×"),
        ("request_kv.k3_weight_share", "0.5%"),
        ("request_kv.v4_weight_share", "1.4%"),
    ];
    let got = figures();
    let got: Vec<(&str, &str)> = got.iter().map(|(n, v)| (*n, v.as_str())).collect();
    assert_eq!(got, expected);
}

#[test]
fn the_counts_agree_with_plan_and_the_ledger() {
    let [k3, v4] = models(Convention::Article).unwrap();
    for t in [1, 4_096, 131_072, 500_000, 1_000_000, 3_000_000] {
        assert_eq!(k3.gb(t), plan::article_request_gb(&plan::k3(), t), "{t}");
        assert_eq!(v4.gb(t), plan::article_request_gb(&plan::v4(), t), "{t}");
    }
    let (l, dim, n, b) = K3_MLA;
    assert_eq!(
        plan::latent_kv_bytes(l, dim, n, b) as f64 / 1000.0,
        plan::k3().kv_kb_per_token
    );
    assert_eq!(k3_kda_bytes(), plan::k3_kda_bytes());
    // The article's 12.2 KB is 10% of V3.2's 122.0 KiB read as KB.
    let v32_kib = (V32.0 * V32.1) as f64 / 1024.0;
    assert_eq!((v32_kib * V4_SHARE).round_to(1), plan::v4().kv_kb_per_token);
    let [nk, nv] = models(Convention::NewModels).unwrap();
    let (lk, lv) = (
        ledger::model("Kimi-K3").unwrap(),
        ledger::model("DeepSeek-V4-Pro").unwrap(),
    );
    assert_eq!(nk.kb_per_token * 1000.0, lk.per_token);
    assert_eq!(nk.fixed_gb * 1e9, lk.fixed);
    assert_eq!(nv.kb_per_token * 1000.0, lv.per_token);
    let (kl, heads, d, _) = K3_KDA;
    assert_eq!(plan::latent_kv_bytes(l, NM_K3.0, 1, 2) as f64, lk.per_token);
    assert_eq!(
        plan::kda_state_bytes(kl, heads, d, NM_K3.1) as f64,
        lk.fixed
    );
    let (_, csa, hca, _) = LEDGER_V4[1];
    assert_eq!(
        ledger::v4_per_token(csa as f64, hca as f64, INDEXER_KEY_BYTES),
        lv.per_token
    );
}

#[test]
fn the_default_text() {
    let o = out(&[]);
    let t = text(&o, 1);
    for want in [
        "Sizes are decimal, as the article counts: KB = 1,000 B",
        "per token: 24 MLA layers × 2 latents (K and V) × 640 values × 2 B (BF16) = 24 × 2,560 B = 61,440 B = 61.44 KB (60.0 KiB), which the article rounds to 61.4 KB\n",
        "69 layers × 96 heads × 128 × 128 values × 2 B = 69 × 3,145,728 B = 217,055,232 B = 207 MiB = 217 MB. The article writes “207 MB” and counts 0.207 GB, which this count keeps; the exact state is 0.217 GB, 10 MB more a request",
        "61 layers × 2,048 B = 124,928 B = 122.0 KiB (124.9 KB), which the article calls 122 KB; 10% of that: 12.2 KB. (10% of 124,928 B is 12.5 KB; MLA's latent and RoPE key, 576 values in BF16, are 1,152 B a layer, 70,272 B for 61 layers.)",
        "ch_newmodels counts 23.3 MB of windows and compressor state",
        "One request, and 10,000 requests held at once:\n",
        "  131,072 tokens: Kimi-K3 8.3 GB (KDA state 2.5%), DeepSeek-V4-Pro 1.6 GB; K3 / V4 = 5.2×; all requests 83.0 TB and 16.0 TB\n",
        "  500,000 tokens: Kimi-K3 30.9 GB (KDA state 0.7%), DeepSeek-V4-Pro 6.1 GB; K3 / V4 = 5.1×; all requests 309 TB and 61.0 TB\n",
        "  1,000,000 tokens: Kimi-K3 61.6 GB (KDA state 0.3%), DeepSeek-V4-Pro 12.2 GB; K3 / V4 = 5.0×; all requests 616 TB and 122 TB\n",
        "Bare cards at 1,000,000 tokens for 10,000 requests on 141 GB cards",
        "  Kimi-K3: weights 2.8 TB = 19.9 cards → 20; KV 616 TB = 4,368.8 cards → 4,369; 4,389 cards in all, 0.5% of them for the weights\n",
        "  DeepSeek-V4-Pro: weights 1.6 TB = 11.3 cards → 12; KV 122 TB = 865.2 cards → 866; 878 cards in all, 1.4% of them for the weights\n",
        "  Kimi-K3 needs 5.0× as many cards as DeepSeek-V4-Pro",
        "over 400 Gb/s InfiniBand (400 / 8 = 50 GB/s), at the article's average context of 500,000 tokens:\n",
        "  Kimi-K3's KDA state, 0.207 GB: 4.1 ms (the exact 0.217 GB: 4.3 ms); the whole request, 30.9 GB: 0.62 s\n",
        "  DeepSeek-V4-Pro's request, 6.1 GB: 0.12 s\n",
    ] {
        assert!(t.contains(want), "missing {want:?} in\n{t}");
    }
    assert!(!t.contains("arithmetic only"));
}

#[test]
fn the_headline_leads_and_the_audit_is_folded_under_it() {
    let o = out(&[]);
    assert_eq!(
        text(&o, 0),
        "10,000 requests held at once, at 1,000,000 tokens: Kimi-K3 616 TB of KV (61.6 GB a request), DeepSeek-V4-Pro 122 TB (12.2 GB a request); K3 / V4 = 5.0×.\n\
         Bare cards at 1,000,000 tokens (141 GB each, weights and KV pooled): Kimi-K3 4,389, DeepSeek-V4-Pro 878.\n"
    );
    let (summary, inside) = fold(&o, 0);
    assert_eq!(summary, "How each number is counted, step by step");
    assert!(matches!(inside, [Block::Text(t)] if t == text(&o, 1)));
    // The longest context leads, wherever it is in the list; the cards follow
    // the reader's card size.
    let o = out(&[("contexts", "500,000 131,072"), ("card_gb", "288")]);
    assert!(
        text(&o, 0).contains("at 500,000 tokens: Kimi-K3 309 TB"),
        "{}",
        text(&o, 0)
    );
    assert!(text(&o, 0).contains("(288 GB each"), "{}", text(&o, 0));
}

#[test]
fn the_default_table_and_chart() {
    let o = out(&[]);
    let (header, rows) = table(&o, 0);
    assert_eq!(
        header,
        &[
            "context (tokens)",
            "Kimi-K3, one request",
            "of it, KDA state",
            "DeepSeek-V4-Pro, one request",
            "K3 / V4",
            "Kimi-K3, 10,000 requests",
            "DeepSeek-V4-Pro, 10,000 requests"
        ]
    );
    assert_eq!(
        rows[2],
        [
            "1,000,000",
            "61.6 GB",
            "0.3%",
            "12.2 GB",
            "5.0×",
            "616 TB",
            "122 TB"
        ]
    );
    let p = plot(&o, 0);
    assert!(p.log_x && p.log_y);
    let names: Vec<&str> = p.series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Kimi-K3",
            "DeepSeek-V4-Pro",
            "Kimi-K3: fixed part",
            "one card, 141 GB"
        ]
    );
    // 2^10 .. 2^24 and the three contexts (131,072 = 2^17 is one of them).
    assert_eq!(p.series[0].x.len(), 17);
    assert_eq!(p.series[0].y[0], 61.4 * 1024.0 / 1e6 + 0.207);
    assert!(p.series[2].dashed && p.series[2].y.iter().all(|&y| y == 0.207));
}

#[test]
fn the_ch_newmodels_convention() {
    let o = out(&[("convention", CONVENTIONS[1])]);
    let t = text(&o, 1);
    for want in [
        "Kimi-K3 (ch_newmodels' ledger)\n  per token: 24 MLA layers × 576 values (one latent and RoPE key) × 2 B (BF16) = 27,648 B = 27.0 KiB (27.6 KB)\n  fixed: the KDA state in float32, 69 × 96 × 128 × 128 × 4 B = 434,110,464 B = 414 MiB (434 MB)\n",
        "per token: 30 CSA layers × (584 + 132) B / 4 + 31 HCA layers × 584 B / 128 = 5,511.4375 B = 5.4 KiB (5.5 KB)",
        "fixed: 128-token windows in all 61 layers plus the compressors' float32 state = 23,270,400 B = 22.2 MiB (23.3 MB)",
        "Requests are in decimal GB here",
        "Kimi-K3's KDA state, 0.434 GB: 8.7 ms; the whole request, 14.3 GB: 0.29 s",
    ] {
        assert!(t.contains(want), "missing {want:?} in\n{t}");
    }
    assert!(!t.contains("the exact"));
    assert_eq!(plot(&o, 0).series.len(), 5, "both fixed parts are drawn");
}

#[test]
fn parameters_change_the_counts() {
    let o = out(&[
        ("contexts", "2,000,000 1"),
        ("requests", "1"),
        ("card_gb", "288"),
    ]);
    let t = text(&o, 1);
    assert!(t.contains("arithmetic only"), "{t}");
    assert!(t.contains("on 288 GB cards"), "{t}");
    assert!(
        t.contains("1 token: Kimi-K3 0.2 GB (KDA state 100.0%)"),
        "{t}"
    );
    assert!(t.contains("for 1 request on"), "{t}");
    // One request of 1M tokens: 61.6 GB needs one 288 GB card.
    assert!(
        t.contains("KV 61.6 GB = 0.2 cards → 1; 11 cards in all"),
        "{t}"
    );
    assert_eq!(table(&o, 0).1.len(), 2);
    assert_eq!(plot(&o, 0).series[0].x[0], 1.0);
}

#[test]
fn bad_parameters_are_named() {
    let e = errors(&[
        ("contexts", "0"),
        ("requests", "x"),
        ("convention", "mine"),
        ("card_gb", "-1"),
    ]);
    let names: Vec<&str> = e.iter().map(|e| e.param.as_str()).collect();
    assert_eq!(names, ["contexts", "requests", "convention", "card_gb"]);
    for (k, v, msg) in [
        (
            "contexts",
            "100,000,001",
            "must be between 1 and 100,000,000",
        ),
        ("contexts", "1 2 3 4 5 6 7 8 9", "at most 8 values"),
        ("requests", "0", "must be between 1 and 10,000,000"),
        ("card_gb", "0.5", "must be between 1 and 10000"),
    ] {
        let e = errors(&[(k, v)]);
        assert_eq!((e[0].param.as_str(), e[0].message.as_str()), (k, msg));
    }
}

#[test]
fn numbers_print_as_typed() {
    assert_eq!(input(2.45), "2.45");
    assert_eq!(input(141.0), "141");
    assert_eq!(input(1000.5), "1,000.5");
    assert_eq!(input(0.001), "0.001");
    assert_eq!(num(-1.2, 1), "−1.2");
    assert_eq!(num(-0.01, 1), "0.0");
}

#[test]
fn the_demo_is_registered_and_fast() {
    let d = super::super::demos()
        .into_iter()
        .find(|d| d.id == "request_kv")
        .unwrap();
    let t0 = std::time::Instant::now();
    assert!((d.run)(&defaults(d.params), Lang::En).is_ok());
    // Generous for a debug build: the cell's budget is 5 ms.
    assert!(t0.elapsed().as_millis() < 50);
}
