//! The sandboxed Rhai engine that runs learners' code.
//!
//! The sandbox: no file, network or DOM access (Rhai has none unless a host adds
//! it), `eval` disabled, limits on operations, call depth, expression depth,
//! string, array and map sizes, source size and function count, and a deadline
//! the host checks from Rhai's progress callback (this crate reads no clock).
//! Host functions that do heavy native work charge it to a [`Budget`], so a loop
//! of heavy calls stops as promptly as a plain loop.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

pub use rhai;
use rhai::{AST, Dynamic, Engine, EvalAltResult, Scope};

use crate::{CodeError, Fault, LimitHit, ScriptFault, Solver, SolverError, Tip, Value};

/// Resource limits for one learner's run.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Rhai operations per call.
    pub max_operations: u64,
    /// Function-call nesting.
    pub max_call_levels: usize,
    /// Characters in one string.
    pub max_string: usize,
    /// Elements in one array.
    pub max_array: usize,
    /// Entries in one map.
    pub max_map: usize,
    /// Lines of `print` output kept.
    pub max_print_lines: usize,
    /// Bytes of source code.
    pub max_source: usize,
    /// Functions one script may define (compile time grows with it).
    pub max_functions: usize,
    /// Units of native work (see [`Budget`]) host functions may do in one run.
    pub max_native_work: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_operations: 5_000_000,
            max_call_levels: 64,
            max_string: 100_000,
            max_array: 100_000,
            max_map: 100_000,
            max_print_lines: 200,
            max_source: 64 * 1024,
            max_functions: 256,
            max_native_work: 200_000_000,
        }
    }
}

/// Nesting of expressions and statements, at the top level and in functions.
pub const MAX_EXPR_DEPTH: usize = 64;

/// Asks the host whether the wall-clock deadline has passed.
pub type Deadline = Rc<dyn Fn() -> bool>;

const TODO_MARK: &str = "__judge_todo__";
const DEADLINE_MARK: &str = "__judge_deadline__";
/// Prefixes the JSON of the [`LimitHit`] of an error that [`classify`] turns
/// into a limit.
const LIMIT_MARK: &str = "__judge_limit__:";

/// How often (in Rhai operations) the deadline is checked. One operation can be a
/// built-in that works on a whole array (`sort` on 100,000 elements takes a few
/// milliseconds), so the check must be frequent; the clock costs far less.
pub const DEADLINE_POLL_OPS: u64 = 16;

/// An error that [`classify`] reports as this limit ([`SolverError::Sandbox`]).
pub fn limit_error(hit: &LimitHit) -> Box<EvalAltResult> {
    let json = serde_json::to_string(hit).unwrap_or_default();
    format!("{LIMIT_MARK}{json}").into()
}

/// The native work host functions did in one run, counted against
/// [`Limits::max_native_work`], and the deadline, checked before each call.
#[derive(Clone)]
pub struct Budget {
    used: Rc<Cell<u64>>,
    limit: u64,
    deadline: Option<Deadline>,
}

impl Budget {
    /// A fresh budget for one run.
    pub fn new(limits: &Limits, deadline: Option<Deadline>) -> Budget {
        Budget {
            used: Rc::new(Cell::new(0)),
            limit: limits.max_native_work,
            deadline,
        }
    }

    /// Charges `units` of work for a call to `function`, before it runs: an error
    /// when the deadline has passed or the run's work would pass its limit.
    pub fn charge(&self, function: &str, units: u64) -> Result<(), Box<EvalAltResult>> {
        if self.deadline.as_ref().is_some_and(|d| d()) {
            return Err(DEADLINE_MARK.into());
        }
        let used = self.used.get().saturating_add(units);
        self.used.set(used);
        if used > self.limit {
            return Err(limit_error(&LimitHit::Work {
                function: function.to_owned(),
                used,
                limit: self.limit,
            }));
        }
        Ok(())
    }
}

