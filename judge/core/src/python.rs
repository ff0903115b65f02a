//! The Python side of a Python answer: `harness.py`, which runs the learner's
//! function on the judge's cases and speaks the [`crate::harness`] protocol
//! (with a few more kinds of reply for Python's errors; the file says which).
//! The CLI runs it with the learner's `python3`.

/// The text of `harness.py`.
pub const HARNESS: &str = include_str!("../python/harness.py");

/// Set to `1`, makes `harness.py` grade a round of cases for each line it
/// reads on standard input, reloading the answer for each (the judge's
/// shrinking: one Python start for all its rounds, not one per round).
pub const ROUNDS_ENV: &str = "JUDGE_ROUNDS";
