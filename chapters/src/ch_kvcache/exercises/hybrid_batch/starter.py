def hybrid_batch(full_layers: int, kv_heads: int, head_dim: int, linear_layers: int, state_heads: int, state_dim: int, tokens: int, budget_bytes: int) -> int:
    """How many requests of tokens tokens a hybrid of full-attention layers (GQA,
    BF16 KV) and linear-attention layers (a float32 state per head) holds at once
    in budget_bytes."""
    raise NotImplementedError  # your code here