/// Builds a sandboxed engine. `print` output goes to `out`.
pub fn engine(limits: Limits, deadline: Option<Deadline>, out: Rc<RefCell<Vec<String>>>) -> Engine {
    let mut e = Engine::new();
    e.set_max_operations(limits.max_operations)
        .set_max_call_levels(limits.max_call_levels)
        .set_max_expr_depths(MAX_EXPR_DEPTH, MAX_EXPR_DEPTH)
        .set_max_string_size(limits.max_string)
        .set_max_array_size(limits.max_array)
        .set_max_map_size(limits.max_map)
        .set_max_functions(limits.max_functions)
        .disable_symbol("eval");
    let max_lines = limits.max_print_lines;
    // Lines printed in the whole run (the output vector is taken case by case).
    let count = Rc::new(Cell::new(0usize));
    let c = count.clone();
    let o = out.clone();
    e.on_print(move |s| push_line(&o, &c, max_lines, s.to_owned()));
    e.on_debug(move |s, _, pos| push_line(&out, &count, max_lines, format!("[{pos}] {s}")));
    if let Some(d) = deadline {
        e.on_progress(move |ops| {
            (ops.is_multiple_of(DEADLINE_POLL_OPS) && d()).then(|| Dynamic::from(DEADLINE_MARK))
        });
    }
    e.register_fn("todo", || -> Result<Dynamic, Box<EvalAltResult>> {
        Err(TODO_MARK.into())
    });
    e
}

/// Keeps the first `max` lines a run prints, then one line saying it was cut.
fn push_line(out: &Rc<RefCell<Vec<String>>>, count: &Cell<usize>, max: usize, line: String) {
    let n = count.get();
    if n < max {
        out.borrow_mut().push(line);
    } else if n == max {
        out.borrow_mut()
            .push(format!("(output cut at {max} lines)"));
    }
    count.set(n.saturating_add(1));
}

/// A learner's Rhai script, compiled, ready to have one function called.
pub struct RhaiSolver {
    engine: Engine,
    ast: AST,
    function: String,
    /// The learner's source, for [`teach`].
    source: String,
    /// What the script printed and [`Solver::take_printed`] has not taken yet.
    pub output: Rc<RefCell<Vec<String>>>,
}

/// Checks a script's size before it is compiled.
pub fn check_source(source: &str, limits: &Limits) -> Result<(), SolverError> {
    if source.len() > limits.max_source {
        return Err(SolverError::Sandbox(LimitHit::Source {
            bytes: source.len(),
            limit: limits.max_source,
        }));
    }
    Ok(())
}

impl RhaiSolver {
    /// Compiles `source` and checks that it defines `function` with `arity` parameters.
    pub fn new(
        source: &str,
        function: &str,
        arity: usize,
        limits: Limits,
        deadline: Option<Deadline>,
    ) -> Result<RhaiSolver, SolverError> {
        check_source(source, &limits)?;
        let output = Rc::new(RefCell::new(Vec::new()));
        let engine = engine(limits, deadline, output.clone());
        let ast = engine.compile(source).map_err(|e| {
            use rhai::ParseErrorType as P;
            let p = e.position();
            let line_col = p.line().zip(p.position());
            let at = match line_col {
                Some((l, c)) => format!(" at line {l}, column {c}"),
                None => String::new(),
            };
            let e = match e.err_type() {
                P::TooManyFunctions => SolverError::Sandbox(LimitHit::Functions {
                    limit: limits.max_functions,
                }),
                P::ExprTooDeep => SolverError::Sandbox(LimitHit::ExprDepth {
                    at: line_col,
                    limit: MAX_EXPR_DEPTH,
                }),
                t => SolverError::Script(ScriptFault {
                    parse: true,
                    at: line_col,
                    fault: parse_fault(t),
                    english: format!("syntax error{at}: {t}"),
                    tip: None,
                }),
            };
            teach(e, source, &[])
        })?;
        let found: Vec<usize> = ast
            .iter_functions()
            .filter(|f| f.name == function)
            .map(|f| f.params.len())
            .collect();
        if !found.contains(&arity) {
            let function = function.to_owned();
            return Err(SolverError::Code(match found.first() {
                None => CodeError::MissingFunction { function, arity },
                Some(&found) => CodeError::WrongArity {
                    function,
                    arity,
                    found,
                },
            }));
        }
        Ok(RhaiSolver {
            engine,
            ast,
            function: function.to_owned(),
            source: source.to_owned(),
            output,
        })
    }
}

impl Solver for RhaiSolver {
    fn call(&mut self, args: &[Value]) -> Result<Value, SolverError> {
        let args: Vec<Dynamic> = args.iter().map(to_dynamic).collect();
        let mut scope = Scope::new();
        let r = self
            .engine
            .call_fn::<Dynamic>(&mut scope, &self.ast, &self.function, args);
        match r {
            Ok(d) => from_dynamic(&d).map_err(|_| SolverError::Script(uncomparable(&d))),
            Err(e) => Err(teach(classify(*e), &self.source, &own_functions(&self.ast))),
        }
    }

