/// Sinkhorn–Knopp with `eps = 1e-6`: row softmax + eps, normalise the columns, then
/// `iters - 1` times: normalise the rows, then the columns (dividing by sum + eps).
pub fn sinkhorn(m: Vec<Vec<f64>>, iters: i64) -> Vec<Vec<f64>> {
    todo!()
}
