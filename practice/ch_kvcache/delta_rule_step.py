def delta_rule_step(s: list[list[float]], k: list[float], v: list[float], alpha: float, beta: float) -> list[list[float]]:
    """One step of the gated delta rule, in the Gated DeltaNet paper's form, with
    s of shape d_v x d_k, k of length d_k and v of length d_v:
    S' = alpha * S - alpha * beta * (S k) k^T + beta * v k^T."""
    raise NotImplementedError  # your code here
