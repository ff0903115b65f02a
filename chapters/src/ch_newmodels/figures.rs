//! Every number the chapter's text states that code can compute, by name.
//! The text writes `{{ledger.pro_fixed_bytes}}`; rendering substitutes the value
//! and fails on an unknown name, so prose and code cannot drift apart.

use super::attended;
use super::compressor::{self, Params, compute, prefix_reuse};
use super::ledger::{
    Units, V4_ENTRY, V4_ENTRY_PARTS, V4_KV_DIM, V4_ROPE_DIM, default_models, fmt_exact,
    markdown_table, markdown_table_in, model, v4_fixed,
};
use crate::lang::Lang;
use crate::demo::{defaults, group};

/// Kimi-K3's hidden size.
pub const K3_HIDDEN: u64 = 7_168;
/// The width of K3's latent space, where its routed experts work.
pub const K3_LATENT: u64 = 3_584;

/// Values per token in the one all-reduce that sums the routed experts' result
/// together with the shared experts' result: the two concatenated, the routed
/// part `routed` wide and the shared part `hidden` wide.
pub fn allreduce_values(routed: u64, hidden: u64) -> u64 {
    routed + hidden
}

fn n(v: u64) -> String {
    group(v as i64)
}

/// All figures: (name, formatted value).
pub fn figures() -> Vec<(&'static str, String)> {
    let mut f: Vec<(&'static str, String)> = Vec::new();
    let (m, k) = (1u64 << 20, 128 * 1024u64);
    // The `attended` cell's table at its defaults (4K, 128K and 1M tokens, a
    // window of 128, Flash's top-k of 512), which the text quotes.
    let ap = attended::Params::parse(&defaults(attended::PARAMS))
        .unwrap_or_else(|e| panic!("the attended cell's defaults: {e:?}"));
    let [r4k, r128k, r1m] = attended::rows(&ap.lens, ap.window, ap.topk)[..] else {
        panic!("the attended cell's defaults give three context lengths")
    };
    f.push(("attended.c4_1m", n(r1m.c4)));
    f.push(("attended.c128_4k", n(r4k.c128)));
    f.push(("attended.c128_128k", n(r128k.c128)));
    f.push(("attended.c128_1m", n(r1m.c128)));
    f.push(("attended.window_only", n(r1m.swa)));
    f.push(("attended.c4_scored_1m", n(r1m.scored)));
    f.push(("attended.c128_entries_1m", n(r1m.len / 128)));
    let [keys, c128, chosen] =
        attended::step_bytes(r1m.len, attended::FLASH_LAYERS, ap.topk, ap.window);
    let all = keys + c128 + chosen;
    f.push(("attended.flash_keys_1m", attended::mb(keys)));
    f.push(("attended.flash_c128_1m", attended::mb(c128)));
    f.push(("attended.flash_chosen_1m", attended::mb(chosen)));
    f.push(("attended.flash_read_1m", format!("{:.2} GB", all / 1e9)));
    f.push(("attended.flash_keys_share", format!("{:.0}%", 100.0 * keys / all)));

    // The compressor cell with its default parameters, and with the layout switched.
    let p = Params::parse(&defaults(compressor::PARAMS))
        .unwrap_or_else(|e| panic!("the compressor's defaults: {e:?}"));
    let (default, overlapping) = (compute(&p), compute(&Params { overlap: true, ..p }));
    f.push(("compressor.tokens", n(p.tokens as u64)));
    f.push(("compressor.ratio", n(p.ratio as u64)));
    f.push(("compressor.entries", n(default.streamed.len() as u64)));
    f.push(("compressor.partial", n(default.partial as u64)));
    f.push(("compressor.overlap_window", n(overlapping.window as u64)));
    f.push((
        "compressor.overlap_entries",
        n(overlapping.streamed.len() as u64),
    ));
    f.push(("compressor.overlap_partial", n(overlapping.partial as u64)));
    let (reused, covered, tail) = prefix_reuse(1_000, 128);
    f.push(("prefix.prefix_len", n(1_000)));
    f.push(("prefix.reused_entries", n(reused)));
    f.push(("prefix.tokens_covered", n(covered)));
    f.push(("prefix.tail", n(tail)));

    let b = Units::Binary;
    let gib = |bytes: f64, d: usize| format!("{:.d$} GiB", bytes / b.giga());
    let mib = |bytes: f64| format!("{:.1} MiB", bytes / (1024.0 * 1024.0));
    let kib = |bytes: f64| format!("{:.1} KiB", bytes / 1024.0);
    let get = |name: &str| model(name).unwrap_or_else(|| panic!("default model {name}"));
    let (v32, flash, pro) = (
        get("DeepSeek-V3.2"),
        get("DeepSeek-V4-Flash"),
        get("DeepSeek-V4-Pro"),
    );
    let (k3, gemma) = (get("Kimi-K3"), get("Gemma 4 12B"));
    let at = |mm: &super::ledger::Model, len: u64| mm.bytes(len).unwrap_or(f64::NAN);
    f.push((
        "ledger.flash_per_token_bytes",
        format!("{} B", fmt_exact(flash.per_token)),
    ));
    f.push((
        "ledger.pro_per_token_bytes",
        format!("{} B", fmt_exact(pro.per_token)),
    ));
    f.push((
        "ledger.flash_fixed_bytes",
        format!("{} B", fmt_exact(flash.fixed)),
    ));
    f.push((
        "ledger.pro_fixed_bytes",
        format!("{} B", fmt_exact(pro.fixed)),
    ));
    f.push(("ledger.entry_bytes", format!("{} B", fmt_exact(V4_ENTRY))));
    let [nope, rope, scales] = V4_ENTRY_PARTS.map(|p| format!("{} B", fmt_exact(p.1)));
    f.push(("ledger.entry_nope_bytes", nope));
    f.push(("ledger.entry_rope_bytes", rope));
    f.push(("ledger.entry_scale_bytes", scales));
    f.push(("ledger.entry_nope_dims", fmt_exact(V4_KV_DIM - V4_ROPE_DIM)));
    f.push(("ledger.entry_rope_dims", fmt_exact(V4_ROPE_DIM)));
    f.push(("ledger.flash_fixed_mib", mib(flash.fixed)));
    f.push(("ledger.pro_fixed_mib", mib(pro.fixed)));
    // Pro's window part: 61 layers × 128 tokens × 584 B (v4_fixed with no compressors).
    let pro_window = v4_fixed(0.0, 0.0, 61.0);
    // Two decimals where the text adds the two parts up (4.35 + 17.84 = 22.19).
    let mib2 = |bytes: f64| format!("{:.2} MiB", bytes / (1024.0 * 1024.0));
    f.push(("ledger.pro_fixed_mib2", mib2(pro.fixed)));
    f.push(("ledger.pro_window_mib", mib2(pro_window)));
    f.push(("ledger.pro_state_mib", mib2(pro.fixed - pro_window)));
    for (key, mm) in [
        ("ledger.v32_per_token_kib", &v32),
        ("ledger.flash_per_token_kib", &flash),
        ("ledger.pro_per_token_kib", &pro),
    ] {
        f.push((key, kib(mm.per_token)));
    }
    f.push((
        "ledger.k3_fixed_mib",
        format!("{:.0} MiB", k3.fixed / (1024.0 * 1024.0)),
    ));
    f.push((
        "ledger.gemma_fixed_mib",
        format!("{:.0} MiB", gemma.fixed / (1024.0 * 1024.0)),
    ));
    // Where the fixed part equals the growing part, in thousands of tokens.
    for (key, mm) in [
        ("ledger.flash_cross_k", &flash),
        ("ledger.pro_cross_k", &pro),
        ("ledger.k3_cross_k", &k3),
    ] {
        let c = mm.crossover().unwrap_or(f64::NAN);
        f.push((key, format!("{:.1}K", c / 1000.0)));
    }
    // Gemma 4's fixed part is all sliding-window KV (40 layers × 1,024 tokens),
    // which fills only as tokens arrive: a 500-token request holds 500 of them.
    f.push((
        "ledger.gemma_500_mib",
        format!("{:.0} MiB", gemma.fixed * 500.0 / 1024.0 / (1024.0 * 1024.0)),
    ));
    f.push(("ledger.v32_128k_gib", gib(at(&v32, k), 2)));
    f.push(("ledger.flash_128k_gib", gib(at(&flash, k), 2)));
    f.push(("ledger.pro_128k_gib", gib(at(&pro, k), 2)));
    f.push(("ledger.flash_1m_gib", gib(at(&flash, m), 2)));
    f.push(("ledger.pro_1m_gib", gib(at(&pro, m), 2)));
    f.push((
        "ledger.v32_over_flash",
        format!("{:.1}×", v32.per_token / flash.per_token),
    ));
    f.push((
        "ledger.v32_over_pro",
        format!("{:.1}×", v32.per_token / pro.per_token),
    ));
    f.push((
        "ledger.k3_over_pro_1m",
        format!("{:.1}×", at(&k3, m) / at(&pro, m)),
    ));
    f.push((
        "ledger.k3_over_flash_1m",
        format!("{:.1}×", at(&k3, m) / at(&flash, m)),
    ));
    f.push(("ledger.table", markdown_table(&default_models())));
    // The Chinese page's table: the same numbers under Chinese headers.
    f.push((
        "ledger.table@zh",
        markdown_table_in(&default_models(), Lang::Zh),
    ));
    let ex1 = 262_144u64;
    f.push(("ledger.ex1_tokens", n(ex1)));
    f.push((
        "ledger.ex1_total_bytes",
        format!("{} B", fmt_exact(at(&pro, ex1))),
    ));
    f.push(("ledger.ex1_total_gib", gib(at(&pro, ex1), 2)));
    f.push(("ledger.ex1_kv_gib", gib(pro.per_token * ex1 as f64, 4)));
    // kvcache-evolution: BF16 entries of 512 dims (1,024 B), no indexer keys, for Pro's layers.
    let bf16 = 30.0 * 1024.0 / 4.0 + 31.0 * 1024.0 / 128.0;
    f.push(("ledger.alt_bf16_per_token_kib", kib(bf16)));
    // The deployment article: 10% of V3.2 counted as 61 layers × 2,048 B.
    f.push(("ledger.alt_deploy_per_token_kib", kib(0.1 * 61.0 * 2048.0)));

    let kib_int = |bytes: u64| format!("{} KiB", bytes / 1024);
    let d = super::routing::dispatch_bytes;
    f.push(("dispatch.v3_kib", kib_int(d(7168, 8, 1))));
    f.push(("dispatch.v4pro_kib", kib_int(d(7168, 6, 1))));
    f.push(("dispatch.k3_kib", kib_int(d(3584, 16, 1))));
    f.push(("dispatch.k3_nolatent_kib", kib_int(d(7168, 16, 1))));

    // Hash routing's floor at the routing cell's defaults, and for a flatter,
    // real-text-like top token (3% and 5% of the stream).
    let rp = super::routing::Params::parse(&defaults(super::routing::PARAMS))
        .unwrap_or_else(|e| panic!("the routing cell's defaults: {e:?}"));
    let p_max = super::routing::ZipfSampler::new(rp.vocab, rp.zipf).probability(0);
    let floor = |p: f64| format!("{:.1}×", super::routing::load_floor(p, rp.experts, rp.topk));
    f.push(("routing.p_max", format!("{:.1}%", 100.0 * p_max)));
    f.push(("routing.floor", floor(p_max)));
    f.push(("routing.floor_3pct", floor(0.03)));
    f.push(("routing.floor_5pct", floor(0.05)));

    // The one all-reduce after K3's MoE: the routed result taken in the latent
    // space, concatenated with the shared experts' result.
    f.push(("latent.dim", n(K3_LATENT)));
    f.push(("latent.hidden", n(K3_HIDDEN)));
    f.push((
        "latent.allreduce_values",
        n(allreduce_values(K3_LATENT, K3_HIDDEN)),
    ));
    f
}

#[cfg(test)]
mod tests {
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
        let (en, zh) = (include_str!("chapter.md"), include_str!("chapter.zh.md"));
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
        assert_eq!(formulas.len(), 2, "the per-token and the fixed formula");
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
            assert_eq!(eval(formulas[1], c4, c128, win), v4_fixed(c4, c128, win));
        }
    }
}
