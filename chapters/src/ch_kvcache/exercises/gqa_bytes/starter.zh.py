def gqa_bytes(layers: int, kv_heads: int, head_dim: int, tokens: int, batch: int, dtype_bytes: int) -> int:
    """MHA、MQA 或 GQA 为 batch 个请求（每个 tokens 个 token）存下的 KV 缓存字节数：
    每层、每个 KV 头、每个 token 各有一个 key 向量和一个 value 向量，各 head_dim 个数。"""
    raise NotImplementedError  # 在这里写你的代码
