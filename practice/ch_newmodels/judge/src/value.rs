//! JSON-like values exchanged between the judge, learners' code and references.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// A value passed to or returned by an exercise function.
///
/// Serialises to plain JSON, except that non-finite floats become the strings
/// `"NaN"`, `"inf"` and `"-inf"` (JSON has no literal for them).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// No value (Rhai's `()`, Rust's `()` or `None`).
    Unit,
    /// A boolean.
    Bool(bool),
    /// A 64-bit integer.
    Int(i64),
    /// A 64-bit float.
    Float(f64),
    /// A string.
    Str(String),
    /// An ordered list.
    Array(Vec<Value>),
    /// A map with string keys, kept sorted so output is stable.
    Map(BTreeMap<String, Value>),
}

impl Value {
    /// The type name a learner sees in messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Unit => "()",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "string",
            Value::Array(_) => "array",
            Value::Map(_) => "map",
        }
    }

    /// The value as an integer, if it is one.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The value as a float; integers convert.
    pub fn as_float(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// Converts to a `serde_json::Value` (non-finite floats as strings).
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match self {
            Value::Unit => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Int(i) => J::from(*i),
            Value::Float(f) => match serde_json::Number::from_f64(*f) {
                Some(n) => J::Number(n),
                None if f.is_nan() => J::from("NaN"),
                None if *f > 0.0 => J::from("inf"),
                None => J::from("-inf"),
            },
            Value::Str(s) => J::from(s.as_str()),
            Value::Array(a) => J::Array(a.iter().map(Value::to_json).collect()),
            Value::Map(m) => J::Object(m.iter().map(|(k, v)| (k.clone(), v.to_json())).collect()),
        }
    }

    /// Converts from a `serde_json::Value`; the strings `"NaN"`, `"inf"`, `"-inf"`
    /// stay strings (only [`Value::to_json`]'s caller knows a float was meant).
    pub fn from_json(j: &serde_json::Value) -> Value {
        use serde_json::Value as J;
        match j {
            J::Null => Value::Unit,
            J::Bool(b) => Value::Bool(*b),
            J::Number(n) => match n.as_i64() {
                Some(i) => Value::Int(i),
                None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            J::String(s) => Value::Str(s.clone()),
            J::Array(a) => Value::Array(a.iter().map(Value::from_json).collect()),
            J::Object(m) => Value::Map(
                m.iter()
                    .map(|(k, v)| (k.clone(), Value::from_json(v)))
                    .collect(),
            ),
        }
    }

    /// The practice protocol's encoding: like [`Value::to_json`], except that
    /// non-finite floats become `{"$float": "NaN" | "inf" | "-inf"}`, so a Rust
    /// solution that returns NaN is read back as the float NaN (and gets the
    /// same verdict as the same bug in Rhai), not as a string.
    pub fn to_wire(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match self {
            Value::Float(f) if !f.is_finite() => {
                let name = if f.is_nan() {
                    "NaN"
                } else if *f > 0.0 {
                    "inf"
                } else {
                    "-inf"
                };
                serde_json::json!({ WIRE_FLOAT: name })
            }
            Value::Array(a) => J::Array(a.iter().map(Value::to_wire).collect()),
            Value::Map(m) => J::Object(m.iter().map(|(k, v)| (k.clone(), v.to_wire())).collect()),
            v => v.to_json(),
        }
    }

    /// Reads [`Value::to_wire`]'s encoding back.
    pub fn from_wire(j: &serde_json::Value) -> Value {
        use serde_json::Value as J;
        match j {
            J::Object(m) if m.len() == 1 => match m.get(WIRE_FLOAT).and_then(J::as_str) {
                Some("NaN") => Value::Float(f64::NAN),
                Some("inf") => Value::Float(f64::INFINITY),
                Some("-inf") => Value::Float(f64::NEG_INFINITY),
                _ => Value::Map(
                    m.iter()
                        .map(|(k, v)| (k.clone(), Value::from_wire(v)))
                        .collect(),
                ),
            },
            J::Object(m) => Value::Map(
                m.iter()
                    .map(|(k, v)| (k.clone(), Value::from_wire(v)))
                    .collect(),
            ),
            J::Array(a) => Value::Array(a.iter().map(Value::from_wire).collect()),
            j => Value::from_json(j),
        }
    }
}

/// The key that tags a non-finite float in the practice protocol.
const WIRE_FLOAT: &str = "$float";

impl Serialize for Value {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde_json::Value::deserialize(d).map(|j| Value::from_json(&j))
    }
}

/// Human-readable, Rhai-like: `[1, 2.5, "x"]`, `#{a: 1}`.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Unit => write!(f, "()"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) if x.is_finite() && x.fract() == 0.0 && x.abs() < 1e15 => {
                write!(f, "{x:.1}")
            }
            Value::Float(x) => write!(f, "{x}"),
            Value::Str(s) => write!(f, "{s:?}"),
            Value::Array(a) => {
                write!(f, "[")?;
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{v}")?;
                }
                write!(f, "]")
            }
            Value::Map(m) => {
                write!(f, "#{{")?;
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{k}: {v}")?;
                }
                write!(f, "}}")
            }
        }
    }
}

