def ep_min(n_routed: int, expert_gb: float, card_gb: float, overhead_gb: float, min_free_gb: float):
    """The smallest EP size in [8, 16, 32, 64, 128, 256] that divides n_routed
    and leaves at least min_free_gb GB free on each card; None when none does."""
    raise NotImplementedError  # your code here
