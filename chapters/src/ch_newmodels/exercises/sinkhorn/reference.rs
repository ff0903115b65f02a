//! Reference solution and cases for `ch_newmodels/sinkhorn`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::math::exp;
use chapters::rng::SplitMix64;

// ANCHOR: reference
/// Added to every softmax entry and to every row and column sum.
const EPS: f64 = 1e-6;

/// Sinkhorn–Knopp as mHC uses it: a row softmax plus `EPS`, the columns
/// normalised, then `iters - 1` rounds of rows then columns. `m` is rectangular.
pub fn sinkhorn(m: &[Vec<f64>], iters: i64) -> Vec<Vec<f64>> {
    let mut out: Vec<Vec<f64>> = m.iter().map(|row| softmax_plus_eps(row)).collect();
    normalise_columns(&mut out);
    for _ in 1..iters {
        normalise_rows(&mut out);
        normalise_columns(&mut out);
    }
    out
}

/// `exp(x - max) / Σ exp(x - max) + EPS` for each entry of a row.
fn softmax_plus_eps(row: &[f64]) -> Vec<f64> {
    let max = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = row.iter().map(|x| exp(x - max)).collect();
    let sum: f64 = e.iter().sum();
    e.iter().map(|x| x / sum + EPS).collect()
}

/// Divides every row by its sum plus `EPS`.
fn normalise_rows(m: &mut [Vec<f64>]) {
    for row in m.iter_mut() {
        let sum = row.iter().sum::<f64>() + EPS;
        row.iter_mut().for_each(|x| *x /= sum);
    }
}

/// Divides every column by its sum plus `EPS`.
fn normalise_columns(m: &mut [Vec<f64>]) {
    let cols = m.first().map_or(0, Vec::len);
    for c in 0..cols {
        let sum = m.iter().map(|row| row[c]).sum::<f64>() + EPS;
        m.iter_mut().for_each(|row| row[c] /= sum);
    }
}
// ANCHOR_END: reference

/// The reference, called with judge values.
pub fn reference(args: &[Value]) -> Result<Value, String> {
    let a = Args(args);
    let m = a.matrix(0)?;
    let iters = a.int(1)?;
    if m.is_empty() || m[0].is_empty() {
        return Err("argument 1 must have at least one row and one column".to_owned());
    }
    if m.iter().flatten().any(|x| !x.is_finite()) {
        return Err("argument 1 must hold finite numbers".to_owned());
    }
    if !(1..=1_000).contains(&iters) {
        return Err(format!(
            "argument 2 must be between 1 and 1,000, got {iters}"
        ));
    }
    Ok(sinkhorn(&m, iters).into())
}

/// `rows × cols` standard normal entries times `scale`, plus `diag` on the diagonal.
fn random_matrix(
    rng: &mut SplitMix64,
    rows: usize,
    cols: usize,
    scale: f64,
    diag: f64,
) -> Vec<Vec<f64>> {
    (0..rows)
        .map(|i| {
            (0..cols)
                .map(|j| rng.normal() * scale + if i == j { diag } else { 0.0 })
                .collect()
        })
        .collect()
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, m: Vec<Vec<f64>>, iters: i64| Case {
        args: vec![m.into(), iters.into()],
        kind,
    };
    let mut fixed = SplitMix64::new(4);
    let near_identity = random_matrix(&mut fixed, 4, 4, 0.5, 3.0);
    let mut cases = vec![
        case(Kind::Public, vec![vec![1.0, 2.0], vec![3.0, 4.0]], 20),
        case(
            Kind::Public,
            vec![
                vec![0.0, 1.0, 2.0],
                vec![2.0, 1.0, 0.0],
                vec![1.0, 1.0, 1.0],
            ],
            1,
        ),
        case(Kind::Public, near_identity, 2),
        case(
            Kind::Hidden,
            vec![vec![1_000.0, 0.0], vec![0.0, 1_000.0]],
            5,
        ),
        case(Kind::Hidden, vec![vec![5.0, 5.0], vec![5.0, 5.0]], 3),
        case(
            Kind::Hidden,
            vec![vec![0.0, 1.0, 2.0], vec![2.0, 1.0, 0.0]],
            5,
        ),
        case(
            Kind::Hidden,
            vec![
                vec![-800.0, 0.0, 3.0],
                vec![0.5, -2.0, 750.0],
                vec![1.0, 2.0, 3.0],
            ],
            20,
        ),
        case(Kind::Hidden, vec![vec![2.5]], 3),
        case(Kind::Hidden, vec![vec![0.3, -1.2], vec![2.0, 0.1]], 2),
    ];
    let seed = 20_261_204;
    let mut rng = SplitMix64::new(seed);
    for _ in 0..8 {
        let n = rng.range(3, 5) as usize;
        let scale = rng.pick(&[0.5, 1.0, 3.0]);
        let diag = rng.pick(&[0.0, 3.0]);
        let iters = rng.pick(&[1, 2, 3, 10, 20]);
        let m = random_matrix(&mut rng, n, n, scale, diag);
        cases.push(case(Kind::Generated { seed }, m, iters));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::Array2;

    #[test]
    fn the_worked_example() {
        let got = sinkhorn(&[vec![0.0, 0.0], vec![0.0, 0.0]], 1);
        let want = (0.5 + EPS) / (2.0 * (0.5 + EPS) + EPS);
        assert_eq!(got, vec![vec![want; 2]; 2]);
        let shown = Value::from(got).to_string();
        assert_eq!(
            shown,
            "[[0.49999950000150006, 0.49999950000150006], [0.49999950000150006, 0.49999950000150006]]"
        );
        let statement = crate::by_id("ch_newmodels/sinkhorn")
            .unwrap()
            .statement_markdown()
            .unwrap();
        assert!(statement.contains(&format!("`{shown}`")));
    }

    #[test]
    fn agrees_with_the_chapter_function() {
        for c in cases() {
            let a = Args(&c.args);
            let (m, iters) = (a.matrix(0).unwrap(), a.int(1).unwrap());
            let arr = Array2::from_shape_fn((m.len(), m[0].len()), |(i, j)| m[i][j]);
            let chapter = chapters::ch_newmodels::mhc::sinkhorn(&arr, iters as usize, 1e-6);
            let got = sinkhorn(&m, iters);
            for ((i, j), want) in chapter.indexed_iter() {
                assert!(
                    (got[i][j] - want).abs() <= 1e-13,
                    "{:?}: [{i}][{j}] {} vs {want}",
                    c.args,
                    got[i][j]
                );
            }
        }
    }

    #[test]
    fn columns_sum_to_one_and_large_logits_are_finite() {
        for c in cases() {
            let m = Args(&c.args).matrix(0).unwrap();
            let out = sinkhorn(&m, Args(&c.args).int(1).unwrap());
            assert!(out.iter().flatten().all(|x| x.is_finite() && *x > 0.0));
            for j in 0..out[0].len() {
                let s: f64 = out.iter().map(|r| r[j]).sum();
                assert!((s - 1.0).abs() <= 1e-5, "{s}");
            }
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        assert!(reference(&[Value::Array(vec![]), 3.into()]).is_err());
        assert!(reference(&[vec![vec![1.0]].into(), 0.into()]).is_err());
    }
}
