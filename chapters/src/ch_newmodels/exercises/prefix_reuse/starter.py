def prefix_reuse(prefix_len: int, ratio: int) -> list:
    """What a cached prefix of prefix_len tokens gives a layer that compresses
    every ratio tokens into one entry: [reused_entries, tokens_covered,
    tail_tokens], all ints."""
    raise NotImplementedError  # your code here
