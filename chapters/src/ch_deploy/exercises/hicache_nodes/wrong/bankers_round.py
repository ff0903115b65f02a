# wrong: Python's round(), which sends halves to the even number (round(4.5) is 4), where the article rounds halves up
import math


def hicache_nodes(d_nodes: int, rho: float, pd_ratio: float, conservative: int) -> dict:
    buy = math.ceil if conservative == 1 else round
    d = buy(d_nodes * rho)
    p = buy(d / pd_ratio)  # from the new decode count, already whole
    return {"d_nodes": d, "total_nodes": d + p}
