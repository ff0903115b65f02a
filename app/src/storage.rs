//! Saved work in the browser's `localStorage`, through gloo-storage, and the
//! notices that tell the reader what happened to it.
//!
//! Keys start with `ih:v2:` and hold JSON ([`data`] has the formats and the
//! pure rules; this module does the reading and writing):
//! `progress` (exercise id → outcome code), `code:<id>`, `fails:<id>`,
//! `scratch`. The first format (`ih:v1:`, raw text, progress as display labels)
//! is moved over by [`migrate`] when the app starts and read as a fallback if
//! that move could not be written. The theme stays at `ih:v1:theme` as raw text
//! because `index.html` reads it before the app starts.
//!
//! Nothing is lost silently: a write that fails ([`set`] returns the error)
//! is shown in a notice ([`save`] does both) while the page keeps the value in
//! memory; an entry that cannot be read is copied verbatim to
//! `<key>.corrupt-<n>` before it is reset, and the notice names that key.
//! Verbatim copies, the move from the first format and the theme use gloo's
//! `raw()` handle, because they must not re-encode the text.

/// The saved data as plain values (the `saved` crate, tested natively).
pub use saved as data;

use crate::lang::{say, says, tr, trf};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};

use gloo_storage::errors::StorageError;
use gloo_storage::{LocalStorage, Storage};
use leptos::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsCast;

pub use data::{
    ANSWER_LANGUAGE, Export, IMPORT_MAX_BYTES, Outcome, PROGRESS, ProgressMap, SCRATCH,
    check_import_size, code_key, fails_key, params_key, python_code_key, python_fails_key,
    python_verdict_key, scratch_key, verdict_key,
};
use data::{BOOK_PREFIX, LANG_KEY, THEME_KEY, full_key, numbered_key, v1_key};

/// A message about saved work, shown at the top of every page until dismissed.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    /// What it is about; a new notice on the same topic replaces the old one.
    pub topic: String,
    /// The text the reader sees.
    pub text: String,
    /// Something went wrong (`role="alert"`), rather than a report (`role="status"`).
    pub alert: bool,
}

/// Why a value could not be saved.
#[derive(Debug, Clone, PartialEq)]
pub enum SaveError {
    /// The browser gives the page no storage (disabled, or a privacy setting).
    Unavailable,
    /// The site's storage quota is used up.
    Full,
    /// The saved entry could not be read and no copy of it could be made, so
    /// this page does not write over it.
    Protected,
    /// Anything else the browser reported.
    Other(String),
}

impl std::fmt::Display for SaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SaveError::Unavailable => f.write_str(tr!(store_unavailable)),
            SaveError::Full => f.write_str(tr!(store_full)),
            SaveError::Protected => f.write_str(tr!(store_protected)),
            SaveError::Other(m) => f.write_str(m),
        }
    }
}

impl From<StorageError> for SaveError {
    fn from(e: StorageError) -> SaveError {
        match e {
            StorageError::JsError(j) if j.name == "QuotaExceededError" => SaveError::Full,
            StorageError::JsError(j) => SaveError::Other(format!("{}: {}", j.name, j.message)),
            other => SaveError::Other(other.to_string()),
        }
    }
}

thread_local! {
    static NOTICES: ArcRwSignal<Vec<Notice>> = ArcRwSignal::new(Vec::new());
    static AVAILABLE: Cell<Option<bool>> = const { Cell::new(None) };
    static WRITES_FAILING: Cell<bool> = const { Cell::new(false) };
    /// Full keys holding unreadable data that could not be copied.
    static PROTECTED: RefCell<BTreeSet<String>> = const { RefCell::new(BTreeSet::new()) };
}

/// The notices, newest last (rendered once, by `App`).
pub fn notices() -> ArcRwSignal<Vec<Notice>> {
    NOTICES.with(Clone::clone)
}

/// Shows `text`, replacing any notice on the same `topic`.
pub fn notify(topic: &str, text: impl Into<String>, alert: bool) {
    let n = Notice {
        topic: topic.to_owned(),
        text: text.into(),
        alert,
    };
    notices().update(|list| {
        list.retain(|o| o.topic != n.topic);
        list.push(n);
    });
}

