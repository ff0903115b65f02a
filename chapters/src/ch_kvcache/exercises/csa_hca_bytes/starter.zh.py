def csa_hca_bytes(tokens: int, n_csa: int, n_hca: int, n_layers: int, kv_dim: int, dtype_bytes: int) -> dict:
    """DeepSeek-V4 一个请求的 KV 缓存：压缩条目（CSA 每 4 个 token 一条，HCA
    每 128 个一条，按平均数计）和每一层 128 个 token 的窗口。
    返回 {"compressed": float, "window": int}。"""
    raise NotImplementedError  # 在这里写你的代码
