def reload_traffic(sessions: int, session_gb: float, out_tokens: int, tok_s: float,
                   idle_s: float, full_nodes: int) -> dict:
    """HiCache 的回载流量：sessions 个会话，每个缓存 session_gb GB，每轮以
    tok_s tokens/s 生成 out_tokens 个 token，再空闲 idle_s 秒，每轮开始时整份
    缓存拷回 GPU；所有缓存都留在 GPU 上需要 full_nodes 个 decode 节点。返回
    {"reloads_s": float, "total_tb_s": float, "node_gb_s": float}。"""
    raise NotImplementedError  # 在这里写你的代码