macro_rules! from_num {
    ($($t:ty => $v:ident as $c:ty),*) => {$(
        impl From<$t> for Value {
            fn from(x: $t) -> Self { Value::$v(x as $c) }
        }
    )*};
}
from_num!(i64 => Int as i64, i32 => Int as i64, u32 => Int as i64, f64 => Float as f64);

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Str(s.to_owned())
    }
}

impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(v: Vec<T>) -> Self {
        Value::Array(v.into_iter().map(Into::into).collect())
    }
}

/// A pair is an array of two values (a Rust function returning `(f64, i64)`
/// answers `[float, int]`).
impl<A: Into<Value>, B: Into<Value>> From<(A, B)> for Value {
    fn from((a, b): (A, B)) -> Self {
        Value::Array(vec![a.into(), b.into()])
    }
}

/// A triple is an array of three values.
impl<A: Into<Value>, B: Into<Value>, C: Into<Value>> From<(A, B, C)> for Value {
    fn from((a, b, c): (A, B, C)) -> Self {
        Value::Array(vec![a.into(), b.into(), c.into()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every float crosses JSON unchanged, to the bit: the verdicts, the
    /// cases' arguments and Python's replies all cross a JSON boundary (worker
    /// to page, Python to the judge), and serde_json without its
    /// `float_roundtrip` feature reads "92.31250000000001" as 92.3125.
    #[test]
    fn floats_cross_json_to_the_bit() {
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let mut floats = vec![92.312_500_000_000_01, 122.300_000_000_000_01, 0.1 + 0.2];
        for _ in 0..20_000 {
            let f = f64::from_bits(next());
            if f.is_finite() {
                floats.push(f);
            }
            // Decimal-looking values like the cases' (382.6 + 60.5) / 4.8.
            floats.push(
                (next() % 40_000) as f64 / 10.0 / [2.0, 3.35, 4.8, 8.0][(next() % 4) as usize],
            );
        }
        for f in floats {
            let v = Value::Float(f);
            let text = serde_json::to_string(&v.to_wire()).unwrap();
            let back = Value::from_wire(&serde_json::from_str(&text).unwrap());
            let Value::Float(g) = back else {
                panic!("{text} came back as {back:?}")
            };
            assert_eq!(
                f.to_bits(),
                g.to_bits(),
                "{f:?} was written {text} and read {g:?}"
            );
            let direct: Value = serde_json::from_str(&serde_json::to_string(&v).unwrap()).unwrap();
            assert_eq!(direct, v, "{f:?} through Value's own serde");
        }
    }

    #[test]
    fn json_round_trip_keeps_ints_and_floats_apart() {
        let v = Value::Array(vec![Value::Int(3), Value::Float(2.5), Value::from("x")]);
        let s = serde_json::to_string(&v).unwrap();
        assert_eq!(s, r#"[3,2.5,"x"]"#);
        assert_eq!(serde_json::from_str::<Value>(&s).unwrap(), v);
    }

    #[test]
    fn non_finite_floats_serialise_as_strings() {
        let v = Value::Array(vec![
            f64::NAN.into(),
            f64::INFINITY.into(),
            f64::NEG_INFINITY.into(),
        ]);
        assert_eq!(
            serde_json::to_string(&v).unwrap(),
            r#"["NaN","inf","-inf"]"#
        );
    }

    #[test]
    fn wire_keeps_non_finite_floats_floats() {
        let v = Value::Array(vec![
            f64::NAN.into(),
            f64::INFINITY.into(),
            Value::Map([("x".to_owned(), f64::NEG_INFINITY.into())].into()),
            1.5.into(),
            Value::from("NaN"),
        ]);
        let wire = v.to_wire();
        assert_eq!(
            wire.to_string(),
            r#"[{"$float":"NaN"},{"$float":"inf"},{"x":{"$float":"-inf"}},1.5,"NaN"]"#
        );
        let Value::Array(back) = Value::from_wire(&wire) else {
            panic!()
        };
        assert!(matches!(back[0], Value::Float(f) if f.is_nan()));
        let Value::Array(orig) = &v else { panic!() };
        assert_eq!(back[1..], orig[1..]);
    }

    #[test]
    fn tuples_are_arrays() {
        assert_eq!(Value::from((1.5, 2_i64)).to_string(), "[1.5, 2]");
        assert_eq!(
            Value::from((vec![1_i64, 2], 0.5, true)).to_string(),
            "[[1, 2], 0.5, true]"
        );
    }

    #[test]
    fn display_is_rhai_like() {
        let v = Value::Array(vec![Value::Int(1), Value::Float(2.0), Value::Unit]);
        assert_eq!(v.to_string(), "[1, 2.0, ()]");
    }
}
