/// KV-cache bytes of MHA / MQA / GQA for `batch` requests of `tokens` tokens:
/// a key and a value vector of `head_dim` values per layer, KV head and token.
pub fn gqa_bytes(
    layers: i64,
    kv_heads: i64,
    head_dim: i64,
    tokens: i64,
    batch: i64,
    dtype_bytes: i64,
) -> i64 {
    todo!()
}
