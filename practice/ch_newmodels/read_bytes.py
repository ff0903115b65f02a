def read_bytes(n: int, c4: int, c128: int, swa_only: int, c4_ratio: int, c128_ratio: int,
               topk: int, window: int, entry_bytes: int, key_bytes: int) -> int:
    """Bytes of KV cache one decode step reads for one request whose context
    holds n tokens (the token being decoded included), an int."""
    raise NotImplementedError  # your code here
