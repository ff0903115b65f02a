//! Running a solver over an exercise's cases and turning the results into a verdict.

use serde::{Deserialize, Serialize};

use crate::{Mismatch, Tolerance, Value, compare};

/// What the judge needs to know of an exercise to grade it.
#[derive(Debug, Clone)]
pub struct Spec {
    /// `chapter/slug`, e.g. `ch_newmodels/attended`.
    pub id: String,
    /// Name of the function the learner writes.
    pub function: String,
    /// Its parameter names, in order.
    pub params: Vec<String>,
    /// The cases, in the order they are run and shown.
    pub cases: Vec<Case>,
    /// How close a float must be.
    pub tolerance: Tolerance,
    /// The reference solution: expected outputs come from it, never from a table.
    pub reference: fn(&[Value]) -> Result<Value, String>,
}

/// One test case: arguments and how much of it the learner may see.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Case {
    /// Arguments, one per parameter.
    pub args: Vec<Value>,
    /// Public, hidden or generated.
    pub kind: Kind,
}

/// How much of a case is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Kind {
    /// Input, expected and actual values are shown.
    Public,
    /// Only pass or fail is shown.
    Hidden,
    /// Made by a generator from `seed`; shown in full so a failure reproduces.
    Generated {
        /// The generator's seed.
        seed: u64,
    },
}

/// The outcome of grading one exercise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Every case passed.
    Passed,
    /// At least one case gave a wrong value.
    Failed,
    /// The code did not compile, raised an error, or returned the wrong type.
    Error,
    /// The code ran out of operations, call depth, memory or time.
    LimitExceeded,
    /// The starter is untouched (or `todo!()` was reached).
    NotAttempted,
}

impl Status {
    /// Short label for people: `passed`, `failed`, `error`, `limit exceeded`, `not attempted`.
    pub fn label(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::Error => "error",
            Status::LimitExceeded => "limit exceeded",
            Status::NotAttempted => "not attempted",
        }
    }
}

/// Why a solver could not produce a value.
#[derive(Debug, Clone, PartialEq)]
pub enum SolverError {
    /// The learner has not written the function yet (`todo!()`, starter unchanged).
    NotAttempted,
    /// The code does not compile or parse, or the function is missing.
    Compile(String),
    /// The code raised an error or panicked.
    Runtime(String),
    /// A sandbox limit was hit (operations, depth, size, time).
    Limit(String),
}

/// The result of one case. Hidden cases carry no input, expected or actual value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseResult {
    /// 1-based case number.
    pub index: usize,
    /// Public, hidden or generated.
    #[serde(flatten)]
    pub kind: Kind,
    /// Whether it passed.
    pub passed: bool,
    /// Arguments (not for hidden cases).
    pub input: Option<Vec<Value>>,
    /// The reference's output (not for hidden cases).
    pub expected: Option<Value>,
    /// The learner's output (not for hidden cases).
    pub actual: Option<Value>,
    /// Where and how it differed (not for hidden cases).
    pub mismatch: Option<Box<Mismatch>>,
    /// The error the learner's code raised on this case.
    pub error: Option<String>,
    /// What the code printed while this case ran (never for hidden cases).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub printed: Vec<String>,
    /// Lines printed while this hidden case ran: withheld, since they could
    /// reveal its input.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub printed_withheld: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The verdict on one exercise: the same JSON in the browser and in the CLI.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// Exercise id.
    pub exercise: String,
    /// Overall status.
    pub status: Status,
    /// Cases that passed.
    pub passed: usize,
    /// Cases in all.
    pub total: usize,
    /// Per-case results, in order, up to and including the case that stopped grading.
    pub cases: Vec<CaseResult>,
    /// One line for people: what went wrong first, or that all passed.
    pub message: String,
}

/// Something that can call the learner's function.
pub trait Solver {
    /// Calls the function with `args`.
    fn call(&mut self, args: &[Value]) -> Result<Value, SolverError>;

    /// What the code printed during the last call, one entry per line (empty
    /// for solvers that do not capture output).
    fn take_printed(&mut self) -> Vec<String> {
        Vec::new()
    }
}

