def compress_stream(kv: list[list[float]], score: list[list[float]], ratio: int) -> dict:
    """块长为 ratio、块与块不重叠的流式压缩器。每个满块变成一个条目：
    entry[d] 是对块内各 token i 求和 softmax(score[.][d])[i] * kv[i][d]，
    softmax 在块内做。返回 {"entries": [条目, ...], "partial": 还没凑满的块里的 token 数}。"""
    raise NotImplementedError  # 在这里写你的代码
