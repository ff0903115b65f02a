//! The scripting API of chapter `ch_kvcache`: its formulas and demos' functions
//! under the names Rhai calls them by (the browser's scratch cell, `judge eval`).
//!
//! Not a module of the `chapters` crate: the `exercises` crate compiles this file
//! as `exercises::api::ch_kvcache` (its build script finds every chapter's
//! `api.rs`), since it needs the judge's values; the machinery (`ApiFn`, the
//! argument reader `A`, `api_fn!`) is `exercises/src/api.rs`.

use chapters::ch_kvcache::{delta_rule, formulas, quant};
use judge::Value;

use crate::api::{A, ApiFn, BIG, shape};

/// The largest byte count an argument may be: 2^50 (a petabyte).
const MAX_BYTES: i64 = 1 << 50;

/// The largest layer count an argument may be.
const MAX_LAYERS: i64 = 100_000;

/// The longest vector `delta_rule_step` takes (its state is at most 64 × 64).
const MAX_VECTOR: usize = 64;

/// The most values `quant_error` quantizes in one call.
const MAX_VALUES: usize = 1 << 16;

/// The chapter's functions, in the order `judge eval --list` shows them.
pub fn functions() -> Vec<ApiFn> {
    vec![
        api_fn!(
            "gqa_bytes",
            [
                "layers",
                "kv_heads",
                "head_dim",
                "tokens",
                "batch",
                "dtype_bytes"
            ],
            "int",
            |a| {
                let [l, h, d, t, b, s] = counts(&a)?;
                fits(&a, &[2, l, h, d, t, b, s])?;
                Ok(Value::Int(formulas::gqa_bytes(l, h, d, t, b, s) as i64))
            }
        ),
        api_fn!(
            "mla_bytes",
            [
                "layers",
                "kv_lora_rank",
                "rope_dim",
                "tokens",
                "batch",
                "dtype_bytes"
            ],
            "int",
            |a| {
                let [l, r, p, t, b, s] = counts(&a)?;
                fits(&a, &[l, r + p, t, b, s])?;
                Ok(Value::Int(formulas::mla_bytes(l, r, p, t, b, s) as i64))
            }
        ),
        api_fn!(
            "hybrid_bytes",
            [
                "full_layers",
                "kv_heads",
                "head_dim",
                "tokens",
                "batch",
                "dtype_bytes"
            ],
            "int",
            |a| {
                let [l, h, d, t, b, s] = counts(&a)?;
                fits(&a, &[2, l, h, d, t, b, s])?;
                Ok(Value::Int(formulas::hybrid_bytes(l, h, d, t, b, s) as i64))
            }
        ),
        api_fn!(
            "csa_hca_bytes",
            [
                "tokens",
                "n_csa",
                "n_hca",
                "n_layers",
                "kv_dim",
                "dtype_bytes"
            ],
            "#{compressed, window}",
            |a| {
                let c = formulas::csa_hca_bytes(
                    a.int(0, 0, BIG)? as u64,
                    a.int(1, 0, MAX_LAYERS)? as u64,
                    a.int(2, 0, MAX_LAYERS)? as u64,
                    a.int(3, 0, MAX_LAYERS)? as u64,
                    a.int(4, 0, 1 << 20)? as u64,
                    a.int(5, 0, 64)? as u64,
                );
                Ok(Value::Map(
                    [
                        ("compressed".to_owned(), Value::Float(c.compressed)),
                        ("window".to_owned(), Value::Int(c.window as i64)),
                    ]
                    .into(),
                ))
            }
        ),
        api_fn!(
            "csa_entries",
            ["tokens", "stride", "width"],
            "int",
            |a| Ok(Value::Int(formulas::csa_entries(
                a.int(0, 0, BIG)? as u64,
                a.int(1, 1, BIG)? as u64,
                a.int(2, 1, BIG)? as u64
            ) as i64))
        ),
        api_fn!(
            "kv_models",
            [],
            "[names]",
            |_a| Ok(Value::Array(
                formulas::table_models()
                    .into_iter()
                    .map(|m| Value::from(m.name))
                    .collect()
            ))
        ),
        api_fn!(
            "kv_per_token",
            ["model"],
            "float",
            |a| {
                let name = a.str(0)?;
                let m = formulas::table_model(name).ok_or_else(|| {
                    let names: Vec<String> = formulas::table_models()
                        .iter()
                        .map(|m| format!("\"{}\"", m.name))
                        .collect();
                    format!(
                        "kv_per_token: unknown model \"{name}\"; the models are {}",
                        names.join(", ")
                    )
                })?;
                Ok(Value::Float(m.per_token()))
            }
        ),
        api_fn!(
            "delta_rule_step",
            ["s", "k", "v", "alpha", "beta"],
            "matrix",
            // Two passes over the state: S k, then the update.
            work = |v| {
                let (r, c) = shape(v.first());
                4 * r * c + 1
            },
            |a| {
                let m = a.matrix(0)?;
                let (d_v, d_k) = m.dim();
                let k = vector(&a, 1, d_k, "the columns of `s`")?;
                let v = vector(&a, 2, d_v, "the rows of `s`")?;
                let (alpha, beta) = (a.float(3, 0.0, 1.0)?, a.float(4, 0.0, 1.0)?);
                let s: Vec<Vec<f64>> = m.rows().into_iter().map(|r| r.to_vec()).collect();
                Ok(delta_rule::delta_rule_step(&s, &k, &v, alpha, beta).into())
            }
        ),
        api_fn!(
            "gdn_alpha",
            ["a", "dt_bias", "a_log"],
            "float",
            |a| Ok(Value::Float(delta_rule::gdn_alpha(
                a.float(0, -1e6, 1e6)?,
                a.float(1, -1e6, 1e6)?,
                a.float(2, -1e3, 1e3)?
            )))
        ),
        api_fn!(
            "quant_error",
            ["format", "values"],
            "float",
            work = |v| 20 * array_len(v.get(1)) + 1,
            |a| {
                let format = a.str(0)?;
                let values = numbers(&a, 1, MAX_VALUES)?;
                // FP32 scales hold about ±3.4e38: stay well inside.
                if let Some(x) = values.iter().find(|x| x.abs() > 1e30) {
                    return Err(format!(
                        "quant_error: argument 2 (`values`) must hold values between -1e30 and 1e30, got {x}"
                    ));
                }
                quant::quant_error(format, &values)
                    .map(Value::Float)
                    .ok_or_else(|| {
                        format!(
                            "quant_error: unknown format \"{format}\"; the formats are \"bf16\", \"fp8\", \"fp4\""
                        )
                    })
            }
        ),
        api_fn!(
            "max_batch",
            [
                "per_token_bytes",
                "fixed_bytes",
                "weight_bytes",
                "gpu_bytes",
                "tokens"
            ],
            "int",
            |a| {
                let per_token = a.float(0, 0.0, BIG as f64)?;
                let fixed = a.int(1, 0, MAX_BYTES)?;
                let weight = a.int(2, 0, MAX_BYTES)?;
                let gpu = a.int(3, 0, MAX_BYTES)?;
                let tokens = a.int(4, 0, BIG)?;
                if fixed as f64 + per_token * (tokens as f64) < 1.0 {
                    return Err(
                        "max_batch: a request must hold at least one byte (fixed_bytes + per_token_bytes × tokens)"
                            .to_owned(),
                    );
                }
                Ok(Value::Int(formulas::max_batch(
                    per_token,
                    fixed as u64,
                    weight as u64,
                    gpu as u64,
                    tokens as u64,
                ) as i64))
            }
        ),
    ]
}

