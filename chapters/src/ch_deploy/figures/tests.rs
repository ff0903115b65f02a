//! The tests of `figures.rs`, apart from it so that a notebook can include that
//! file as it is.

#[test]
fn design_figures() {
    let f = super::design_figures();
    let get = |n: &str| f.iter().find(|(k, _)| *k == n).unwrap().1.clone();
    assert_eq!(get("deploy.retention_floor"), "0.0067");
    assert_eq!(get("deploy.tile_log_decay"), "−80");
    assert_eq!(get("deploy.e80"), "5.5 × 10³⁴");
    assert_eq!(get("deploy.bf16_max"), "3.4 × 10³⁸");
    assert_eq!(get("deploy.hca_entries_1m"), "7,812");
}
