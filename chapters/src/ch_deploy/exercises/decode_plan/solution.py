import math


def round_half_up(x: float) -> int:
    """x to the nearest int, halves up, as the article rounds (Python's round()
    sends halves to the even neighbour: round(2.5) is 2)."""
    whole = math.floor(x)
    return whole + 1 if x - whole >= 0.5 else whole


def decode_plan(free_gb_per_card: float, cards: int, request_gb: float, nodes_per_unit: int,
                concurrent: int, pd_ratio: float, conservative: int):
    # What must fit rounds down, what is bought rounds up (conservatively).
    fit = math.floor if conservative == 1 else round_half_up
    buy = math.ceil if conservative == 1 else round_half_up
    concurrency = fit(free_gb_per_card * cards / request_gb)
    if concurrency == 0:
        return None
    units = buy(concurrent / concurrency)
    d_nodes = units * nodes_per_unit
    p_nodes = buy(d_nodes / pd_ratio)
    total = d_nodes + p_nodes
    return {"concurrency": concurrency, "units": units, "d_nodes": d_nodes,
            "p_nodes": p_nodes, "total_nodes": total, "gpus": 8 * total}
