def decode_rho(n_routed: int, top_k: int, expert_gb: float, overhead_gb: float, ep: int,
               requests: int, request_gb: float, bw_tb_s: float, out_tokens: int,
               idle_s: float) -> dict:
    # An expert is read if at least one of the step's tokens picks it.
    read_share = 1.0 - (1.0 - top_k / n_routed) ** requests
    gb = (n_routed // ep) * expert_gb * read_share + overhead_gb + requests * request_gb / ep
    step_ms = gb / bw_tb_s  # GB / (TB/s) is milliseconds
    tok_s = 1000.0 / step_ms
    if out_tokens == 0:
        rho = 0.0
    else:
        decode_s = out_tokens / tok_s
        rho = decode_s / (decode_s + idle_s)
    return {"step_ms": step_ms, "tok_s": tok_s, "rho": rho}
