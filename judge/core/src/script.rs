//! The sandboxed Rhai engine that runs learners' code.
//!
//! The sandbox: no file, network or DOM access (Rhai has none unless a host adds
//! it), `eval` disabled, limits on operations, call depth, expression depth,
//! string, array and map sizes, and a deadline the host checks from Rhai's
//! progress callback (this crate reads no clock).

use std::cell::RefCell;
use std::rc::Rc;

pub use rhai;
use rhai::{AST, Dynamic, Engine, EvalAltResult, Scope};

use crate::{Solver, SolverError, Value};

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
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_operations: 5_000_000,
            max_call_levels: 64,
            max_string: 100_000,
            max_array: 1_000_000,
            max_map: 100_000,
            max_print_lines: 200,
        }
    }
}

/// Asks the host whether the wall-clock deadline has passed.
pub type Deadline = Rc<dyn Fn() -> bool>;

const TODO_MARK: &str = "__judge_todo__";
const DEADLINE_MARK: &str = "__judge_deadline__";

/// Builds a sandboxed engine. `print` output goes to `out`.
pub fn engine(limits: Limits, deadline: Option<Deadline>, out: Rc<RefCell<Vec<String>>>) -> Engine {
    let mut e = Engine::new();
    e.set_max_operations(limits.max_operations)
        .set_max_call_levels(limits.max_call_levels)
        .set_max_expr_depths(64, 64)
        .set_max_string_size(limits.max_string)
        .set_max_array_size(limits.max_array)
        .set_max_map_size(limits.max_map)
        .disable_symbol("eval");
    let max_lines = limits.max_print_lines;
    let o = out.clone();
    e.on_print(move |s| push_line(&o, max_lines, s.to_owned()));
    e.on_debug(move |s, _, pos| push_line(&out, max_lines, format!("[{pos}] {s}")));
    if let Some(d) = deadline {
        e.on_progress(move |ops| {
            (ops.is_multiple_of(4096) && d()).then(|| Dynamic::from(DEADLINE_MARK))
        });
    }
    e.register_fn("todo", || -> Result<Dynamic, Box<EvalAltResult>> {
        Err(TODO_MARK.into())
    });
    e
}

fn push_line(out: &Rc<RefCell<Vec<String>>>, max: usize, line: String) {
    let mut o = out.borrow_mut();
    if o.len() < max {
        o.push(line);
    } else if o.len() == max {
        o.push(format!("(output cut at {max} lines)"));
    }
}

/// A learner's Rhai script, compiled, ready to have one function called.
pub struct RhaiSolver {
    engine: Engine,
    ast: AST,
    function: String,
    /// Everything the script printed, across calls.
    pub output: Rc<RefCell<Vec<String>>>,
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
        let output = Rc::new(RefCell::new(Vec::new()));
        let engine = engine(limits, deadline, output.clone());
        let ast = engine.compile(source).map_err(|e| {
            let p = e.position();
            match (p.line(), p.position()) {
                (Some(l), Some(c)) => SolverError::Compile(format!(
                    "syntax error at line {l}, column {c}: {}",
                    e.err_type()
                )),
                _ => SolverError::Compile(format!("syntax error: {}", e.err_type())),
            }
        })?;
        let found: Vec<usize> = ast
            .iter_functions()
            .filter(|f| f.name == function)
            .map(|f| f.params.len())
            .collect();
        if !found.contains(&arity) {
            let msg = if found.is_empty() {
                format!(
                    "no function `{function}` found: define `fn {function}(...)` with {arity} parameters"
                )
            } else {
                format!(
                    "`{function}` must take {arity} parameters, yours takes {}",
                    found[0]
                )
            };
            return Err(SolverError::Compile(msg));
        }
        Ok(RhaiSolver {
            engine,
            ast,
            function: function.to_owned(),
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
            Ok(d) => from_dynamic(&d).map_err(SolverError::Runtime),
            Err(e) => Err(classify(*e)),
        }
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
        E::ErrorTerminated(..) => {
            SolverError::Limit("time limit exceeded (the code ran too long)".into())
        }
        E::ErrorTooManyOperations(_) => {
            SolverError::Limit("operation limit exceeded (an endless loop?)".into())
        }
        E::ErrorStackOverflow(_) => {
            SolverError::Limit("call depth limit exceeded (endless recursion?)".into())
        }
        E::ErrorDataTooLarge(what, _) => SolverError::Limit(format!("size limit exceeded: {what}")),
        other => {
            let p = other.position();
            let at = match (p.line(), p.position()) {
                (Some(l), Some(c)) => format!(" (line {l}, column {c})"),
                _ => String::new(),
            };
            let msg = match &other {
                E::ErrorRuntime(d, _) => format!("error thrown: {d}"),
                _ => other
                    .to_string()
                    .split(" (line")
                    .next()
                    .unwrap_or_default()
                    .to_owned(),
            };
            SolverError::Runtime(format!("runtime error{at}: {msg}"))
        }
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
    Err(format!(
        "returned a value of type `{}`, which the judge cannot compare",
        d.type_name()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solver(src: &str) -> Result<RhaiSolver, SolverError> {
        RhaiSolver::new(src, "f", 1, Limits::default(), None)
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
        let Err(SolverError::Compile(m)) = solver("fn f(x) {\n  let y = ;\n}") else {
            panic!()
        };
        assert!(m.starts_with("syntax error at line 2, column"), "{m}");
    }

    #[test]
    fn missing_function_and_wrong_arity() {
        let Err(SolverError::Compile(m)) = solver("fn g(x) { x }") else {
            panic!()
        };
        assert!(m.contains("no function `f`"), "{m}");
        let Err(SolverError::Compile(m)) = solver("fn f(x, y) { x }") else {
            panic!()
        };
        assert!(m.contains("must take 1 parameters, yours takes 2"), "{m}");
    }

    #[test]
    fn endless_loop_hits_operation_limit() {
        let mut s = solver("fn f(x) { loop { x += 1; } }").unwrap();
        assert!(matches!(s.call(&[1.into()]), Err(SolverError::Limit(_))));
    }

    #[test]
    fn endless_recursion_hits_depth_limit() {
        let mut s = solver("fn f(x) { f(x + 1) }").unwrap();
        let Err(SolverError::Limit(m)) = s.call(&[1.into()]) else {
            panic!()
        };
        assert!(m.contains("call depth"), "{m}");
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
        let Err(SolverError::Limit(m)) = s.call(&[1.into()]) else {
            panic!()
        };
        assert!(m.contains("time limit"), "{m}");
    }

    #[test]
    fn todo_means_not_attempted_and_throw_is_runtime() {
        let mut s = solver("fn f(x) { todo() }").unwrap();
        assert_eq!(s.call(&[1.into()]), Err(SolverError::NotAttempted));
        let mut s = solver("fn f(x) { throw \"bad\"; }").unwrap();
        let Err(SolverError::Runtime(m)) = s.call(&[1.into()]) else {
            panic!()
        };
        assert!(m.contains("bad"), "{m}");
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
        assert!(matches!(s.call(&[100.into()]), Err(SolverError::Limit(_))));
    }
}
