import math


def compress_stream(kv: list[list[float]], score: list[list[float]], ratio: int) -> dict:
    entries = []
    full = len(kv) // ratio * ratio
    for start in range(0, full, ratio):
        block_kv = kv[start:start + ratio]
        block_score = score[start:start + ratio]
        entry = []
        for d in range(len(block_kv[0])):
            column = [s[d] for s in block_score]
            top = max(column)
            weights = [math.exp(s - top) for s in column]
            total = sum(weights)
            entry.append(sum(w * row[d] for w, row in zip(weights, block_kv)) / total)
        entries.append(entry)
    return {"entries": entries, "partial": len(kv) - full}
