import math


def break_even(per_token: float, state: int, window_bytes: int, window: int):
    # While the windows fill, both sides grow: per_token * n >= state + window_bytes * n.
    if per_token > window_bytes:
        n = max(1, math.ceil(state / (per_token - window_bytes)))
        if n <= window:
            return n
    elif per_token == window_bytes and state == 0 and window >= 1:
        return 1
    # Then only the growing side grows.
    fixed = state + window_bytes * window
    if per_token > 0:
        return max(window + 1, math.ceil(fixed / per_token))
    return 1 if fixed == 0 else None
