/// KV bytes of one DeepSeek-V4 request of `tokens` tokens:
/// bytes per token × tokens + fixed bytes per request.
pub fn kv_request(c4: i64, c128: i64, swa_only: i64, idx_bytes: i64, tokens: i64) -> f64 {
    todo!()
}
