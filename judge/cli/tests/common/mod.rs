//! What the judge CLI's test files share: the repository root and a correct
//! `attended` in both languages.
#![allow(clippy::unwrap_used, dead_code)] // test helpers; not every file uses every item

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// A correct Rhai `attended`.
pub const RHAI_OK: &str = "fn attended(pos, ratio, topk, window) {
    let swa = if window < pos + 1 { window } else { pos + 1 };
    if ratio <= 1 { return swa; }
    let done = (pos + 1) / ratio;
    swa + if topk > 0 && done > topk { topk } else { done }
}";

/// A correct Rust `attended`.
pub const RUST_OK: &str = "pub fn attended(pos: i64, ratio: i64, topk: i64, window: i64) -> i64 {
    let swa = window.min(pos + 1);
    if ratio <= 1 { return swa; }
    let done = (pos + 1) / ratio;
    swa + if topk > 0 { done.min(topk) } else { done }
}";

/// The `judge` binary in an English locale, whatever the caller's, so that tests
/// asserting on English text do not depend on who runs them.
pub fn judge_cmd() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_judge"));
    c.env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "C.UTF-8");
    c
}