/// Six counts, each between 0 and 2^40.
fn counts(a: &A) -> Result<[u64; 6], String> {
    let mut out = [0; 6];
    for (i, x) in out.iter_mut().enumerate() {
        *x = a.int(i, 0, BIG)? as u64;
    }
    Ok(out)
}

/// An error unless the product of `factors` fits in an int.
fn fits(a: &A, factors: &[u64]) -> Result<(), String> {
    let limit = i64::MAX as u128;
    let product = factors.iter().try_fold(1u128, |p, &f| {
        p.checked_mul(f as u128).filter(|p| *p <= limit)
    });
    match product {
        Some(_) => Ok(()),
        None => Err(format!(
            "{}: the bytes do not fit in an int (more than 2^63 - 1)",
            a.f
        )),
    }
}

/// The length of an array argument, 0 when it is not one.
fn array_len(v: Option<&Value>) -> u64 {
    match v {
        Some(Value::Array(a)) => a.len() as u64,
        _ => 0,
    }
}

/// Argument `i` as an array of at most `max` finite numbers (ints convert).
fn numbers(a: &A, i: usize, max: usize) -> Result<Vec<f64>, String> {
    let what = "an array of finite numbers";
    let Some(Value::Array(items)) = a.v.get(i) else {
        return Err(a.err(i, what));
    };
    if items.len() > max {
        return Err(format!(
            "{}: argument {} (`{}`) is limited to {max} values, got {}",
            a.f,
            i + 1,
            a.params[i],
            items.len()
        ));
    }
    items
        .iter()
        .enumerate()
        .map(|(j, x)| {
            x.as_float().filter(|x| x.is_finite()).ok_or_else(|| {
                format!(
                    "{}: argument {} (`{}`): element [{j}] must be a finite number, got {}",
                    a.f,
                    i + 1,
                    a.params[i],
                    x.type_name()
                )
            })
        })
        .collect()
}