impl Verdict {
    /// A verdict for code that could not even be loaded (syntax error, missing
    /// function, starter untouched): no case ran.
    pub fn without_cases(spec: &Spec, err: SolverError) -> Verdict {
        let (status, message) = describe(&err);
        Verdict {
            exercise: spec.id.clone(),
            status,
            passed: 0,
            total: spec.cases.len(),
            cases: Vec::new(),
            message,
        }
    }

    /// The first failing case, if any.
    pub fn first_failure(&self) -> Option<&CaseResult> {
        self.cases.iter().find(|c| !c.passed)
    }
}

fn describe(err: &SolverError) -> (Status, String) {
    match err {
        SolverError::NotAttempted => (Status::NotAttempted, "not attempted yet".to_owned()),
        SolverError::Compile(m) => (Status::Error, m.clone()),
        SolverError::Runtime(m) => (Status::Error, m.clone()),
        SolverError::Limit(m) => (Status::LimitExceeded, m.clone()),
    }
}

/// Formats a call like `attended(4095, 4, 512, 128)`.
pub fn call_text(function: &str, args: &[Value]) -> String {
    let args: Vec<String> = args.iter().map(Value::to_string).collect();
    format!("{function}({})", args.join(", "))
}

/// Grades `solver` on every case of `spec`.
///
/// Wrong values do not stop grading; an error stops at the case that raised it only
/// when it is a limit (the rest would fail the same way). A `todo` reached on
/// every case is "not attempted"; reached on some cases only, those cases fail.
/// What the code printed is kept per case, and withheld for hidden cases.
pub fn grade(spec: &Spec, solver: &mut dyn Solver) -> Verdict {
    grade_only(spec, solver, None)
}

/// Grades `solver` on the one case numbered `index` (1-based) of `spec`, as
/// [`grade`] would have graded it among the others; the verdict counts that
/// case only. An index past the cases grades none.
pub fn grade_case(spec: &Spec, solver: &mut dyn Solver, index: usize) -> Verdict {
    grade_only(spec, solver, Some(index))
}

