def break_even(per_token: float, state: int, window_bytes: int, window: int):
    """The smallest whole context length n >= 1 at which a request's growing KV
    (per_token bytes a token) is at least the memory that does not grow with
    it (state, plus window_bytes for each token its windows hold); None if never."""
    raise NotImplementedError  # your code here
