def decode_rho(n_routed: int, top_k: int, expert_gb: float, overhead_gb: float, ep: int,
               requests: int, request_gb: float, bw_tb_s: float, out_tokens: int,
               idle_s: float) -> dict:
    """EP 单元里一张满载的卡跑一步 decode：ep 张卡分担 n_routed 个 expert_gb GB
    的专家，每张卡另有 overhead_gb GB 固定权重，单元里有 requests 个 request_gb GB
    的请求，全部在 decode；每个 token 去 top_k 个专家。每个请求生成 out_tokens
    个 token 后空闲 idle_s 秒。返回 {"step_ms": float, "tok_s": float, "rho": float}。"""
    raise NotImplementedError  # 在这里写你的代码
