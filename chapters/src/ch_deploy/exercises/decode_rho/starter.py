def decode_rho(n_routed: int, top_k: int, expert_gb: float, overhead_gb: float, ep: int,
               requests: int, request_gb: float, bw_tb_s: float, out_tokens: int,
               idle_s: float) -> dict:
    """One decode step of a full card in an EP unit: ep cards share n_routed
    experts of expert_gb GB, each card also keeps overhead_gb GB, and the unit
    holds `requests` requests of request_gb GB, all decoding; each token goes
    to top_k experts. Each request then generates out_tokens tokens and idles
    idle_s seconds. Return {"step_ms": float, "tok_s": float, "rho": float}."""
    raise NotImplementedError  # your code here
