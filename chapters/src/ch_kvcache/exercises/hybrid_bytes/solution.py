def hybrid_bytes(full_layers: int, kv_heads: int, head_dim: int, tokens: int, batch: int, dtype_bytes: int) -> int:
    per_token = 2 * full_layers * kv_heads * head_dim * dtype_bytes
    return per_token * tokens * batch
