import math


def sinkhorn(m: list[list[float]], iters: int) -> list[list[float]]:
    eps = 1e-6
    out = []
    for row in m:
        top = max(row)
        e = [math.exp(x - top) for x in row]
        s = sum(e)
        out.append([v / s + eps for v in e])
    rows, cols = len(out), len(out[0])
    for it in range(iters):
        if it > 0:
            for i in range(rows):
                s = sum(out[i])
                out[i] = [v / (s + eps) for v in out[i]]
        for j in range(cols):
            s = sum(out[i][j] for i in range(rows))
            for i in range(rows):
                out[i][j] = out[i][j] / (s + eps)
    return out