/// Hides the notice on `topic`.
pub fn dismiss(topic: &str) {
    notices().update(|list| list.retain(|o| o.topic != topic));
}

fn is_shown(topic: &str) -> bool {
    notices().with_untracked(|list| list.iter().any(|n| n.topic == topic))
}

/// Whether the page may use `localStorage` at all (gloo's handle throws when not).
fn available() -> bool {
    AVAILABLE.with(|a| {
        *a.get().get_or_insert_with(|| {
            crate::window()
                .and_then(|w| w.local_storage().ok().flatten())
                .is_some()
        })
    })
}

fn raw_get(key: &str) -> Option<String> {
    if !available() {
        return None;
    }
    LocalStorage::raw().get_item(key).ok().flatten()
}

/// Writes text verbatim (copies, the first format, the theme).
fn raw_set(key: &str, text: &str) -> Result<(), SaveError> {
    if !available() {
        return Err(SaveError::Unavailable);
    }
    LocalStorage::raw()
        .set_item(key, text)
        .map_err(|e| match e.dyn_into::<js_sys::Error>() {
            Ok(e) if e.name() == "QuotaExceededError" => SaveError::Full,
            Ok(e) => SaveError::Other(format!("{}: {}", e.name(), e.message())),
            Err(_) => SaveError::Other(tr!(store_refused).to_owned()),
        })
}

fn delete(key: &str) {
    if available() {
        LocalStorage::delete(key);
    }
}

/// Every key the book has written (theme included).
fn book_keys() -> Vec<String> {
    if !available() {
        return Vec::new();
    }
    let raw = LocalStorage::raw();
    (0..LocalStorage::length())
        .filter_map(|i| raw.key(i).ok().flatten())
        .filter(|k| k.starts_with(BOOK_PREFIX))
        .collect()
}

/// Copies an unreadable entry to `<key>.corrupt-<n>`, then removes it, and says
/// so in a notice. When no copy can be made the entry is left in place and
/// this page does not write over it.
/// `what` names the entry (`data::describe`); for progress, the notice adds
/// that the saved code was not touched.
fn quarantine(key: &str, what: &data::Say, reason: &str) {
    let Some(raw) = raw_get(key) else {
        return;
    };
    let copy = numbered_key(key, "corrupt", |k| raw_get(k).is_some());
    let code_note = if *what == data::Say::WhatProgress {
        tr!(code_untouched)
    } else {
        ""
    };
    let what = say(what);
    match raw_set(&copy, &raw) {
        Ok(()) => {
            delete(key);
            notify(
                key,
                trf!(
                    quarantined,
                    what = what,
                    copy = copy,
                    reason = reason,
                    note = code_note
                ),
                true,
            );
        }
        Err(e) => {
            PROTECTED.with(|p| p.borrow_mut().insert(key.to_owned()));
            notify(
                key,
                trf!(
                    quarantine_failed,
                    what = what,
                    reason = reason,
                    why = e,
                    key = key
                ),
                true,
            );
        }
    }
}

/// Reads a JSON value; an unreadable one is quarantined and read as missing.
fn read<T: DeserializeOwned>(name: &str) -> Option<T> {
    if !available() {
        return None;
    }
    let key = full_key(name);
    match LocalStorage::get::<T>(&key) {
        Ok(v) => Some(v),
        Err(StorageError::SerdeError(e)) => {
            quarantine(&key, &data::describe(name), &e.to_string());
            None
        }
        Err(_) => None,
    }
}

fn write_key<T: Serialize + ?Sized>(key: &str, value: &T) -> Result<(), SaveError> {
    if !available() {
        return Err(SaveError::Unavailable);
    }
    if PROTECTED.with(|p| p.borrow().contains(key)) {
        return Err(SaveError::Protected);
    }
    LocalStorage::set(key, value).map_err(SaveError::from)
}

