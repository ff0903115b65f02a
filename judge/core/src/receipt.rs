//! Receipts (#29): what a whole run's verdict was given for, kept with it so
//! that anyone can grade the same code again and see whether this judge agrees.
//!
//! The page saves one [`Receipt`] per exercise and answer language after each
//! whole run, and its progress file carries them; `judge verify <file>`
//! grades each receipt's code again and compares. A receipt is a record, not
//! a signature: whoever holds the file can edit it, which is why the verdict
//! is graded again rather than believed.

use serde::{Deserialize, Serialize};

/// The judge's version as receipts name it: the workspace's package version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// One whole run's record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Receipt {
    /// The judge that gave the verdict ([`VERSION`]).
    pub judge: String,
    /// The exercise's content hash when it was graded (`exercises`' `content`:
    /// its statements, manifest with the cases, and reference).
    pub content: String,
    /// The code that was graded (which may differ from the code saved later:
    /// the reader may have typed after the run).
    pub code: String,
    /// The verdict, as the judge wrote it (kept as JSON, so that a verdict of
    /// an older or newer judge is still read and compared).
    pub verdict: serde_json::Value,
}

impl Receipt {
    /// The receipt of `verdict`, given by this judge to `code` for an exercise
    /// whose content hash is `content`.
    pub fn new(content: &str, code: &str, verdict: &crate::Verdict) -> Receipt {
        Receipt {
            judge: VERSION.to_owned(),
            content: content.to_owned(),
            code: code.to_owned(),
            // Through the text, not `to_value`: the page already has the
            // verdict's writer and a JSON reader, and a second writer for
            // `Value` would add its own copy of every verdict type's code.
            verdict: serde_json::to_string(verdict)
                .ok()
                .and_then(|t| serde_json::from_str(&t).ok())
                .unwrap_or(serde_json::Value::Null),
        }
    }
}

/// How a verdict given again compares with a stored one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Agreement {
    /// The same verdict, field for field.
    Same,
    /// The same status and the same cases passed and failed; some wording or
    /// detail differs (named by [`compare_verdicts`]).
    SameOutcome,
    /// A different status, count or case outcome.
    Different,
}

/// The verdict fields that depend on where it was graded, not on the code:
/// the CLI adds `language` and `elapsed_ms`.
const HOST_FIELDS: &[&str] = &["language", "elapsed_ms"];

/// Compares a stored verdict with one given again: the agreement, and the
/// top-level fields that differ (sorted).
pub fn compare_verdicts(
    stored: &serde_json::Value,
    again: &serde_json::Value,
) -> (Agreement, Vec<String>) {
    let fields = |v: &serde_json::Value| -> std::collections::BTreeMap<String, serde_json::Value> {
        v.as_object()
            .map(|o| {
                o.iter()
                    .filter(|(k, _)| !HOST_FIELDS.contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            })
            .unwrap_or_default()
    };
    let (a, b) = (fields(stored), fields(again));
    let mut differ: Vec<String> = a
        .keys()
        .chain(b.keys())
        .filter(|k| a.get(*k) != b.get(*k))
        .cloned()
        .collect();
    differ.sort();
    differ.dedup();
    if differ.is_empty() {
        return (Agreement::Same, differ);
    }
    // The outcome: status, counts, and which cases passed.
    let outcome = |v: &std::collections::BTreeMap<String, serde_json::Value>| {
        let cases: Vec<Option<bool>> = v
            .get("cases")
            .and_then(|c| c.as_array())
            .map(|c| {
                c.iter()
                    .map(|c| c.get("passed").and_then(|p| p.as_bool()))
                    .collect()
            })
            .unwrap_or_default();
        (
            v.get("exercise").cloned(),
            v.get("status").cloned(),
            v.get("passed").cloned(),
            v.get("total").cloned(),
            cases,
        )
    };
    let same_outcome = a.contains_key("status") && outcome(&a) == outcome(&b);
    let agreement = if same_outcome {
        Agreement::SameOutcome
    } else {
        Agreement::Different
    };
    (agreement, differ)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn verdicts_compare_by_fields_and_outcome() {
        let v = json!({"exercise": "ch/a", "status": "passed", "passed": 2, "total": 2,
            "cases": [{"passed": true}, {"passed": true}], "message": "All 2 passed."});
        let mut with_host = v.clone();
        with_host["language"] = json!("rhai");
        with_host["elapsed_ms"] = json!(3.5);
        assert_eq!(compare_verdicts(&v, &with_host), (Agreement::Same, vec![]));
        let mut worded = v.clone();
        worded["message"] = json!("All passed.");
        assert_eq!(
            compare_verdicts(&v, &worded),
            (Agreement::SameOutcome, vec!["message".to_owned()])
        );
        let mut failed = v.clone();
        failed["status"] = json!("failed");
        failed["passed"] = json!(1);
        failed["cases"][1]["passed"] = json!(false);
        assert_eq!(
            compare_verdicts(&v, &failed),
            (
                Agreement::Different,
                vec!["cases".to_owned(), "passed".to_owned(), "status".to_owned()]
            )
        );
        // Not a verdict at all.
        assert_eq!(compare_verdicts(&json!(7), &v).0, Agreement::Different);
    }
}
