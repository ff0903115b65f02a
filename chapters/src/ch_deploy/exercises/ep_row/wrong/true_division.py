# wrong: `/` makes the experts per card a float, where the table counts whole experts
def ep_row(n_routed: int, ep: int, expert_gb: float, card_gb: float, overhead_gb: float) -> dict:
    experts = n_routed / ep  # ep divides n_routed: an exact int
    weight = experts * expert_gb
    free = card_gb - weight - overhead_gb
    return {"experts_per_card": experts, "weight_gb": weight, "free_gb": free}
