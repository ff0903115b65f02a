/// Milliseconds per decode step at batch 1 when the step reads `active_gb` GB
/// of weights and `kv_gb` GB of KV cache at `bw_tb_s` TB/s (decimal units).
pub fn decode_ms(active_gb: f64, kv_gb: f64, bw_tb_s: f64) -> f64 {
    todo!()
}
