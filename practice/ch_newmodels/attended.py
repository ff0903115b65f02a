def attended(pos: int, ratio: int, topk: int, window: int) -> int:
    """Entries a query at position pos (0-based) attends to in one layer:
    the sliding-window tokens plus the finished compressed entries, at most
    topk of them (topk == 0: no cap)."""
    raise NotImplementedError  # your code here
