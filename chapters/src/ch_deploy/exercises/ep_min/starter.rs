/// The smallest EP size in 8, 16, 32, 64, 128, 256 that divides `n_routed`
/// and leaves at least `min_free_gb` GB free per card; `None` when none does.
pub fn ep_min(
    n_routed: i64,
    expert_gb: f64,
    card_gb: f64,
    overhead_gb: f64,
    min_free_gb: f64,
) -> Option<i64> {
    todo!()
}
