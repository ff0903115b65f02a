import math


def max_batch(per_token_bytes: float, fixed_bytes: int, weight_bytes: int, gpu_bytes: int, tokens: int) -> int:
    free = gpu_bytes - weight_bytes
    if free <= 0:
        return 0
    per_request = fixed_bytes + per_token_bytes * tokens
    return math.floor(free / per_request)
