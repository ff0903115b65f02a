//! The tests of `formulas.rs`, apart from it so that a notebook can include that
//! file as it is.

use super::*;

fn gib(b: f64) -> f64 {
    b / (1u64 << 30) as f64
}

#[test]
fn the_comparison_table_is_gib_at_ten_to_the_six_tokens() {
    let t = Million::Decimal.tokens();
    let got: Vec<String> = table_models()
        .iter()
        .map(|m| format!("{:.1}", gib(m.per_token() * t as f64)))
        .collect();
    // The source prints 305 / 65 / 28.6 / 7.4 "GB".
    assert_eq!(got, ["305.2", "65.4", "28.6", "7.4"]);
    let per: Vec<f64> = table_models().iter().map(|m| m.per_token()).collect();
    assert_eq!(per, [327_680.0, 70_272.0, 30_720.0, 7_928.0]);
    let m = table_models();
    assert_eq!((m[0].per_token() / m[3].per_token()).round(), 41.0);
}

#[test]
fn v4_window_is_seven_point_six_mib() {
    let v4 = table_model("DeepSeek-V4").unwrap();
    assert_eq!(v4.fixed(), 61 * 128 * 512 * 2);
    assert_eq!(format!("{:.1}", v4.fixed() as f64 / 1048576.0), "7.6");
}

#[test]
fn formulas() {
    assert_eq!(gqa_bytes(80, 8, 128, 1, 1, 2), 327_680);
    assert_eq!(mla_bytes(61, 512, 64, 1, 1, 2), 70_272);
    assert_eq!(hybrid_bytes(15, 2, 256, 10, 3, 1), 2 * 15 * 2 * 256 * 30);
    assert_eq!(csa_entries(16, 4, 8), 3);
    assert_eq!(csa_entries(7, 4, 8), 0);
    assert_eq!(csa_entries(8, 4, 8), 1);
    assert_eq!(csa_entries(1_000_000, 4, 8), 249_999);
    let c = csa_hca_bytes(1_000_000, 30, 31, 61, 512, 2);
    assert_eq!(c.compressed, 7_928_000_000.0);
    assert_eq!(c.window, 7_995_392);
}

#[test]
fn max_batch_floors_and_says_zero_when_one_does_not_fit() {
    assert_eq!(max_batch(1.0, 0, 0, 10, 3), 3);
    assert_eq!(max_batch(1.0, 1, 0, 10, 3), 2);
    assert_eq!(max_batch(1.0, 0, 11, 10, 3), 0);
    assert_eq!(max_batch(100.0, 0, 0, 10, 3), 0);
}
