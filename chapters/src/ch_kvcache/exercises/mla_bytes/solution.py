def mla_bytes(layers: int, kv_lora_rank: int, rope_dim: int, tokens: int, batch: int, dtype_bytes: int) -> int:
    values_per_token = layers * (kv_lora_rank + rope_dim)
    return values_per_token * tokens * batch * dtype_bytes
