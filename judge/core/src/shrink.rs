//! Shrinking a failing generated case (#29): when a seeded case fails, look
//! for a smaller input that still fails the same way, as property-testing
//! libraries do, and show that one first.
//!
//! The search is greedy: from the failing input, try simpler candidates in a
//! fixed order (integers towards 0 by halving the distance, floats towards 0
//! and towards values with fewer digits, lists with halves and single elements
//! dropped, then element by element), keep the first that is smaller and
//! still fails the same way, and start again from it, until no candidate
//! does or the budget is spent. A candidate is only tried when the reference
//! accepts it (its argument checks are the exercise's validity rule). Nothing
//! here reads a clock: the budget counts calls, so the same answer gives the
//! same shrunk case in the browser and the CLI; the host may add a time limit
//! ([`Budget::out_of_time`]), which only cuts a search short.

use serde::{Deserialize, Serialize};

use crate::{Kind, Solver, SolverError, Spec, Status, Value, Verdict, compare};

/// The smallest failing input found from a failing generated case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shrunk {
    /// The generated case it was shrunk from (1-based).
    pub case: usize,
    /// That case's seed.
    pub seed: u64,
    /// The smaller input, one value per parameter.
    pub input: Vec<Value>,
    /// The reference's output on it.
    pub expected: Value,
    /// The answer's output on it, when it gave a wrong value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actual: Option<Value>,
    /// The error the answer raised on it, when it raised one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<SolverError>,
}

/// How much searching a shrink may do.
pub struct Budget<'a> {
    /// Calls of the answer, at most.
    pub evals: usize,
    /// Calls of the reference (to check candidates), at most.
    pub checks: usize,
    /// The host's time limit: true once the search must stop.
    pub out_of_time: &'a dyn Fn() -> bool,
}

/// The default budget: 200 calls of the answer, 2,000 of the reference.
pub const EVALS: usize = 200;

impl Default for Budget<'_> {
    fn default() -> Self {
        Budget {
            evals: EVALS,
            checks: 10 * EVALS,
            out_of_time: &|| false,
        }
    }
}

/// How a case failed: the shrunk case must fail the same way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Failure {
    /// A wrong value of the right type.
    Wrong,
    /// An error raised, or a value of the wrong type.
    Error,
}

/// How `out` fails against `want`; `None` when it passes or tells nothing
/// (a limit hit, a `todo` reached).
fn failure(spec: &Spec, out: &Result<Value, SolverError>, want: &Value) -> Option<Failure> {
    match out {
        Ok(got) => match compare(got, want, spec.tolerance) {
            Ok(()) => None,
            Err(m)
                if m.path.is_empty()
                    && got.type_name() != want.type_name()
                    && !matches!((got, want), (Value::Int(_), Value::Float(_))) =>
            {
                Some(Failure::Error)
            }
            Err(_) => Some(Failure::Wrong),
        },
        Err(e) => (e.status() == Status::Error).then_some(Failure::Error),
    }
}

/// The size of a value: the sum of its numbers' magnitudes and of its
/// lists', maps' and strings' lengths.
pub fn size(v: &Value) -> f64 {
    match v {
        Value::Unit | Value::Bool(_) => 0.0,
        Value::Int(i) => i.unsigned_abs() as f64,
        Value::Float(x) if x.is_finite() => x.abs(),
        Value::Float(_) => f64::MAX,
        Value::Str(s) => s.chars().count() as f64,
        Value::Array(a) => a.len() as f64 + a.iter().map(size).sum::<f64>(),
        Value::Map(m) => m.len() as f64 + m.values().map(size).sum::<f64>(),
    }
}

/// The size of an input: the sum of its arguments' sizes.
pub fn input_size(args: &[Value]) -> f64 {
    args.iter().map(size).sum()
}

