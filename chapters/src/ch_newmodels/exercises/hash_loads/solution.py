def hash_loads(table: list[list[int]], ids: list[int], experts: int) -> list:
    loads = [0] * experts
    for token in ids:
        for e in table[token]:
            loads[e] += 1
    total = sum(loads)
    imbalance = 0.0 if total == 0 else max(loads) / (total / experts)
    return [loads, imbalance]
