def reload_traffic(sessions: int, session_gb: float, out_tokens: int, tok_s: float,
                   idle_s: float, full_nodes: int) -> dict:
    """HiCache's reload traffic: `sessions` sessions of session_gb GB each
    decode out_tokens tokens at tok_s tokens/s, idle idle_s seconds, and get
    their whole cache back on the GPUs at every turn; full_nodes decode nodes
    would hold every cache at once. Return {"reloads_s": float,
    "total_tb_s": float, "node_gb_s": float}."""
    raise NotImplementedError  # your code here
