def kv_request(c4: int, c128: int, swa_only: int, idx_bytes: int, tokens: int) -> float:
    per_token = c4 * (584 + idx_bytes) / 4 + c128 * 584 / 128
    window = (c4 + c128 + swa_only) * 128 * 584
    state = c4 * 8 * 2560 * 4 + c128 * 128 * 1024 * 4
    return per_token * tokens + window + state
