//! The chapters' functions under documented names, for Rhai: the browser's
//! scratch cell and `judge eval '<expr>'` call them. Arguments are checked and a
//! bad one gives an error naming the function and the argument.

use chapters::ch_newmodels::{attended, compressor, ledger, mhc, routing};
use judge::Value;
use ndarray::Array2;

/// One function of the scripting API.
#[derive(Debug, Clone, Copy)]
pub struct ApiFn {
    /// Rhai name.
    pub name: &'static str,
    /// Parameter names.
    pub params: &'static [&'static str],
    /// Return shape, for people.
    pub returns: &'static str,
    /// One line of documentation.
    pub doc: &'static str,
    /// The implementation.
    pub call: fn(&[Value]) -> Result<Value, String>,
    /// Units of native work a call with these arguments does (about one per
    /// floating-point operation), charged to the run's budget before it runs.
    pub work: fn(&[Value]) -> u64,
}

impl ApiFn {
    /// `attended(pos, ratio, topk, window) -> int`
    pub fn signature(&self) -> String {
        format!(
            "{}({}) -> {}",
            self.name,
            self.params.join(", "),
            self.returns
        )
    }
}

/// Typed access to arguments with errors that name the function and the argument.
struct A<'a> {
    f: &'static str,
    params: &'static [&'static str],
    v: &'a [Value],
}

impl A<'_> {
    fn err(&self, i: usize, what: &str) -> String {
        let got = self.v.get(i).map_or("nothing", Value::type_name);
        format!(
            "{}: argument {} (`{}`) must be {what}, got {got}",
            self.f,
            i + 1,
            self.params.get(i).unwrap_or(&"?")
        )
    }
    fn int(&self, i: usize, min: i64, max: i64) -> Result<i64, String> {
        match self.v.get(i) {
            Some(Value::Int(x)) if (min..=max).contains(x) => Ok(*x),
            Some(Value::Int(x)) => Err(format!(
                "{}: argument {} (`{}`) must be between {min} and {max}, got {x}",
                self.f,
                i + 1,
                self.params[i]
            )),
            _ => Err(self.err(i, "an int")),
        }
    }
    fn str(&self, i: usize) -> Result<&str, String> {
        match self.v.get(i) {
            Some(Value::Str(s)) => Ok(s),
            _ => Err(self.err(i, "a string")),
        }
    }
    /// A non-empty rectangular matrix of finite numbers, at most 64 × 64; the
    /// shape and element checks are `harness::Args::matrix`'s.
    fn matrix(&self, i: usize) -> Result<Array2<f64>, String> {
        let rows = judge::harness::Args(self.v)
            .matrix(i)
            .map_err(|e| format!("{}: {e} (`{}`)", self.f, self.params[i]))?;
        let cols = rows.first().map_or(0, Vec::len);
        if cols == 0 || rows.iter().flatten().any(|x| !x.is_finite()) {
            return Err(self.err(i, "a non-empty array of rows of finite numbers"));
        }
        if rows.len() > 64 || cols > 64 {
            return Err(format!(
                "{}: argument {} (`{}`) is limited to 64 × 64",
                self.f,
                i + 1,
                self.params[i]
            ));
        }
        Array2::from_shape_vec((rows.len(), cols), rows.concat()).map_err(|e| e.to_string())
    }
}

fn matrix_value(m: &Array2<f64>) -> Value {
    Value::Array(
        m.rows()
            .into_iter()
            .map(|r| Value::Array(r.iter().map(|x| Value::Float(*x)).collect()))
            .collect(),
    )
}

const BIG: i64 = 1 << 40;

/// The shape `(rows, cols)` of a matrix argument, `(0, 0)` when it is not one.
fn shape(v: Option<&Value>) -> (u64, u64) {
    match v {
        Some(Value::Array(rows)) => {
            let cols = match rows.first() {
                Some(Value::Array(r)) => r.len(),
                _ => 0,
            };
            (rows.len() as u64, cols as u64)
        }
        _ => (0, 0),
    }
}

macro_rules! api_fn {
    ($name:literal, [$($p:literal),*], $ret:literal, $doc:literal, |$a:ident| $body:expr) => {
        api_fn!($name, [$($p),*], $ret, $doc, work = |_v| 1, |$a| $body)
    };
    ($name:literal, [$($p:literal),*], $ret:literal, $doc:literal, work = |$w:ident| $work:expr, |$a:ident| $body:expr) => {
        ApiFn {
            name: $name,
            params: &[$($p),*],
            returns: $ret,
            doc: $doc,
            work: |$w| $work,
            call: |v| {
                const PARAMS: &[&str] = &[$($p),*];
                if v.len() != PARAMS.len() {
                    return Err(format!("{}: takes {} arguments, got {}", $name, PARAMS.len(), v.len()));
                }
                let $a = A { f: $name, params: PARAMS, v };
                $body
            },
        }
    };
}