/// Simpler integers than `x`, simplest first: 0, then `x` minus half, a
/// quarter, … of its distance to 0, down to `x ∓ 1`.
fn shrink_int(x: i64) -> Vec<i64> {
    let mut out = Vec::new();
    if x == 0 {
        return out;
    }
    out.push(0);
    if x.abs() > 1 {
        out.push(x.signum());
    }
    let mut d = x / 2;
    while d != 0 {
        out.push(x - d);
        d /= 2;
    }
    let step = x - x.signum();
    if !out.contains(&step) {
        out.push(step);
    }
    out
}

/// Simpler floats than `x`: 0, ±1, whole numbers between it and 0, `x`
/// with fewer decimal digits and half of it, each closer to 0 than `x`.
fn shrink_float(x: f64) -> Vec<f64> {
    let mut out: Vec<f64> = Vec::new();
    if x == 0.0 || !x.is_finite() {
        return out;
    }
    let mut push = |c: f64| {
        if c.is_finite() && c.abs() < x.abs() && !out.contains(&c) {
            out.push(c);
        }
    };
    push(0.0);
    push(x.signum());
    push(x.trunc());
    let mut d = x / 2.0;
    for _ in 0..8 {
        push((x - d).trunc());
        d /= 2.0;
    }
    // Fewer digits, and half of it to three decimals: never finer than
    // 0.001, so a float shrinks to a value people can read.
    let to = |c: f64, digits: i32| {
        let scale = 10f64.powi(digits);
        (c * scale).trunc() / scale
    };
    for digits in 0..4 {
        push(to(x, digits));
    }
    push(to(x / 2.0, 3));
    out
}

/// Simpler values than `v`, simplest first, each built only when it is
/// reached: a large list has hundreds of simpler lists, each a copy, and a
/// search usually keeps one of the first few.
fn shrink_value(v: &Value) -> Box<dyn Iterator<Item = Value> + '_> {
    match v {
        Value::Int(i) => Box::new(shrink_int(*i).into_iter().map(Value::Int)),
        Value::Float(x) => Box::new(shrink_float(*x).into_iter().map(Value::Float)),
        Value::Array(a) => {
            let n = a.len();
            // Halves, then single elements dropped (from the end).
            let halves = (if n > 1 { 0..2 } else { 0..0 }).map(move |h| {
                Value::Array(if h == 0 { &a[..n / 2] } else { &a[n / 2..] }.to_vec())
            });
            let drops = (0..n).rev().take(32).map(move |i| {
                let mut b = a.clone();
                b.remove(i);
                Value::Array(b)
            });
            // Then each element made simpler, in place.
            let each = a.iter().enumerate().take(32).flat_map(move |(i, e)| {
                shrink_value(e).map(move |s| {
                    let mut b = a.clone();
                    b[i] = s;
                    Value::Array(b)
                })
            });
            Box::new(halves.chain(drops).chain(each))
        }
        Value::Map(m) => Box::new(m.iter().flat_map(move |(k, e)| {
            shrink_value(e).map(move |s| {
                let mut b = m.clone();
                b.insert(k.clone(), s);
                Value::Map(b)
            })
        })),
        Value::Unit | Value::Bool(_) | Value::Str(_) => Box::new(std::iter::empty()),
    }
}

/// Simpler inputs than `args`: one argument made simpler at a time, the
/// first argument first, each built when it is reached.
fn candidates(args: &[Value]) -> impl Iterator<Item = Vec<Value>> + '_ {
    args.iter().enumerate().flat_map(move |(i, a)| {
        shrink_value(a).map(move |s| {
            let mut b = args.to_vec();
            b[i] = s;
            b
        })
    })
}

/// Where a look through an input's candidates stands: how many of them
/// ([`candidates`]) were looked at, and the (calls, checks) counts after
/// them.
type Scanned = (usize, usize, usize);

