/// KV-cache bytes of a hybrid model for `batch` requests of `tokens` tokens:
/// only the `full_layers` full-attention layers (GQA) hold a KV cache.
pub fn hybrid_bytes(
    full_layers: i64,
    kv_heads: i64,
    head_dim: i64,
    tokens: i64,
    batch: i64,
    dtype_bytes: i64,
) -> i64 {
    todo!()
}
