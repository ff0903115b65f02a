def attended(pos: int, ratio: int, topk: int, window: int) -> int:
    swa = min(window, pos + 1)
    if ratio <= 1:
        return swa
    done = (pos + 1) // ratio
    return swa + (min(done, topk) if topk > 0 else done)