/// Looks through `args`'s simpler candidates from where `at` says, within
/// `budget`, and gives `visit` each one that is smaller and that the
/// reference accepts (with the reference's output and the counts after it),
/// until `visit` says to stop. The one-at-a-time search and the batched
/// rounds both look with it, so both count calls and checks alike.
fn scan(
    spec: &Spec,
    args: &[Value],
    at: Scanned,
    budget: &Budget,
    mut visit: impl FnMut(Asked) -> bool,
) -> Scanned {
    let now = input_size(args);
    let (from, mut evals, mut checks) = at;
    let mut seen = from;
    for cand in candidates(args).skip(from) {
        if evals >= budget.evals || checks >= budget.checks || (budget.out_of_time)() {
            break;
        }
        seen += 1;
        if input_size(&cand) >= now {
            continue;
        }
        checks += 1;
        let Ok(expected) = (spec.reference)(&cand) else {
            continue;
        };
        evals += 1;
        let stop = visit(Asked {
            input: cand,
            expected,
            evals,
            checks,
        });
        if stop {
            break;
        }
    }
    (seen, evals, checks)
}

/// Shrinks the first failing generated case of `verdict`, graded on `spec`
/// with `solver` (called again, on smaller inputs): the smallest input found
/// that fails the same way, or `None` when no generated case failed in a way
/// that tells (a wrong value or an error; not a limit or a `todo`).
pub fn shrink(
    spec: &Spec,
    solver: &mut dyn Solver,
    verdict: &Verdict,
    budget: &Budget,
) -> Option<Shrunk> {
    let (index, seed) = first_failing_generated(verdict)?;
    let case = spec.cases.get(index.checked_sub(1)?)?;
    let want = (spec.reference)(&case.args).ok()?;
    let first = solver.call(&case.args);
    solver.take_printed();
    let how = failure(spec, &first, &want)?;
    let (mut args, mut want, mut out) = (case.args.clone(), want, first);
    let (mut evals, mut checks) = (1, 1);
    loop {
        let mut kept = None;
        (_, evals, checks) = scan(spec, &args, (0, evals, checks), budget, |a| {
            let got = solver.call(&a.input);
            solver.take_printed();
            let same = failure(spec, &got, &a.expected) == Some(how);
            if same {
                kept = Some((a.input, a.expected, got));
            }
            same
        });
        // The first simpler input that fails the same way, or none: done.
        let Some(next) = kept else { break };
        (args, want, out) = next;
    }
    let (actual, error) = match out {
        Ok(v) => (Some(v), None),
        Err(e) => (None, Some(e)),
    };
    Some(Shrunk {
        case: index,
        seed,
        input: args,
        expected: want,
        actual,
        error,
    })
}

/// The first generated case `verdict` failed: its number (1-based) and seed.
pub fn first_failing_generated(verdict: &Verdict) -> Option<(usize, u64)> {
    verdict.cases.iter().find_map(|r| match r.kind {
        Kind::Generated { seed } if !r.passed => Some((r.index, seed)),
        _ => None,
    })
}

/// Runs of the answer a batched search makes, at most (round 0 included).
/// Every round after round 0 spends at least one call of the budget (the
/// candidate it keeps and those before it, or its whole chunk), so the
/// budget ([`EVALS`]) ends a search first and a batched search ends where
/// the one-at-a-time search ends (every known-wrong Rhai solution's,
/// `exercises/tests/shrink.rs`). A count, unlike a clock, ends it at the
/// same place in the browser and the CLI.
pub const ROUNDS: usize = EVALS + 1;

/// Candidates the first round of a step asks for; each further round of the
/// same step asks twice as many. The first few candidates (0, ±1, halves)
/// are the ones most often kept, and a round of every candidate at once ran
/// up to 200 large inputs through a Python answer to keep the first.
pub const FIRST_CHUNK: usize = 4;