/// Argument `i` as a vector of exactly `len` finite numbers; `of` says where the
/// length comes from.
fn vector(a: &A, i: usize, len: usize, of: &str) -> Result<Vec<f64>, String> {
    let x = numbers(a, i, MAX_VECTOR)?;
    if x.len() != len {
        return Err(format!(
            "{}: argument {} (`{}`) must have length {len} ({of}), got {}",
            a.f,
            i + 1,
            a.params[i],
            x.len()
        ));
    }
    Ok(x)
}

#[cfg(all(test, feature = "script"))]
mod tests {
    use super::functions;
    use crate::api::{ApiFn, eval};
    use judge::Value;
    use judge::script::Limits;

    fn ev(src: &str) -> Result<Value, String> {
        eval(src, Limits::default(), None, judge::Lang::En).0
    }

    fn map(pairs: &[(&str, Value)]) -> Value {
        Value::Map(
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                .collect(),
        )
    }

    #[test]
    fn every_function_works_from_rhai() {
        assert_eq!(
            ev("gqa_bytes(80, 8, 128, 1000000, 1, 2)"),
            Ok(Value::Int(327_680_000_000))
        );
        assert_eq!(
            ev("mla_bytes(61, 512, 64, 1000000, 1, 2)"),
            Ok(Value::Int(70_272_000_000))
        );
        assert_eq!(
            ev("hybrid_bytes(15, 2, 256, 1000000, 1, 2)"),
            Ok(Value::Int(30_720_000_000))
        );
        assert_eq!(
            ev("csa_hca_bytes(1000000, 30, 31, 61, 512, 2)"),
            Ok(map(&[
                ("compressed", Value::Float(7_928_000_000.0)),
                ("window", Value::Int(7_995_392)),
            ]))
        );
        assert_eq!(
            ev("csa_hca_bytes(1000000, 30, 31, 61, 512, 2).window"),
            Ok(Value::Int(7_995_392))
        );
        assert_eq!(ev("csa_entries(16, 4, 8)"), Ok(Value::Int(3)));
        assert_eq!(ev("csa_entries(7, 4, 8)"), Ok(Value::Int(0)));
        assert_eq!(ev("kv_models().len()"), Ok(Value::Int(4)));
        assert_eq!(ev("kv_models()[0]"), Ok(Value::from("Qwen3-72B")));
        assert_eq!(
            ev("kv_per_token(\"DeepSeek-V4\")"),
            Ok(Value::Float(7_928.0))
        );
        assert_eq!(
            ev("kv_per_token(\"Qwen3-72B\") / kv_per_token(\"DeepSeek-V4\")")
                .map(|v| v.as_float().map(f64::round)),
            Ok(Some(41.0))
        );
        assert_eq!(
            ev("delta_rule_step([[1.0, 2.0], [3.0, 4.0]], [1.0, 0.0], [5.0, 6.0], 0.5, 1.0)"),
            Ok(Value::from(vec![vec![5.0, 1.0], vec![6.0, 2.0]]))
        );
        // Ints convert, and a d_v x d_k state that is not square keeps its shape.
        assert_eq!(
            ev("delta_rule_step([[0, 0, 0]], [0, 1, 0], [2], 1, 1)"),
            Ok(Value::from(vec![vec![0.0, 2.0, 0.0]]))
        );
        let alpha = ev("gdn_alpha(0.0, 0.0, 0.0)").unwrap().as_float().unwrap();
        assert!((alpha - 0.5).abs() < 1e-12, "{alpha}");
        let Ok(Value::Float(e)) = ev("quant_error(\"fp8\", [0.1, -0.5, 1.0, 3.0])") else {
            panic!("quant_error")
        };
        assert!(e.is_finite() && e >= 0.0, "{e}");
        assert_eq!(
            ev("max_batch(327680.0, 0, 144000000000, 1128000000000, 131072)"),
            Ok(Value::Int(22))
        );
        assert_eq!(
            ev("max_batch(327680, 0, 144000000000, 141000000000, 131072)"),
            Ok(Value::Int(0))
        );
    }

