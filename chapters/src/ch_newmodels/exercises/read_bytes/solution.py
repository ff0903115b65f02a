def read_bytes(n: int, c4: int, c128: int, swa_only: int, c4_ratio: int, c128_ratio: int,
               topk: int, window: int, entry_bytes: int, key_bytes: int) -> int:
    win = min(window, n)
    e4 = n // c4_ratio
    e128 = n // c128_ratio
    keys = c4 * e4 * key_bytes
    return keys + (c4 * min(e4, topk) + c128 * e128 + (c4 + c128 + swa_only) * win) * entry_bytes
