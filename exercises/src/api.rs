//! The chapters' functions under documented names, for Rhai: the browser's
//! scratch cell and `judge eval '<expr>'` call them. Arguments are checked and a
//! bad one gives an error naming the function and the argument.
//!
//! This module is the machinery ([`ApiFn`], the argument reader `A`, the
//! `api_fn!` macro, registration and [`eval`]); each chapter's functions live in
//! its folder, `chapters/src/<chapter>/api.rs`, with a `functions()` that lists
//! them, and the build script makes each such file a module of this one.

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
    /// The implementation; with `grade` (the page lists the functions, its
    /// worker calls them).
    #[cfg(feature = "grade")]
    pub call: fn(&[Value]) -> Result<Value, String>,
    /// Units of native work a call with these arguments does (about one per
    /// floating-point operation), charged to the run's budget before it
    /// runs; with `grade`.
    #[cfg(feature = "grade")]
    pub work: fn(&[Value]) -> u64,
}

impl ApiFn {
    /// The one-line doc in `lang`, from the chapter's catalog of that language
    /// (`api.en.toml`, `api.zh.toml`); the English one where a chapter has no
    /// Chinese text. A test checks that every function has its English doc.
    pub fn doc_in(&self, lang: chapters::Lang) -> &'static str {
        let zh = match lang {
            chapters::Lang::Zh => doc_zh(self.name),
            chapters::Lang::En => None,
        };
        zh.or_else(|| doc_en(self.name)).unwrap_or_default()
    }

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
pub(crate) struct A<'a> {
    pub(crate) f: &'static str,
    pub(crate) params: &'static [&'static str],
    pub(crate) v: &'a [Value],
}

