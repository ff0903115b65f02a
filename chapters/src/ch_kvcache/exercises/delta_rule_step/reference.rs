//! Reference solution and cases for `ch_kvcache/delta_rule_step`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// One step of the gated delta rule (Yang, Kautz and Hatamizadeh, Gated Delta
/// Networks, 2024): `S' = α·S (I − β k kᵀ) + β·v kᵀ`, that is
/// `S' = α·S − α·β·(S k) kᵀ + β·v kᵀ`, with `s` d_v × d_k, `k` of length d_k and
/// `v` of length d_v.
pub fn delta_rule_step(
    s: &[Vec<f64>],
    k: &[f64],
    v: &[f64],
    alpha: f64,
    beta: f64,
) -> Vec<Vec<f64>> {
    s.iter()
        .zip(v)
        .map(|(row, v_i)| {
            // What the memory recalls for k in this row: (S k)[i].
            let recalled: f64 = row.iter().zip(k).map(|(s_ij, k_j)| s_ij * k_j).sum();
            row.iter()
                .zip(k)
                .map(|(s_ij, k_j)| alpha * (s_ij - beta * recalled * k_j) + beta * v_i * k_j)
                .collect()
        })
        .collect()
}
// ANCHOR_END: reference

/// The arguments of one step.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The state, d_v × d_k.
    pub s: Vec<Vec<f64>>,
    /// The key, d_k values.
    pub k: Vec<f64>,
    /// The value, d_v values.
    pub v: Vec<f64>,
    /// The decay.
    pub alpha: f64,
    /// The write strength.
    pub beta: f64,
}

/// The arguments, checked: `s` a non-empty d_v × d_k matrix, `k` of length d_k,
/// `v` of length d_v, everything finite.
pub fn args(args: &[Value]) -> Result<Step, String> {
    let a = Args(args);
    let (s, k, v, alpha, beta) = (
        a.matrix(0)?,
        a.floats(1)?,
        a.floats(2)?,
        a.float(3)?,
        a.float(4)?,
    );
    let (d_v, d_k) = (s.len(), s.first().map_or(0, Vec::len));
    if d_v == 0 || d_k == 0 {
        return Err("argument 1 must have at least one row and one column".to_owned());
    }
    if k.len() != d_k {
        return Err(format!(
            "argument 2 must have length {d_k} (the columns of argument 1), got {}",
            k.len()
        ));
    }
    if v.len() != d_v {
        return Err(format!(
            "argument 3 must have length {d_v} (the rows of argument 1), got {}",
            v.len()
        ));
    }
    let numbers = s.iter().flatten().chain(&k).chain(&v);
    if !numbers.chain([&alpha, &beta]).all(|x| x.is_finite()) {
        return Err("the arguments must hold finite numbers".to_owned());
    }
    Ok(Step {
        s,
        k,
        v,
        alpha,
        beta,
    })
}

/// The reference, called with judge values.
pub fn reference(args_: &[Value]) -> Result<Value, String> {
    let Step {
        s,
        k,
        v,
        alpha,
        beta,
    } = args(args_)?;
    Ok(delta_rule_step(&s, &k, &v, alpha, beta).into())
}

/// `n` standard normal values times `scale`.
fn normals(rng: &mut SplitMix64, n: usize, scale: f64) -> Vec<f64> {
    (0..n).map(|_| rng.normal() * scale).collect()
}

/// A key of unit length, as Gated DeltaNet's L2-normalised keys.
fn unit(rng: &mut SplitMix64, n: usize) -> Vec<f64> {
    let x = normals(rng, n, 1.0);
    let norm = x.iter().map(|a| a * a).sum::<f64>().sqrt();
    x.iter().map(|a| a / norm).collect()
}

