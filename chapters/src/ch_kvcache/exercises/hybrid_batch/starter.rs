/// How many requests of `tokens` tokens a hybrid of full-attention layers (GQA,
/// BF16 KV) and linear-attention layers (a float32 state per head) holds at once
/// in `budget_bytes`.
pub fn hybrid_batch(
    full_layers: i64,
    kv_heads: i64,
    head_dim: i64,
    linear_layers: i64,
    state_heads: i64,
    state_dim: i64,
    tokens: i64,
    budget_bytes: i64,
) -> i64 {
    todo!()
}
