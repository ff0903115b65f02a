def ep_min(n_routed: int, expert_gb: float, card_gb: float, overhead_gb: float, min_free_gb: float):
    for ep in [8, 16, 32, 64, 128, 256]:
        if n_routed % ep != 0:
            continue
        free = card_gb - (n_routed // ep) * expert_gb - overhead_gb
        if free >= min_free_gb:
            return ep
    return None