/// The same greedy search as [`shrink`], for answers that run a batch of
/// inputs at a time (a Python or Rust process): each round asks the answer
/// for the next chunk of the current input's simpler candidates (those the
/// reference accepts, as many as the budget leaves; [`FIRST_CHUNK`], then
/// twice as many each round), and keeps the first in order that fails the
/// same way. Round 0 asks the failing case itself. The
/// budget is counted as [`shrink`] counts it (the calls up to and including
/// the one kept, and the reference's checks), so that both searches take
/// the same steps and end on the same input ([`ROUNDS`]). The state is a
/// plain value (serialisable: the page carries it between the grading
/// worker, which holds the reference, and Pyodide), driven by
/// [`Rounds::ask`] and [`Rounds::answer`]. A host's time limit may stop it
/// early ([`Rounds::stop`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rounds {
    case: usize,
    seed: u64,
    args: Vec<Value>,
    want: Value,
    /// How the case fails, once round 0 is answered.
    how: Option<Failure>,
    /// The answer's output on `args`, once known.
    out: Option<Result<Value, SolverError>>,
    /// The inputs of the round under way: each with the reference's output
    /// and the (calls, checks) counts once it is asked, as [`shrink`] counts.
    asked: Vec<Asked>,
    /// How far the current input's candidates were looked at: where the
    /// next round's chunk starts.
    scanned: Scanned,
    /// How many candidates the next round asks ([`FIRST_CHUNK`], doubling).
    chunk: usize,
    evals: usize,
    checks: usize,
    /// Rounds asked so far.
    rounds: usize,
    done: bool,
}

/// One input of a round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Asked {
    input: Vec<Value>,
    expected: Value,
    evals: usize,
    checks: usize,
}

impl Rounds {
    /// A search from the first generated case `verdict` failed (graded on
    /// `spec`), or `None` when none did or the reference refuses its input.
    pub fn start(spec: &Spec, verdict: &Verdict) -> Option<Rounds> {
        let (index, seed) = first_failing_generated(verdict)?;
        Rounds::from_case(spec, index, seed)
    }

    /// A search from generated case `index` (1-based) of `spec`, whose seed
    /// is `seed`, or `None` when there is no such case or the reference
    /// refuses its input.
    pub fn from_case(spec: &Spec, index: usize, seed: u64) -> Option<Rounds> {
        let case = spec.cases.get(index.checked_sub(1)?)?;
        if case.kind != (Kind::Generated { seed }) {
            return None;
        }
        let want = (spec.reference)(&case.args).ok()?;
        Some(Rounds {
            case: index,
            seed,
            args: case.args.clone(),
            want: want.clone(),
            how: None,
            out: None,
            asked: vec![Asked {
                input: case.args.clone(),
                expected: want,
                evals: 1,
                checks: 1,
            }],
            scanned: (0, 0, 0),
            chunk: FIRST_CHUNK,
            evals: 0,
            checks: 0,
            rounds: 0,
            done: false,
        })
    }

    /// The inputs to run next (empty once the search is over). Asking again
    /// before [`Rounds::answer`] gives the same inputs.
    pub fn ask(&mut self, spec: &Spec) -> Vec<Vec<Value>> {
        if self.done {
            return Vec::new();
        }
        if self.asked.is_empty() {
            if self.rounds >= ROUNDS {
                self.done = true;
                return Vec::new();
            }
            self.asked = self.next_chunk(spec);
            if self.asked.is_empty() {
                self.done = true;
                return Vec::new();
            }
            self.chunk = self.chunk.saturating_mul(2);
        }
        self.asked.iter().map(|a| a.input.clone()).collect()
    }

    /// The next `chunk` of the current input's simpler candidates that the
    /// reference accepts, in order, within the budget, each with the counts
    /// [`shrink`] would have reached on calling it.
    fn next_chunk(&mut self, spec: &Spec) -> Vec<Asked> {
        let mut out = Vec::new();
        let chunk = self.chunk;
        self.scanned = scan(spec, &self.args, self.scanned, &Budget::default(), |a| {
            out.push(a);
            out.len() == chunk
        });
        out
    }

