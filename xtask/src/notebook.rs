//! Notebooks: one `.ipynb` per chapter for the evcxr Rust kernel (issue #11 §2).
//! Placeholder: filled in by the notebook work.

use std::path::Path;

/// Writes `dist/nb/<slug>.ipynb` for every chapter.
pub fn write(_dist: &Path) -> Result<(), String> {
    Ok(())
}
