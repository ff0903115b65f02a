def delta_rule_step(s: list[list[float]], k: list[float], v: list[float], alpha: float, beta: float) -> list[list[float]]:
    out = []
    for row, v_i in zip(s, v):
        sk = sum(x * kj for x, kj in zip(row, k))  # (S k)[i]
        out.append([alpha * x - alpha * beta * sk * kj + beta * v_i * kj for x, kj in zip(row, k)])
    return out
