def stored_and_read(tokens: int, stride: int, width: int, entry_bytes: int, key_bytes: int, topk: int, window: int) -> list:
    """一个稀疏注意力层在 tokens 个 token 之后：它为这个请求存了多少字节，
    一步 decode 从中读了多少字节。返回 [stored, read]。"""
    raise NotImplementedError  # 在这里写你的代码
