def csa_hca_bytes(tokens: int, n_csa: int, n_hca: int, n_layers: int, kv_dim: int, dtype_bytes: int) -> dict:
    """DeepSeek-V4's KV cache for one request: the compressed entries (CSA keeps
    one per 4 tokens, HCA one per 128, counted as averages) and every layer's
    128-token window. Return {"compressed": float, "window": int}."""
    raise NotImplementedError  # your code here
