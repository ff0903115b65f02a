//! Running a solver over an exercise's cases and turning the results into a verdict.

use serde::{Deserialize, Serialize};

use crate::{
    Answer, CodeError, Finding, LimitHit, Mismatch, ScriptFault, Tolerance, Value, compare,
};

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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SolverError {
    /// The learner has not written the function yet (`todo!()`, starter unchanged).
    NotAttempted,
    /// The code does not compile or parse, or the function is missing.
    Compile(String),
    /// The code raised an error or panicked.
    Runtime(String),
    /// A limit was hit, told in someone else's words (Rhai's, the host's).
    Limit(String),
    /// A limit of the book's own sandbox or of the judge was hit.
    Sandbox(LimitHit),
    /// A compile or run error the judge describes in its own words.
    Code(CodeError),
    /// A Rhai error (syntax or run), worded in each language.
    Script(ScriptFault),
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
    /// The same error as structure, to tell in either language
    /// ([`CaseResult::error_in`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<Box<Finding>>,
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
    /// One line for people, in English: what went wrong first, or that all passed.
    pub message: String,
    /// The same line as structure, to tell in either language
    /// ([`Verdict::message_in`]).
    pub finding: Box<Finding>,
    /// The known mistake the results on the failing cases match, when they
    /// match one (the exercises crate names it after grading).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub misconception: Option<Misconception>,
    /// The smallest failing input found from the first failing generated
    /// case ([`crate::shrink::shrink`]), when the host searched for one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shrunk: Option<Box<crate::shrink::Shrunk>>,
}

/// A known mistake that a failing answer's results match: on every case the
/// answer failed, it gave what one of the exercise's known-wrong solutions
/// gives (within the tolerance, by [`compare`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Misconception {
    /// The known-wrong solution's file stem (`rounds_to_nearest`).
    pub id: String,
    /// The misconception in one line, in English (the exercise's metadata has
    /// it in each language).
    pub text: String,
}

/// What a solver gave on each case it was asked, in the order asked: a
/// [`Solver`] wrapper that remembers every outcome, hidden cases' too, for a
/// judge that compares them with known mistakes after grading. The `k`-th
/// outcome belongs to the verdict's `k`-th case.
pub struct Recorder<'a> {
    /// The solver being graded.
    pub inner: &'a mut dyn Solver,
    /// Its outcomes so far.
    pub outcomes: Vec<Result<Value, SolverError>>,
}

impl<'a> Recorder<'a> {
    /// Wraps `inner`.
    pub fn new(inner: &'a mut dyn Solver) -> Self {
        Recorder {
            inner,
            outcomes: Vec::new(),
        }
    }
}

impl Solver for Recorder<'_> {
    fn call(&mut self, args: &[Value]) -> Result<Value, SolverError> {
        let out = self.inner.call(args);
        self.outcomes.push(out.clone());
        out
    }

    fn take_printed(&mut self) -> Vec<String> {
        self.inner.take_printed()
    }

    fn answer(&self) -> Answer {
        self.inner.answer()
    }
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

    /// The language the code is written in, for the messages that teach.
    fn answer(&self) -> Answer {
        Answer::Rhai
    }
}

impl Verdict {
    /// A verdict for code that could not even be loaded (syntax error, missing
    /// function, starter untouched): no case ran.
    pub fn without_cases(spec: &Spec, err: SolverError) -> Verdict {
        Verdict::no_case_ran(&spec.id, spec.cases.len(), err)
    }

    /// [`Verdict::without_cases`] for exercise `id` of `total` cases, where
    /// the cases themselves are not at hand: the page's module, which has no
    /// test cases, words a run its worker could not finish this way.
    pub fn no_case_ran(id: &str, total: usize, err: SolverError) -> Verdict {
        let status = err.status();
        let finding = match err {
            SolverError::NotAttempted => Finding::NotAttempted,
            error => Finding::Raised { case: None, error },
        };
        Verdict::new(id, status, 0, total, Vec::new(), finding)
    }

