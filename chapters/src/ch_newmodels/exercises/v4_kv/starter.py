def v4_kv(c4: int, c128: int, swa_only: int, idx_bytes: int) -> list:
    """DeepSeek-V4's KV ledger from its layer counts and its indexer-key size:
    [bytes per token (a float), fixed bytes per request (an int)]."""
    raise NotImplementedError  # your code here
