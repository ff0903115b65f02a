//! Each exercise's known solutions, from its folder: the known-good
//! `solution.rhai` and `solution.py` (which the end-to-end tests type into the browser and the
//! parity fixtures grade natively and in wasm32) and the known-wrong
//! `wrong/*.rhai` its cases must catch. Not behind `render`, so that the wasm
//! tests build without the Markdown and highlighting crates.

/// One exercise's known solutions, from its folder (`build.rs` generates the list).
pub struct Known {
    /// `chapter/slug`.
    pub id: &'static str,
    /// `solution.rhai`.
    pub solution: &'static str,
    /// `wrong/*.rhai`, as `(wrong/<file>, source)`.
    pub wrong: &'static [(&'static str, &'static str)],
    /// `solution.py`.
    pub solution_python: &'static str,
    /// `wrong/*.py`, as `(wrong/<file>, source)`: mistakes natural in Python.
    pub wrong_python: &'static [(&'static str, &'static str)],
}

/// The exercise's known-good Rhai solution (`solution.rhai` in its folder; the
/// end-to-end tests type the same file into the browser).
pub fn known_good(id: &str) -> Option<&'static str> {
    // Without the file's last newline: the source as typed into the editor.
    crate::KNOWN
        .iter()
        .find(|k| k.id == id)
        .map(|k| k.solution.strip_suffix('\n').unwrap_or(k.solution))
}

/// The exercise's known-wrong Rhai solutions (`wrong/*.rhai` in its folder), as
/// `(file, source)`: plausible mistakes its cases must catch.
pub fn known_wrong(id: &str) -> &'static [(&'static str, &'static str)] {
    crate::KNOWN
        .iter()
        .find(|k| k.id == id)
        .map_or(&[], |k| k.wrong)
}

/// The exercise's known-good Python solution (`solution.py` in its folder).
pub fn known_good_python(id: &str) -> Option<&'static str> {
    crate::KNOWN.iter().find(|k| k.id == id).map(|k| {
        k.solution_python
            .strip_suffix('\n')
            .unwrap_or(k.solution_python)
    })
}

/// The exercise's known-wrong Python solutions (`wrong/*.py` in its folder).
pub fn known_wrong_python(id: &str) -> &'static [(&'static str, &'static str)] {
    crate::KNOWN
        .iter()
        .find(|k| k.id == id)
        .map_or(&[], |k| k.wrong_python)
}
