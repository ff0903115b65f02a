def decode_ms(active_gb: float, kv_gb: float, bw_tb_s: float) -> float:
    """batch 为 1 时，一个解码步要以 bw_tb_s TB/s 读取 active_gb GB 权重和 kv_gb GB
    KV 缓存（十进制单位）：返回这一步要多少毫秒。"""
    raise NotImplementedError  # 在这里写你的代码
