def decode_plan(free_gb_per_card: float, cards: int, request_gb: float, nodes_per_unit: int, concurrent: int, pd_ratio: float, conservative: int):
    """Units of cards cards on nodes_per_unit nodes, with free_gb_per_card GB of KV
    room each; concurrent requests of request_gb GB; one prefill node per
    pd_ratio decode nodes; 8 GPUs a node. conservative == 0 rounds to nearest,
    halves up (the article); conservative == 1 rounds the concurrency down and
    the units and prefill nodes up.
    Return a dict of ints with the keys concurrency, units, d_nodes, p_nodes,
    total_nodes and gpus, or None when a unit cannot hold one request."""
    raise NotImplementedError  # your code here
