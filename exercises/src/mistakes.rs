//! Naming the mistake (#29): when an answer fails, and on every case it
//! failed it gave what one of the exercise's known-wrong solutions
//! (`wrong/*.rhai`, `wrong/*.py`) gives, the verdict carries that solution's
//! misconception ([`judge::Misconception`]: its file stem and its line from
//! `[mistakes]` in `exercise.toml`).
//!
//! What the known-wrong solutions give is recorded ahead of time, not run
//! while grading: `exercises/wrong_outputs.jsonl` holds, for each of them,
//! its output on every case it fails (public, hidden and seeded cases alike;
//! the seeded ones are fixed by their seeds), and which cases it raised an
//! error on. On the cases it passes it gives the expected value, which a
//! failing answer does not, so nothing more is needed. The recording is
//! compiled into the CLI and the workers alike, so the browser and the CLI
//! name the same mistake for the same outputs; it costs no run time, and it
//! holds the Python mistakes too, which the Rhai worker could not run. The
//! tests re-record it (`UPDATE_WRONG_OUTPUTS=1`): the Rhai solutions in
//! `cargo test -p exercises`, the Python ones in `cargo test -p judge-cli`,
//! and both fail when the recording is stale.

use std::collections::BTreeMap;

use judge::{Answer, CaseResult, Misconception, SolverError, Status, Value, Verdict};
use serde::{Deserialize, Serialize};

use crate::Exercise;

/// The recording: one [`Recorded`] per line, exercise by exercise in book
/// order, each exercise's files by name.
pub const RECORDED: &str = include_str!("../wrong_outputs.jsonl");

/// The path of the recording, for the tests that rewrite it.
pub const RECORDED_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/wrong_outputs.jsonl");

/// One known-wrong solution's outputs on the cases it fails.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recorded {
    /// `chapter/slug`.
    pub exercise: String,
    /// `wrong/<stem>.rhai` or `wrong/<stem>.py`.
    pub file: String,
    /// Case number (1-based) → its output there, in the wire encoding
    /// ([`Value::to_wire`]), for each case it fails with a value.
    pub failing: BTreeMap<usize, serde_json::Value>,
    /// The cases on which it raised an error.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub raised: Vec<usize>,
}

impl Recorded {
    /// The mistake's id: the file's stem.
    pub fn id(&self) -> &str {
        let name = self.file.rsplit('/').next().unwrap_or(&self.file);
        name.rsplit_once('.').map_or(name, |(s, _)| s)
    }

    /// What a verdict and its outcomes (see [`judge::Recorder`]) record of the
    /// known-wrong solution `file` of `exercise`.
    pub fn of(
        exercise: &str,
        file: &str,
        verdict: &Verdict,
        outcomes: &[Result<Value, SolverError>],
    ) -> Recorded {
        let mut r = Recorded {
            exercise: exercise.to_owned(),
            file: file.to_owned(),
            failing: BTreeMap::new(),
            raised: Vec::new(),
        };
        for (c, out) in verdict.cases.iter().zip(outcomes) {
            if c.passed {
                continue;
            }
            match out {
                Ok(v) => {
                    r.failing.insert(c.index, v.to_wire());
                }
                Err(_) => r.raised.push(c.index),
            }
        }
        r
    }

