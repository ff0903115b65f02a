/// The decode side of a deployment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodePlan {
    /// Requests one unit holds at once.
    pub concurrency: i64,
    /// Units needed.
    pub units: i64,
    /// Decode nodes.
    pub d_nodes: i64,
    /// Prefill nodes.
    pub p_nodes: i64,
    /// Decode plus prefill nodes.
    pub total_nodes: i64,
    /// GPUs in all, 8 a node.
    pub gpus: i64,
}

/// Units of `cards` cards on `nodes_per_unit` nodes, `free_gb_per_card` GB of
/// KV each; `concurrent` requests of `request_gb` GB; one prefill node per
/// `pd_ratio` decode nodes. `conservative` = 0: round to nearest (the article);
/// 1: round the concurrency down, units and prefill nodes up. `None` when a
/// unit cannot hold one request.
pub fn decode_plan(
    free_gb_per_card: f64,
    cards: i64,
    request_gb: f64,
    nodes_per_unit: i64,
    concurrent: i64,
    pd_ratio: f64,
    conservative: i64,
) -> Option<DecodePlan> {
    todo!()
}
