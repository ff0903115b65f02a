def csa_entries(tokens: int, stride: int, width: int) -> int:
    """Entries an overlapping compressor has finished after tokens tokens: a new
    entry starts every stride tokens and covers width consecutive tokens."""
    raise NotImplementedError  # your code here
