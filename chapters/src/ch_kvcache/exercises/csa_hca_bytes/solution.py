def csa_hca_bytes(tokens: int, n_csa: int, n_hca: int, n_layers: int, kv_dim: int, dtype_bytes: int) -> dict:
    entries_per_token = n_csa / 4 + n_hca / 128
    compressed = tokens * entries_per_token * kv_dim * dtype_bytes
    window = n_layers * 128 * kv_dim * dtype_bytes
    return {"compressed": compressed, "window": window}
