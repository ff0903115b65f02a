# wrong: whole requests per card with //, though the unit's caches are pooled over its cards
def decode_rho(n_routed: int, top_k: int, expert_gb: float, overhead_gb: float, ep: int,
               requests: int, request_gb: float, bw_tb_s: float, out_tokens: int,
               idle_s: float) -> dict:
    read_share = 1.0 - (1.0 - top_k / n_routed) ** requests
    gb = (n_routed // ep) * expert_gb * read_share + overhead_gb + requests // ep * request_gb
    step_ms = gb / bw_tb_s
    tok_s = 1000.0 / step_ms
    decode_s = out_tokens / tok_s
    rho = 0.0 if out_tokens == 0 else decode_s / (decode_s + idle_s)
    return {"step_ms": step_ms, "tok_s": tok_s, "rho": rho}
