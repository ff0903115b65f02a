def delta_rule_step(s: list[list[float]], k: list[float], v: list[float], alpha: float, beta: float) -> list[list[float]]:
    """门控 delta 规则的一步，用 Gated DeltaNet 论文的写法；s 的形状是 d_v x d_k，
    k 的长度是 d_k，v 的长度是 d_v：
    S' = alpha * S - alpha * beta * (S k) k^T + beta * v k^T。"""
    raise NotImplementedError  # 在这里写你的代码