    /// As one line of the recording.
    pub fn line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The recorded known-wrong solutions of `exercise`, in file order.
pub fn recorded(exercise: &str) -> Vec<Recorded> {
    let prefix = format!("{{\"exercise\":\"{exercise}\",");
    RECORDED
        .lines()
        .filter(|l| l.starts_with(&prefix))
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Whether an answer whose outcomes on `failed` cases are `outcomes` gives
/// what `r` gives on each of them: the same value within `ex`'s tolerance
/// (the judge's own comparison), or an error where it raised one.
fn matches(
    ex: &Exercise,
    r: &Recorded,
    failed: &[(&CaseResult, &Result<Value, SolverError>)],
) -> bool {
    failed.iter().all(|(c, out)| match out {
        Ok(got) => r
            .failing
            .get(&c.index)
            .is_some_and(|w| judge::compare(got, &Value::from_wire(w), ex.tolerance).is_ok()),
        Err(_) => r.raised.contains(&c.index),
    })
}

/// The cases `v` failed, each with what the answer gave there; `None` when
/// there are none, or when one of them says nothing of the answer's results
/// (a limit hit, a `todo` reached).
fn failed<'a>(
    v: &'a Verdict,
    outcomes: &'a [Result<Value, SolverError>],
) -> Option<Vec<(&'a CaseResult, &'a Result<Value, SolverError>)>> {
    if !matches!(v.status, Status::Failed | Status::Error) {
        return None;
    }
    let failed: Vec<_> = v
        .cases
        .iter()
        .zip(outcomes)
        .filter(|(c, _)| !c.passed)
        .collect();
    let telling = failed.iter().all(|(_, o)| match o {
        Ok(_) => true,
        Err(e) => e.status() == Status::Error,
    });
    // Every failing case has its outcome (a verdict cut short has fewer).
    let complete = v.cases.iter().filter(|c| !c.passed).count() == failed.len();
    (!failed.is_empty() && telling && complete).then_some(failed)
}

/// Every known-wrong solution of `ex` whose results match the answer's on
/// the cases `v` failed, by id: the closest first (the fewest cases failed
/// that the answer passed: the same mistake rather than one that contains
/// it), then one written in the answer's language (`wrong/*.py` for Python,
/// `wrong/*.rhai` for Rhai and Rust), then in file order.
pub fn candidates(
    ex: &Exercise,
    v: &Verdict,
    outcomes: &[Result<Value, SolverError>],
    answer: Answer,
) -> Vec<String> {
    let Some(failed) = failed(v, outcomes) else {
        return Vec::new();
    };
    let own = if answer == Answer::Python {
        ".py"
    } else {
        ".rhai"
    };
    let graded: Vec<usize> = v.cases.iter().map(|c| c.index).collect();
    let mut found: Vec<(usize, bool, String)> = recorded(ex.id)
        .iter()
        .filter(|r| matches(ex, r, &failed))
        .map(|r| {
            let fails = r.failing.keys().chain(&r.raised);
            let extra = fails.filter(|i| graded.contains(i)).count() - failed.len();
            (extra, !r.file.ends_with(own), r.id().to_owned())
        })
        .collect();
    found.sort_by_key(|(extra, other, _)| (*extra, *other));
    found.into_iter().map(|(_, _, id)| id).collect()
}

/// The known mistake the answer's results match (the closest, see
/// [`candidates`], when several do), if any.
pub fn recognise(
    ex: &Exercise,
    v: &Verdict,
    outcomes: &[Result<Value, SolverError>],
    answer: Answer,
) -> Option<Misconception> {
    let id = candidates(ex, v, outcomes, answer).into_iter().next()?;
    let text = ex.mistakes.iter().find(|(k, _)| *k == id)?.1;
    Some(Misconception {
        id,
        text: text.to_owned(),
    })
}

/// Sets `v`'s misconception from the outcomes of an answer in `answer`'s
/// language (see [`recognise`]).
pub fn name(
    ex: &Exercise,
    v: &mut Verdict,
    outcomes: &[Result<Value, SolverError>],
    answer: Answer,
) {
    v.misconception = recognise(ex, v, outcomes, answer);
}

/// The sort key of a recorded line: the exercise's place in the book, then
/// the file.
#[cfg(not(target_arch = "wasm32"))]
fn order(r: &Recorded) -> (usize, String) {
    let at = crate::all().iter().position(|e| e.id == r.exercise);
    (at.unwrap_or(usize::MAX), r.file.clone())
}

/// The recording with the lines of the files ending in `ext` (`.rhai`,
/// `.py`) replaced by `now`, the others kept from `recorded`.
#[cfg(not(target_arch = "wasm32"))]
pub fn merged(recorded: &str, ext: &str, now: &[Recorded]) -> String {
    let mut all: Vec<Recorded> = recorded
        .lines()
        .filter_map(|l| serde_json::from_str::<Recorded>(l).ok())
        .filter(|r| !r.file.ends_with(ext))
        .chain(now.iter().cloned())
        .collect();
    all.sort_by_key(order);
    all.iter().map(|r| r.line() + "\n").collect()
}

/// The lines of the recording that differ from `now` for the files ending in
/// `ext`: each named, empty when the recording is current.
pub fn stale(ext: &str, now: &[Recorded]) -> Vec<String> {
    let old: Vec<Recorded> = RECORDED
        .lines()
        .filter_map(|l| serde_json::from_str::<Recorded>(l).ok())
        .filter(|r| r.file.ends_with(ext))
        .collect();
    let mut out = Vec::new();
    for r in now {
        match old
            .iter()
            .find(|o| o.exercise == r.exercise && o.file == r.file)
        {
            None => out.push(format!("{}/{}: not recorded", r.exercise, r.file)),
            Some(o) if o != r => out.push(format!(
                "{}/{}: recorded outputs differ",
                r.exercise, r.file
            )),
            Some(_) => {}
        }
    }
    for o in &old {
        if !now
            .iter()
            .any(|r| r.exercise == o.exercise && r.file == o.file)
        {
            out.push(format!(
                "{}/{}: recorded, but no such file",
                o.exercise, o.file
            ));
        }
    }
    out
}

/// Every known-wrong Rhai solution graded, as recorded.
#[cfg(feature = "script")]
pub fn record_rhai() -> Vec<Recorded> {
    let mut out = Vec::new();
    for ex in crate::all() {
        for (file, src) in crate::known::known_wrong(ex.id) {
            let (v, outcomes) =
                crate::grade_rhai_recorded(&ex, src, judge::script::Limits::default(), None, None);
            out.push(Recorded::of(ex.id, file, &v, &outcomes));
        }
    }
    out
}
