/// DeepSeek-V4's KV ledger from its layer counts and indexer-key size:
/// `(bytes per token, fixed bytes per request)`.
pub fn v4_kv(c4: i64, c128: i64, swa_only: i64, idx_bytes: i64) -> (f64, i64) {
    todo!()
}
