//! `judge verify <file>`: a progress file's receipts checked (#29). The page
//! keeps, for each exercise and answer language, a receipt of its last whole
//! run ([`judge::Receipt`]: the code graded, the verdict, the judge's version,
//! the exercise's content hash). This command grades each receipt's code again
//! with this judge, in a child process as `judge class` does (the same limits),
//! and says for each whether the stored verdict is the one this judge gives,
//! and whether the exercise is the one that was graded. A teacher can then
//! trust a learner's export without trusting the learner's browser: an edited
//! verdict, edited code and a changed exercise are each named.
//!
//! Exit status: 0 when every receipt agrees with this judge on an unchanged
//! exercise, 1 when one does not (or cannot be checked), 2 when the file
//! cannot be read.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use judge::receipt::{Agreement, compare_verdicts};
use judge::{Lang, Receipt, Status};
use serde_json::Value as J;

use crate::class::{self, ClassOptions};
use crate::complain;
use crate::words::verify as w;

/// What a progress file holds that `verify` reads. The receipts are kept as
/// JSON here, so that one malformed receipt is named and the rest checked.
#[derive(serde::Deserialize)]
struct File {
    #[serde(default)]
    code: BTreeMap<String, String>,
    #[serde(default)]
    python: BTreeMap<String, String>,
    #[serde(default)]
    receipts: BTreeMap<String, BTreeMap<String, J>>,
    #[serde(default)]
    verdicts: BTreeMap<String, BTreeMap<String, J>>,
}

/// One receipt, checked.
#[derive(serde::Serialize)]
struct Check {
    exercise: String,
    language: String,
    /// The verdict as stored and as given again: status, passed, total.
    stored: Option<Brief>,
    again: Option<Brief>,
    /// How the two verdicts compare (none when the code was not graded).
    agreement: Option<Agreement>,
    /// The verdict's top-level fields that differ.
    differ: Vec<String>,
    /// The exercise's content hash in the receipt and in this judge, when
    /// they differ.
    exercise_changed: Option<(String, String)>,
    /// The judge's version in the receipt, when it is not this one's.
    other_judge: Option<String>,
    /// The code saved in the file is not the code the receipt graded (the
    /// learner typed after the run).
    code_changed_after: bool,
    /// Why the receipt could not be checked.
    problem: Option<String>,
    /// Whether this receipt is what this judge gives, on the same exercise.
    ok: bool,
}

#[derive(serde::Serialize, Clone, PartialEq)]
struct Brief {
    status: String,
    passed: u64,
    total: u64,
}

fn brief(v: &J) -> Option<Brief> {
    Some(Brief {
        status: v.get("status")?.as_str()?.to_owned(),
        passed: v.get("passed")?.as_u64()?,
        total: v.get("total")?.as_u64()?,
    })
}

/// `passed 14/14`, in `lang`.
fn say_brief(b: Option<&Brief>, lang: Lang) -> String {
    match b {
        None => w::no_verdict.as_str(lang).to_owned(),
        Some(b) => {
            let label = serde_json::from_value::<Status>(J::String(b.status.clone()))
                .map(|s| s.label_in(lang).to_owned())
                .unwrap_or_else(|_| b.status.clone());
            w::brief {
                label,
                passed: b.passed,
                total: b.total,
            }
            .text(lang)
        }
    }
}

/// The extension a language's file has in a practice folder.
fn ext(language: &str) -> Option<&'static str> {
    match language {
        "rhai" => Some("rhai"),
        "python" => Some("py"),
        _ => None,
    }
}

