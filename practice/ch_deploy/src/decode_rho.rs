/// One decode step of a full card in an EP unit, as `(step_ms, tok_s, rho)`:
/// `ep` cards share `n_routed` experts of `expert_gb` GB, each card also
/// keeps `overhead_gb` GB, and the unit holds `requests` requests of
/// `request_gb` GB, all decoding; each token goes to `top_k` experts. Each
/// request then generates `out_tokens` tokens and idles `idle_s` seconds.
#[allow(clippy::too_many_arguments)]
pub fn decode_rho(
    n_routed: i64,
    top_k: i64,
    expert_gb: f64,
    overhead_gb: f64,
    ep: i64,
    requests: i64,
    request_gb: f64,
    bw_tb_s: f64,
    out_tokens: i64,
    idle_s: f64,
) -> (f64, f64, f64) {
    todo!()
}