fn grade_only(spec: &Spec, solver: &mut dyn Solver, only: Option<usize>) -> Verdict {
    let mut cases = Vec::with_capacity(spec.cases.len());
    let mut todos = 0;
    let mut stop: Option<(Status, String)> = None;
    let mut first_problem: Option<(Status, String)> = None;
    for (i, case) in spec.cases.iter().enumerate() {
        let index = i + 1;
        if only.is_some_and(|o| o != index) {
            continue;
        }
        let shown = !matches!(case.kind, Kind::Hidden);
        let want = match (spec.reference)(&case.args) {
            Ok(v) => v,
            Err(e) => {
                stop = Some((
                    Status::Error,
                    format!("reference solution failed on case {index}: {e}"),
                ));
                break;
            }
        };
        let mut result = CaseResult {
            index,
            kind: case.kind,
            passed: false,
            input: shown.then(|| case.args.clone()),
            expected: shown.then(|| want.clone()),
            actual: None,
            mismatch: None,
            error: None,
            printed: Vec::new(),
            printed_withheld: 0,
        };
        let outcome = solver.call(&case.args);
        let printed = solver.take_printed();
        if shown {
            result.printed = printed;
        } else {
            result.printed_withheld = printed.len();
        }
        match outcome {
            Ok(got) => match compare(&got, &want, spec.tolerance) {
                Ok(()) => result.passed = true,
                Err(m)
                    if m.path.is_empty()
                        && got.type_name() != want.type_name()
                        && !matches!((&got, &want), (Value::Int(_), Value::Float(_))) =>
                {
                    // The whole value has the wrong type: an error, not a wrong answer.
                    let msg = format!(
                        "case {index}: wrong return type: `{}` must return {}, yours returned {}",
                        spec.function,
                        want.type_name(),
                        got.type_name()
                    );
                    if first_problem
                        .as_ref()
                        .is_none_or(|(s, _)| *s == Status::Failed)
                    {
                        first_problem = Some((Status::Error, msg.clone()));
                    }
                    result.error = Some(msg);
                    if shown {
                        result.actual = Some(got);
                        result.mismatch = Some(m);
                    }
                }
                Err(m) => {
                    let what = if shown {
                        let at = if m.path.is_empty() {
                            String::new()
                        } else {
                            format!(" at {}", m.path)
                        };
                        format!(
                            "case {index}: {} returned {}, expected {}{at} ({})",
                            call_text(&spec.function, &case.args),
                            got,
                            want,
                            m.reason
                        )
                    } else {
                        format!("case {index} (hidden) gave a wrong value")
                    };
                    first_problem.get_or_insert((Status::Failed, what));
                    if shown {
                        result.actual = Some(got);
                        result.mismatch = Some(m);
                    }
                }
            },
            Err(e) => {
                let (status, msg) = match describe(&e) {
                    (Status::NotAttempted, _) => {
                        todos += 1;
                        (
                            Status::Failed,
                            "reached todo(): this case is not handled yet".to_owned(),
                        )
                    }
                    d => d,
                };
                let hard = status == Status::LimitExceeded;
                // An error's text can carry values (`throw pos`, an index out of
                // bounds): for a hidden case only its kind is told.
                let msg = if !shown && status == Status::Error {
                    format!(
                        "case {index} (hidden): the code raised an error (its message is withheld, as it could reveal the hidden input)"
                    )
                } else {
                    format!("case {index}: {msg}")
                };
                result.error = Some(msg.clone());
                cases.push(result);
                if hard {
                    stop = Some((status, msg));
                    break;
                }
                // An error outranks an earlier wrong value; a failure keeps the first.
                if status == Status::Failed {
                    first_problem.get_or_insert((status, msg));
                } else if first_problem
                    .as_ref()
                    .is_none_or(|(s, _)| *s == Status::Failed)
                {
                    first_problem = Some((status, msg));
                }
                continue;
            }
        }
        cases.push(result);
    }
    let passed = cases.iter().filter(|c| c.passed).count();
    let total = match only {
        Some(o) => usize::from(o >= 1 && o <= spec.cases.len()),
        None => spec.cases.len(),
    };
    if stop.is_none() && todos == total {
        return Verdict::without_cases(spec, SolverError::NotAttempted);
    }
    let (status, message) = stop.or(first_problem).unwrap_or_else(|| {
        let what = match only {
            Some(o) => format!("case {o} passed"),
            None => format!("all {total} cases passed"),
        };
        (Status::Passed, what)
    });
    Verdict {
        exercise: spec.id.clone(),
        status,
        passed,
        total,
        cases,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn double(args: &[Value]) -> Result<Value, String> {
        args[0]
            .as_int()
            .map(|x| Value::Int(2 * x))
            .ok_or_else(|| "not an int".to_owned())
    }

    fn spec() -> Spec {
        Spec {
            id: "t/double".into(),
            function: "double".into(),
            params: vec!["x".into()],
            cases: vec![
                Case {
                    args: vec![1.into()],
                    kind: Kind::Public,
                },
                Case {
                    args: vec![5.into()],
                    kind: Kind::Hidden,
                },
                Case {
                    args: vec![7.into()],
                    kind: Kind::Generated { seed: 3 },
                },
            ],
            tolerance: Tolerance::default(),
            reference: double,
        }
    }

    struct F(fn(i64) -> Result<Value, SolverError>);
    impl Solver for F {
        fn call(&mut self, args: &[Value]) -> Result<Value, SolverError> {
            (self.0)(args[0].as_int().unwrap())
        }
    }

    #[test]
    fn correct_solution_passes() {
        let v = grade(&spec(), &mut F(|x| Ok(Value::Int(x * 2))));
        assert_eq!(v.status, Status::Passed);
        assert_eq!((v.passed, v.total), (3, 3));
    }

    #[test]
    fn wrong_hidden_case_is_redacted() {
        let v = grade(
            &spec(),
            &mut F(|x| Ok(Value::Int(if x == 5 { 0 } else { 2 * x }))),
        );
        assert_eq!(v.status, Status::Failed);
        assert_eq!(v.message, "case 2 (hidden) gave a wrong value");
        let c = v.first_failure().unwrap();
        assert_eq!((c.input.as_ref(), c.actual.as_ref()), (None, None));
    }

    #[test]
    fn wrong_public_case_names_call_and_values() {
        let v = grade(&spec(), &mut F(|x| Ok(Value::Int(x * 3))));
        assert_eq!(v.status, Status::Failed);
        assert_eq!(
            v.message,
            "case 1: double(1) returned 3, expected 2 (values differ)"
        );
        assert_eq!(v.passed, 0);
        assert_eq!(
            v.cases[2].actual,
            Some(Value::Int(21)),
            "generated cases are shown"
        );
    }

    #[test]
    fn wrong_return_type_is_an_error() {
        let v = grade(&spec(), &mut F(|_| Ok(Value::from("two"))));
        assert_eq!(v.status, Status::Error);
        assert_eq!(
            v.message,
            "case 1: wrong return type: `double` must return int, yours returned string"
        );
    }

    #[test]
    fn limit_stops_grading() {
        let v = grade(
            &spec(),
            &mut F(|_| Err(SolverError::Limit("too many operations".into()))),
        );
        assert_eq!(v.status, Status::LimitExceeded);
        assert_eq!(v.cases.len(), 1);
    }

    #[test]
    fn todo_everywhere_is_not_attempted_and_somewhere_is_a_failure() {
        let v = grade(&spec(), &mut F(|_| Err(SolverError::NotAttempted)));
        assert_eq!(v.status, Status::NotAttempted);
        let v = grade(
            &spec(),
            &mut F(|x| {
                if x == 5 {
                    Err(SolverError::NotAttempted)
                } else {
                    Ok(Value::Int(2 * x))
                }
            }),
        );
        assert_eq!(v.status, Status::Failed);
        assert_eq!((v.passed, v.total), (2, 3));
        assert_eq!(
            v.message,
            "case 2: reached todo(): this case is not handled yet"
        );
    }

    /// Prints its argument, then doubles it.
    struct Printer(Vec<String>);
    impl Solver for Printer {
        fn call(&mut self, args: &[Value]) -> Result<Value, SolverError> {
            self.0.push(format!("x = {}", args[0]));
            Ok(Value::Int(2 * args[0].as_int().unwrap()))
        }
        fn take_printed(&mut self) -> Vec<String> {
            std::mem::take(&mut self.0)
        }
    }

    #[test]
    fn one_case_is_graded_alone_under_its_own_number() {
        let v = grade_case(&spec(), &mut F(|x| Ok(Value::Int(2 * x))), 3);
        assert_eq!(
            (v.status, v.passed, v.total, v.cases.len()),
            (Status::Passed, 1, 1, 1)
        );
        assert_eq!(v.cases[0].index, 3);
        let v = grade_case(&spec(), &mut F(|x| Ok(Value::Int(x))), 1);
        assert_eq!((v.status, v.passed, v.total), (Status::Failed, 0, 1));
        assert!(
            v.message.starts_with("case 1: double(1) returned 1"),
            "{}",
            v.message
        );
    }

    #[test]
    fn a_hidden_case_error_does_not_tell_its_message() {
        struct Thrower;
        impl Solver for Thrower {
            fn call(&mut self, args: &[Value]) -> Result<Value, SolverError> {
                Err(SolverError::Runtime(format!("error thrown: {}", args[0])))
            }
        }
        let v = grade(&spec(), &mut Thrower);
        let hidden = &v.cases[1];
        assert_eq!(hidden.kind, Kind::Hidden);
        let e = hidden.error.as_deref().unwrap();
        assert!(e.contains("withheld") && !e.contains("error thrown"), "{e}");
        assert!(
            v.cases[0]
                .error
                .as_deref()
                .unwrap()
                .contains("error thrown: 1")
        );
        assert!(
            !serde_json::to_string(&v)
                .unwrap()
                .contains("error thrown: 5")
        );
    }

    #[test]
    fn printed_output_is_kept_per_case_and_withheld_for_hidden_ones() {
        let v = grade(&spec(), &mut Printer(Vec::new()));
        assert_eq!(v.cases[0].printed, ["x = 1"]);
        assert!(v.cases[1].printed.is_empty());
        assert_eq!(v.cases[1].printed_withheld, 1);
        assert_eq!(v.cases[2].printed, ["x = 7"]);
        let json = serde_json::to_string(&v.cases[1]).unwrap();
        assert!(!json.contains("x = 5"), "{json}");
    }

    #[test]
    fn runtime_error_is_error_status_with_case() {
        let v = grade(
            &spec(),
            &mut F(|_| Err(SolverError::Runtime("boom".into()))),
        );
        assert_eq!(v.status, Status::Error);
        assert_eq!(v.message, "case 1: boom");
    }
}
