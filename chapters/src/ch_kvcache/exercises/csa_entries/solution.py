def csa_entries(tokens: int, stride: int, width: int) -> int:
    if tokens < width:
        return 0
    return (tokens - width) // stride + 1
