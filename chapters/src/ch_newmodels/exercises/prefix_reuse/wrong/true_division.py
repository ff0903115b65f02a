# wrong: `/` gives a fractional number of entries; a cache reuses whole ones
def prefix_reuse(prefix_len: int, ratio: int) -> list:
    reused = prefix_len / ratio
    return [reused, reused * ratio, prefix_len - reused * ratio]
