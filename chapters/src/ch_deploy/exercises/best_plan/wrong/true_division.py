# wrong: `/` for the nodes a unit takes (ep / 8), so the GPU count comes out a float (3768.0), not an int
import math


def gpus_at(ep, free, request_gb, concurrent, pd_ratio):
    """GPUs of the conservative plan at one EP size, or None if it holds no request."""
    concurrency = math.floor(free * ep / request_gb)
    if concurrency == 0:
        return None
    units = math.ceil(concurrent / concurrency)
    d = units * (ep / 8)
    p = math.ceil(d / pd_ratio)
    return 8 * (d + p)


def best_plan(n_routed: int, expert_gb: float, overhead_gb: float, card_gb: float,
              request_gb: float, concurrent: int, pd_ratio: float):
    best = None
    for ep in [8, 16, 32, 64, 128, 256]:
        if n_routed % ep != 0:
            continue
        free = card_gb - (n_routed // ep) * expert_gb - overhead_gb
        if free <= 0:
            continue
        gpus = gpus_at(ep, free, request_gb, concurrent, pd_ratio)
        if gpus is None:
            continue
        if best is None or gpus < best["gpus"]:
            best = {"ep": ep, "gpus": gpus}
    return best
