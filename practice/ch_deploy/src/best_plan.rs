/// The EP size in 8, 16, 32, 64, 128, 256 whose conservative decode plan
/// serves `concurrent` requests of `request_gb` GB with the fewest GPUs: a unit
/// is `ep` cards on `ep / 8` nodes, one prefill node per `pd_ratio` decode
/// nodes, 8 GPUs a node. Ties go to the smaller size. Returns `(ep, gpus)`, or
/// `None` when no size can hold a single request.
pub fn best_plan(
    n_routed: i64,
    expert_gb: f64,
    overhead_gb: f64,
    card_gb: f64,
    request_gb: f64,
    concurrent: i64,
    pd_ratio: f64,
) -> Option<(i64, i64)> {
    todo!()
}