    /// A verdict whose English `message` is its finding's English text.
    fn new(
        id: &str,
        status: Status,
        passed: usize,
        total: usize,
        cases: Vec<CaseResult>,
        finding: Finding,
    ) -> Verdict {
        Verdict {
            exercise: id.to_owned(),
            status,
            passed,
            total,
            cases,
            message: finding.text_in(crate::Lang::En),
            finding: Box::new(finding),
            misconception: None,
            shrunk: None,
        }
    }

    /// The first failing case, if any.
    pub fn first_failure(&self) -> Option<&CaseResult> {
        self.cases.iter().find(|c| !c.passed)
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
    let mut stop: Option<(Status, Finding)> = None;
    let mut first_problem: Option<(Status, Finding)> = None;
    for (i, case) in spec.cases.iter().enumerate() {
        let index = i + 1;
        if only.is_some_and(|o| o != index) {
            continue;
        }
        let shown = !matches!(case.kind, Kind::Hidden);
        let want = match (spec.reference)(&case.args) {
            Ok(v) => v,
            Err(error) => {
                stop = Some((
                    Status::Error,
                    Finding::ReferenceFailed { case: index, error },
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
            problem: None,
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
                    let finding = Finding::WrongType {
                        case: index,
                        function: spec.function.clone(),
                        expected: want.type_name().to_owned(),
                        got: got.type_name().to_owned(),
                        answer: solver.answer(),
                    };
                    if first_problem
                        .as_ref()
                        .is_none_or(|(s, _)| *s == Status::Failed)
                    {
                        first_problem = Some((Status::Error, finding.clone()));
                    }
                    result.set_problem(finding);
                    if shown {
                        result.actual = Some(got);
                        result.mismatch = Some(m);
                    }
                }
                Err(m) => {
                    let finding = if shown {
                        Finding::WrongValue {
                            case: index,
                            call: call_text(&spec.function, &case.args),
                            got: got.to_string(),
                            expected: want.to_string(),
                            path: m.path.clone(),
                            reason: m.why(),
                        }
                    } else {
                        Finding::HiddenWrong { case: index }
                    };
                    first_problem.get_or_insert((Status::Failed, finding));
                    if shown {
                        result.actual = Some(got);
                        result.mismatch = Some(m);
                    }
                }
            },
            Err(e) => {
                let (status, finding) = match e.status() {
                    Status::NotAttempted => {
                        todos += 1;
                        (Status::Failed, Finding::Todo { case: index })
                    }
                    // An error's text can carry values (`throw pos`, an index out
                    // of bounds): for a hidden case only its kind is told.
                    Status::Error if !shown => {
                        (Status::Error, Finding::HiddenError { case: index })
                    }
                    status => (
                        status,
                        Finding::Raised {
                            case: Some(index),
                            error: e,
                        },
                    ),
                };
                let hard = status == Status::LimitExceeded;
                result.set_problem(finding.clone());
                cases.push(result);
                if hard {
                    stop = Some((status, finding));
                    break;
                }
                // An error outranks an earlier wrong value; a failure keeps the first.
                if status == Status::Failed {
                    first_problem.get_or_insert((status, finding));
                } else if first_problem
                    .as_ref()
                    .is_none_or(|(s, _)| *s == Status::Failed)
                {
                    first_problem = Some((status, finding));
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
    let (status, finding) = stop.or(first_problem).unwrap_or_else(|| {
        let finding = match only {
            Some(case) => Finding::CasePassed { case },
            None => Finding::AllPassed { total },
        };
        (Status::Passed, finding)
    });
    Verdict::new(&spec.id, status, passed, total, cases, finding)
}

/// Failing cases as a page lists them: each case that failed on a wrong value,
/// and each first case of an error, with the numbers of the later cases that
/// raised the same error (told apart by the error's structure, whatever its
/// case number): fourteen identical errors are one row and a list, not
/// fourteen rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailRow {
    /// The case shown: its place in [`Verdict::cases`].
    pub shown: usize,
    /// The 1-based numbers of the later cases with the same error.
    pub same: Vec<usize>,
    /// Whether these are hidden cases' errors, whose messages are withheld:
    /// grouped as "raised an error too", since their texts cannot be compared.
    pub withheld: bool,
}

impl Verdict {
    /// The failing cases, in order, identical errors grouped ([`FailRow`]).
    pub fn fail_rows(&self) -> Vec<FailRow> {
        let mut rows: Vec<(Option<String>, FailRow)> = Vec::new();
        for (i, c) in self.cases.iter().enumerate() {
            if c.passed {
                continue;
            }
            let key = c.error.as_ref().map(|e| match &c.problem {
                Some(f) => {
                    let mut v = serde_json::to_value(f).unwrap_or_default();
                    // The variant's fields: all but the case number.
                    if let Some(o) = v
                        .as_object_mut()
                        .and_then(|o| o.values_mut().next())
                        .and_then(|f| f.as_object_mut())
                    {
                        o.remove("case");
                    }
                    v.to_string()
                }
                None => e.clone(),
            });
            match rows.iter_mut().find(|(k, _)| key.is_some() && *k == key) {
                Some((_, row)) => row.same.push(c.index),
                None => rows.push((
                    key,
                    FailRow {
                        shown: i,
                        same: Vec::new(),
                        withheld: matches!(
                            c.problem.as_deref(),
                            Some(crate::Finding::HiddenError { .. })
                        ),
                    },
                )),
            }
        }
        rows.into_iter().map(|(_, r)| r).collect()
    }
}

impl CaseResult {
    /// Records the error of this case, as structure and as its English text.
    fn set_problem(&mut self, finding: Finding) {
        self.error = Some(finding.text_in(crate::Lang::En));
        self.problem = Some(Box::new(finding));
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

    /// The page's module words a run its worker could not finish without the
    /// cases at hand: the same verdict as from the spec, in both languages.
    #[test]
    fn a_verdict_without_the_cases_at_hand_is_the_same() {
        let s = spec();
        for err in [
            SolverError::NotAttempted,
            SolverError::Runtime("the worker stopped".into()),
            SolverError::Limit("time limit".into()),
        ] {
            let from_spec = Verdict::without_cases(&s, err.clone());
            let by_count = Verdict::no_case_ran("t/double", 3, err);
            assert_eq!(from_spec, by_count);
            assert_eq!(by_count.total, 3);
            assert_eq!(by_count.passed, 0);
            for lang in [crate::Lang::En, crate::Lang::Zh] {
                assert_eq!(from_spec.message_in(lang), by_count.message_in(lang));
            }
        }
    }

    struct F(fn(i64) -> Result<Value, SolverError>);
    impl Solver for F {
        fn call(&mut self, args: &[Value]) -> Result<Value, SolverError> {
            (self.0)(args[0].as_int().unwrap())
        }
    }

    #[test]
    fn identical_errors_are_one_row_and_wrong_values_each_their_own() {
        let s = Spec {
            cases: (1..=6)
                .map(|x| Case {
                    args: vec![x.into()],
                    kind: if x % 2 == 0 {
                        Kind::Hidden
                    } else {
                        Kind::Public
                    },
                })
                .collect(),
            ..spec()
        };
        // Cases 1 and 2 return a wrong value; 3 to 5 raise the same error, 6
        // another: the public 3 and 5 are one row, the hidden 4 and 6 (whose
        // messages are withheld) another.
        let v = grade(
            &s,
            &mut F(|x| match x {
                1 | 2 => Ok(Value::Int(0)),
                6 => Err(SolverError::Runtime("other".into())),
                _ => Err(SolverError::Runtime("boom".into())),
            }),
        );
        let rows: Vec<(usize, Vec<usize>, bool)> = v
            .fail_rows()
            .into_iter()
            .map(|r| (v.cases[r.shown].index, r.same, r.withheld))
            .collect();
        assert_eq!(
            rows,
            vec![
                (1, vec![], false),
                (2, vec![], false),
                (3, vec![5], false),
                (4, vec![6], true)
            ]
        );
        // Nothing failed: no rows.
        let ok = grade(&spec(), &mut F(|x| Ok(Value::Int(x * 2))));
        assert!(ok.fail_rows().is_empty());
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

    /// The verdict's line in both languages, and the English one is `message`.
    fn both(v: &Verdict) -> (String, String) {
        assert_eq!(v.message_in(crate::Lang::En), v.message);
        (v.message.clone(), v.message_in(crate::Lang::Zh))
    }

    #[test]
    fn every_kind_of_message_is_told_in_english_and_chinese() {
        use crate::Lang::{En, Zh};
        let (en, zh) = both(&grade(&spec(), &mut F(|x| Ok(Value::Int(x * 2)))));
        assert_eq!(en, "all 3 cases passed");
        assert_eq!(zh, "全部 3 个用例通过");
        let (en, zh) = both(&grade_case(&spec(), &mut F(|x| Ok(Value::Int(x * 2))), 3));
        assert_eq!(
            (en.as_str(), zh.as_str()),
            ("case 3 passed", "第 3 个用例通过")
        );
        let (en, zh) = both(&grade(&spec(), &mut F(|_| Err(SolverError::NotAttempted))));
        assert_eq!(
            (en.as_str(), zh.as_str()),
            ("not attempted yet", "尚未作答")
        );
        let (_, zh) = both(&grade(&spec(), &mut F(|x| Ok(Value::Int(x * 3)))));
        assert_eq!(zh, "第 1 个用例：double(1) 返回 3，应为 2（数值不同）");
        let (_, zh) = both(&grade(
            &spec(),
            &mut F(|x| Ok(Value::Int(if x == 5 { 0 } else { 2 * x }))),
        ));
        assert_eq!(zh, "第 2 个用例（隐藏）结果错误");
        let (_, zh) = both(&grade(&spec(), &mut F(|_| Ok(Value::from("two")))));
        assert_eq!(
            zh,
            "第 1 个用例：返回类型不对：`double` 应当返回 int，你的代码返回了 string"
        );
        let v = grade(
            &spec(),
            &mut F(|_| Err(SolverError::Runtime("runtime error: boom".into()))),
        );
        let (_, zh) = both(&v);
        assert_eq!(
            zh, "第 1 个用例：运行出错：runtime error: boom",
            "Rhai's words kept"
        );
        assert_eq!(
            v.cases[1].error_in(Zh).as_deref(),
            Some("第 2 个用例（隐藏）：代码出错了（错误信息不予显示，因为它可能透露隐藏的输入）")
        );
        assert_eq!(v.cases[1].error_in(En), v.cases[1].error);
        let (en, zh) = both(&grade(
            &spec(),
            &mut F(|_| Err(SolverError::Sandbox(crate::LimitHit::Operations))),
        ));
        assert_eq!(en, "case 1: operation limit exceeded (an endless loop?)");
        assert_eq!(zh, "第 1 个用例：超出运算次数限制（是不是写成了死循环？）");
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
        assert_eq!(
            both(&v).1,
            "第 2 个用例：执行到了 todo()，这个用例还没有处理"
        );
        let v = Verdict::without_cases(
            &spec(),
            SolverError::Compile("syntax error at line 2, column 3: x".into()),
        );
        assert_eq!(
            both(&v).1,
            "代码无法编译：syntax error at line 2, column 3: x"
        );
        let mut broken = spec();
        broken.reference = |_| Err("overflow".to_owned());
        let (en, zh) = both(&grade(&broken, &mut F(|x| Ok(Value::Int(x)))));
        assert_eq!(en, "reference solution failed on case 1: overflow");
        assert_eq!(zh, "参考解在第 1 个用例上出错：overflow");
    }

    #[test]
    fn labels_and_the_structure_survive_json() {
        use crate::Lang::Zh;
        let labels: Vec<&str> = [
            Status::Passed,
            Status::Failed,
            Status::Error,
            Status::LimitExceeded,
            Status::NotAttempted,
        ]
        .iter()
        .map(|s| s.label_in(Zh))
        .collect();
        assert_eq!(labels, ["通过", "未通过", "出错", "超出限制", "尚未作答"]);
        assert_eq!(
            Status::LimitExceeded.label_in(crate::Lang::En),
            "limit exceeded"
        );
        let v = grade(
            &spec(),
            &mut F(|x| {
                if x == 1 {
                    Err(SolverError::Sandbox(crate::LimitHit::Time))
                } else {
                    Ok(Value::Int(x))
                }
            }),
        );
        let back: Verdict = serde_json::from_str(&serde_json::to_string(&v).unwrap()).unwrap();
        assert_eq!(back, v);
        assert_eq!(
            back.message_in(Zh),
            "第 1 个用例：超出时间限制（代码运行得太久）"
        );
    }
}