    fn take_printed(&mut self) -> Vec<String> {
        std::mem::take(&mut *self.output.borrow_mut())
    }
}

/// Turns a Rhai error into a solver error, unwrapping errors raised inside nested calls.
pub fn classify(e: EvalAltResult) -> SolverError {
    use EvalAltResult as E;
    match e {
        E::ErrorInFunctionCall(_, _, inner, _) => classify(*inner),
        E::ErrorRuntime(ref d, _) if d.clone().into_string().is_ok_and(|s| s == TODO_MARK) => {
            SolverError::NotAttempted
        }
        E::ErrorRuntime(ref d, _)
            if d.clone()
                .into_string()
                .is_ok_and(|s| s.starts_with(LIMIT_MARK)) =>
        {
            let s = d.clone().into_string().unwrap_or_default();
            let json = s.trim_start_matches(LIMIT_MARK);
            match serde_json::from_str(json) {
                Ok(hit) => SolverError::Sandbox(hit),
                Err(_) => SolverError::Limit(json.to_owned()),
            }
        }
        E::ErrorRuntime(ref d, _) if d.clone().into_string().is_ok_and(|s| s == DEADLINE_MARK) => {
            SolverError::Sandbox(LimitHit::Time)
        }
        E::ErrorTerminated(..) => SolverError::Sandbox(LimitHit::Time),
        E::ErrorTooManyOperations(_) => SolverError::Sandbox(LimitHit::Operations),
        E::ErrorStackOverflow(_) => SolverError::Sandbox(LimitHit::CallDepth),
        E::ErrorDataTooLarge(what, _) => SolverError::Sandbox(LimitHit::Size { what }),
        // A script evaluated whole (the scratch cell) parses as it runs.
        E::ErrorParsing(ref t, p) => {
            let line_col = p.line().zip(p.position());
            SolverError::Script(ScriptFault {
                parse: true,
                at: line_col,
                fault: parse_fault(t),
                english: format!("syntax error{}: {t}", in_parens(line_col)),
                tip: None,
            })
        }
        other => {
            let p = other.position();
            let line_col = p.line().zip(p.position());
            let at = in_parens(line_col);
            let msg = match &other {
                E::ErrorRuntime(d, _) => format!("error thrown: {d}"),
                _ => other
                    .to_string()
                    .split(" (line")
                    .next()
                    .unwrap_or_default()
                    .to_owned(),
            };
            SolverError::Script(ScriptFault {
                parse: false,
                at: line_col,
                fault: run_fault(&other, &msg),
                english: format!("runtime error{at}: {msg}"),
                tip: None,
            })
        }
    }
}

/// Python's names for which Rhai has another spelling, with what to write
/// instead, in English and Chinese; `say::python_tip` gives those words.
/// (Rhai has an `int(x)`: the whole part of a float, as a float; the wrong
/// return type it leads to gets its own tip.)
pub const PYTHON_NAMES: [&str; 11] = [
    "range",
    "float",
    "ceil",
    "sum",
    "append",
    "max",
    "min",
    "pow",
    "str",
    "enumerate",
    "zip",
];

/// Rhai's functions a learner reaches for most: where "did you mean" looks,
/// with the learner's own functions and any a caller adds.
pub const RHAI_NAMES: &[&str] = &[
    "abs",
    "all",
    "append",
    "ceiling",
    "contains",
    "cos",
    "exp",
    "extract",
    "filter",
    "floor",
    "index_of",
    "insert",
    "is_empty",
    "keys",
    "len",
    "ln",
    "log",
    "map",
    "max",
    "min",
    "pop",
    "print",
    "push",
    "reduce",
    "remove",
    "retain",
    "reverse",
    "round",
    "shift",
    "sign",
    "sin",
    "some",
    "sort",
    "split",
    "sqrt",
    "tan",
    "to_float",
    "to_int",
    "to_string",
    "trim",
    "type_of",
    "values",
];

/// The names of the functions `ast` defines.
pub fn own_functions(ast: &AST) -> Vec<String> {
    ast.iter_functions().map(|f| f.name.to_owned()).collect()
}

