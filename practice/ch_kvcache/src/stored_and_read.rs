/// One sparse-attention layer after `tokens` tokens: the bytes it holds for the
/// request and the bytes one decode step reads from it, `[stored, read]`.
pub fn stored_and_read(
    tokens: i64,
    stride: i64,
    width: i64,
    entry_bytes: i64,
    key_bytes: i64,
    topk: i64,
    window: i64,
) -> Vec<i64> {
    todo!()
}