/// Reads a saved text (code, scratch, counters) by its short name.
pub fn get(name: &str) -> Option<String> {
    if raw_get(&full_key(name)).is_some() {
        return read::<String>(name);
    }
    // Not moved from the first format yet (the move could not be written).
    raw_get(&v1_key(name))
}

/// Saves a text under its short name. The caller keeps the value in memory
/// either way; [`save`] also tells the reader when this fails.
pub fn set(name: &str, value: &str) -> Result<(), SaveError> {
    write_key(&full_key(name), value)
}

/// [`set`], and a notice (`role="alert"`) when it fails; another notice when
/// saving works again after failing.
pub fn save(name: &str, value: &str) {
    let r = set(name, value);
    report(name, &r);
}

/// Tells the reader about a failed write of `name` (once, until saving works
/// again or the reader dismisses the notice) or that saving works again.
pub fn report(name: &str, r: &Result<(), SaveError>) {
    const TOPIC: &str = "storage-write";
    match r {
        Ok(()) => {
            if WRITES_FAILING.with(|f| f.replace(false)) {
                notify(TOPIC, tr!(saving_again), false);
            }
        }
        Err(e) => {
            let was_failing = WRITES_FAILING.with(|f| f.replace(true));
            if !was_failing || is_shown(TOPIC) {
                notify(
                    TOPIC,
                    trf!(save_failed, what = say(&data::describe(name)), why = e),
                    true,
                );
            }
        }
    }
}

/// Forgets a short name (in both formats).
pub fn remove(name: &str) {
    let key = full_key(name);
    delete(&key);
    delete(&v1_key(name));
    PROTECTED.with(|p| p.borrow_mut().remove(&key));
}

/// Moves the first format's entries to this one ([`data::plan_migration`]).
/// Unreadable old progress is quarantined. Called once, when the app starts.
pub fn migrate() {
    if !available() {
        notify(
            "storage-unavailable",
            trf!(nothing_saved, why = SaveError::Unavailable),
            true,
        );
        return;
    }
    let saved: BTreeMap<String, String> = book_keys()
        .into_iter()
        .filter_map(|k| raw_get(&k).map(|v| (k, v)))
        .collect();
    let plan = data::plan_migration(&saved);
    for (key, reason) in &plan.corrupt {
        quarantine(key, &data::describe(PROGRESS), &say(reason));
    }
    match plan.writes.iter().try_for_each(|(k, v)| raw_set(k, v)) {
        Ok(()) => plan.removes.iter().for_each(|k| delete(k)),
        Err(e) => notify("migration", trf!(migration_failed, why = e), true),
    }
}

/// Loads progress; unreadable progress is quarantined and starts empty.
pub fn load_progress() -> ProgressMap {
    if raw_get(&full_key(PROGRESS)).is_some() {
        return read::<ProgressMap>(PROGRESS).unwrap_or_default();
    }
    raw_get(&v1_key(PROGRESS))
        .and_then(|t| data::parse_v1_progress(&t).ok())
        .unwrap_or_default()
}

/// Saves progress, with a notice when that fails.
pub fn save_progress(p: &ProgressMap) {
    let r = write_key(&full_key(PROGRESS), p);
    report(PROGRESS, &r);
}

/// Everything saved for `ids`, as a progress file.
pub fn export(ids: &[&str], progress: &ProgressMap) -> Export {
    let saved = |key: fn(&str) -> String| {
        ids.iter()
            .filter_map(|id| get(&key(id)).map(|c| (id.to_string(), c)))
            .collect()
    };
    let verdicts = ids
        .iter()
        .map(|id| {
            let by_lang = [
                (judge::Answer::Rhai, verdict_key(id)),
                (judge::Answer::Python, python_verdict_key(id)),
            ]
            .into_iter()
            .filter_map(|(a, key)| get(&key).map(|v| (a.tag().to_owned(), v)))
            .collect();
            (id.to_string(), by_lang)
        })
        .collect();
    Export::new(progress.clone(), saved(code_key))
        .with_python(saved(python_code_key))
        .with_receipts(verdicts)
}