    /// The answer's outputs on the inputs [`Rounds::ask`] gave, in order (a
    /// missing one counts as not failing the same way).
    pub fn answer(&mut self, spec: &Spec, outs: Vec<Result<Value, SolverError>>) {
        let asked = std::mem::take(&mut self.asked);
        if asked.is_empty() {
            return;
        }
        self.rounds += 1;
        let mut outs = outs.into_iter();
        let Some(how) = self.how else {
            // Round 0: the failing case itself, to learn how it fails.
            let first = outs.next();
            match (asked.first(), &first) {
                (Some(a), Some(o)) if failure(spec, o, &a.expected).is_some() => {
                    self.how = failure(spec, o, &a.expected);
                    self.out = first;
                    (self.evals, self.checks) = (a.evals, a.checks);
                    self.new_step();
                }
                _ => self.done = true,
            }
            return;
        };
        for (a, got) in asked.into_iter().zip(outs) {
            if failure(spec, &got, &a.expected) == Some(how) {
                (self.evals, self.checks) = (a.evals, a.checks);
                (self.args, self.want, self.out) = (a.input, a.expected, Some(got));
                self.new_step();
                return;
            }
        }
        // None of this chunk did: the next round asks the next chunk (the
        // search is over when none is left).
    }

    /// Starts on the simpler candidates of a new current input.
    fn new_step(&mut self) {
        self.scanned = (0, self.evals, self.checks);
        self.chunk = FIRST_CHUNK;
    }

    /// Stops the search where it is (the host ran out of time).
    pub fn stop(&mut self) {
        self.done = true;
        self.asked.clear();
    }

