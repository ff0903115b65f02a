def ep_row(n_routed: int, ep: int, expert_gb: float, card_gb: float, overhead_gb: float) -> dict:
    """One row of the EP table: n_routed experts spread over ep cards of card_gb
    GB, each card also holding overhead_gb GB of attention and embedding weights.
    Return {"experts_per_card": int, "weight_gb": float, "free_gb": float}."""
    raise NotImplementedError  # your code here
