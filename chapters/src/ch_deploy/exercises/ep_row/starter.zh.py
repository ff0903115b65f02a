def ep_row(n_routed: int, ep: int, expert_gb: float, card_gb: float, overhead_gb: float) -> dict:
    """EP 表里的一行：n_routed 个专家分到 ep 张 card_gb GB 的卡上，每张卡还要放
    overhead_gb GB 的 attention 和 embedding 权重。
    返回 {"experts_per_card": int, "weight_gb": float, "free_gb": float}。"""
    raise NotImplementedError  # 在这里写你的代码
