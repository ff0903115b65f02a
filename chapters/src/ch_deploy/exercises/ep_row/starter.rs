/// One row of the EP table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EpRow {
    /// Experts each card holds.
    pub experts_per_card: i64,
    /// Their weights, GB.
    pub weight_gb: f64,
    /// What is left for the KV cache, GB (negative when the card is over-full).
    pub free_gb: f64,
}

/// One row of the EP table: `n_routed` experts spread over `ep` cards of
/// `card_gb` GB, each card also holding `overhead_gb` GB of attention and
/// embedding weights.
pub fn ep_row(n_routed: i64, ep: i64, expert_gb: f64, card_gb: f64, overhead_gb: f64) -> EpRow {
    todo!()
}
