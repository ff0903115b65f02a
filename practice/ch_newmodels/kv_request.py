def kv_request(c4: int, c128: int, swa_only: int, idx_bytes: int, tokens: int) -> float:
    """KV bytes of one DeepSeek-V4 request of tokens tokens: the bytes per token
    times tokens, plus the fixed bytes every request holds (a float)."""
    raise NotImplementedError  # your code here
