def gqa_bytes(layers: int, kv_heads: int, head_dim: int, tokens: int, batch: int, dtype_bytes: int) -> int:
    values_per_token = 2 * layers * kv_heads * head_dim  # K and V
    return values_per_token * tokens * batch * dtype_bytes
