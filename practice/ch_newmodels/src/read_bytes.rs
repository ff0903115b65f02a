/// Bytes of KV cache one decode step reads for one request whose context holds
/// `n` tokens (the token being decoded included).
#[allow(clippy::too_many_arguments)]
pub fn read_bytes(
    n: i64,
    c4: i64,
    c128: i64,
    swa_only: i64,
    c4_ratio: i64,
    c128_ratio: i64,
    topk: i64,
    window: i64,
    entry_bytes: i64,
    key_bytes: i64,
) -> i64 {
    todo!()
}