/// Imports a progress file's text into what is saved, merging by
/// [`data::merge_import`] (a pass is never lost; otherwise the file's code and
/// status win, and the code they replace is copied to
/// `ih:v2:code:<id>.before-import-<n>`). Returns the new progress and the
/// message for the reader. A file that is not a progress file, or a write that
/// fails, changes nothing (writes made so far are undone); the error says why.
pub fn import(
    text: &str,
    known_ids: &[&str],
    progress: &ProgressMap,
) -> Result<(ProgressMap, String), String> {
    let file = data::parse_export(text, known_ids).map_err(|e| say(&e))?;
    let saved =
        |ids: &BTreeMap<String, String>, key: fn(&str) -> String| -> BTreeMap<String, String> {
            ids.keys()
                .filter_map(|id| get(&key(id)).map(|c| (id.clone(), c)))
                .collect()
        };
    let saved_code = saved(&file.code, code_key);
    let saved_python = saved(&file.python, python_code_key);
    let m = data::merge_import(progress, &saved_code, &saved_python, &file);
    // Full key → what it held before (to undo).
    let mut undo: Vec<(String, Option<String>)> = Vec::new();
    let mut copies = Vec::new();
    let mut apply = || -> Result<(), SaveError> {
        let both = [
            (&m.displaced, &m.code, code_key as fn(&str) -> String),
            (&m.displaced_python, &m.python, python_code_key),
        ];
        for (displaced, taken, key_of) in both {
            for (id, old) in displaced {
                let copy = numbered_key(&full_key(&key_of(id)), "before-import", |k| {
                    raw_get(k).is_some()
                });
                undo.push((copy.clone(), None));
                write_key(&copy, old)?;
                copies.push(copy);
            }
            for (id, code) in taken {
                let key = full_key(&key_of(id));
                undo.push((key.clone(), raw_get(&key)));
                write_key(&key, code)?;
            }
        }
        let key = full_key(PROGRESS);
        undo.push((key.clone(), raw_get(&key)));
        write_key(&key, &m.progress)
    };
    if let Err(e) = apply() {
        for (key, before) in undo.into_iter().rev() {
            match before {
                Some(t) => {
                    let _ = raw_set(&key, &t);
                }
                None => delete(&key),
            }
        }
        return Err(format!("{e}"));
    }
    Ok((
        m.progress.clone(),
        says(&data::import_message(&file, &m, &copies)),
    ))
}

/// Forgets everything the book saved in this browser except the settings
/// (theme and language):
/// progress, all code, failed-run counts, verdicts, scratch code, both formats, and the
/// copies made of unreadable or replaced entries. Returns how many entries
/// were removed.
pub fn clear_all() -> usize {
    let keys: Vec<String> = book_keys()
        .into_iter()
        .filter(|k| k != THEME_KEY && k != LANG_KEY)
        .collect();
    keys.iter().for_each(|k| delete(k));
    PROTECTED.with(|p| p.borrow_mut().clear());
    keys.len()
}

/// The saved theme (`light` or `dark`), if any.
pub fn theme() -> Option<String> {
    raw_get(THEME_KEY).filter(|t| t == "light" || t == "dark")
}

/// Saves the theme (`None`: follow the system); a failure is reported.
pub fn save_theme(theme: Option<&str>) {
    match theme {
        None => delete(THEME_KEY),
        Some(t) => {
            if let Err(e) = raw_set(THEME_KEY, t) {
                notify("theme", trf!(theme_not_saved, why = e), false);
            }
        }
    }
}

/// The language the reader last answered an exercise in; Rhai until they
/// pick Python.
pub fn answer_language() -> judge::Answer {
    match get(ANSWER_LANGUAGE).as_deref() {
        Some("python") => judge::Answer::Python,
        _ => judge::Answer::Rhai,
    }
}

/// Remembers the language the reader picked, for every exercise.
pub fn save_answer_language(answer: judge::Answer) {
    save(ANSWER_LANGUAGE, answer.tag());
}
