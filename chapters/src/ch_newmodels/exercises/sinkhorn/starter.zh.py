def sinkhorn(m: list[list[float]], iters: int) -> list[list[float]]:
    """eps = 1e-6 的 Sinkhorn-Knopp：每行先做 softmax 再加 eps，然后归一化各列；
    之后重复 iters - 1 次：先归一化各行，再归一化各列（每个都除以 和 + eps）。"""
    raise NotImplementedError  # 在这里写你的代码
