/// The smallest whole context length n ≥ 1 at which a request's growing KV
/// (`per_token` bytes a token) is at least the memory that does not grow with it
/// (`state`, plus `window_bytes` for each token its windows hold); `None` if never.
pub fn break_even(per_token: f64, state: i64, window_bytes: i64, window: i64) -> Option<i64> {
    todo!()
}
