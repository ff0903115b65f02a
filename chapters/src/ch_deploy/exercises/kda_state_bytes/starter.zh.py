def kda_state_bytes(layers: int, heads: int, d_head: int, dtype_bytes: int) -> int:
    """layers 个 KDA 层的循环状态占多少字节：每个头保存一个 d_head x d_head 的矩阵，
    与上下文长短无关。"""
    raise NotImplementedError  # 在这里写你的代码
