# wrong: Python's round(), which sends halves to the even number, where the article rounds halves up
import math


def round_half_up(x: float) -> int:
    """x to the nearest int, halves up, as the article rounds (Python's round()
    sends halves to the even neighbour: round(2.5) is 2)."""
    whole = math.floor(x)
    return whole + 1 if x - whole >= 0.5 else whole


def hicache_nodes(d_nodes: int, rho: float, pd_ratio: float, conservative: int) -> dict:
    buy = math.ceil if conservative == 1 else round
    d = buy(d_nodes * rho)
    p = buy(d / pd_ratio)  # from the new decode count, already whole
    return {"d_nodes": d, "total_nodes": d + p}