/// Adds a [`Tip`] to a Rhai error when the judge can tell what a Python
/// programmer meant (#27): a Python name Rhai spells otherwise
/// ([`PYTHON_NAMES`]), else the names close to an unknown one
/// (from [`RHAI_NAMES`], `more` and the functions `source` defines, when it
/// parses), or `//` after code on the line of a syntax error or the line
/// before it. Any other error is returned as it is.
pub fn teach(err: SolverError, source: &str, more: &[String]) -> SolverError {
    let SolverError::Script(mut f) = err else {
        return err;
    };
    let tip = match &f.fault {
        Fault::UnknownFunction { call } => {
            let name = call.split([' ', '(']).next().unwrap_or(call).to_owned();
            if PYTHON_NAMES.contains(&name.as_str()) {
                Some(Tip::Python { name })
            } else {
                let mut known: Vec<String> = RHAI_NAMES.iter().map(|n| (*n).to_owned()).collect();
                known.extend(more.iter().cloned());
                let mut engine = Engine::new_raw();
                engine.set_max_expr_depths(MAX_EXPR_DEPTH, MAX_EXPR_DEPTH);
                if let Ok(ast) = engine.compile(source) {
                    known.extend(own_functions(&ast));
                }
                let names = similar(&name, &known);
                (!names.is_empty()).then_some(Tip::Similar { name, names })
            }
        }
        _ if f.parse => f.at.and_then(|(line, _)| {
            let lines: Vec<&str> = source.lines().collect();
            [line, line.saturating_sub(1)]
                .into_iter()
                .filter(|l| *l >= 1)
                .find(|l| lines.get(l - 1).is_some_and(|t| code_then_slashes(t)))
                .map(|line| Tip::SlashComment { line })
        }),
        _ => None,
    };
    f.tip = tip.map(Box::new);
    SolverError::Script(f)
}

/// Whether `line` has `//` after some code, outside a string.
fn code_then_slashes(line: &str) -> bool {
    let mut in_string = false;
    let b = line.as_bytes();
    for (i, c) in b.iter().enumerate() {
        match c {
            b'"' => in_string = !in_string,
            b'/' if !in_string && b.get(i + 1) == Some(&b'/') => {
                return !line[..i].trim().is_empty();
            }
            _ => {}
        }
    }
    false
}

/// Up to three of `known` within a small edit distance of `name` (not `name`
/// itself, which then exists with other parameters), closest first. None when
/// `name` is one of them: it exists, with other argument types.
fn similar(name: &str, known: &[String]) -> Vec<String> {
    if known.iter().any(|k| k == name) {
        return Vec::new();
    }
    let most = (name.chars().count() / 3).clamp(1, 3);
    let mut scored: Vec<(usize, &String)> = known
        .iter()
        .map(|k| (edit_distance(name, k), k))
        .filter(|(d, _)| *d <= most)
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(3).map(|(_, k)| k.clone()).collect()
}

/// Levenshtein distance between `a` and `b`, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// ` (line 2, column 5)`, or nothing when Rhai gave no place.
fn in_parens(line_col: Option<(usize, usize)>) -> String {
    match line_col {
        Some((l, c)) => format!(" (line {l}, column {c})"),
        None => String::new(),
    }
}

/// The kind of a syntax error, for wording it in each language.
fn parse_fault(t: &rhai::ParseErrorType) -> Fault {
    use rhai::{LexError as L, ParseErrorType as P};
    match t {
        P::UnexpectedEOF => Fault::Incomplete,
        P::MissingToken(token, _) => Fault::Expected {
            token: token.clone(),
        },
        P::ExprExpected(_) => Fault::ExpressionExpected,
        P::BadInput(L::UnterminatedString) => Fault::UnterminatedString,
        P::BadInput(L::UnexpectedInput(input)) => Fault::BadInput {
            input: input.clone(),
        },
        P::Reserved(word) => Fault::Reserved { word: word.clone() },
        P::WrongFnDefinition => Fault::NestedFunction,
        P::FnDuplicatedDefinition(function, params) => Fault::DuplicateFunction {
            function: function.clone(),
            params: *params,
        },
        P::LoopBreak => Fault::BreakOutsideLoop,
        P::VariableUndefined(name) => Fault::UnknownVariable { name: name.clone() },
        P::AssignmentToConstant(name) => Fault::ConstantAssigned { name: name.clone() },
        other => Fault::Other {
            text: other.to_string(),
        },
    }
}

