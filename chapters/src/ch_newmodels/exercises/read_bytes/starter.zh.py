def read_bytes(n: int, c4: int, c128: int, swa_only: int, c4_ratio: int, c128_ratio: int,
               topk: int, window: int, entry_bytes: int, key_bytes: int) -> int:
    """上下文共有 n 个 token（正在解码的也算在内）的一个请求，
    做一步解码要从 KV 缓存读出的字节数（整数）。"""
    raise NotImplementedError  # 在这里写你的代码
