/// What the compressor holds after the last token.
#[derive(Debug, Clone, PartialEq)]
pub struct Compressed {
    /// The finished entries, in order, `D` floats each.
    pub entries: Vec<Vec<f64>>,
    /// Tokens left in the partial state.
    pub partial: i64,
}

/// A streaming compressor with disjoint blocks of `ratio` tokens: every full block
/// becomes one entry, `entry[d] = Σ_i softmax_i(score[i][d]) · kv[i][d]`.
pub fn compress_stream(kv: Vec<Vec<f64>>, score: Vec<Vec<f64>>, ratio: i64) -> Compressed {
    todo!()
}
