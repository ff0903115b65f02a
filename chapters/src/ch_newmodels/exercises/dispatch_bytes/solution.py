def dispatch_bytes(hidden: int, topk: int, bytes_per_elem: int, latent: int) -> int:
    dims = latent if latent > 0 else hidden
    return dims * topk * bytes_per_elem
