def compress_stream(kv: list[list[float]], score: list[list[float]], ratio: int) -> dict:
    """A streaming compressor with disjoint blocks of ratio tokens. Every full
    block becomes one entry: entry[d] is the sum over the block's tokens i of
    softmax(score[.][d])[i] * kv[i][d], the softmax taken over the block.
    Return {"entries": [entry, ...], "partial": tokens left in the unfinished block}."""
    raise NotImplementedError  # your code here
