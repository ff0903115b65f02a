//! The grading engine of the Inference Handbook.
//!
//! Pipeline: an exercise's [`Spec`] lists test cases; [`grade`] asks a [`Solver`]
//! (the learner's code) and the reference solution for an output on each case,
//! [`compare`]s the two [`Value`]s under the exercise's [`Tolerance`], and
//! returns a [`Verdict`]. Solvers exist for Rhai scripts ([`script`], sandboxed,
//! used in the browser and by the CLI) and for compiled Rust solutions (the CLI
//! runs a practice crate's binary, which speaks the [`harness`] protocol).
//!
//! Everything it tells people is kept as structure ([`Finding`], [`Reason`],
//! [`LimitHit`], [`CodeError`]) and written out in English or Chinese ([`Lang`]):
//! [`Verdict::message_in`], [`CaseResult::error_in`], [`Mismatch::reason_in`],
//! [`Status::label_in`].
//!
//! This crate does no I/O and reads no clock: a host supplies a deadline check
//! (the one exception, [`Lang::from_env`], reads the locale for the CLI).

mod compare;
mod grade;
pub mod harness;
mod lang;
pub mod python;
pub mod receipt;
pub mod replies;
mod say;
#[cfg(feature = "script")]
pub mod script;
pub mod shrink;
mod value;

pub use compare::{Mismatch, Tolerance, compare};
pub use grade::{
    Case, CaseResult, FailRow, Kind, Misconception, Recorder, Solver, SolverError, Spec, Status,
    Verdict, call_text, grade, grade_case,
};
pub use lang::{Answer, Lang};
pub use receipt::{Receipt, VERSION};
pub use say::{CodeError, Fault, Finding, LimitHit, Reason, ScriptFault, Tip, words};
pub use value::Value;
