def max_batch(per_token_bytes: float, fixed_bytes: int, weight_bytes: int, gpu_bytes: int, tokens: int) -> int:
    """满足 weight_bytes + b * (fixed_bytes + per_token_bytes * tokens) <= gpu_bytes
    的最大请求数 b；一个都放不下时为 0。"""
    raise NotImplementedError  # 在这里写你的代码