impl A<'_> {
    pub(crate) fn err(&self, i: usize, what: &str) -> String {
        let got = self.v.get(i).map_or("nothing", Value::type_name);
        format!(
            "{}: argument {} (`{}`) must be {what}, got {got}",
            self.f,
            i + 1,
            self.params.get(i).unwrap_or(&"?")
        )
    }
    pub(crate) fn int(&self, i: usize, min: i64, max: i64) -> Result<i64, String> {
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
    /// A finite number between `min` and `max`; an int converts.
    pub(crate) fn float(&self, i: usize, min: f64, max: f64) -> Result<f64, String> {
        match self.v.get(i).and_then(Value::as_float) {
            Some(x) if x.is_finite() && (min..=max).contains(&x) => Ok(x),
            Some(x) => Err(format!(
                "{}: argument {} (`{}`) must be between {min} and {max}, got {x}",
                self.f,
                i + 1,
                self.params[i]
            )),
            None => Err(self.err(i, "a number")),
        }
    }
    pub(crate) fn str(&self, i: usize) -> Result<&str, String> {
        match self.v.get(i) {
            Some(Value::Str(s)) => Ok(s),
            _ => Err(self.err(i, "a string")),
        }
    }
    /// A non-empty rectangular matrix of finite numbers, at most 64 × 64; the
    /// shape and element checks are `harness::Args::matrix`'s.
    pub(crate) fn matrix(&self, i: usize) -> Result<Array2<f64>, String> {
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

pub(crate) fn matrix_value(m: &Array2<f64>) -> Value {
    Value::Array(
        m.rows()
            .into_iter()
            .map(|r| Value::Array(r.iter().map(|x| Value::Float(*x)).collect()))
            .collect(),
    )
}

/// A bound for counts and lengths: large, and far from overflowing.
pub(crate) const BIG: i64 = 1 << 40;

/// The shape `(rows, cols)` of a matrix argument, `(0, 0)` when it is not one.
pub(crate) fn shape(v: Option<&Value>) -> (u64, u64) {
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
    ($name:literal, [$($p:literal),*], $ret:literal, |$a:ident| $body:expr) => {
        api_fn!($name, [$($p),*], $ret, work = |_v| 1, |$a| $body)
    };
    ($name:literal, [$($p:literal),*], $ret:literal, work = |$w:ident| $work:expr, |$a:ident| $body:expr) => {
        ApiFn {
            name: $name,
            params: &[$($p),*],
            returns: $ret,
            #[cfg(feature = "grade")]
            work: |$w| $work,
            #[cfg(feature = "grade")]
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

// Each chapter's functions, `chapters/src/<chapter>/api.rs`, compiled here as a
// module named after the chapter (they need the judge's values; `chapters` does not
// depend on the judge), and `chapters()`, generated by build.rs.
include!(concat!(env!("OUT_DIR"), "/api.rs"));

/// The scripting API by chapter, in book order: `(chapter id, its functions)`.
/// `judge eval --list` prints them under their chapter. A chapter without an
/// `api.rs` has no functions and is not listed.
pub fn by_chapter() -> Vec<(&'static str, Vec<ApiFn>)> {
    chapters()
}

/// Every function of the scripting API, chapter by chapter.
pub fn functions() -> Vec<ApiFn> {
    by_chapter().into_iter().flat_map(|(_, f)| f).collect()
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
/// Returns the value (or the error, worded in `lang`) and what the script printed.
#[cfg(feature = "script")]
pub fn eval(
    source: &str,
    limits: judge::script::Limits,
    deadline: Option<judge::script::Deadline>,
    lang: judge::Lang,
) -> (Result<Value, String>, Vec<String>) {
    let out = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let budget = judge::script::Budget::new(&limits, deadline.clone());
    let mut engine = judge::script::engine(limits, deadline, out.clone());
    register(&mut engine, &budget);
    let r = match engine.eval::<judge::script::rhai::Dynamic>(source) {
        Ok(d) => from_dynamic(&d).map_err(|_| {
            judge::SolverError::Script(judge::script::uncomparable(&d)).message_in(lang)
        }),
        Err(e) => Err(
            match judge::script::teach(
                judge::script::classify(*e),
                source,
                &functions()
                    .iter()
                    .map(|f| f.name.to_owned())
                    .collect::<Vec<_>>(),
            ) {
                judge::SolverError::NotAttempted => judge::words::scratch::todo_reached.text(lang),
                e => {
                    let said = e.message_in(lang);
                    match e {
                        judge::SolverError::Script(judge::ScriptFault {
                            fault: judge::Fault::UnknownFunction { call },
                            ..
                        }) => with_signature_hint(said, &call, lang),
                        _ => said,
                    }
                }
            },
        ),
    };
    let printed = out.borrow().clone();
    (r, printed)
}

#[cfg(feature = "script")]
use judge::script::from_dynamic;

/// Adds the right signature to a "function not found" message (`msg`) when
/// the call Rhai could not match (`name (i64, …)`) names an API function.
#[cfg(feature = "script")]
fn with_signature_hint(msg: String, call: &str, lang: judge::Lang) -> String {
    let name = call.split(" (").next().unwrap_or(call);
    match functions().into_iter().find(|f| f.name == name) {
        Some(f) => judge::words::scratch::api_signature {
            message: msg,
            signature: f.signature(),
        }
        .text(lang),
        None => msg,
    }
}

#[cfg(all(test, feature = "script"))]
mod tests {
    use super::*;
    use judge::script::Limits;

    #[test]
    fn a_scratch_syntax_error_says_syntax_error() {
        let (r, _) = eval("let x = ;", Limits::default(), None, judge::Lang::En);
        let m = r.unwrap_err();
        assert!(m.starts_with("syntax error (line 1, column"), "{m}");
        let (r, _) = eval("throw 1", Limits::default(), None, judge::Lang::En);
        assert!(r.unwrap_err().starts_with("runtime error"));
    }

    /// The scratch cell's errors carry the same tips as a graded run's, and
    /// "did you mean" knows the book's functions.
    #[test]
    fn scratch_errors_teach_rhai() {
        let err = |src: &str, lang| eval(src, Limits::default(), None, lang).0.unwrap_err();
        let m = err(
            "let s = 0;\nfor i in range(3) { s += i; }\ns",
            judge::Lang::En,
        );
        assert!(m.contains("Function not found: range (i64)"), "{m}");
        assert!(m.contains("as `0..n`"), "{m}");
        let name = functions()[0].name;
        let typo = format!("{}x(1)", &name[..name.len() - 1]);
        let m = err(&typo, judge::Lang::En);
        assert!(m.contains(&format!("Did you mean `{name}`?")), "{m}");
        let m = err("let h = 7 // 2;\nh", judge::Lang::Zh);
        assert!(m.contains("第 1 行的 `//`"), "{m}");
    }

    /// Every example of "Rhai for Python programmers" runs in the sandbox and
    /// gives what the page says it gives.
    #[cfg(feature = "render")]
    #[test]
    fn the_rhai_guide_shows_what_rhai_does() {
        let guide = chapters::guide::rhai().unwrap();
        assert!(guide.row.len() >= 15);
        for row in &guide.row {
            let (r, _) = eval(&row.check, Limits::default(), None, judge::Lang::En);
            let v = r.unwrap_or_else(|e| panic!("{}: {e}", row.check));
            let shown = match &v {
                Value::Str(s) => s.clone(),
                v => v.to_string(),
            };
            assert_eq!(shown, row.value, "{}", row.check);
        }
        // The two habits the guide warns about do what it says.
        let (r, _) = eval("7 // 2", Limits::default(), None, judge::Lang::En);
        assert_eq!(r, Ok(Value::Int(7)));
        let (r, _) = eval("int(2.9)", Limits::default(), None, judge::Lang::En);
        assert_eq!(r, Ok(Value::Float(2.0)));
        for (src, want) in [("2 ** 10", Value::Int(1024)), ("-7 / 2", Value::Int(-3))] {
            let (r, _) = eval(src, Limits::default(), None, judge::Lang::En);
            assert_eq!(r, Ok(want), "{src}");
        }
    }

    #[test]
    fn scratch_errors_are_worded_in_chinese() {
        let zh = |src: &str| {
            eval(src, Limits::default(), None, judge::Lang::Zh)
                .0
                .unwrap_err()
        };
        assert_eq!(
            zh("let x = ;"),
            "语法错误（第 1 行第 9 列）：这里不应出现 ';'"
        );
        assert_eq!(
            zh("let a = [1, 2];\na[5]"),
            "运行出错（第 2 行第 3 列）：下标越界：长度为 2 的值没有下标 5"
        );
        assert_eq!(
            zh("throw \"boom\""),
            "运行出错（第 1 行第 1 列）：抛出了错误：boom"
        );
        assert_eq!(zh("1 / 0"), "运行出错（第 1 行第 3 列）：除数为零");
        // A book function called wrongly gets its signature, in Chinese too.
        let m = zh("dispatch_bytes(1)");
        assert!(
            m.starts_with("运行出错（第 1 行第 1 列）：找不到函数 dispatch_bytes (i64)"),
            "{m}"
        );
        assert!(m.contains("；本书的函数是 dispatch_bytes("), "{m}");
        // The English words are what they always were.
        let en = eval(
            "dispatch_bytes(1)",
            Limits::default(),
            None,
            judge::Lang::En,
        )
        .0
        .unwrap_err();
        assert!(
            en.starts_with(
                "runtime error (line 1, column 1): Function not found: dispatch_bytes (i64)"
            ),
            "{en}"
        );
        assert!(en.contains("; the API has dispatch_bytes("), "{en}");
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
        let mut at = 0;
        for (ch, fns) in by_chapter() {
            let i = chapters.iter().position(|c| *c == ch);
            assert!(i.is_some(), "{ch} is not a chapter");
            assert!(i >= Some(at), "{ch} is out of reading order");
            at = i.unwrap_or(0);
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
        let (r, printed) = eval(src, limits, None, judge::Lang::En);
        let e = r.unwrap_err();
        assert!(e.contains("work limit exceeded"), "{e}");
        assert!(e.contains("sinkhorn"), "{e}");
        assert_eq!(printed, ["1", "2"], "two calls ran, the third was refused");
    }

    #[test]
    fn heavy_calls_stop_at_the_deadline() {
        let deadline: judge::script::Deadline = std::rc::Rc::new(|| true);
        let (r, _) = eval(
            "sinkhorn([[1.0]], 1)",
            Limits::default(),
            Some(deadline),
            judge::Lang::En,
        );
        assert!(r.unwrap_err().contains("time limit"));
    }

    #[test]
    fn every_function_has_its_docs_and_every_doc_a_function() {
        let names: Vec<&str> = functions().iter().map(|f| f.name).collect();
        for f in functions() {
            let en = doc_en(f.name)
                .unwrap_or_else(|| panic!("`{}`: no entry in its chapter's api.en.toml", f.name));
            assert!(!en.trim().is_empty(), "`{}`: an empty English doc", f.name);
            assert_eq!(f.doc_in(chapters::Lang::En), en);
        }
        // Chinese is required where the chapter has a Chinese text (an
        // English-only chapter needs no `api.zh.toml`).
        let chapters_src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../chapters/src");
        let bilingual: Vec<ApiFn> = by_chapter()
            .into_iter()
            .filter(|(ch, _)| chapters_src.join(ch).join("chapter.zh.md").is_file())
            .flat_map(|(_, fns)| fns)
            .collect();
        assert!(
            !bilingual.is_empty(),
            "the book has Chinese chapters with functions"
        );
        for f in bilingual {
            let zh = doc_zh(f.name)
                .unwrap_or_else(|| panic!("`{}`: no entry in its chapter's api.zh.toml", f.name));
            assert!(
                zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "`{}`: its Chinese doc has no Chinese: {zh}",
                f.name
            );
            assert_eq!(f.doc_in(chapters::Lang::Zh), zh);
        }
        for (file, documented) in [("api.en.toml", DOC_EN_NAMES), ("api.zh.toml", DOC_ZH_NAMES)] {
            for name in documented {
                assert!(
                    names.contains(name),
                    "{file} documents `{name}`, which no api.rs defines"
                );
            }
        }
    }
}
