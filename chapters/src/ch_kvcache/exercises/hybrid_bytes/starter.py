def hybrid_bytes(full_layers: int, kv_heads: int, head_dim: int, tokens: int, batch: int, dtype_bytes: int) -> int:
    """KV-cache bytes of a hybrid model for batch requests of tokens tokens: only
    its full_layers full-attention (GQA) layers hold a KV cache."""
    raise NotImplementedError  # your code here
