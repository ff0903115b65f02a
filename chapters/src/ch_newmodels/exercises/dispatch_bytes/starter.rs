/// Bytes one token sends per MoE layer in expert-parallel dispatch: one copy of its
/// activation per routed expert; with `latent > 0` the activation has `latent` dims.
pub fn dispatch_bytes(hidden: i64, topk: i64, bytes_per_elem: i64, latent: i64) -> i64 {
    todo!()
}
