//! Saved code and progress in `localStorage`, under versioned keys (`ih:v1:`).
//! Corrupt or unknown data is reset with a visible notice, never trusted.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

const PREFIX: &str = "ih:v1:";
/// Statuses a saved progress entry may hold.
pub const STATUSES: [&str; 5] = [
    "passed",
    "failed",
    "error",
    "limit exceeded",
    "not attempted",
];

fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Reads a key.
pub fn get(key: &str) -> Option<String> {
    local()?.get_item(&format!("{PREFIX}{key}")).ok().flatten()
}

/// Writes a key; returns false when storage is unavailable or full.
pub fn set(key: &str, value: &str) -> bool {
    local().is_some_and(|s| s.set_item(&format!("{PREFIX}{key}"), value).is_ok())
}

/// Removes a key.
pub fn remove(key: &str) {
    if let Some(s) = local() {
        let _ = s.remove_item(&format!("{PREFIX}{key}"));
    }
}

/// The key under which an exercise's code is saved.
pub fn code_key(id: &str) -> String {
    format!("code:{id}")
}

/// The key counting an exercise's failed runs.
pub fn fails_key(id: &str) -> String {
    format!("fails:{id}")
}

/// Parses saved progress: a map from exercise id to a known status. `None` when
/// the text is not that (corrupt, or written by another version).
pub fn parse_progress(text: &str) -> Option<BTreeMap<String, String>> {
    let map: BTreeMap<String, String> = serde_json::from_str(text).ok()?;
    map.values()
        .all(|s| STATUSES.contains(&s.as_str()))
        .then_some(map)
}

/// Loads progress. Corrupt data is removed and reported in the returned notice.
pub fn load_progress_checked() -> (BTreeMap<String, String>, Option<String>) {
    match get("progress") {
        None => (BTreeMap::new(), None),
        Some(text) => match parse_progress(&text) {
            Some(p) => (p, None),
            None => {
                let _ = set("progress-corrupt-backup", &text);
                remove("progress");
                (
                    BTreeMap::new(),
                    Some("Your saved progress could not be read and was reset (a copy of the old data is kept under ih:v1:progress-corrupt-backup). Your code is untouched.".to_owned()),
                )
            }
        },
    }
}

/// Saves progress.
pub fn save_progress(p: &BTreeMap<String, String>) {
    if let Ok(s) = serde_json::to_string(p) {
        set("progress", &s);
    }
}

/// Everything a reader has saved, as one file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Export {
    /// Always `inference-handbook-progress`.
    pub format: String,
    /// Format version, 1.
    pub version: u32,
    /// Exercise id → status.
    pub progress: BTreeMap<String, String>,
    /// Exercise id → code.
    pub code: BTreeMap<String, String>,
}

/// Format name written into exports.
pub const EXPORT_FORMAT: &str = "inference-handbook-progress";

/// Collects everything saved for `ids` into an export.
pub fn export(ids: &[&str], progress: &BTreeMap<String, String>) -> Export {
    let code = ids
        .iter()
        .filter_map(|id| get(&code_key(id)).map(|c| (id.to_string(), c)))
        .collect();
    Export {
        format: EXPORT_FORMAT.to_owned(),
        version: 1,
        progress: progress.clone(),
        code,
    }
}

/// Validates an export file; the error says what is wrong.
pub fn parse_export(text: &str, known_ids: &[&str]) -> Result<Export, String> {
    let e: Export = serde_json::from_str(text).map_err(|e| format!("not a progress file: {e}"))?;
    if e.format != EXPORT_FORMAT {
        return Err(format!("not a progress file (format is \"{}\")", e.format));
    }
    if e.version != 1 {
        return Err(format!(
            "progress file version {} is not supported (this book reads version 1)",
            e.version
        ));
    }
    if let Some((id, s)) = e
        .progress
        .iter()
        .find(|(_, s)| !STATUSES.contains(&s.as_str()))
    {
        return Err(format!("unknown status \"{s}\" for {id}"));
    }
    if let Some(id) = e
        .progress
        .keys()
        .chain(e.code.keys())
        .find(|id| !known_ids.contains(&id.as_str()))
    {
        return Err(format!("unknown exercise \"{id}\""));
    }
    Ok(e)
}

/// Writes an import: replaces progress and the code of the exercises it holds.
pub fn apply_import(e: &Export) {
    save_progress(&e.progress);
    for (id, code) in &e.code {
        set(&code_key(id), code);
    }
}

/// Forgets everything saved for `ids` (code, failed-run counts) and all progress.
pub fn reset_all(ids: &[&str]) {
    remove("progress");
    for id in ids {
        remove(&code_key(id));
        remove(&fails_key(id));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrupt_or_unknown_progress_is_rejected() {
        assert_eq!(parse_progress("{not json"), None);
        assert_eq!(parse_progress("[1,2]"), None);
        assert_eq!(parse_progress(r#"{"a":"solved"}"#), None);
        assert_eq!(parse_progress(r#"{"a":"passed"}"#).unwrap()["a"], "passed");
    }

    #[test]
    fn exports_round_trip_and_bad_files_are_named() {
        let e = Export {
            format: EXPORT_FORMAT.into(),
            version: 1,
            progress: [("ch/a".to_owned(), "passed".to_owned())].into(),
            code: [("ch/a".to_owned(), "fn a() {}".to_owned())].into(),
        };
        let text = serde_json::to_string(&e).unwrap();
        assert_eq!(parse_export(&text, &["ch/a"]), Ok(e.clone()));
        assert!(
            parse_export(&text, &["ch/b"])
                .unwrap_err()
                .contains("unknown exercise \"ch/a\"")
        );
        assert!(
            parse_export("{}", &[])
                .unwrap_err()
                .starts_with("not a progress file")
        );
        let v2 = text.replace("\"version\":1", "\"version\":2");
        assert!(
            parse_export(&v2, &["ch/a"])
                .unwrap_err()
                .contains("version 2")
        );
    }
}
