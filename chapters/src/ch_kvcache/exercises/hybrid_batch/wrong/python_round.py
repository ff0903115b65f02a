# wrong: Python's round() where the count must be floored: a request that does not fit is counted
def hybrid_batch(full_layers: int, kv_heads: int, head_dim: int, linear_layers: int, state_heads: int, state_dim: int, tokens: int, budget_bytes: int) -> int:
    kv = 2 * full_layers * kv_heads * head_dim * 2 * tokens
    state = linear_layers * state_heads * state_dim * state_dim * 4
    return round(budget_bytes / (kv + state))
