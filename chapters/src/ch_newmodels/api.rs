//! The scripting API of chapter `ch_newmodels`: its demos' functions under the
//! names Rhai calls them by (the browser's scratch cell, `judge eval`).
//!
//! Not a module of the `chapters` crate: the `exercises` crate compiles this file
//! as `exercises::api::ch_newmodels` (its build script finds every chapter's
//! `api.rs`), since it needs the judge's values; the machinery (`ApiFn`, the
//! argument reader `A`, `api_fn!`) is `exercises/src/api.rs`.

use chapters::ch_newmodels::{attended, compressor, ledger, mhc, routing};
use judge::Value;

use crate::api::{A, ApiFn, BIG, matrix_value, shape};

/// The chapter's functions, in the order `judge eval --list` shows them.
pub fn functions() -> Vec<ApiFn> {
    vec![
        api_fn!(
            "attended",
            ["pos", "ratio", "topk", "window"],
            "int",
            |a| Ok(Value::Int(attended::attended(
                a.int(0, 0, BIG)? as u64,
                a.int(1, 0, BIG)? as u64,
                a.int(2, 0, BIG)? as u64,
                a.int(3, 0, BIG)? as u64
            ) as i64))
        ),
        api_fn!(
            "compressor_counts",
            ["n_tokens", "ratio"],
            "[entries, partial]",
            |a| {
                let (e, p) = compressor::compressor_counts(
                    a.int(0, 0, BIG)? as u64,
                    a.int(1, 1, BIG)? as u64,
                );
                Ok(Value::from(vec![e as i64, p as i64]))
            }
        ),
        api_fn!(
            "prefix_reuse",
            ["prefix_len", "ratio"],
            "[reused_entries, tokens_covered, tail_tokens]",
            |a| {
                let (e, c, t) =
                    compressor::prefix_reuse(a.int(0, 0, BIG)? as u64, a.int(1, 1, BIG)? as u64);
                Ok(Value::from(vec![e as i64, c as i64, t as i64]))
            }
        ),
        api_fn!(
            "v4_kv",
            ["c4", "c128", "swa_only", "idx_bytes"],
            "[per_token_bytes (float), fixed_bytes (int)]",
            |a| {
                let (c4, c128, swa, idx) = (
                    a.int(0, 0, 10_000)?,
                    a.int(1, 0, 10_000)?,
                    a.int(2, 0, 10_000)?,
                    a.int(3, 0, 1 << 20)?,
                );
                let per = ledger::v4_per_token(c4 as f64, c128 as f64, idx as f64);
                let fixed = ledger::v4_fixed(c4 as f64, c128 as f64, swa as f64);
                Ok(Value::Array(vec![
                    Value::Float(per),
                    Value::Int(fixed as i64),
                ]))
            }
        ),
        api_fn!(
            "ledger_models",
            [],
            "[names]",
            |_a| Ok(Value::Array(
                ledger::default_models()
                    .into_iter()
                    .map(|m| Value::Str(m.name))
                    .collect()
            ))
        ),
        api_fn!(
            "ledger_row",
            ["model"],
            "#{per_token, fixed, max_len}",
            |a| {
                let m = find_model(a.str(0)?)?;
                Ok(Value::Map(
                    [
                        ("per_token".to_owned(), Value::Float(m.per_token)),
                        ("fixed".to_owned(), Value::Int(m.fixed as i64)),
                        ("max_len".to_owned(), Value::Int(m.max_len as i64)),
                    ]
                    .into(),
                ))
            }
        ),
        api_fn!(
            "ledger",
            ["model", "tokens"],
            "bytes (float), or () past the maximum context",
            |a| {
                let m = find_model(a.str(0)?)?;
                Ok(m.bytes(a.int(1, 0, BIG)? as u64)
                    .map_or(Value::Unit, Value::Float))
            }
        ),
        api_fn!(
            "dispatch_bytes",
            ["hidden", "topk", "bytes_per_elem", "latent"],
            "int",
            |a| {
                let (hidden, topk, bytes, latent) = (
                    a.int(0, 0, 1 << 24)?,
                    a.int(1, 0, 1 << 12)?,
                    a.int(2, 0, 64)?,
                    a.int(3, 0, 1 << 24)?,
                );
                let width = if latent > 0 { latent } else { hidden };
                Ok(Value::Int(
                    routing::dispatch_bytes(width as u64, topk as u64, bytes as u64) as i64,
                ))
            }
        ),
        api_fn!(
            "sinkhorn",
            ["matrix", "iters"],
            "matrix",
            // A row and a column pass per iteration over every element.
            work = |v| {
                let (r, c) = shape(v.first());
                let iters = v.get(1).and_then(Value::as_int).unwrap_or(0).max(0) as u64;
                2 * r * c * (iters + 1)
            },
            |a| Ok(matrix_value(&mhc::sinkhorn(
                &a.matrix(0)?,
                a.int(1, 1, 10_000)? as usize,
                1e-6
            )))
        ),
        api_fn!(
            "spectral_norm",
            ["matrix"],
            "float",
            // A Gram product and a Jacobi eigen-solve: a few n^3 passes.
            work = |v| {
                let (r, c) = shape(v.first());
                10 * r * c * r.max(c)
            },
            |a| Ok(Value::Float(mhc::spectral_norm(&a.matrix(0)?)))
        ),
    ]
}

