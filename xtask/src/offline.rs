//! Offline reading: the service worker and the web app manifest (issue #11 §3).
//! Placeholder: filled in by the offline work.

use std::path::Path;

/// Writes `dist/sw.js` (precache list and build version) and the manifest.
/// Runs last: it lists every file the build wrote.
pub fn write(_dist: &Path) -> Result<(), String> {
    Ok(())
}
