# wrong: Python's round(), which sends halves to the even number (round(2.5) is 2), where the article rounds halves up
import math


def decode_plan(free_gb_per_card: float, cards: int, request_gb: float, nodes_per_unit: int,
                concurrent: int, pd_ratio: float, conservative: int):
    # What must fit rounds down, what is bought rounds up (conservatively).
    fit = math.floor if conservative == 1 else round
    buy = math.ceil if conservative == 1 else round
    concurrency = fit(free_gb_per_card * cards / request_gb)
    if concurrency == 0:
        return None
    units = buy(concurrent / concurrency)
    d_nodes = units * nodes_per_unit
    p_nodes = buy(d_nodes / pd_ratio)
    total = d_nodes + p_nodes
    return {"concurrency": concurrency, "units": units, "d_nodes": d_nodes,
            "p_nodes": p_nodes, "total_nodes": total, "gpus": 8 * total}
