def kda_state_bytes(layers: int, heads: int, d_head: int, dtype_bytes: int) -> int:
    per_head = d_head * d_head  # one d_head x d_head matrix
    return layers * heads * per_head * dtype_bytes
