/// What a cached prefix of `prefix_len` tokens gives a layer that compresses every
/// `ratio` tokens into one entry: `[reused_entries, tokens_covered, tail_tokens]`.
pub fn prefix_reuse(prefix_len: i64, ratio: i64) -> Vec<i64> {
    todo!()
}