/// The kind of a run-time error; `text` is Rhai's description without the
/// position (what [`Fault::Other`] keeps).
fn run_fault(e: &EvalAltResult, text: &str) -> Fault {
    use EvalAltResult as E;
    match e {
        E::ErrorRuntime(d, _) => Fault::Thrown {
            value: d.to_string(),
        },
        E::ErrorVariableNotFound(name, _) => Fault::UnknownVariable { name: name.clone() },
        E::ErrorFunctionNotFound(call, _) => Fault::UnknownFunction { call: call.clone() },
        E::ErrorArithmetic(m, _) if m.contains("by zero") => Fault::DivisionByZero,
        E::ErrorArrayBounds(len, index, _) | E::ErrorStringBounds(len, index, _) => {
            Fault::OutOfBounds {
                len: *len,
                index: *index,
            }
        }
        E::ErrorMismatchDataType(expected, actual, _)
        | E::ErrorMismatchOutputType(expected, actual, _) => Fault::WrongType {
            expected: expected.clone(),
            actual: actual.clone(),
        },
        E::ErrorIndexingType(type_name, _) => Fault::NotIndexable {
            type_name: type_name.clone(),
        },
        E::ErrorFor(_) => Fault::NotIterable,
        E::ErrorPropertyNotFound(name, _) => Fault::NoProperty { name: name.clone() },
        E::ErrorAssignmentToConstant(name, _) => Fault::ConstantAssigned { name: name.clone() },
        _ => Fault::Other {
            text: text.to_owned(),
        },
    }
}

/// Converts a judge value to a Rhai value.
pub fn to_dynamic(v: &Value) -> Dynamic {
    match v {
        Value::Unit => Dynamic::UNIT,
        Value::Bool(b) => (*b).into(),
        Value::Int(i) => (*i).into(),
        Value::Float(f) => (*f).into(),
        Value::Str(s) => s.clone().into(),
        Value::Array(a) => Dynamic::from_array(a.iter().map(to_dynamic).collect()),
        Value::Map(m) => Dynamic::from_map(
            m.iter()
                .map(|(k, v)| (k.as_str().into(), to_dynamic(v)))
                .collect(),
        ),
    }
}

/// Converts a Rhai value to a judge value; other types (functions, custom types)
/// are an error naming the type.
pub fn from_dynamic(d: &Dynamic) -> Result<Value, String> {
    if d.is_unit() {
        return Ok(Value::Unit);
    }
    if let Ok(b) = d.as_bool() {
        return Ok(Value::Bool(b));
    }
    if let Ok(i) = d.as_int() {
        return Ok(Value::Int(i));
    }
    if let Ok(f) = d.as_float() {
        return Ok(Value::Float(f));
    }
    if let Ok(c) = d.as_char() {
        return Ok(Value::Str(c.to_string()));
    }
    if d.is_string() {
        return Ok(Value::Str(d.clone().into_string().unwrap_or_default()));
    }
    if d.is_array() {
        let a = d.clone().into_array().unwrap_or_default();
        return a
            .iter()
            .map(from_dynamic)
            .collect::<Result<_, _>>()
            .map(Value::Array);
    }
    if let Some(m) = d.clone().try_cast::<rhai::Map>() {
        return m
            .iter()
            .map(|(k, v)| from_dynamic(v).map(|v| (k.to_string(), v)))
            .collect::<Result<_, _>>()
            .map(Value::Map);
    }
    Err(uncomparable_english(&type_word(d)))
}

/// A value's type as a learner knows it: Rhai names `a..b` and `a..=b` by
/// their Rust types (`core::ops::range::Range<i64>`); they are `range` here.
pub fn type_word(d: &Dynamic) -> String {
    let t = d.type_name();
    if t.starts_with("core::ops::range::Range") {
        "range".to_owned()
    } else {
        t.to_owned()
    }
}

fn uncomparable_english(type_name: &str) -> String {
    if type_name == "range" {
        "returned a range (`a..b`), which the judge cannot compare: make it an array, \
         `let a = []; for i in 0..3 { a.push(i); } a`"
            .to_owned()
    } else {
        format!("returned a value of type `{type_name}`, which the judge cannot compare")
    }
}

