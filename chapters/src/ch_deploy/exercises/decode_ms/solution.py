def decode_ms(active_gb: float, kv_gb: float, bw_tb_s: float) -> float:
    # GB / (TB/s) = 10^9 B / (10^12 B/s) = 10^-3 s: already milliseconds.
    return (active_gb + kv_gb) / bw_tb_s