/// `judge verify <file>`.
pub fn verify_cmd(file: &Path, json: bool, timeout: f64, memory: u64, lang: Lang) -> ExitCode {
    if !(timeout > 0.0 && timeout <= 3600.0) {
        complain(lang, crate::words::errors::timeout_range.as_str(lang));
        return ExitCode::from(2);
    }
    let read = || -> Result<(File, String), String> {
        let size = std::fs::metadata(file).map_err(|e| e.to_string())?.len();
        saved::check_import_size(size).map_err(|s| format!("{s:?}"))?;
        let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
        let all = exercises::all();
        let ids: Vec<&str> = all.iter().map(|e| e.id).collect();
        // The same checks as an import (format, version, types).
        saved::parse_export(&text, &ids).map_err(|s| format!("{s:?}"))?;
        let parsed: File = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        Ok((parsed, text))
    };
    let parsed = match read() {
        Ok((f, _)) => f,
        Err(message) => {
            let file = file.display();
            complain(lang, &w::bad_file { file, message }.text(lang));
            return ExitCode::from(2);
        }
    };
    let scratch = std::env::temp_dir().join(format!("judge-verify-{}", std::process::id()));
    let checks = check_all(&parsed, &scratch, timeout, memory, lang);
    let _ = std::fs::remove_dir_all(&scratch);
    let all_ok = !checks.is_empty() && checks.iter().all(|c| c.ok);
    if json {
        let out = serde_json::json!({
            "judge": judge::VERSION,
            "receipts": checks,
            "ok": all_ok,
        });
        outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        report(&checks, lang);
    }
    if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// One entry to check: a receipt (or an older bare verdict).
struct Entry {
    id: String,
    language: String,
    /// The receipt, or why there is none to check (in the reader's language).
    receipt: Result<Receipt, String>,
    /// The code saved in the file for this exercise and language.
    saved_code: Option<String>,
}

fn check_all(f: &File, scratch: &Path, timeout: f64, memory: u64, lang: Lang) -> Vec<Check> {
    let saved_code = |id: &str, language: &str| match language {
        "python" => f.python.get(id).cloned(),
        _ => f.code.get(id).cloned(),
    };
    let mut entries = Vec::new();
    for (id, by_lang) in &f.receipts {
        for (language, r) in by_lang {
            let receipt = serde_json::from_value::<Receipt>(r.clone()).map_err(|e| {
                let message = e.to_string();
                w::bad_receipt { message }.text(lang)
            });
            entries.push(Entry {
                id: id.clone(),
                language: language.clone(),
                receipt,
                saved_code: saved_code(id, language),
            });
        }
    }
    for (id, by_lang) in &f.verdicts {
        for language in by_lang.keys() {
            if f.receipts.get(id).is_some_and(|r| r.contains_key(language)) {
                continue;
            }
            entries.push(Entry {
                id: id.clone(),
                language: language.clone(),
                receipt: Err(w::no_receipt.as_str(lang).to_owned()),
                saved_code: saved_code(id, language),
            });
        }
    }
    // Each receipt's code, written where `judge grade` finds it.
    let mut folders: Vec<PathBuf> = Vec::new();
    for e in &entries {
        let (Ok(r), Some(ex), Some(ext)) = (&e.receipt, exercises::by_id(&e.id), ext(&e.language))
        else {
            continue;
        };
        let folder = scratch.join(ex.chapter());
        let written = std::fs::create_dir_all(&folder)
            .and_then(|()| std::fs::write(folder.join(format!("{}.{ext}", ex.slug())), &r.code));
        if written.is_ok() && !folders.contains(&folder) {
            folders.push(folder);
        }
    }
    let opts = ClassOptions {
        jobs: 1,
        csv: None,
        json: true,
        timeout,
        memory,
        lang,
    };
    let mut again: BTreeMap<(String, String), J> = BTreeMap::new();
    let mut failed: BTreeMap<String, String> = BTreeMap::new();
    for folder in &folders {
        let chapter = folder
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match class::grade_folder(folder, &opts, None) {
            Ok((verdicts, _)) => {
                for v in verdicts {
                    let key = (
                        v["exercise"].as_str().unwrap_or_default().to_owned(),
                        v["language"].as_str().unwrap_or_default().to_owned(),
                    );
                    again.insert(key, v);
                }
            }
            Err(message) => {
                failed.insert(chapter, message);
            }
        }
    }
    entries
        .into_iter()
        .map(|e| check(e, &again, &failed, lang))
        .collect()
}

fn check(
    e: Entry,
    again: &BTreeMap<(String, String), J>,
    failed: &BTreeMap<String, String>,
    lang: Lang,
) -> Check {
    let mut c = Check {
        exercise: e.id.clone(),
        language: e.language.clone(),
        stored: None,
        again: None,
        agreement: None,
        differ: Vec::new(),
        exercise_changed: None,
        other_judge: None,
        code_changed_after: false,
        problem: None,
        ok: false,
    };
    let Some(ex) = exercises::by_id(&e.id) else {
        c.problem = Some(w::unknown_exercise.as_str(lang).to_owned());
        return c;
    };
    if ext(&e.language).is_none() {
        c.problem = Some(w::unknown_language.as_str(lang).to_owned());
        return c;
    }
    let r = match e.receipt {
        Ok(r) => r,
        Err(why) => {
            c.problem = Some(why);
            return c;
        }
    };
    c.stored = brief(&r.verdict);
    if r.content != ex.content {
        c.exercise_changed = Some((r.content.clone(), ex.content.to_owned()));
    }
    if r.judge != judge::VERSION {
        c.other_judge = Some(r.judge.clone());
    }
    c.code_changed_after = e.saved_code.is_some_and(|s| s != r.code);
    let Some(fresh) = again.get(&(e.id.clone(), e.language.clone())) else {
        let message = failed
            .get(ex.chapter())
            .cloned()
            .unwrap_or_else(|| w::not_graded.as_str(lang).to_owned());
        c.problem = Some(message);
        return c;
    };
    c.again = brief(fresh);
    let (agreement, differ) = compare_verdicts(&r.verdict, fresh);
    c.agreement = Some(agreement);
    c.differ = differ;
    c.ok = agreement != Agreement::Different && c.exercise_changed.is_none();
    c
}

/// The checks as lines for people, then a count.
fn report(checks: &[Check], lang: Lang) {
    if checks.is_empty() {
        outln!("{}", w::no_receipts.as_str(lang));
        return;
    }
    for c in checks {
        let what = format!("{} [{}]", c.exercise, c.language);
        let stored = say_brief(c.stored.as_ref(), lang);
        let again = say_brief(c.again.as_ref(), lang);
        let head = match (&c.problem, c.agreement) {
            (Some(message), _) => w::line_problem { what, message }.text(lang),
            (None, Some(Agreement::Different)) => w::line_differs {
                what,
                stored,
                again,
            }
            .text(lang),
            (None, _) if c.exercise_changed.is_some() => w::line_changed {
                what,
                stored,
                again,
            }
            .text(lang),
            (None, _) => w::line_agrees { what, again }.text(lang),
        };
        outln!("{head}");
        if let Some((was, now)) = &c.exercise_changed {
            outln!("    {}", w::changed_exercise { was, now }.text(lang));
        }
        if c.agreement == Some(Agreement::SameOutcome) {
            let fields = c.differ.join(", ");
            outln!("    {}", w::details_differ { fields }.text(lang));
        }
        if let Some(other) = &c.other_judge {
            let this = judge::VERSION;
            outln!("    {}", w::other_judge { other, this }.text(lang));
        }
        if c.code_changed_after {
            outln!("    {}", w::code_changed_after.as_str(lang));
        }
    }
    let agree = checks.iter().filter(|c| c.ok).count();
    let differ = checks
        .iter()
        .filter(|c| c.agreement == Some(Agreement::Different))
        .count();
    let changed = checks
        .iter()
        .filter(|c| c.exercise_changed.is_some())
        .count();
    let unchecked = checks.iter().filter(|c| c.problem.is_some()).count();
    let total = checks.len();
    outln!(
        "\n{}",
        w::summary {
            total,
            agree,
            differ,
            changed,
            unchecked
        }
        .text(lang)
    );
}
