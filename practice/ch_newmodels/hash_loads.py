def hash_loads(table: list[list[int]], ids: list[int], experts: int) -> list:
    """Hash routing: a token whose id is t always goes to the experts table[t].
    Return [loads, imbalance]: the number of tokens each expert gets (ints), and
    the busiest load over the mean load (a float; 0.0 when nothing was routed)."""
    raise NotImplementedError  # your code here
