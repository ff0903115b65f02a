def best_plan(n_routed: int, expert_gb: float, overhead_gb: float, card_gb: float, request_gb: float, concurrent: int, pd_ratio: float):
    """The EP size in [8, 16, 32, 64, 128, 256] whose conservative decode plan
    serves concurrent requests of request_gb GB with the fewest GPUs: a unit is
    ep cards on ep / 8 nodes (whole nodes), one prefill node per pd_ratio decode
    nodes, 8 GPUs a node. Ties go to the smaller size.
    Return {"ep": int, "gpus": int}, or None when no size holds a single request."""
    raise NotImplementedError  # your code here
