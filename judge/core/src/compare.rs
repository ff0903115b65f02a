//! The comparison rule: shape and type first, then floats within a tolerance.

use serde::{Deserialize, Serialize};

use crate::{Lang, Reason, Value};

/// How close a float must be to pass: `|got - want| <= abs` or
/// `|got - want| <= rel * |want|`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Tolerance {
    /// Absolute tolerance.
    pub abs: f64,
    /// Relative tolerance.
    pub rel: f64,
}

impl Default for Tolerance {
    /// `abs = 1e-9`, `rel = 1e-9`: tight enough to catch a wrong formula, loose
    /// enough for a different but sound summation order.
    fn default() -> Self {
        Tolerance {
            abs: 1e-9,
            rel: 1e-9,
        }
    }
}

/// Why a value did not match, and where.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mismatch {
    /// Path of the wrong element inside the value, e.g. `[2][3]` or `.per_token`;
    /// empty for the value itself.
    pub path: String,
    /// What the reference produced there.
    pub want: Value,
    /// What the learner's code produced there.
    pub got: Value,
    /// `|got - want|` for numbers.
    pub abs_err: Option<f64>,
    /// `|got - want| / |want|` for numbers (absent when `want` is 0).
    pub rel_err: Option<f64>,
    /// A sentence for the learner, in English ([`Mismatch::reason_in`] tells it
    /// in either language, from [`Mismatch::why`]).
    pub reason: String,
}

/// Compares `got` with `want`. Returns the first structural mismatch (wrong type,
/// length, key) if any, else the numeric mismatch with the largest absolute error.
pub fn compare(got: &Value, want: &Value, tol: Tolerance) -> Result<(), Box<Mismatch>> {
    let mut worst: Option<Mismatch> = None;
    walk(got, want, tol, &mut String::new(), &mut worst)?;
    match worst {
        Some(m) => Err(Box::new(m)),
        None => Ok(()),
    }
}

/// A mismatch of shape or type at `path`; its reason is [`Reason::of`] the two.
fn structural(path: &str, got: &Value, want: &Value) -> Box<Mismatch> {
    Box::new(Mismatch {
        path: path.to_owned(),
        want: want.clone(),
        got: got.clone(),
        abs_err: None,
        rel_err: None,
        reason: Reason::of(got, want).text_in(Lang::En),
    })
}

fn walk(
    got: &Value,
    want: &Value,
    tol: Tolerance,
    path: &mut String,
    worst: &mut Option<Mismatch>,
) -> Result<(), Box<Mismatch>> {
    match (want, got) {
        (Value::Int(w), Value::Int(g)) => {
            if w != g {
                let abs = (*g as f64 - *w as f64).abs();
                numeric(path, got, want, abs, *w as f64, worst);
            }
            Ok(())
        }
        (Value::Float(w), Value::Int(_) | Value::Float(_)) => {
            let g = got.as_float().unwrap_or(f64::NAN);
            if !floats_match(g, *w, tol) {
                let abs = (g - w).abs();
                numeric(path, got, want, abs, *w, worst);
            }
            Ok(())
        }
        (Value::Array(w), Value::Array(g)) => {
            if w.len() != g.len() {
                return Err(structural(path, got, want));
            }
            for (i, (gv, wv)) in g.iter().zip(w).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                walk(gv, wv, tol, path, worst)?;
                path.truncate(len);
            }
            Ok(())
        }
        (Value::Map(w), Value::Map(g)) => {
            if w.keys().ne(g.keys()) {
                return Err(structural(path, got, want));
            }
            for (k, wv) in w {
                let len = path.len();
                path.push_str(&format!(".{k}"));
                walk(&g[k], wv, tol, path, worst)?;
                path.truncate(len);
            }
            Ok(())
        }
        (w, g) if w.type_name() != g.type_name() => Err(structural(path, got, want)),
        (w, g) => {
            if w == g {
                Ok(())
            } else {
                Err(structural(path, got, want))
            }
        }
    }
}

fn floats_match(g: f64, w: f64, tol: Tolerance) -> bool {
    if w.is_nan() || g.is_nan() {
        return w.is_nan() && g.is_nan();
    }
    if w.is_infinite() || g.is_infinite() {
        return w == g;
    }
    let d = (g - w).abs();
    d <= tol.abs || d <= tol.rel * w.abs()
}

