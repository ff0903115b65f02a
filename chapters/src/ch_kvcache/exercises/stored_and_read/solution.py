def stored_and_read(tokens: int, stride: int, width: int, entry_bytes: int, key_bytes: int, topk: int, window: int) -> list:
    entries = 0 if tokens < width else (tokens - width) // stride + 1
    held = min(tokens, window)
    chosen = entries if topk == 0 else min(entries, topk)
    stored = entries * (entry_bytes + key_bytes) + held * entry_bytes
    read = entries * key_bytes + chosen * entry_bytes + held * entry_bytes
    return [stored, read]
