/// The two parts of a CSA + HCA cache.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CsaHca {
    /// Bytes of compressed entries, counted as averages (grows with the context).
    pub compressed: f64,
    /// Bytes of the raw 128-token windows of all layers (fixed).
    pub window: i64,
}

/// DeepSeek-V4's KV cache for one request: the compressed entries (CSA: one per
/// 4 tokens, HCA: one per 128, counted as averages) and every layer's 128-token window.
pub fn csa_hca_bytes(
    tokens: i64,
    n_csa: i64,
    n_hca: i64,
    n_layers: i64,
    kv_dim: i64,
    dtype_bytes: i64,
) -> CsaHca {
    todo!()
}