/// The scripting API by chapter, in book order: `(chapter id, its functions)`.
/// `judge eval --list` prints them under their chapter.
pub fn by_chapter() -> Vec<(&'static str, Vec<ApiFn>)> {
    vec![("ch_newmodels", ch_newmodels())]
}

/// Every function of the scripting API, chapter by chapter.
pub fn functions() -> Vec<ApiFn> {
    by_chapter().into_iter().flat_map(|(_, f)| f).collect()
}

/// The functions of chapter `ch_newmodels`.
fn ch_newmodels() -> Vec<ApiFn> {
    vec![
        api_fn!(
            "attended",
            ["pos", "ratio", "topk", "window"],
            "int",
            "KV entries a query at 0-based position pos attends to (topk 0 = no cap; ratio <= 1 = window only)",
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
            "entries and partial-state tokens after n_tokens with disjoint blocks of ratio",
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
            "what a cached prefix gives a compressed layer: whole entries reused, the tokens they cover, the tail to recompute",
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
            "DeepSeek-V4 KV bytes per token and fixed bytes per request from its layer counts and indexer-key size",
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
            "the models of the KV ledger",
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
            "one model's ledger row (bytes per token, fixed bytes, maximum context)",
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
            "KV bytes of one request of this many tokens",
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
            "bytes one token sends per MoE layer in expert-parallel dispatch (latent 0 = send the hidden vector)",
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
            "row softmax, then alternate column and row normalisation: a doubly stochastic matrix (eps 1e-6)",
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
            "the largest singular value of a matrix",
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

/// Registers every API function on a Rhai engine. Each call charges its work
/// to `budget` before it runs.
#[cfg(feature = "script")]
pub fn register(engine: &mut judge::script::rhai::Engine, budget: &judge::script::Budget) {
    for f in functions() {
        register_one(engine, budget, f);
    }
}

/// Registers one function, whatever its arity.
#[cfg(feature = "script")]
fn register_one(
    engine: &mut judge::script::rhai::Engine,
    budget: &judge::script::Budget,
    f: ApiFn,
) {
    use judge::script::rhai::Dynamic;
    use judge::script::to_dynamic;
    let budget = budget.clone();
    let types = vec![std::any::TypeId::of::<Dynamic>(); f.params.len()];
    engine.register_raw_fn(f.name, types, move |_ctx, args| {
        let vals = args
            .iter()
            .map(|a| from_dynamic(a))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("{}: {e}", f.name))?;
        budget.charge(f.name, (f.work)(&vals))?;
        (f.call)(&vals)
            .map(|v| to_dynamic(&v))
            .map_err(|e| e.into())
    });
}

/// Evaluates a Rhai expression or script with the API registered, in the sandbox.
/// Returns the value and what the script printed.
#[cfg(feature = "script")]
pub fn eval(
    source: &str,
    limits: judge::script::Limits,
    deadline: Option<judge::script::Deadline>,
) -> (Result<Value, String>, Vec<String>) {
    let out = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let budget = judge::script::Budget::new(&limits, deadline.clone());
    let mut engine = judge::script::engine(limits, deadline, out.clone());
    register(&mut engine, &budget);
    let r = match engine.eval::<judge::script::rhai::Dynamic>(source) {
        Ok(d) => from_dynamic(&d),
        Err(e) => Err(match judge::script::classify(*e) {
            judge::SolverError::Compile(m)
            | judge::SolverError::Runtime(m)
            | judge::SolverError::Limit(m) => with_signature_hint(m),
            judge::SolverError::NotAttempted => "todo() reached".to_owned(),
        }),
    };
    let printed = out.borrow().clone();
    (r, printed)
}

#[cfg(feature = "script")]
use judge::script::from_dynamic;

/// Adds the right signature to Rhai's "Function not found" for an API name.
#[cfg(feature = "script")]
fn with_signature_hint(msg: String) -> String {
    let hint = functions()
        .into_iter()
        .find(|f| msg.contains(&format!("Function not found: {} (", f.name)));
    match hint {
        Some(f) => format!("{msg}; the API has {}", f.signature()),
        None => msg,
    }
}

#[cfg(all(test, feature = "script"))]
mod tests {
    use super::*;
    use judge::script::Limits;

    fn ev(src: &str) -> Result<Value, String> {
        eval(src, Limits::default(), None).0
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

    #[test]
    fn functions_of_any_arity_register() {
        let mut engine = judge::script::engine(Limits::default(), None, Default::default());
        let budget = judge::script::Budget::new(&Limits::default(), None);
        register(&mut engine, &budget);
        for f in functions() {
            let args = vec!["0"; f.params.len()].join(", ");
            let r = engine.eval::<judge::script::rhai::Dynamic>(&format!("{}({args})", f.name));
            if let Err(e) = r {
                assert!(
                    !e.to_string().contains("Function not found"),
                    "{} is not registered with {} parameters: {e}",
                    f.name,
                    f.params.len()
                );
            }
        }
        // A seven-parameter function, as the later chapters need: registered the
        // way `register` does, called from Rhai, its arguments arriving in order.
        let seven = ApiFn {
            name: "seven",
            params: &["a", "b", "c", "d", "e", "f", "g"],
            returns: "[int]",
            doc: "its seven arguments, in order",
            work: |_| 1,
            call: |v| {
                if v.len() != 7 {
                    return Err(format!("seven: takes 7 arguments, got {}", v.len()));
                }
                Ok(Value::Array(v.to_vec()))
            },
        };
        let mut engine = judge::script::engine(Limits::default(), None, Default::default());
        register_one(&mut engine, &budget, seven);
        let r = engine
            .eval::<judge::script::rhai::Dynamic>("seven(1, 2, 3, 4, 5, 6, 7)")
            .map(|d| from_dynamic(&d));
        assert_eq!(
            r.unwrap(),
            Ok(Value::from(vec![1, 2, 3, 4, 5, 6, 7])),
            "all seven arguments, in order"
        );
        assert_eq!(
            engine
                .eval::<judge::script::rhai::Dynamic>(
                    "seven(1, 2, 3, 4, 5, 6, 7).len() + seven(7, 6, 5, 4, 3, 2, 1)[0]"
                )
                .map(|d| from_dynamic(&d))
                .unwrap(),
            Ok(Value::Int(14))
        );
        // Six or eight arguments are another function: not found, not truncated.
        for call in ["seven(1, 2, 3, 4, 5, 6)", "seven(1, 2, 3, 4, 5, 6, 7, 8)"] {
            let e = engine.eval::<i64>(call).unwrap_err().to_string();
            assert!(e.contains("Function not found"), "{call}: {e}");
        }
    }

    #[test]
    fn the_api_is_grouped_by_the_books_chapters() {
        let chapters: Vec<&str> = chapters::all().iter().map(|c| c.id).collect();
        let mut names = Vec::new();
        for (ch, fns) in by_chapter() {
            assert!(chapters.contains(&ch), "{ch} is not a chapter");
            assert!(!fns.is_empty(), "{ch}: no functions");
            names.extend(fns.iter().map(|f| f.name));
        }
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "a name appears twice: {names:?}");
        assert_eq!(
            names,
            functions().iter().map(|f| f.name).collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_loop_of_heavy_calls_stops_at_the_work_limit() {
        // An 8 x 8 matrix and 10,000 iterations cost 2 * 64 * 10,001 = 1,280,128
        // units a call: a budget of 3,000,000 allows two calls and refuses the
        // third before it runs.
        let limits = Limits {
            max_native_work: 3_000_000,
            ..Limits::default()
        };
        let src = "let m = []; for i in 0..8 { let r = []; for j in 0..8 { r.push((i * j) % 7 * 1.0); } m.push(r); }
                   let calls = 0; for k in 0..1000 { sinkhorn(m, 10000); calls += 1; print(calls); } 0";
        let (r, printed) = eval(src, limits, None);
        let e = r.unwrap_err();
        assert!(e.contains("work limit exceeded"), "{e}");
        assert!(e.contains("sinkhorn"), "{e}");
        assert_eq!(printed, ["1", "2"], "two calls ran, the third was refused");
    }

    #[test]
    fn heavy_calls_stop_at_the_deadline() {
        let deadline: judge::script::Deadline = std::rc::Rc::new(|| true);
        let (r, _) = eval("sinkhorn([[1.0]], 1)", Limits::default(), Some(deadline));
        assert!(r.unwrap_err().contains("time limit"));
    }

    #[test]
    fn signatures_are_listed() {
        let sigs: Vec<String> = functions().iter().map(ApiFn::signature).collect();
        assert!(sigs.contains(&"attended(pos, ratio, topk, window) -> int".to_owned()));
        assert_eq!(sigs.len(), 10);
    }
}
