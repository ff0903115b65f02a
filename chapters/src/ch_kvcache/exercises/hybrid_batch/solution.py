def hybrid_batch(full_layers: int, kv_heads: int, head_dim: int, linear_layers: int, state_heads: int, state_dim: int, tokens: int, budget_bytes: int) -> int:
    kv = 2 * full_layers * kv_heads * head_dim * 2 * tokens
    state = linear_layers * state_heads * state_dim * state_dim * 4
    return budget_bytes // (kv + state)
