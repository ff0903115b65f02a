def max_batch(per_token_bytes: float, fixed_bytes: int, weight_bytes: int, gpu_bytes: int, tokens: int) -> int:
    """The largest number of requests b with
    weight_bytes + b * (fixed_bytes + per_token_bytes * tokens) <= gpu_bytes,
    or 0 when not even one fits."""
    raise NotImplementedError  # your code here
