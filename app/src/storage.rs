//! Saved code and progress in `localStorage`, under versioned keys. Corrupt
//! data is reset, never trusted.

use std::collections::BTreeMap;

const PREFIX: &str = "ih:v1:";

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

/// Exercise id → status label (`passed`, `failed`, ...).
pub fn load_progress() -> BTreeMap<String, String> {
    get("progress")
        .and_then(|s| parse_progress(&s))
        .unwrap_or_default()
}

/// Parses saved progress; `None` when it is not a map of strings.
pub fn parse_progress(text: &str) -> Option<BTreeMap<String, String>> {
    serde_json::from_str(text).ok()
}

/// Records an exercise's latest status.
pub fn save_status(id: &str, status: &str) {
    let mut p = load_progress();
    p.insert(id.to_owned(), status.to_owned());
    if let Ok(s) = serde_json::to_string(&p) {
        set("progress", &s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrupt_progress_is_rejected() {
        assert_eq!(parse_progress("{not json"), None);
        assert_eq!(parse_progress("[1,2]"), None);
        assert_eq!(parse_progress(r#"{"a":"passed"}"#).unwrap()["a"], "passed");
    }
}
