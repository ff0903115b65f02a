def decode_ms(active_gb: float, kv_gb: float, bw_tb_s: float) -> float:
    """Milliseconds per decode step at batch 1 when the step reads active_gb GB
    of weights and kv_gb GB of KV cache at bw_tb_s TB/s (decimal units)."""
    raise NotImplementedError  # your code here
