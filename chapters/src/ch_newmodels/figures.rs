//! Every number the chapter's text states that code can compute, by name.
//! The text writes `{{ledger.pro_fixed_bytes}}`; rendering substitutes the value
//! and fails on an unknown name, so prose and code cannot drift apart.

use super::attended::attended;
use super::compressor::{compressor_counts, prefix_reuse};
use super::ledger::{Units, fmt_exact, model, v4_fixed};
use crate::demo::group;

fn n(v: u64) -> String {
    group(v as i64)
}

/// All figures: (name, formatted value).
pub fn figures() -> Vec<(&'static str, String)> {
    let mut f: Vec<(&'static str, String)> = Vec::new();
    let (m, k) = (1u64 << 20, 128 * 1024u64);
    f.push(("attended.c4_1m", n(attended(m - 1, 4, 512, 128))));
    f.push(("attended.c128_4k", n(attended(4095, 128, 0, 128))));
    f.push(("attended.c128_128k", n(attended(k - 1, 128, 0, 128))));
    f.push(("attended.c128_1m", n(attended(m - 1, 128, 0, 128))));
    f.push(("attended.window_only", n(attended(m - 1, 1, 0, 128))));
    f.push(("attended.c4_scored_1m", n(m / 4)));
    f.push(("attended.c128_entries_1m", n(m / 128)));

    let (entries, partial) = compressor_counts(22, 4);
    f.push(("compressor.tokens", n(22)));
    f.push(("compressor.ratio", n(4)));
    f.push(("compressor.entries", n(entries)));
    f.push(("compressor.partial", n(partial)));
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
    let (k3, gemma, qwen) = (get("Kimi-K3"), get("Gemma 4 12B"), get("Qwen3.5-0.8B"));
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
    f.push(("ledger.flash_fixed_mib", mib(flash.fixed)));
    f.push(("ledger.pro_fixed_mib", mib(pro.fixed)));
    // Pro's window part: 61 layers × 128 tokens × 584 B (v4_fixed with no compressors).
    let pro_window = v4_fixed(0.0, 0.0, 61.0);
    f.push(("ledger.pro_window_mib", mib(pro_window)));
    f.push(("ledger.pro_state_mib", mib(pro.fixed - pro_window)));
    for (key, mm) in [
        ("ledger.v32_per_token_kib", &v32),
        ("ledger.flash_per_token_kib", &flash),
        ("ledger.pro_per_token_kib", &pro),
        ("ledger.k3_per_token_kib", &k3),
        ("ledger.gemma_per_token_kib", &gemma),
        ("ledger.qwen_per_token_kib", &qwen),
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
    f.push((
        "ledger.qwen_fixed_mib",
        format!("{:.0} MiB", qwen.fixed / (1024.0 * 1024.0)),
    ));
    f.push(("ledger.v32_128k_gib", gib(at(&v32, k), 2)));
    f.push(("ledger.flash_128k_gib", gib(at(&flash, k), 2)));
    f.push(("ledger.pro_128k_gib", gib(at(&pro, k), 2)));
    f.push(("ledger.flash_1m_gib", gib(at(&flash, m), 2)));
    f.push(("ledger.pro_1m_gib", gib(at(&pro, m), 2)));
    f.push(("ledger.k3_1m_gib", gib(at(&k3, m), 2)));
    f.push((
        "ledger.v32_over_flash",
        format!("{:.1}×", v32.per_token / flash.per_token),
    ));
    f.push((
        "ledger.k3_over_pro_1m",
        format!("{:.1}×", at(&k3, m) / at(&pro, m)),
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
            ("ledger.alt_bf16_per_token_kib", "7.7 KiB"),
            ("ledger.alt_deploy_per_token_kib", "12.2 KiB"),
            ("dispatch.v3_kib", "56 KiB"),
            ("dispatch.v4pro_kib", "42 KiB"),
            ("dispatch.k3_kib", "56 KiB"),
            ("dispatch.k3_nolatent_kib", "112 KiB"),
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
}
