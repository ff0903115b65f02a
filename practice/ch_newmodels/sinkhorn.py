def sinkhorn(m: list[list[float]], iters: int) -> list[list[float]]:
    """Sinkhorn-Knopp with eps = 1e-6: a softmax of each row plus eps, then the
    columns normalised; then iters - 1 times: the rows normalised, then the
    columns (each divided by its sum + eps)."""
    raise NotImplementedError  # your code here
