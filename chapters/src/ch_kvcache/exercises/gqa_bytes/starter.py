def gqa_bytes(layers: int, kv_heads: int, head_dim: int, tokens: int, batch: int, dtype_bytes: int) -> int:
    """KV-cache bytes of MHA, MQA or GQA for batch requests of tokens tokens: a
    key vector and a value vector of head_dim values per layer, KV head and token."""
    raise NotImplementedError  # your code here