/// The fault of a value [`from_dynamic`] refused, in both languages.
pub fn uncomparable(d: &Dynamic) -> ScriptFault {
    let type_name = type_word(d);
    ScriptFault {
        parse: false,
        at: None,
        english: uncomparable_english(&type_name),
        fault: Fault::Uncomparable { type_name },
        tip: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Lang;

    fn solver(src: &str) -> Result<RhaiSolver, SolverError> {
        RhaiSolver::new(src, "f", 1, Limits::default(), None)
    }

    #[test]
    fn a_range_is_named_and_the_fix_it_shows_works() {
        for body in ["0..x", "0..=x"] {
            let e = solver(&format!("fn f(x) {{ {body} }}"))
                .unwrap()
                .call(&[3.into()])
                .unwrap_err();
            let (en, zh) = (e.message_in(Lang::En), e.message_in(Lang::Zh));
            assert!(en.contains("returned a range (`a..b`)"), "{body}: {en}");
            assert!(!en.contains("core::ops"), "{en}");
            assert!(zh.contains("返回了一个区间"), "{body}: {zh}");
        }
        let fix = "fn f(x) { let a = []; for i in 0..x { a.push(i); } a }";
        assert_eq!(
            solver(fix).unwrap().call(&[3.into()]).unwrap(),
            Value::from(vec![Value::Int(0), Value::Int(1), Value::Int(2)])
        );
    }

    #[test]
    fn calls_the_function() {
        let mut s = solver("fn f(x) { print(`x=${x}`); [x * 2, x / 2.0] }").unwrap();
        assert_eq!(
            s.call(&[3.into()]).unwrap(),
            Value::from(vec![Value::Int(6), Value::Float(1.5)])
        );
        assert_eq!(s.output.borrow().as_slice(), ["x=3"]);
    }

    #[test]
    fn syntax_error_names_line_and_column() {
        let Err(e @ SolverError::Script(_)) = solver("fn f(x) {\n  let y = ;\n}") else {
            panic!()
        };
        assert_eq!(e.status(), crate::Status::Error);
        let m = e.message_in(Lang::En);
        assert!(m.starts_with("syntax error at line 2, column 11: "), "{m}");
        assert_eq!(
            e.message_in(Lang::Zh),
            "语法错误（第 2 行第 11 列）：这里不应出现 ';'"
        );
    }

    /// What a Python programmer writes first gets a tip in both languages.
    #[test]
    fn python_habits_get_a_tip() {
        let run = |src: &str| match solver(src).and_then(|mut s| s.call(&[5.into()])) {
            Ok(v) => panic!("{src} returned {v:?}"),
            Err(e) => e,
        };
        let e = run("fn f(n) { let t = 0; for i in range(n) { t += i; } t }");
        let SolverError::Script(f) = &e else {
            panic!("{e:?}")
        };
        assert_eq!(
            f.tip.as_deref(),
            Some(&Tip::Python {
                name: "range".into()
            })
        );
        let m = e.message_in(Lang::En);
        assert!(m.starts_with("runtime error"), "{m}");
        assert!(m.contains("Function not found: range (i64)"), "{m}");
        assert!(m.ends_with("`range(a, b)` as `a..b`."), "{m}");
        assert!(e.message_in(Lang::Zh).contains("写作 `0..n`"));
        for (src, name) in [
            ("fn f(n) { float(n) }", "float"),
            ("fn f(n) { ceil(n / 2.0) }", "ceil"),
            ("fn f(n) { sum([n, 1]) }", "sum"),
            ("fn f(n) { let a = []; a.append(n); a }", "append"),
            ("fn f(n) { max([n, 1]) }", "max"),
        ] {
            let SolverError::Script(f) = run(src) else {
                panic!("{src}")
            };
            assert_eq!(
                f.tip.as_deref(),
                Some(&Tip::Python { name: name.into() }),
                "{src}"
            );
        }
        // A near miss of a name that exists, Rhai's or the learner's own.
        let SolverError::Script(f) = run("fn f(n) { flor(n / 2.0) }") else {
            panic!()
        };
        assert_eq!(
            f.tip.as_deref(),
            Some(&Tip::Similar {
                name: "flor".into(),
                names: vec!["floor".into()]
            })
        );
        let e = run("fn helper(x) { x }\nfn f(n) { helpr(n) }");
        assert!(
            e.message_in(Lang::En).ends_with("Did you mean `helper`?"),
            "{e:?}"
        );
        assert!(
            e.message_in(Lang::Zh).ends_with("是不是想用 `helper`？"),
            "{e:?}"
        );
        // A name that exists with other argument types, or nothing close: no tip.
        for src in ["fn f(n) { floor(n) }", "fn f(n) { zzzzzz(n) }"] {
            let SolverError::Script(f) = run(src) else {
                panic!("{src}")
            };
            assert_eq!(f.tip, None, "{src}");
        }
    }

    /// Python's `//` is a comment in Rhai; the syntax error it causes (often on
    /// the next line) says so, and a comment on a line of its own does not.
    #[test]
    fn python_floor_division_is_named() {
        let e = solver("fn f(n) {\n  let h = n // 2;\n  h\n}")
            .err()
            .unwrap();
        let SolverError::Script(f) = &e else {
            panic!("{e:?}")
        };
        assert_eq!(
            f.tip.as_deref(),
            Some(&Tip::SlashComment { line: 2 }),
            "{e:?}"
        );
        assert!(
            e.message_in(Lang::En)
                .contains("On line 2, `//` starts a comment")
        );
        assert!(
            e.message_in(Lang::Zh)
                .contains("第 2 行的 `//` 在 Rhai 里是注释的开头")
        );
        let e = solver("fn f(n) {\n  // half of it\n  let h = ;\n}")
            .err()
            .unwrap();
        let SolverError::Script(f) = &e else {
            panic!("{e:?}")
        };
        assert_eq!(f.tip, None);
        let e = solver("fn f(n) {\n  let s = \"a // b\";\n  let h = ;\n}")
            .err()
            .unwrap();
        let SolverError::Script(f) = &e else {
            panic!("{e:?}")
        };
        assert_eq!(f.tip, None, "`//` inside a string is not a comment");
    }

    #[test]
    fn every_python_name_has_its_words_in_both_languages() {
        for name in PYTHON_NAMES {
            let tip = crate::say::python_tip(name).expect("a tip for every Python name");
            let [en, zh] = crate::Lang::ALL.map(|lang| tip.text(lang));
            assert!(en.contains('`') && zh.contains('`'), "{name}");
            assert!(
                zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{name}"
            );
        }
        assert!(crate::say::python_tip("nothing").is_none());
    }

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("flor", "floor"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("ceiling", "ceiling"), 0);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn missing_function_and_wrong_arity() {
        let e = solver("fn g(x) { x }").err().unwrap();
        assert_eq!(e.status(), crate::Status::Error);
        assert_eq!(
            e.message_in(Lang::En),
            "no function `f` found: define `fn f(...)` with 1 parameters"
        );
        assert_eq!(
            e.message_in(Lang::Zh),
            "找不到函数 `f`：请定义带 1 个参数的 `fn f(...)`"
        );
        let e = solver("fn f(x, y) { x }").err().unwrap();
        assert_eq!(
            e.message_in(Lang::En),
            "`f` must take 1 parameters, yours takes 2"
        );
        assert_eq!(e.message_in(Lang::Zh), "`f` 应当有 1 个参数，你写的有 2 个");
    }

    #[test]
    fn endless_loop_hits_operation_limit() {
        let mut s = solver("fn f(x) { loop { x += 1; } }").unwrap();
        assert_eq!(
            s.call(&[1.into()]),
            Err(SolverError::Sandbox(LimitHit::Operations))
        );
    }

    #[test]
    fn endless_recursion_hits_depth_limit() {
        let mut s = solver("fn f(x) { f(x + 1) }").unwrap();
        let e = s.call(&[1.into()]).unwrap_err();
        assert_eq!(e, SolverError::Sandbox(LimitHit::CallDepth));
        assert!(e.message_in(Lang::En).contains("call depth"));
        assert_eq!(
            e.message_in(Lang::Zh),
            "超出调用深度限制（是不是无穷递归？）"
        );
    }

    #[test]
    fn deadline_stops_a_loop() {
        let mut s = RhaiSolver::new(
            "fn f(x) { loop {} }",
            "f",
            1,
            Limits {
                max_operations: 0,
                ..Limits::default()
            },
            Some(Rc::new(|| true)),
        )
        .unwrap();
        let e = s.call(&[1.into()]).unwrap_err();
        assert_eq!(e, SolverError::Sandbox(LimitHit::Time));
        assert_eq!(
            e.message_in(Lang::En),
            "time limit exceeded (the code ran too long)"
        );
    }

    #[test]
    fn todo_means_not_attempted_and_throw_is_runtime() {
        let mut s = solver("fn f(x) { todo() }").unwrap();
        assert_eq!(s.call(&[1.into()]), Err(SolverError::NotAttempted));
        let mut s = solver("fn f(x) { throw \"bad\"; }").unwrap();
        let Err(e @ SolverError::Script(_)) = s.call(&[1.into()]) else {
            panic!()
        };
        assert_eq!(
            e.message_in(Lang::En),
            "runtime error (line 1, column 11): error thrown: bad"
        );
        assert_eq!(
            e.message_in(Lang::Zh),
            "运行出错（第 1 行第 11 列）：抛出了错误：bad"
        );
    }

    #[test]
    fn printed_lines_are_capped_per_run_not_per_call() {
        let mut s = solver("fn f(x) { for i in 0..150 { print(i); } x }").unwrap();
        let _ = s.call(&[1.into()]);
        assert_eq!(s.take_printed().len(), 150);
        let _ = s.call(&[1.into()]);
        let second = s.take_printed();
        assert_eq!(second.len(), 51);
        assert_eq!(
            second.last().map(String::as_str),
            Some("(output cut at 200 lines)")
        );
        let _ = s.call(&[1.into()]);
        assert!(s.take_printed().is_empty());
    }

    #[test]
    fn huge_array_hits_size_limit() {
        let mut s = RhaiSolver::new(
            "fn f(x) { let a = []; a.pad(x, 0); a }",
            "f",
            1,
            Limits {
                max_array: 10,
                ..Limits::default()
            },
            None,
        )
        .unwrap();
        let e = s.call(&[100.into()]).unwrap_err();
        let SolverError::Sandbox(LimitHit::Size { what }) = &e else {
            panic!("{e:?}")
        };
        assert_eq!(
            e.message_in(Lang::Zh),
            format!("超出大小限制：{what}"),
            "Rhai's words are kept"
        );
    }

    #[test]
    fn the_books_own_limits_are_structured_and_told_in_both_languages() {
        let big = "x".repeat(100);
        let e = RhaiSolver::new(
            &big,
            "f",
            1,
            Limits {
                max_source: 10,
                ..Limits::default()
            },
            None,
        )
        .err()
        .unwrap();
        assert_eq!(
            e,
            SolverError::Sandbox(LimitHit::Source {
                bytes: 100,
                limit: 10
            })
        );
        assert_eq!(
            e.message_in(Lang::En),
            "source too large: 100 bytes, the limit is 10 bytes"
        );
        assert_eq!(e.message_in(Lang::Zh), "代码太长：100 字节，上限是 10 字节");
        let budget = Budget::new(
            &Limits {
                max_native_work: 5,
                ..Limits::default()
            },
            None,
        );
        assert!(budget.charge("ledger", 3).is_ok());
        let e = classify(*budget.charge("ledger", 3).unwrap_err());
        assert_eq!(
            e,
            SolverError::Sandbox(LimitHit::Work {
                function: "ledger".into(),
                used: 6,
                limit: 5
            })
        );
        assert_eq!(
            e.message_in(Lang::En),
            "work limit exceeded: calls to `ledger` and others asked for 6 units of work, the limit is 5 per run"
        );
        assert_eq!(
            e.message_in(Lang::Zh),
            "超出工作量限制：对 `ledger` 等函数的调用共需要 6 个单位的工作量，每次运行的上限是 5"
        );
        let deep = format!("fn f(x) {{ {}1{} }}", "(".repeat(100), ")".repeat(100));
        let e = solver(&deep).err().unwrap();
        let SolverError::Sandbox(LimitHit::ExprDepth {
            at: Some((l, c)),
            limit,
        }) = e
        else {
            panic!("{e:?}")
        };
        assert_eq!(limit, MAX_EXPR_DEPTH);
        assert_eq!(
            e.message_in(Lang::Zh),
            format!("表达式嵌套太深（第 {l} 行第 {c} 列），最多只能嵌套 64 层")
        );
        assert!(e.message_in(Lang::En).starts_with(&format!(
            "expression nested too deeply at line {l}, column {c}"
        )));
    }
}
