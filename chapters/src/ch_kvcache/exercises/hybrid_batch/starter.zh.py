def hybrid_batch(full_layers: int, kv_heads: int, head_dim: int, linear_layers: int, state_heads: int, state_dim: int, tokens: int, budget_bytes: int) -> int:
    """由全注意力层（GQA，BF16 的 KV）和线性注意力层（每个头一个 float32 状态）
    组成的混合模型，在 budget_bytes 字节里能同时放下多少个 tokens 个 token 的请求。"""
    raise NotImplementedError  # 在这里写你的代码
