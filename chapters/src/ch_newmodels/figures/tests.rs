//! The tests of `figures.rs`, apart from it so that a notebook can include that
//! file as it is.

use super::*;

#[test]
fn figures_reproduce_the_exact_source_values() {
    let f: std::collections::BTreeMap<_, _> = figures().into_iter().collect();
    let expect = [
        ("attended.c4_1m", "640"),
        ("attended.c128_4k", "160"),
        ("attended.c128_128k", "1,152"),
        ("attended.c128_1m", "8,320"),
        ("attended.window_only", "128"),
        ("compressor.entries", "5"),
        ("compressor.partial", "2"),
        ("prefix.reused_entries", "7"),
        ("prefix.tokens_covered", "896"),
        ("prefix.tail", "104"),
        ("ledger.flash_per_token_bytes", "3,850.25 B"),
        ("ledger.pro_per_token_bytes", "5,511.4375 B"),
        ("ledger.flash_fixed_bytes", "15,420,416 B"),
        ("ledger.pro_fixed_bytes", "23,270,400 B"),
        ("ledger.ex1_total_bytes", "1,468,060,672 B"),
        ("ledger.ex1_total_gib", "1.37 GiB"),
        ("ledger.ex1_kv_gib", "1.3456 GiB"),
        ("ledger.v32_per_token_kib", "46.9 KiB"),
        ("ledger.k3_fixed_mib", "414 MiB"),
        ("ledger.gemma_fixed_mib", "320 MiB"),
        ("ledger.flash_cross_k", "4.0K"),
        ("ledger.pro_cross_k", "4.2K"),
        ("ledger.k3_cross_k", "15.7K"),
        ("ledger.gemma_500_mib", "156 MiB"),
        ("ledger.alt_bf16_per_token_kib", "7.7 KiB"),
        ("ledger.alt_deploy_per_token_kib", "12.2 KiB"),
        ("dispatch.v3_kib", "56 KiB"),
        ("dispatch.v4pro_kib", "42 KiB"),
        ("dispatch.k3_kib", "56 KiB"),
        ("dispatch.k3_nolatent_kib", "112 KiB"),
        ("ledger.v32_over_flash", "12.5×"),
        ("ledger.v32_over_pro", "8.7×"),
        ("ledger.k3_over_flash_1m", "7.3×"),
        ("ledger.k3_over_pro_1m", "5.1×"),
        ("ledger.entry_bytes", "584 B"),
        ("ledger.entry_nope_bytes", "448 B"),
        ("ledger.entry_rope_bytes", "128 B"),
        ("ledger.entry_scale_bytes", "8 B"),
        ("ledger.entry_nope_dims", "448"),
        ("ledger.entry_rope_dims", "64"),
        ("latent.dim", "3,584"),
        ("latent.hidden", "7,168"),
        ("latent.allreduce_values", "10,752"),
        ("compressor.tokens", "22"),
        ("compressor.ratio", "4"),
        ("compressor.overlap_window", "8"),
        ("compressor.overlap_entries", "4"),
        ("compressor.overlap_partial", "6"),
    ];
    for (k, v) in expect {
        assert_eq!(f.get(k).map(String::as_str), Some(v), "{k}");
    }
    let names: Vec<_> = figures().into_iter().map(|(k, _)| k).collect();
    let mut dedup = names.clone();
    dedup.sort();
    dedup.dedup();
    assert_eq!(names.len(), dedup.len(), "figure names are unique");
}

#[test]
fn every_figure_is_quoted_by_the_text() {
    let (en, zh) = (
        include_str!("../chapter.md"),
        include_str!("../chapter.zh.md"),
    );
    for (name, _) in figures() {
        // `name@zh` is the Chinese page's form of `name`.
        let (name, text) = match name.strip_suffix("@zh") {
            Some(base) => (base, zh),
            None => (name, en),
        };
        assert!(
            text.contains(&format!("{{{{{name}}}}}")),
            "`{name}` is computed but the chapter never quotes it"
        );
    }
}

