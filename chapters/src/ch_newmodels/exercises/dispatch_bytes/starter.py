def dispatch_bytes(hidden: int, topk: int, bytes_per_elem: int, latent: int) -> int:
    """Bytes one token sends per MoE layer in expert-parallel dispatch: one copy
    of its activation per routed expert. With latent > 0 the activation has
    latent dimensions instead of hidden."""
    raise NotImplementedError  # your code here
