def stored_and_read(tokens: int, stride: int, width: int, entry_bytes: int, key_bytes: int, topk: int, window: int) -> list:
    """One sparse-attention layer after tokens tokens: the bytes it holds for the
    request and the bytes one decode step reads from it. Return [stored, read]."""
    raise NotImplementedError  # your code here
