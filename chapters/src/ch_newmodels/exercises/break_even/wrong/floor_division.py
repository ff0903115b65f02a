# wrong: `//` rounds the length down, one token short of catching up
def break_even(per_token: float, state: int, window_bytes: int, window: int):
    if per_token > window_bytes:
        n = max(1, int(state // (per_token - window_bytes)))
        if n <= window:
            return n
    elif per_token == window_bytes and state == 0 and window >= 1:
        return 1
    fixed = state + window_bytes * window
    if per_token > 0:
        return max(window + 1, int(fixed // per_token))
    return 1 if fixed == 0 else None