fn numeric(path: &str, got: &Value, want: &Value, abs: f64, w: f64, worst: &mut Option<Mismatch>) {
    let worse = match worst {
        None => true,
        Some(m) => m
            .abs_err
            .is_some_and(|e| abs > e || (abs.is_nan() && !e.is_nan())),
    };
    if worse {
        let rel = (w != 0.0 && w.is_finite()).then(|| abs / w.abs());
        *worst = Some(Mismatch {
            path: path.to_owned(),
            want: want.clone(),
            got: got.clone(),
            abs_err: Some(abs),
            rel_err: rel,
            reason: Reason::NumbersDiffer.text_in(Lang::En),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t() -> Tolerance {
        Tolerance {
            abs: 1e-6,
            rel: 1e-6,
        }
    }

    #[test]
    fn ints_must_be_equal() {
        assert!(compare(&Value::Int(640), &Value::Int(640), t()).is_ok());
        let m = compare(&Value::Int(641), &Value::Int(640), t()).unwrap_err();
        assert_eq!(m.abs_err, Some(1.0));
    }

    #[test]
    fn int_where_float_expected_is_fine_but_not_the_reverse() {
        assert!(compare(&Value::Int(2), &Value::Float(2.0), t()).is_ok());
        let m = compare(&Value::Float(2.0), &Value::Int(2), t()).unwrap_err();
        assert_eq!(m.reason, "expected int, got float");
    }

    #[test]
    fn floats_pass_within_abs_or_rel() {
        assert!(compare(&1e9.into(), &(1e9 + 1.0).into(), t()).is_ok()); // rel
        assert!(compare(&1e-7.into(), &0.0.into(), t()).is_ok()); // abs
        assert!(compare(&1.01.into(), &1.0.into(), t()).is_err());
    }

    #[test]
    fn nan_and_infinities() {
        assert!(compare(&f64::NAN.into(), &f64::NAN.into(), t()).is_ok());
        assert!(compare(&1.0.into(), &f64::NAN.into(), t()).is_err());
        assert!(compare(&f64::NAN.into(), &1.0.into(), t()).is_err());
        assert!(compare(&f64::INFINITY.into(), &f64::INFINITY.into(), t()).is_ok());
        assert!(compare(&f64::NEG_INFINITY.into(), &f64::INFINITY.into(), t()).is_err());
        assert!(compare(&1e308.into(), &f64::INFINITY.into(), t()).is_err());
    }

    #[test]
    fn reports_path_of_worst_element() {
        let want = Value::from(vec![vec![1.0, 2.0], vec![3.0, 4.0]]);
        let got = Value::from(vec![vec![1.1, 2.0], vec![3.0, 9.0]]);
        let m = compare(&got, &want, t()).unwrap_err();
        assert_eq!(m.path, "[1][1]");
        assert_eq!(m.abs_err, Some(5.0));
        assert_eq!(m.rel_err, Some(1.25));
    }

    #[test]
    fn length_and_key_mismatches_are_structural() {
        let m = compare(&Value::from(vec![1, 2]), &Value::from(vec![1, 2, 3]), t()).unwrap_err();
        assert_eq!(m.reason, "expected 3 elements, got 2");
        let want = Value::Map([("a".to_owned(), Value::Int(1))].into());
        let got = Value::Map([("b".to_owned(), Value::Int(1))].into());
        assert_eq!(
            compare(&got, &want, t()).unwrap_err().reason,
            "missing key `a`"
        );
    }

    #[test]
    fn reasons_are_told_in_both_languages() {
        use crate::Lang::{En, Zh};
        let reasons = |got: Value, want: Value| {
            let m = compare(&got, &want, t()).unwrap_err();
            assert_eq!(m.reason_in(En), m.reason);
            (m.reason.clone(), m.reason_in(Zh))
        };
        let map = |k: &str| Value::Map([(k.to_owned(), Value::Int(1))].into());
        assert_eq!(
            reasons(Value::from(vec![1, 2]), Value::from(vec![1, 2, 3])),
            (
                "expected 3 elements, got 2".into(),
                "应有 3 个元素，实际有 2 个".into()
            )
        );
        assert_eq!(
            reasons(map("b"), map("a")),
            ("missing key `a`".into(), "缺少键 `a`".into())
        );
        let mut two = map("a");
        if let Value::Map(m) = &mut two {
            m.insert("z".into(), Value::Int(2));
        }
        assert_eq!(
            reasons(two, map("a")),
            ("unexpected key `z`".into(), "多出了键 `z`".into())
        );
        assert_eq!(
            reasons(Value::from("x"), Value::Int(1)),
            (
                "expected int, got string".into(),
                "应为 int 类型，实际是 string".into()
            )
        );
        assert_eq!(
            reasons(Value::from(vec![1.0, 2.5]), Value::from(vec![1.0, 2.0])),
            ("values differ".into(), "数值不同".into())
        );
        assert_eq!(
            reasons(Value::from("x"), Value::from("y")),
            ("values differ".into(), "值不同".into())
        );
    }
}
