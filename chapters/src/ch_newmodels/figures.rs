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
mod tests;
