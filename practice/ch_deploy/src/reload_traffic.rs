/// HiCache's reload traffic, as `(reloads_s, total_tb_s, node_gb_s)`:
/// `sessions` sessions of `session_gb` GB each decode `out_tokens` tokens at
/// `tok_s` tokens/s, idle `idle_s` seconds, and get their whole cache back on
/// the GPUs at every turn; `full_nodes` decode nodes would hold every cache
/// at once.
pub fn reload_traffic(
    sessions: i64,
    session_gb: f64,
    out_tokens: i64,
    tok_s: f64,
    idle_s: f64,
    full_nodes: i64,
) -> (f64, f64, f64) {
    todo!()
}
