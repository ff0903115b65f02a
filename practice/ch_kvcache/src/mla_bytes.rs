/// KV-cache bytes of MLA for `batch` requests of `tokens` tokens: per layer and
/// token, one latent of `kv_lora_rank` values and one shared RoPE key of `rope_dim`.
pub fn mla_bytes(
    layers: i64,
    kv_lora_rank: i64,
    rope_dim: i64,
    tokens: i64,
    batch: i64,
    dtype_bytes: i64,
) -> i64 {
    todo!()
}
