def kda_state_bytes(layers: int, heads: int, d_head: int, dtype_bytes: int) -> int:
    """Bytes of the recurrent state of layers KDA layers: every head keeps one
    d_head x d_head matrix, however long the context."""
    raise NotImplementedError  # your code here