/// A random d_v × d_k state.
fn state(rng: &mut SplitMix64, d_v: usize, d_k: usize, scale: f64) -> Vec<Vec<f64>> {
    (0..d_v).map(|_| normals(rng, d_k, scale)).collect()
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, s: Vec<Vec<f64>>, k: Vec<f64>, v: Vec<f64>, alpha: f64, beta: f64| Case {
        args: vec![s.into(), k.into(), v.into(), alpha.into(), beta.into()],
        kind,
    };
    let mut fixed = SplitMix64::new(6);
    let (s14, k14, v14) = (
        state(&mut fixed, 1, 4, 1.0),
        unit(&mut fixed, 4),
        normals(&mut fixed, 1, 1.0),
    );
    let (s41, v41) = (state(&mut fixed, 4, 1, 1.0), normals(&mut fixed, 4, 1.0));
    let (s_big, k_big, v_big) = (
        state(&mut fixed, 8, 16, 0.5),
        unit(&mut fixed, 16),
        normals(&mut fixed, 8, 1.0),
    );
    let mut cases = vec![
        // The worked example: the column for the key [1, 0] is replaced by v.
        case(
            Kind::Public,
            vec![vec![1.0, 2.0], vec![3.0, 4.0]],
            vec![1.0, 0.0],
            vec![5.0, 6.0],
            0.5,
            1.0,
        ),
        // d_v = 2, d_k = 3.
        case(
            Kind::Public,
            vec![vec![0.5, -1.0, 2.0], vec![1.0, 0.0, -0.5]],
            vec![0.6, 0.0, 0.8],
            vec![1.0, -2.0],
            0.9,
            0.5,
        ),
        // d_v = 3, d_k = 2.
        case(
            Kind::Public,
            vec![vec![1.0, 0.0], vec![0.0, 1.0], vec![1.0, 1.0]],
            vec![0.8, 0.6],
            vec![0.5, -0.5, 2.0],
            0.95,
            0.25,
        ),
        // No decay: the source's form and the paper's agree.
        case(
            Kind::Hidden,
            vec![vec![0.0, 0.0, 0.0], vec![0.0, 0.0, 0.0]],
            vec![0.0, 1.0, 0.0],
            vec![2.0, 3.0],
            1.0,
            1.0,
        ),
        // beta = 0: decay only.
        case(
            Kind::Hidden,
            vec![vec![1.0, -2.0], vec![0.5, 4.0]],
            vec![0.6, 0.8],
            vec![9.0, 9.0],
            0.7,
            0.0,
        ),
        // A zero key: S' = alpha S.
        case(
            Kind::Hidden,
            vec![vec![1.0, 2.0, 3.0]],
            vec![0.0, 0.0, 0.0],
            vec![4.0],
            0.25,
            0.5,
        ),
        case(
            Kind::Hidden,
            vec![vec![2.0]],
            vec![1.0],
            vec![4.0],
            0.5,
            0.5,
        ),
        case(Kind::Hidden, s14, k14, v14, 0.8, 0.9),
        case(Kind::Hidden, s41, vec![1.0], v41, 0.6, 0.3),
        case(Kind::Hidden, s_big, k_big, v_big, 0.99, 0.7),
        // Fast forgetting, and a key that is not of unit length.
        case(
            Kind::Hidden,
            vec![vec![3.0, -1.0], vec![2.0, 2.0], vec![-1.0, 0.5]],
            vec![2.0, -1.0],
            vec![1.0, 0.0, -1.0],
            0.01,
            0.8,
        ),
    ];
    let seed = 20_261_305;
    let mut rng = SplitMix64::new(seed);
    for _ in 0..8 {
        let d_k = rng.range(1, 8) as usize;
        let d_v = rng.range(1, 8) as usize;
        let scale = rng.pick(&[0.1, 1.0, 3.0]);
        let s = state(&mut rng, d_v, d_k, scale);
        let k = unit(&mut rng, d_k);
        let v = normals(&mut rng, d_v, 1.0);
        let alpha = 0.5 + 0.5 * rng.next_f64();
        let beta = 0.05 + 0.95 * rng.next_f64();
        cases.push(case(Kind::Generated { seed }, s, k, v, alpha, beta));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worked_example() {
        let s = [vec![1.0, 2.0], vec![3.0, 4.0]];
        let got = delta_rule_step(&s, &[1.0, 0.0], &[5.0, 6.0], 0.5, 1.0);
        assert_eq!(got, [vec![5.0, 1.0], vec![6.0, 2.0]]);
    }

    /// With beta = 1 and a unit key, the new state recalls exactly v for k.
    #[test]
    fn a_full_write_recalls_the_value() {
        for c in cases() {
            let Step { s, k, v, alpha, .. } = args(&c.args).unwrap();
            let norm: f64 = k.iter().map(|x| x * x).sum();
            if (norm - 1.0).abs() > 1e-12 {
                continue;
            }
            let next = delta_rule_step(&s, &k, &v, alpha, 1.0);
            for (row, v_i) in next.iter().zip(&v) {
                let recalled: f64 = row.iter().zip(&k).map(|(a, b)| a * b).sum();
                assert!((recalled - v_i).abs() <= 1e-12, "{recalled} vs {v_i}");
            }
        }
    }

    /// The source's form differs on every case with alpha < 1, beta > 0 and S k != 0
    /// by more than the tolerance, so the cases tell the two apart.
    #[test]
    fn the_sources_form_differs_when_alpha_is_below_one() {
        let mut differing = 0;
        for c in cases() {
            let Step {
                s,
                k,
                v,
                alpha,
                beta,
            } = args(&c.args).unwrap();
            let got = delta_rule_step(&s, &k, &v, alpha, beta);
            let source: Vec<Vec<f64>> = s
                .iter()
                .zip(&v)
                .map(|(row, v_i)| {
                    let sk: f64 = row.iter().zip(&k).map(|(a, b)| a * b).sum();
                    row.iter()
                        .zip(&k)
                        .map(|(s_ij, k_j)| alpha * s_ij + beta * (v_i - sk) * k_j)
                        .collect()
                })
                .collect();
            let gap = got
                .iter()
                .flatten()
                .zip(source.iter().flatten())
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            if gap > 1e-6 {
                differing += 1;
            }
        }
        assert!(differing >= 10, "{differing}");
    }

    #[test]
    fn agrees_with_the_chapter_demo() {
        for c in cases() {
            let Step {
                s,
                k,
                v,
                alpha,
                beta,
            } = args(&c.args).unwrap();
            let got = delta_rule_step(&s, &k, &v, alpha, beta);
            let chapter =
                chapters::ch_kvcache::delta_rule::delta_rule_step(&s, &k, &v, alpha, beta);
            assert_eq!(got.len(), chapter.len());
            for (g, w) in got.iter().flatten().zip(chapter.iter().flatten()) {
                assert!(
                    (g - w).abs() <= 1e-12 * w.abs().max(1.0),
                    "{g} vs {w}: {:?}",
                    c.args
                );
            }
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let s = || Value::from(vec![vec![1.0, 2.0]]);
        let e = reference(&[
            s(),
            vec![1.0].into(),
            vec![1.0].into(),
            0.5.into(),
            0.5.into(),
        ])
        .unwrap_err();
        assert_eq!(
            e,
            "argument 2 must have length 2 (the columns of argument 1), got 1"
        );
        let e = reference(&[
            s(),
            vec![1.0, 0.0].into(),
            vec![1.0, 2.0].into(),
            0.5.into(),
            0.5.into(),
        ])
        .unwrap_err();
        assert!(e.starts_with("argument 3 must have length 1"), "{e}");
        let e = reference(&[
            Value::Array(vec![]),
            vec![1.0].into(),
            vec![1.0].into(),
            0.5.into(),
            0.5.into(),
        ])
        .unwrap_err();
        assert!(e.contains("at least one row"), "{e}");
        let e = reference(&[
            s(),
            vec![1.0, 0.0].into(),
            vec![1.0].into(),
            f64::NAN.into(),
            0.5.into(),
        ])
        .unwrap_err();
        assert!(e.contains("finite"), "{e}");
    }
}
