def csa_entries(tokens: int, stride: int, width: int) -> int:
    """重叠式压缩器读完 tokens 个 token 后已完成的条目数：每隔 stride 个 token
    开始一个新条目，每个条目覆盖连续 width 个 token。"""
    raise NotImplementedError  # 在这里写你的代码
