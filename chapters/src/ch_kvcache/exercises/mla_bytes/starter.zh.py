def mla_bytes(layers: int, kv_lora_rank: int, rope_dim: int, tokens: int, batch: int, dtype_bytes: int) -> int:
    """MLA 为 batch 个请求（每个 tokens 个 token）存下的 KV 缓存字节数：每层、每个
    token 存一个 kv_lora_rank 维的隐向量，外加一个所有头共用的 rope_dim 维 RoPE key。"""
    raise NotImplementedError  # 在这里写你的代码