#[test]
fn the_chinese_table_has_the_same_numbers_under_chinese_words() {
    let f: std::collections::BTreeMap<_, _> = figures().into_iter().collect();
    let (en, zh) = (&f["ledger.table"], &f["ledger.table@zh"]);
    let numbers = |t: &str| -> Vec<String> {
        t.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
            .filter(|s| s.chars().any(|c| c.is_ascii_digit()))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(numbers(en), numbers(zh));
    assert_eq!(en.lines().count(), zh.lines().count());
    for english in ["Model", "per token", "fixed", "request at", "not supported"] {
        assert!(!zh.contains(english), "{english}: {zh}");
    }
    assert!(zh.contains("不支持（上限 160K）"), "{zh}");
}

/// The ratios, worked out from the raw byte counts without the ledger's code.
#[test]
fn ratios_agree_with_a_separate_computation() {
    let f: std::collections::BTreeMap<_, _> = figures().into_iter().collect();
    let v4_token = |c4: f64, c128: f64| c4 * (584.0 + 132.0) / 4.0 + c128 * 584.0 / 128.0;
    let v4_fixed = |c4: f64, c128: f64, win: f64| {
        (c4 + c128 + win) * 128.0 * 584.0
            + 4.0 * (8.0 * 2.0 * (2.0 * 512.0 + 2.0 * 128.0) * c4 + 128.0 * 2.0 * 512.0 * c128)
    };
    let m = (1u64 << 20) as f64;
    let v32 = 61.0 * (656.0 + 132.0);
    let (flash, pro) = (v4_token(21.0, 20.0), v4_token(30.0, 31.0));
    let k3_1m = 24.0 * 576.0 * 2.0 * m + 69.0 * 96.0 * 128.0 * 128.0 * 4.0;
    let flash_1m = flash * m + v4_fixed(21.0, 20.0, 2.0);
    let pro_1m = pro * m + v4_fixed(30.0, 31.0, 0.0);
    for (key, ratio) in [
        ("ledger.v32_over_flash", v32 / flash),
        ("ledger.v32_over_pro", v32 / pro),
        ("ledger.k3_over_flash_1m", k3_1m / flash_1m),
        ("ledger.k3_over_pro_1m", k3_1m / pro_1m),
    ] {
        assert_eq!(f[key], format!("{ratio:.1}×"), "{key}");
    }
    // The latent all-reduce: 3,584 routed + 7,168 shared values.
    assert_eq!(f["latent.allreduce_values"], "10,752");
    // The compressor's defaults: 22 tokens in disjoint blocks of 4 leave
    // 22 / 4 = 5 entries and 22 % 4 = 2 tokens; windows of 8 every 4 give
    // (22 - 8) / 4 + 1 = 4 entries and keep the last 8 - 4 + (22 - 8) % 4 = 6.
    let p = Params::parse(&defaults(compressor::PARAMS)).unwrap();
    assert!(
        !p.overlap,
        "the text says the cell starts with disjoint blocks"
    );
    assert_eq!(
        (
            f["compressor.entries"].as_str(),
            f["compressor.partial"].as_str()
        ),
        ("5", "2")
    );
    assert_eq!((22 - 8) / 4 + 1, 4);
    assert_eq!(8 - 4 + (22 - 8) % 4, 6);
}

/// The chapter renders with every figure, the ledger table becomes an HTML
/// table with a row per model, and the two V4 formulas typed in the text
/// evaluate to what the ledger's code computes.
#[cfg(feature = "render")]
#[test]
fn the_chapter_renders_its_table_and_formulas() {
    use crate::ch_newmodels::ledger::{expr, v4_per_token};
    use crate::doc::Block;
    let ch = crate::ch_newmodels::chapter();
    let doc = ch.doc().unwrap_or_else(|e| panic!("{e}"));
    let html: String = doc
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Html(h) => Some(h.as_str()),
            _ => None,
        })
        .collect();
    let header = html
        .find("per token (KiB)</th>")
        .expect("the ledger table is in the chapter");
    let start = html[..header].rfind("<table>").expect("inside a table");
    let table = &html[start..start + html[start..].find("</table>").unwrap()];
    for m in default_models() {
        assert!(
            table.contains(&format!("<td>{}</td>", m.name)),
            "{}",
            m.name
        );
    }
    assert_eq!(table.matches("<tr>").count(), 7, "{table}");
    assert!(table.contains("<math"), "2^20 renders as math: {table}");

    // $$ ... $$ blocks that mention n_{C4}, as plain arithmetic.
    let formulas: Vec<&str> = ch
        .source
        .split("$$")
        .skip(1)
        .step_by(2)
        .filter(|f| f.contains("n_{C4}"))
        .collect();
    // The fixed part is written in two lines, its window and its state,
    // under `fixed = window + state` (one line was wider than the column).
    assert_eq!(
        formulas.len(),
        3,
        "the per-token formula and the fixed part's window and state"
    );
    assert!(
        ch.source
            .contains(r"\text{fixed} = \text{window} + \text{state}"),
        "the fixed part is the window plus the state"
    );
    let eval = |tex: &str, c4: f64, c128: f64, win: f64| {
        let tex = tex.split_once('=').map_or(tex, |(_, r)| r);
        let arithmetic = tex
            .replace("n_{C4}", &c4.to_string())
            .replace("n_{C128}", &c128.to_string())
            .replace("n_{\\text{win}}", &win.to_string())
            .replace("\\cdot", "*")
            .replace("\\frac{", "((")
            .replace("}{", ")/(")
            .replace('}', "))");
        expr::eval(&arithmetic).unwrap_or_else(|e| panic!("{arithmetic}: {e}"))
    };
    for (c4, c128, win) in [(21.0, 20.0, 2.0), (30.0, 31.0, 0.0), (1.0, 2.0, 3.0)] {
        assert_eq!(
            eval(formulas[0], c4, c128, win),
            v4_per_token(c4, c128, 132.0)
        );
        assert_eq!(
            eval(formulas[1], c4, c128, win) + eval(formulas[2], c4, c128, win),
            v4_fixed(c4, c128, win)
        );
    }
}
