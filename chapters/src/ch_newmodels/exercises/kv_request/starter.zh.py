def kv_request(c4: int, c128: int, swa_only: int, idx_bytes: int, tokens: int) -> float:
    """一个长 tokens 个 token 的 DeepSeek-V4 请求的 KV 字节数：每 token 字节数
    乘以 tokens，再加上每个请求都要占的固定字节数（float）。"""
    raise NotImplementedError  # 在这里写你的代码
