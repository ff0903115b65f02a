def hybrid_bytes(full_layers: int, kv_heads: int, head_dim: int, tokens: int, batch: int, dtype_bytes: int) -> int:
    """混合模型为 batch 个请求（每个 tokens 个 token）存下的 KV 缓存字节数：
    只有它的 full_layers 个全注意力（GQA）层有 KV 缓存。"""
    raise NotImplementedError  # 在这里写你的代码
