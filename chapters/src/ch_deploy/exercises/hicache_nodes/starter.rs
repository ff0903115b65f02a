/// Decode nodes when only a share `rho` of the KV is on the GPUs, and the
/// total with one prefill node per `pd_ratio` decode nodes, as
/// `(d_nodes, total_nodes)`. Nodes are bought whole: `conservative` = 0 rounds
/// to nearest (the article), 1 rounds up.
pub fn hicache_nodes(d_nodes: i64, rho: f64, pd_ratio: f64, conservative: i64) -> (i64, i64) {
    todo!()
}
