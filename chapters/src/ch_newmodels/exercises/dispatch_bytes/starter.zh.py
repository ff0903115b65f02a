def dispatch_bytes(hidden: int, topk: int, bytes_per_elem: int, latent: int) -> int:
    """专家并行分发时，一个 token 在每个 MoE 层发出的字节数：路由到的每个专家
    各收到一份它的激活。latent > 0 时激活是 latent 维，而不是 hidden 维。"""
    raise NotImplementedError  # 在这里写你的代码