fn find_model(name: &str) -> Result<ledger::Model, String> {
    ledger::model(name).ok_or_else(|| {
        let names: Vec<String> = ledger::default_models()
            .into_iter()
            .map(|m| format!("\"{}\"", m.name))
            .collect();
        format!(
            "ledger: unknown model \"{name}\"; the models are {}",
            names.join(", ")
        )
    })
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

    #[test]
    fn every_function_works_from_rhai() {
        assert_eq!(ev("attended(1048575, 4, 512, 128)"), Ok(Value::Int(640)));
        assert_eq!(ev("compressor_counts(22, 4)"), Ok(Value::from(vec![5, 2])));
        assert_eq!(
            ev("prefix_reuse(1000, 128)"),
            Ok(Value::from(vec![7, 896, 104]))
        );
        assert_eq!(
            ev("v4_kv(30, 31, 0, 132)"),
            Ok(Value::Array(vec![
                Value::Float(5511.4375),
                Value::Int(23_270_400)
            ]))
        );
        assert_eq!(ev("ledger_models().len()"), Ok(Value::Int(6)));
        assert_eq!(
            ev("ledger_row(\"DeepSeek-V4-Flash\").fixed"),
            Ok(Value::Int(15_420_416))
        );
        assert_eq!(
            ev("ledger(\"DeepSeek-V4-Pro\", 262144)"),
            Ok(Value::Float(1_468_060_672.0))
        );
        assert_eq!(ev("ledger(\"DeepSeek-V3.2\", 1048576)"), Ok(Value::Unit));
        assert_eq!(
            ev("dispatch_bytes(7168, 6, 1, 0) / 1024"),
            Ok(Value::Int(42))
        );
        assert_eq!(
            ev("dispatch_bytes(7168, 6, 1, 3584)"),
            Ok(Value::Int(21_504))
        );
        let Ok(Value::Array(m)) = ev("sinkhorn([[1.0, 2.0], [3.0, 4.0]], 20)") else {
            panic!()
        };
        assert_eq!(m.len(), 2);
        assert_eq!(
            ev("spectral_norm([[3, 0], [0, 1]])")
                .map(|v| v.as_float().map(|x| (x * 1e9).round() / 1e9)),
            Ok(Some(3.0))
        );
    }

    #[test]
    fn bad_arguments_name_function_and_argument() {
        let e = ev("attended(1, 4.5, 0, 128)").unwrap_err();
        assert!(
            e.contains("attended: argument 2 (`ratio`) must be an int, got float"),
            "{e}"
        );
        let e = ev("ledger(\"GPT\", 10)").unwrap_err();
        assert!(e.contains("unknown model \"GPT\""), "{e}");
        let e = ev("sinkhorn([[1, 2], [3]], 20)").unwrap_err();
        assert!(e.contains("row [1] has 1 elements"), "{e}");
        let e = ev("attended(1, 2)").unwrap_err();
        assert!(
            e.ends_with("the API has attended(pos, ratio, topk, window) -> int"),
            "{e}"
        );
        let e = ev("prefix_reuse(10, 0)").unwrap_err();
        assert!(
            e.contains("prefix_reuse: argument 2 (`ratio`) must be between 1"),
            "{e}"
        );
    }

    /// The chapter's own functions (the book's are `crate::api::functions()`).
    #[test]
    fn signatures_are_listed() {
        let sigs: Vec<String> = functions().iter().map(ApiFn::signature).collect();
        assert!(sigs.contains(&"attended(pos, ratio, topk, window) -> int".to_owned()));
        assert_eq!(sigs.len(), 10);
    }
}
