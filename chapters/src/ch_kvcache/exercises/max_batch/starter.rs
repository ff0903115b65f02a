/// The largest number of requests `b` with
/// `weight_bytes + b × (fixed_bytes + per_token_bytes × tokens) ≤ gpu_bytes` (0 if none fits).
pub fn max_batch(
    per_token_bytes: f64,
    fixed_bytes: i64,
    weight_bytes: i64,
    gpu_bytes: i64,
    tokens: i64,
) -> i64 {
    todo!()
}
