//! A copy of the Inference Handbook judge's harness: `harness.rs` and `value.rs`
//! are `judge/core/src`'s, copied by `cargo xtask gen` so that this practice folder
//! builds on its own. Do not edit.

#![allow(dead_code)]

pub mod harness;
mod value;

pub use value::Value;