    #[test]
    fn bad_arguments_name_function_and_argument() {
        let e = ev("gqa_bytes(80, -8, 128, 1, 1, 2)").unwrap_err();
        assert!(
            e.contains("gqa_bytes: argument 2 (`kv_heads`) must be between 0"),
            "{e}"
        );
        let e = ev("gqa_bytes(1099511627776, 1099511627776, 1, 1, 1, 1)").unwrap_err();
        assert!(
            e.contains("gqa_bytes: the bytes do not fit in an int"),
            "{e}"
        );
        let e = ev("mla_bytes(61, 512.5, 64, 1, 1, 2)").unwrap_err();
        assert!(
            e.contains("mla_bytes: argument 2 (`kv_lora_rank`) must be an int, got float"),
            "{e}"
        );
        let e = ev("csa_entries(16, 0, 8)").unwrap_err();
        assert!(
            e.contains("csa_entries: argument 2 (`stride`) must be between 1"),
            "{e}"
        );
        let e = ev("kv_per_token(\"GPT\")").unwrap_err();
        assert!(
            e.contains("unknown model \"GPT\"; the models are \"Qwen3-72B\""),
            "{e}"
        );
        let e = ev("delta_rule_step([[1.0, 2.0]], [1.0], [1.0], 0.5, 0.5)").unwrap_err();
        assert!(
            e.contains(
                "delta_rule_step: argument 2 (`k`) must have length 2 (the columns of `s`), got 1"
            ),
            "{e}"
        );
        let e = ev("delta_rule_step([[1.0, 2.0]], [1.0, 0.0], [1.0, 2.0], 0.5, 0.5)").unwrap_err();
        assert!(e.contains("argument 3 (`v`) must have length 1"), "{e}");
        let e = ev("delta_rule_step([[1.0, 2.0]], [1.0, 0.0], [1.0], 1.5, 0.5)").unwrap_err();
        assert!(
            e.contains("delta_rule_step: argument 4 (`alpha`) must be between 0 and 1, got 1.5"),
            "{e}"
        );
        let e = ev("delta_rule_step([[1.0, 2.0]], [1.0, 0.0], [\"x\"], 0.5, 0.5)").unwrap_err();
        assert!(
            e.contains("argument 3 (`v`): element [0] must be a finite number, got string"),
            "{e}"
        );
        let e = ev("gdn_alpha(\"a\", 0, 0)").unwrap_err();
        assert!(
            e.contains("gdn_alpha: argument 1 (`a`) must be a number, got string"),
            "{e}"
        );
        let e = ev("quant_error(\"int3\", [1.0])").unwrap_err();
        assert!(
            e.contains("unknown format \"int3\"; the formats are \"bf16\", \"fp8\", \"fp4\""),
            "{e}"
        );
        let e = ev("quant_error(\"fp8\", 1.0)").unwrap_err();
        assert!(
            e.contains("quant_error: argument 2 (`values`) must be an array of finite numbers"),
            "{e}"
        );
        let e = ev("quant_error(\"bf16\", [1.0, 1.0e31])").unwrap_err();
        assert!(
            e.contains("between -1e30 and 1e30, got 10000000000000000000000000000000"),
            "{e}"
        );
        let e = ev("max_batch(0.0, 0, 0, 10, 5)").unwrap_err();
        assert!(e.contains("at least one byte"), "{e}");
        let e = ev("max_batch(1.0, 0, -1, 10, 5)").unwrap_err();
        assert!(
            e.contains("max_batch: argument 3 (`weight_bytes`) must be between 0"),
            "{e}"
        );
        let e = ev("gqa_bytes(1, 2)").unwrap_err();
        assert!(
            e.ends_with(
                "the API has gqa_bytes(layers, kv_heads, head_dim, tokens, batch, dtype_bytes) -> int"
            ),
            "{e}"
        );
    }

    /// The chapter's own functions (the book's are `crate::api::functions()`).
    #[test]
    fn signatures_are_listed() {
        let sigs: Vec<String> = functions().iter().map(ApiFn::signature).collect();
        assert!(sigs.contains(&"csa_entries(tokens, stride, width) -> int".to_owned()));
        assert_eq!(sigs.len(), 11);
    }
}
