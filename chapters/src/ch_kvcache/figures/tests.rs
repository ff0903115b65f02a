//! The tests of `figures.rs`, apart from it so that a notebook can include that
//! file as it is.

/// The title's two sizes are `kv_calc`'s 1M-token figures for Qwen3-72B and
/// DeepSeek-V4 (the first rounded to whole GiB), in both languages.
#[test]
fn the_titles_sizes_are_computed() {
    let f = super::figures();
    let get = |n: &str| f.iter().find(|(k, _)| *k == n).unwrap().1.clone();
    let gib = |s: String| -> f64 { s.trim_end_matches(" GiB").parse().unwrap() };
    let from = format!("{:.0} GiB", gib(get("kv_calc.qwen_1m_gib")));
    let to = format!("{:.1} GiB", gib(get("kv_calc.v4_1m_gib")));
    let ch = super::super::chapter();
    for title in [
        ch.title,
        ch.source.lines().next().unwrap(),
        include_str!("../chapter.zh.md").lines().next().unwrap(),
    ] {
        let (a, b) = (title.find(&from), title.find(&to));
        assert!(
            a.is_some() && b > a,
            "{title:?} should go from {from} to {to}"
        );
    }
}

#[test]
fn formula_figures() {
    let f = super::formula_figures();
    let get = |n: &str| f.iter().find(|(k, _)| *k == n).unwrap().1.clone();
    assert_eq!(get("kv.qwen_values_per_layer"), "2,048");
    assert_eq!(get("kv.v3_mha_1m_gib"), "1,629 GiB");
    // 128 × (192 + 128); 61 × 40,960 × 2 B × 10^6 / 2^30 = 4,653.9;
    // 1 − 576 / 40,960 = 98.6%.
    assert_eq!(get("kv.v3_heads_values"), "40,960");
    assert_eq!(get("kv.v3_heads_1m_gib"), "4,654 GiB");
    assert_eq!(get("kv.v3_heads_saving"), "98.6%");
    assert_eq!(get("kv.v4_over_v3"), "11.3%");
    assert_eq!(get("kv.window_share_1m"), "0.1%");
    assert_eq!(get("kv.qwen35_full_share"), "25%");
    assert_eq!(get("kv.bits_for_5x"), "3.2");
    assert_eq!(get("kv.bits_for_6x"), "2.67");
}