    /// The smallest failing input found, or `None` when the failing case did
    /// not fail again in a way that tells (a limit, a `todo`).
    pub fn finish(self) -> Option<Shrunk> {
        self.how?;
        let (actual, error) = match self.out? {
            Ok(v) => (Some(v), None),
            Err(e) => (None, Some(e)),
        };
        Some(Shrunk {
            case: self.case,
            seed: self.seed,
            input: self.args,
            expected: self.want,
            actual,
            error,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Case, Tolerance, grade};

    fn double(args: &[Value]) -> Result<Value, String> {
        let x = args[0].as_int().ok_or("not an int")?;
        if x < 0 {
            return Err("negative".into());
        }
        Ok(Value::Int(2 * x))
    }

    struct F(fn(i64) -> Result<Value, SolverError>);
    impl Solver for F {
        fn call(&mut self, args: &[Value]) -> Result<Value, SolverError> {
            (self.0)(args[0].as_int().unwrap())
        }
    }

    fn spec(x: i64) -> Spec {
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
                    args: vec![x.into()],
                    kind: Kind::Generated { seed: 9 },
                },
            ],
            tolerance: Tolerance::default(),
            reference: double,
        }
    }

    #[test]
    fn a_wrong_value_shrinks_to_the_smallest_input_that_is_still_wrong() {
        // Wrong from 100 on.
        let wrong = |x: i64| Ok(Value::Int(if x >= 100 { 2 * x + 1 } else { 2 * x }));
        let s = spec(12_345);
        let v = grade(&s, &mut F(wrong));
        let got = shrink(&s, &mut F(wrong), &v, &Budget::default()).unwrap();
        assert_eq!((got.case, got.seed), (2, 9));
        assert_eq!(got.input, vec![Value::Int(100)]);
        assert_eq!(
            (got.expected, got.actual),
            (Value::Int(200), Some(Value::Int(201)))
        );
    }

    #[test]
    fn an_error_shrinks_to_an_error_and_the_reference_must_accept_the_input() {
        // Raises on odd inputs: shrinks to 1 (0 and negatives never tried as
        // failing: 0 passes, the reference refuses negatives).
        let raises = |x: i64| {
            if x % 2 == 1 {
                Err(SolverError::Runtime("odd".into()))
            } else {
                Ok(Value::Int(2 * x))
            }
        };
        let s = spec(777);
        let v = grade(&s, &mut F(raises));
        let got = shrink(&s, &mut F(raises), &v, &Budget::default()).unwrap();
        assert_eq!(got.input, vec![Value::Int(1)]);
        assert!(got.actual.is_none() && got.error.is_some());
    }

    #[test]
    fn only_generated_cases_that_fail_telling_are_shrunk_and_the_budget_holds() {
        let s = spec(50);
        let ok = |x: i64| Ok(Value::Int(2 * x));
        let v = grade(&s, &mut F(ok));
        assert_eq!(shrink(&s, &mut F(ok), &v, &Budget::default()), None);
        let limit = |_| Err(SolverError::Limit("slow".into()));
        let v = grade(&s, &mut F(limit));
        assert_eq!(shrink(&s, &mut F(limit), &v, &Budget::default()), None);
        // No budget: the original input comes back.
        let wrong = |x: i64| Ok(Value::Int(3 * x));
        let v = grade(&s, &mut F(wrong));
        let none = Budget {
            evals: 1,
            ..Budget::default()
        };
        assert_eq!(
            shrink(&s, &mut F(wrong), &v, &none).unwrap().input,
            vec![Value::Int(50)]
        );
        let all = shrink(&s, &mut F(wrong), &v, &Budget::default()).unwrap();
        assert_eq!(all.input, vec![Value::Int(1)]);
    }

    /// Drives [`Rounds`] with `f` as a batch-running answer.
    fn rounds(
        s: &Spec,
        v: &Verdict,
        f: fn(i64) -> Result<Value, SolverError>,
    ) -> (Option<Shrunk>, usize) {
        let mut r = Rounds::start(s, v).unwrap();
        let mut n = 0;
        loop {
            let asked = r.ask(s);
            if asked.is_empty() {
                break;
            }
            n += 1;
            let outs = asked.iter().map(|a| f(a[0].as_int().unwrap())).collect();
            r.answer(s, outs);
        }
        // The state is a plain value: it survives a trip through JSON.
        let back: Rounds = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
        assert_eq!(back, r);
        (r.finish(), n)
    }

    #[test]
    fn rounds_find_what_the_one_by_one_search_finds() {
        let wrong = |x: i64| Ok(Value::Int(if x >= 100 { 2 * x + 1 } else { 2 * x }));
        let raises = |x: i64| {
            if x % 2 == 1 {
                Err(SolverError::Runtime("odd".into()))
            } else {
                Ok(Value::Int(2 * x))
            }
        };
        for (x, f) in [(12_345, wrong as fn(i64) -> _), (777, raises)] {
            let s = spec(x);
            let v = grade(&s, &mut F(f));
            let one_by_one = shrink(&s, &mut F(f), &v, &Budget::default());
            let (batched, n) = rounds(&s, &v, f);
            assert_eq!(batched, one_by_one, "from {x}");
            assert!(n <= ROUNDS, "{n} rounds");
        }
        // A case that no longer fails when asked again (a flaky answer)
        // gives nothing; so does a passing one.
        let ok = |x: i64| Ok(Value::Int(2 * x));
        let s = spec(50);
        let v = grade(&s, &mut F(|x| Ok(Value::Int(3 * x))));
        assert_eq!(rounds(&s, &v, ok).0, None);
        assert!(Rounds::start(&s, &grade(&s, &mut F(ok))).is_none());
    }

    #[test]
    fn candidates_are_simpler() {
        assert_eq!(shrink_int(10), vec![0, 1, 5, 8, 9]);
        assert_eq!(shrink_int(-3), vec![0, -1, -2]);
        for c in shrink_float(2.45) {
            assert!(c.abs() < 2.45, "{c}");
        }
        assert!(shrink_float(2.45).contains(&2.4));
        let list = Value::Array(vec![3.into(), 4.into(), 5.into()]);
        for c in shrink_value(&list) {
            assert!(size(&c) < size(&list), "{c}");
        }
    }
}
