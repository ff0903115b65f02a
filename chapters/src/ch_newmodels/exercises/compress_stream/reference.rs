//! Reference solution and cases for `ch_newmodels/compress_stream`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::math::exp;
use chapters::rng::SplitMix64;

// ANCHOR: reference
/// What the compressor holds after the last token.
#[derive(Debug, Clone, PartialEq)]
pub struct Compressed {
    /// The finished entries, in order, `D` floats each.
    pub entries: Vec<Vec<f64>>,
    /// Tokens left in the partial state.
    pub partial: usize,
}

/// Streams the tokens (rows of `kv` and `score`) through a compressor with
/// disjoint blocks of `ratio >= 1` tokens.
pub fn compress_stream(kv: &[Vec<f64>], score: &[Vec<f64>], ratio: usize) -> Compressed {
    let mut entries = Vec::new();
    // The partial state: the tokens of the unfinished block.
    let mut block: Vec<(&[f64], &[f64])> = Vec::with_capacity(ratio);
    for (k, s) in kv.iter().zip(score) {
        block.push((k, s)); // one token arrives
        if block.len() == ratio {
            entries.push(pool(&block));
            block.clear();
        }
    }
    Compressed {
        entries,
        partial: block.len(),
    }
}

/// One entry from a full block of `(kv, score)` rows: for every dimension d,
/// `Σ_i softmax_i(score[i][d]) · kv[i][d]`, subtracting the max score before `exp`.
fn pool(block: &[(&[f64], &[f64])]) -> Vec<f64> {
    let dims = block[0].0.len();
    (0..dims)
        .map(|d| {
            let max = block
                .iter()
                .map(|(_, s)| s[d])
                .fold(f64::NEG_INFINITY, f64::max);
            let e: Vec<f64> = block.iter().map(|(_, s)| exp(s[d] - max)).collect();
            let total: f64 = e.iter().sum();
            block
                .iter()
                .zip(&e)
                .map(|((k, _), e)| e / total * k[d])
                .sum()
        })
        .collect()
}
// ANCHOR_END: reference

/// The reference, called with judge values.
pub fn reference(args: &[Value]) -> Result<Value, String> {
    let a = Args(args);
    let (kv, score, ratio) = (a.matrix(0)?, a.matrix(1)?, a.int(2)?);
    if kv.len() != score.len() || kv.first().map(Vec::len) != score.first().map(Vec::len) {
        return Err("arguments 1 and 2 must have the same shape".to_owned());
    }
    if ratio < 1 {
        return Err(format!("argument 3 must be at least 1, got {ratio}"));
    }
    let c = compress_stream(&kv, &score, ratio as usize);
    Ok(Value::Map(
        [
            ("entries".to_owned(), c.entries.into()),
            ("partial".to_owned(), (c.partial as i64).into()),
        ]
        .into(),
    ))
}

