//! Every number the chapter's text states that code can compute, by name
//! (`{{planner.v4_h200_total}}`): each cell's module contributes its own, and
//! the figures below come from the chapter's arithmetic directly.

use crate::demo::group_u64;

/// All figures: (name, formatted value).
pub fn figures() -> Vec<(&'static str, String)> {
    let mut f = Vec::new();
    f.extend(super::request_kv::figures());
    f.extend(super::ep_sizing::figures());
    f.extend(super::planner::figures());
    f.extend(super::duty_cycle::figures());
    f.extend(super::decode_step::figures());
    f.extend(design_figures());
    f
}

/// `x` as "m × 10^e" with `digits` decimals in the mantissa, using Unicode
/// superscripts for the exponent.
fn sci(x: f64, digits: usize) -> String {
    let e = x.abs().log10().floor() as i32;
    let m = x / 10f64.powi(e);
    let sup: String = e
        .to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            d => "⁰¹²³⁴⁵⁶⁷⁸⁹"
                .chars()
                .nth(d.to_digit(10).unwrap_or(0) as usize)
                .unwrap_or('?'),
        })
        .collect();
    format!("{m:.digits$} × 10{sup}")
}

/// Figures of K3's and V4's design, under `deploy.`.
pub fn design_figures() -> Vec<(&'static str, String)> {
    // K3's gate floor: log-decay per step at least G_MIN; a 16-token tile
    // accumulates at most 16 × G_MIN, whose reciprocal e^80 must fit BF16.
    const G_MIN: f64 = -5.0;
    const TILE: f64 = 16.0;
    // BF16's largest finite value: (2 − 2^−7) × 2^127.
    let bf16_max = (2.0 - 2f64.powi(-7)) * 2f64.powi(127);
    let tile = TILE * G_MIN;
    let e_tile = crate::math::exp(-tile);
    assert!(e_tile < bf16_max, "the tile's reciprocal fits BF16");
    vec![
        (
            "deploy.retention_floor",
            format!("{:.4}", crate::math::exp(G_MIN)),
        ),
        ("deploy.tile_log_decay", format!("{tile:.0}").replace('-', "−")),
        ("deploy.e80", sci(e_tile, 1)),
        ("deploy.bf16_max", sci(bf16_max, 1)),
        // HCA: one entry per 128 tokens.
        ("deploy.hca_entries_1m", group_u64(1_000_000 / 128)),
    ]
}

#[cfg(test)]
mod tests;
