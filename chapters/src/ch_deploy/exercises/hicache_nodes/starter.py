def hicache_nodes(d_nodes: int, rho: float, pd_ratio: float, conservative: int) -> dict:
    """Decode nodes when only a share rho of the KV stays on the GPUs, and the
    total with one prefill node per pd_ratio decode nodes. Nodes are bought
    whole: conservative == 0 rounds to nearest, halves up (the article);
    conservative == 1 rounds up. Return {"d_nodes": int, "total_nodes": int}."""
    raise NotImplementedError  # your code here
