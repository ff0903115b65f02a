/// Bytes of the recurrent state of `layers` KDA layers: every head keeps one
/// `d_head × d_head` matrix, whatever the length of the context.
pub fn kda_state_bytes(layers: i64, heads: i64, d_head: i64, dtype_bytes: i64) -> i64 {
    todo!()
}