/// `rows × cols` standard normal entries times `scale`, plus `shift`.
fn random_rows(
    rng: &mut SplitMix64,
    rows: usize,
    cols: usize,
    scale: f64,
    shift: f64,
) -> Vec<Vec<f64>> {
    (0..rows)
        .map(|_| (0..cols).map(|_| rng.normal() * scale + shift).collect())
        .collect()
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, kv: Vec<Vec<f64>>, score: Vec<Vec<f64>>, ratio: i64| Case {
        args: vec![kv.into(), score.into(), ratio.into()],
        kind,
    };
    let col = |xs: &[f64]| xs.iter().map(|&x| vec![x]).collect::<Vec<_>>();
    let mut fixed = SplitMix64::new(5);
    let kv7 = random_rows(&mut fixed, 7, 3, 1.0, 0.0);
    let score7 = random_rows(&mut fixed, 7, 3, 2.0, 0.0);
    let mut cases = vec![
        case(
            Kind::Public,
            vec![
                vec![1.0, 2.0],
                vec![3.0, 4.0],
                vec![5.0, 6.0],
                vec![7.0, 8.0],
                vec![9.0, 10.0],
            ],
            vec![
                vec![0.0, 0.0],
                vec![0.0, 1.0],
                vec![1.0, 0.0],
                vec![2.0, 2.0],
                vec![0.0, 0.0],
            ],
            2,
        ),
        case(
            Kind::Public,
            col(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
            col(&[0.0, 0.0, 0.0, 1.0, 2.0, 3.0]),
            3,
        ),
        case(
            Kind::Public,
            vec![vec![1.0, -1.0], vec![2.0, -2.0]],
            vec![vec![0.5, 0.0], vec![0.0, 0.5]],
            4,
        ),
        case(Kind::Hidden, vec![], vec![], 4),
        case(
            Kind::Hidden,
            vec![
                vec![1.0, 2.0],
                vec![3.0, 4.0],
                vec![5.0, 6.0],
                vec![7.0, 8.0],
            ],
            vec![
                vec![1_000.0, -1_000.0],
                vec![999.0, -998.0],
                vec![1_001.0, -1_000.5],
                vec![1_000.0, -999.0],
            ],
            2,
        ),
        case(
            Kind::Hidden,
            col(&[0.5, -1.5, 2.5]),
            col(&[3.0, -2.0, 7.0]),
            1,
        ),
        case(Kind::Hidden, kv7, score7, 3),
        case(
            Kind::Hidden,
            col(&[1.0, 2.0, 6.0, 4.0]),
            col(&[0.25, 0.25, 0.25, 0.25]),
            4,
        ),
        // Scores 800 apart inside a block, the larger one second and then first:
        // only the block's maximum keeps the exponentials finite.
        case(
            Kind::Hidden,
            vec![vec![1.0, 2.0], vec![3.0, 4.0], vec![5.0, 6.0]],
            vec![vec![0.0, -800.0], vec![800.0, 0.0], vec![0.0, 0.0]],
            2,
        ),
    ];
    let seed = 20_261_205;
    let mut rng = SplitMix64::new(seed);
    for _ in 0..8 {
        let n = rng.range(0, 40) as usize;
        let ratio = rng.pick(&[1, 2, 3, 4, 8]);
        let dims = rng.range(1, 6) as usize;
        let shift = rng.pick(&[0.0, 0.0, 0.0, 750.0, -750.0]);
        let kv = random_rows(&mut rng, n, dims, 1.0, 0.0);
        let score = random_rows(&mut rng, n, dims, 3.0, shift);
        cases.push(case(Kind::Generated { seed }, kv, score, ratio));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use chapters::ch_newmodels::compressor;
    use ndarray::Array2;

    #[test]
    fn the_worked_example() {
        let c = compress_stream(
            &[vec![1.0], vec![3.0], vec![5.0]],
            &[vec![0.0], vec![0.0], vec![9.0]],
            2,
        );
        assert_eq!(
            c,
            Compressed {
                entries: vec![vec![2.0]],
                partial: 1
            }
        );
    }

    /// The batch path: every complete block pooled at once by the chapter's `pool`.
    #[test]
    fn streaming_equals_the_chapter_batch_path() {
        for c in cases() {
            let a = Args(&c.args);
            let (kv, score, ratio) = (
                a.matrix(0).unwrap(),
                a.matrix(1).unwrap(),
                a.int(2).unwrap() as usize,
            );
            let got = compress_stream(&kv, &score, ratio);
            let (blocks, partial) = compressor::compressor_counts(kv.len() as u64, ratio as u64);
            assert_eq!(
                (got.entries.len(), got.partial),
                (blocks as usize, partial as usize)
            );
            let dims = kv.first().map_or(0, Vec::len);
            let arr = |m: &[Vec<f64>]| Array2::from_shape_fn((m.len(), dims), |(i, d)| m[i][d]);
            for (b, entry) in got.entries.iter().enumerate() {
                let rows = b * ratio..(b + 1) * ratio;
                let want =
                    compressor::pool(arr(&kv[rows.clone()]).view(), arr(&score[rows]).view());
                for (g, w) in entry.iter().zip(want.iter()) {
                    assert!(
                        g.is_finite() && (g - w).abs() <= 1e-12,
                        "{g} vs {w} in {:?}",
                        c.args
                    );
                }
            }
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let m = || Value::from(vec![vec![1.0]]);
        assert!(reference(&[m(), Value::Array(vec![]), 2.into()]).is_err());
        assert!(reference(&[m(), m(), 0.into()]).is_err());
    }
}
