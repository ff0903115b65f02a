/// Entries an overlapping compressor has finished after `tokens` tokens: a new entry
/// starts every `stride` tokens and covers `width` consecutive tokens.
pub fn csa_entries(tokens: i64, stride: i64, width: i64) -> i64 {
    todo!()
}
