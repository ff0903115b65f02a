def mla_bytes(layers: int, kv_lora_rank: int, rope_dim: int, tokens: int, batch: int, dtype_bytes: int) -> int:
    """KV-cache bytes of MLA for batch requests of tokens tokens: per layer and
    token, one latent of kv_lora_rank values and one RoPE key of rope_dim values
    that all heads share."""
    raise NotImplementedError  # your code here
