//! The Python side of a Python answer: `harness.py`, which runs the learner's
//! function on the judge's cases and speaks the [`crate::harness`] protocol
//! (with a few more kinds of reply for Python's errors; the file says which).
//! The CLI runs it with the learner's `python3`.

/// The text of `harness.py`.
pub const HARNESS: &str = include_str!("../python/harness.py");
