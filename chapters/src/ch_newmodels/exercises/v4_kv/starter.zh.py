def v4_kv(c4: int, c128: int, swa_only: int, idx_bytes: int) -> list:
    """由各类层的层数和 indexer 键的大小算出 DeepSeek-V4 的 KV 账：
    [每 token 字节数（float），每个请求的固定字节数（int）]。"""
    raise NotImplementedError  # 在这里写你的代码
