//! Every number the chapter's text states that code can compute, by name
//! (`{{kv_calc.v4_1m_gib}}`): each cell's module contributes its own, and the
//! figures below come straight from the formulas.

use super::formulas::{Layout, Million, mla_bytes, table_model};
use crate::demo::group_u64;

/// All figures: (name, formatted value).
pub fn figures() -> Vec<(&'static str, String)> {
    let mut f = Vec::new();
    f.extend(super::kv_calc::figures());
    f.extend(super::csa_window::figures());
    f.extend(super::ssm_scan::figures());
    f.extend(super::delta_rule::figures());
    f.extend(super::quant::figures());
    f.extend(super::cla::figures());
    f.extend(formula_figures());
    f
}

fn model(name: &str) -> super::formulas::Model {
    table_model(name).unwrap_or_else(|| panic!("the table has {name}"))
}

fn percent(x: f64, digits: usize) -> String {
    format!("{:.digits$}%", 100.0 * x)
}

/// Figures computed from the formulas alone, under `kv.`.
pub fn formula_figures() -> Vec<(&'static str, String)> {
    let mut f: Vec<(&'static str, String)> = Vec::new();
    let (qwen, v3, qwen35, v4) = (
        model("Qwen3-72B"),
        model("DeepSeek-V3"),
        model("Qwen3.5-397B"),
        model("DeepSeek-V4"),
    );
    let million = Million::Decimal.tokens();
    f.push((
        "kv.qwen_values_per_layer",
        group_u64(qwen.values_per_layer() as u64),
    ));
    // V3 with full K and V over its 7,168-dim hidden size, as the source
    // compares: 14,336 values per token and layer instead of the latent's 576.
    let v3_mha = mla_bytes(61, 2 * 7_168, 0, million, 1, 2) as f64;
    f.push((
        "kv.v3_mha_1m_gib",
        format!("{} GiB", group_u64((v3_mha / (1u64 << 30) as f64).round() as u64)),
    ));
    // V3's real MHA: 128 heads, keys of 192 dims (128 + 64 for RoPE) and
    // values of 128 dims, 40,960 values per token and layer.
    let v3_heads_values = 128 * (192 + 128);
    let v3_heads = mla_bytes(61, v3_heads_values, 0, million, 1, 2) as f64;
    f.push(("kv.v3_heads_values", group_u64(v3_heads_values)));
    f.push((
        "kv.v3_heads_1m_gib",
        format!(
            "{} GiB",
            group_u64((v3_heads / (1u64 << 30) as f64).round() as u64)
        ),
    ));
    f.push((
        "kv.v3_heads_saving",
        percent(1.0 - (512.0 + 64.0) / v3_heads_values as f64, 1),
    ));
    f.push(("kv.v4_over_v3", percent(v4.per_token() / v3.per_token(), 1)));
    f.push((
        "kv.window_share_1m",
        percent(v4.fixed() as f64 / v4.bytes(million), 1),
    ));
    if let Layout::Hybrid {
        layers,
        full_layers,
        ..
    } = qwen35.layout
    {
        f.push((
            "kv.qwen35_full_share",
            percent(full_layers as f64 / layers as f64, 0),
        ));
    }
    // Bits per value a BF16 cache must come down to for a 5× and a 6× saving.
    f.push(("kv.bits_for_5x", format!("{:.1}", 16.0 / 5.0)));
    f.push(("kv.bits_for_6x", format!("{:.2}", 16.0 / 6.0)));
    f
}

#[cfg(test)]
mod tests;
