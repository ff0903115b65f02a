//! The Inference Handbook's saved work as plain values, with no browser access
//! so that it is tested natively: the key names, the progress codes, the move
//! from the first storage format, progress files (export and import) and how
//! an import merges into what is saved. The app's `storage` module does the
//! reading and writing in `localStorage`.
//!
//! What this crate has to tell a reader (what an entry holds, why a file was
//! refused, what an import did) it returns as a [`Say`]: a message key of the
//! app's UI strings (`app/locales/{en,zh}.json`) with its values
//! ([`Say::key`], [`Say::args`]). The app says it in the page's language; this
//! crate's tests fill the English strings to check what a reader is told.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Prefix of every key this version writes; the values are JSON.
pub const PREFIX: &str = "ih:v2:";
/// Prefix of the first format: raw text values, progress as display labels.
pub const V1_PREFIX: &str = "ih:v1:";
/// Every key the book has written starts with this.
pub const BOOK_PREFIX: &str = "ih:";
/// The theme's key. It keeps the first format (raw `light` or `dark`) because
/// `index.html` reads it before the app starts, to paint the right colours.
pub const THEME_KEY: &str = "ih:v1:theme";

/// The reader's language, `en` or `zh` (written by `index.html`'s head script,
/// raw text like the theme); like the theme, a setting, not saved work.
pub const LANG_KEY: &str = "ih:v1:lang";
/// The largest progress file an import reads: 1 MiB.
pub const IMPORT_MAX_BYTES: u64 = 1 << 20;
/// Format name written into progress files.
pub const EXPORT_FORMAT: &str = "inference-handbook-progress";
/// The progress-file version this book writes (it reads 1 and 2).
pub const EXPORT_VERSION: u32 = 2;

/// The full key of a short name (`progress`, `code:<id>`): [`PREFIX`] + name.
pub fn full_key(name: &str) -> String {
    format!("{PREFIX}{name}")
}

/// The full key the first format used for a short name.
pub fn v1_key(name: &str) -> String {
    format!("{V1_PREFIX}{name}")
}

/// The short name under which an exercise's code is saved.
pub fn code_key(id: &str) -> String {
    format!("code:{id}")
}

/// The short name counting an exercise's failed runs.
pub fn fails_key(id: &str) -> String {
    format!("fails:{id}")
}

/// The short name under which an exercise's Python code is saved (its Rhai
/// code is under [`code_key`]).
pub fn python_code_key(id: &str) -> String {
    format!("code.py:{id}")
}

/// The short name counting an exercise's failed Python runs.
pub fn python_fails_key(id: &str) -> String {
    format!("fails.py:{id}")
}

/// The short name under which the verdict of an exercise's last whole Rhai
/// run is saved (its JSON, as the CLI's `--json` writes a verdict), for the
/// progress file.
pub fn verdict_key(id: &str) -> String {
    format!("verdict:{id}")
}

/// The same for its last whole Python run.
pub fn python_verdict_key(id: &str) -> String {
    format!("verdict.py:{id}")
}

/// The short name of the language the reader last answered in (`python` or
/// `rhai`), for every exercise.
pub const ANSWER_LANGUAGE: &str = "answer-language";

/// The short name under which a cell's parameters are saved (as the reader
/// typed them, a JSON object of strings).
pub fn params_key(demo: &str) -> String {
    format!("params:{demo}")
}

/// The short name of the progress map.
pub const PROGRESS: &str = "progress";
/// The short name of the scratch cell's code before it was kept per chapter
/// (read as the fallback for every chapter's scratch cell).
pub const SCRATCH: &str = "scratch";

/// The short name of one chapter's scratch code.
pub fn scratch_key(chapter: &str) -> String {
    format!("{SCRATCH}:{chapter}")
}

/// A message about saved work: a key of the app's UI strings with the values
/// of its `%{…}` placeholders, or text that is none of the book's strings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Say {
    /// "your code for `id`"
    WhatCode { id: String },
    /// "the failed-run count of `id`"
    WhatFails { id: String },
    /// "the last verdict for `id`"
    WhatVerdict { id: String },
    /// "your values in the cell `id`"
    WhatParams { id: String },
    /// "your progress"
    WhatProgress,
    /// "your scratch code"
    WhatScratch,
    /// "your scratch code in `ch`"
    WhatScratchIn { ch: String },
    /// A first-format progress entry with a status this book does not know.
    UnknownStatus { s: String, id: String },
    /// A progress file over [`IMPORT_MAX_BYTES`] (sizes already formatted).
    ImportTooBig {
        mib: String,
        bytes: String,
        max: String,
    },
    /// Not a progress file: `why` is the JSON reader's reason.
    NotProgressFile { why: String },
    /// A JSON file of another format.
    NotProgressFormat { got: String, want: String },
    /// A progress file of a version this book cannot read.
    ProgressVersion { v: u32, max: u32 },
    /// What an import took: `p` progress entries, `c` exercises' code.
    Imported { p: usize, c: usize },
    /// One pass this browser kept against the file.
    KeptPassOne { ids: String },
    /// Several passes this browser kept against the file.
    KeptPassMany { ids: String },
    /// Where code an import replaced was kept.
    ReplacedKept { keys: String },
    /// Exercises in the file that this book does not have.
    SkippedUnknown { ids: String },
    /// Entries in the file with a status this book does not know.
    SkippedStatuses { list: String },
    /// Words that are not the book's: a key it does not name (quoted), or
    /// the JSON reader's own message.
    Raw(String),
}

impl Say {
    /// The key of the app's UI strings (`None` for [`Say::Raw`]).
    pub fn key(&self) -> Option<&'static str> {
        Some(match self {
            Say::WhatCode { .. } => "what_code",
            Say::WhatFails { .. } => "what_fails",
            Say::WhatVerdict { .. } => "what_verdict",
            Say::WhatParams { .. } => "what_params",
            Say::WhatProgress => "what_progress",
            Say::WhatScratch => "what_scratch",
            Say::WhatScratchIn { .. } => "what_scratch_in",
            Say::UnknownStatus { .. } => "unknown_status",
            Say::ImportTooBig { .. } => "import_too_big",
            Say::NotProgressFile { .. } => "not_progress_file",
            Say::NotProgressFormat { .. } => "not_progress_format",
            Say::ProgressVersion { .. } => "progress_version",
            Say::Imported { .. } => "imported",
            Say::KeptPassOne { .. } => "kept_pass_one",
            Say::KeptPassMany { .. } => "kept_pass_many",
            Say::ReplacedKept { .. } => "replaced_kept",
            Say::SkippedUnknown { .. } => "skipped_unknown",
            Say::SkippedStatuses { .. } => "skipped_statuses",
            Say::Raw(_) => return None,
        })
    }

    /// The values of the string's placeholders, by name.
    pub fn args(&self) -> Vec<(&'static str, String)> {
        match self {
            Say::WhatCode { id }
            | Say::WhatFails { id }
            | Say::WhatVerdict { id }
            | Say::WhatParams { id } => {
                vec![("id", id.clone())]
            }
            Say::WhatProgress | Say::WhatScratch | Say::Raw(_) => vec![],
            Say::WhatScratchIn { ch } => vec![("ch", ch.clone())],
            Say::UnknownStatus { s, id } => vec![("s", s.clone()), ("id", id.clone())],
            Say::ImportTooBig { mib, bytes, max } => {
                vec![
                    ("mib", mib.clone()),
                    ("bytes", bytes.clone()),
                    ("max", max.clone()),
                ]
            }
            Say::NotProgressFile { why } => vec![("why", why.clone())],
            Say::NotProgressFormat { got, want } => {
                vec![("got", got.clone()), ("want", want.clone())]
            }
            Say::ProgressVersion { v, max } => vec![("v", v.to_string()), ("max", max.to_string())],
            Say::Imported { p, c } => vec![("p", p.to_string()), ("c", c.to_string())],
            Say::KeptPassOne { ids } | Say::KeptPassMany { ids } | Say::SkippedUnknown { ids } => {
                vec![("ids", ids.clone())]
            }
            Say::ReplacedKept { keys } => vec![("keys", keys.clone())],
            Say::SkippedStatuses { list } => vec![("list", list.clone())],
        }
    }
}

/// `template` with each `%{name}` replaced by its value: how the book's UI
/// strings take their values.
pub fn fill(template: &str, args: &[(&str, &dyn std::fmt::Display)]) -> String {
    let mut out = template.to_owned();
    for (name, value) in args {
        out = out.replace(&format!("%{{{name}}}"), &value.to_string());
    }
    out
}

/// What a short name holds, for messages: "your code for ch/a".
pub fn describe(name: &str) -> Say {
    let own = |s: &str| s.to_owned();
    if let Some(id) = name.strip_prefix("code:") {
        Say::WhatCode { id: own(id) }
    } else if let Some(id) = name.strip_prefix("code.py:") {
        Say::WhatCode {
            id: format!("{id} (Python)"),
        }
    } else if let Some(id) = name.strip_prefix("fails.py:") {
        Say::WhatFails {
            id: format!("{id} (Python)"),
        }
    } else if let Some(id) = name.strip_prefix("fails:") {
        Say::WhatFails { id: own(id) }
    } else if let Some(id) = name.strip_prefix("verdict.py:") {
        Say::WhatVerdict {
            id: format!("{id} (Python)"),
        }
    } else if let Some(id) = name.strip_prefix("verdict:") {
        Say::WhatVerdict { id: own(id) }
    } else if let Some(id) = name.strip_prefix("params:") {
        Say::WhatParams { id: own(id) }
    } else if name == PROGRESS {
        Say::WhatProgress
    } else if name == SCRATCH {
        Say::WhatScratch
    } else if let Some(ch) = name.strip_prefix("scratch:") {
        Say::WhatScratchIn { ch: own(ch) }
    } else {
        Say::Raw(format!("\"{name}\""))
    }
}

/// A key for a copy of `key`, numbered so that no earlier copy is overwritten:
/// `<key>.<what>-<n>` with the smallest `n` ≥ 1 for which `taken` is false.
pub fn numbered_key(key: &str, what: &str, taken: impl Fn(&str) -> bool) -> String {
    (1u32..)
        .map(|n| format!("{key}.{what}-{n}"))
        .find(|k| !taken(k))
        .unwrap_or_else(|| format!("{key}.{what}"))
}

/// Where an exercise stands, as saved. Stored as a stable code
/// (`passed`, `failed`, `error`, `limit_exceeded`, `not_attempted`), never as
/// the label a page shows, so that rewording a label loses nobody's progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Every case passed.
    Passed,
    /// At least one case gave a wrong value.
    Failed,
    /// The code did not compile, raised an error, or returned the wrong type.
    Error,
    /// The code ran out of operations, call depth, memory or time.
    LimitExceeded,
    /// Nothing graded yet, or the starter untouched.
    NotAttempted,
}

impl Outcome {
    /// Every outcome.
    pub const ALL: [Outcome; 5] = [
        Outcome::Passed,
        Outcome::Failed,
        Outcome::Error,
        Outcome::LimitExceeded,
        Outcome::NotAttempted,
    ];

    /// The stable code saved and exported (the serde name).
    pub fn code(self) -> &'static str {
        match self {
            Outcome::Passed => "passed",
            Outcome::Failed => "failed",
            Outcome::Error => "error",
            Outcome::LimitExceeded => "limit_exceeded",
            Outcome::NotAttempted => "not_attempted",
        }
    }

    /// The label pages show (and the first storage format saved).
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Passed => "passed",
            Outcome::Failed => "failed",
            Outcome::Error => "error",
            Outcome::LimitExceeded => "limit exceeded",
            Outcome::NotAttempted => "not attempted",
        }
    }

    /// Reads a code or a label; `None` for anything else.
    pub fn parse(s: &str) -> Option<Outcome> {
        Outcome::ALL
            .into_iter()
            .find(|o| o.code() == s || o.label() == s)
    }
}

impl From<judge::Status> for Outcome {
    fn from(s: judge::Status) -> Outcome {
        match s {
            judge::Status::Passed => Outcome::Passed,
            judge::Status::Failed => Outcome::Failed,
            judge::Status::Error => Outcome::Error,
            judge::Status::LimitExceeded => Outcome::LimitExceeded,
            judge::Status::NotAttempted => Outcome::NotAttempted,
        }
    }
}

/// A label or a code; anything unknown counts as an error.
impl From<&str> for Outcome {
    fn from(s: &str) -> Outcome {
        Outcome::parse(s).unwrap_or(Outcome::Error)
    }
}

/// Exercise id → outcome.
pub type ProgressMap = BTreeMap<String, Outcome>;

/// Reads the saved progress map (codes); the error says what is wrong.
pub fn parse_progress(text: &str) -> Result<ProgressMap, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// Reads the first format's progress (display labels, or codes).
pub fn parse_v1_progress(text: &str) -> Result<ProgressMap, Say> {
    let raw: BTreeMap<String, String> =
        serde_json::from_str(text).map_err(|e| Say::Raw(e.to_string()))?;
    raw.into_iter()
        .map(|(id, s)| match Outcome::parse(&s) {
            Some(o) => Ok((id, o)),
            None => Err(Say::UnknownStatus { s, id }),
        })
        .collect()
}

/// `into` with `other`'s entries added: a pass in either is kept, otherwise
/// `into`'s entry wins and `other` only fills gaps.
pub fn merge_passes(into: &mut ProgressMap, other: &ProgressMap) {
    for (id, o) in other {
        match into.get(id) {
            None => {
                into.insert(id.clone(), *o);
            }
            Some(_) if *o == Outcome::Passed => {
                into.insert(id.clone(), Outcome::Passed);
            }
            Some(_) => {}
        }
    }
}

/// What moving the first format's entries to this version's keys does.
#[derive(Debug, Default, PartialEq)]
pub struct Migration {
    /// Full key and the value to write there (JSON).
    pub writes: Vec<(String, String)>,
    /// Full keys to remove once every write has succeeded.
    pub removes: Vec<String>,
    /// Full keys of old entries that cannot be read (to back up, then remove),
    /// with the reason.
    pub corrupt: Vec<(String, Say)>,
}

/// Plans the move from the first format (`ih:v1:`, raw text, progress as
/// labels) to this one, given every saved entry (full key → raw value):
///
/// - `progress` becomes a map of codes; when both formats hold progress they are
///   merged with [`merge_passes`] (the new one wins, a pass is never lost). When
///   the new progress cannot be read it is left for the load to back up, and the
///   old one waits for the next load.
/// - `code:<id>`, `fails:<id>` and `scratch` move when the new key is free; when
///   it is taken (an older tab wrote the old key later) the old entry stays where
///   it is, untouched.
/// - The theme ([`THEME_KEY`]) and anything else stay as they are.
pub fn plan_migration(saved: &BTreeMap<String, String>) -> Migration {
    let mut m = Migration::default();
    for (key, raw) in saved {
        let Some(name) = key.strip_prefix(V1_PREFIX) else {
            continue;
        };
        let new_key = full_key(name);
        if name == PROGRESS {
            let old = match parse_v1_progress(raw) {
                Ok(p) => p,
                Err(e) => {
                    m.corrupt.push((key.clone(), e));
                    continue;
                }
            };
            let mut merged = match saved.get(&new_key).map(|t| parse_progress(t)) {
                None => ProgressMap::new(),
                Some(Ok(p)) => p,
                Some(Err(_)) => continue,
            };
            merge_passes(&mut merged, &old);
            if let Ok(json) = serde_json::to_string(&merged) {
                m.writes.push((new_key, json));
                m.removes.push(key.clone());
            }
        } else if name.starts_with("code:") || name.starts_with("fails:") || name == SCRATCH {
            if saved.contains_key(&new_key) {
                continue;
            }
            if let Ok(json) = serde_json::to_string(raw) {
                m.writes.push((new_key, json));
                m.removes.push(key.clone());
            }
        }
    }
    m
}

/// A progress file as written: everything a reader has saved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Export {
    /// Always [`EXPORT_FORMAT`].
    pub format: String,
    /// Format version: [`EXPORT_VERSION`] (version 1 held labels, not codes).
    pub version: u32,
    /// Exercise id → outcome.
    pub progress: ProgressMap,
    /// Exercise id → code (Rhai).
    pub code: BTreeMap<String, String>,
    /// Exercise id → Python code; left out when there is none, so a file
    /// without Python is what it was before Python answers.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub python: BTreeMap<String, String>,
    /// Exercise id → answer language (`rhai`, `python`) → the receipt of its
    /// last whole run there (#29): the code graded, the verdict as the judge
    /// wrote it (the CLI's `--json` gives the same verdict for the same code,
    /// plus `language` and `elapsed_ms`), the judge's version and the
    /// exercise's content hash. For a teacher's records: `judge verify <file>`
    /// grades each receipt's code again and says whether it agrees. An import
    /// does not read it (a verdict is the judge's to give again).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub receipts: BTreeMap<String, BTreeMap<String, judge::Receipt>>,
    /// Verdicts saved by the page before receipts (a bare verdict, without
    /// the code it was given for), by id and language, as they were.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub verdicts: BTreeMap<String, BTreeMap<String, serde_json::Value>>,
}

impl Export {
    /// A file holding `progress` and `code`.
    pub fn new(progress: ProgressMap, code: BTreeMap<String, String>) -> Export {
        Export {
            format: EXPORT_FORMAT.to_owned(),
            version: EXPORT_VERSION,
            progress,
            code,
            python: BTreeMap::new(),
            receipts: BTreeMap::new(),
            verdicts: BTreeMap::new(),
        }
    }

    /// The same file with the Python code `python` too.
    pub fn with_python(mut self, python: BTreeMap<String, String>) -> Export {
        self.python = python;
        self
    }

    /// The same file with the saved receipts `saved` (id → language → text
    /// as saved): a receipt goes to `receipts`, a bare verdict saved before
    /// receipts to `verdicts`, and a text that is neither is left out.
    pub fn with_receipts(mut self, saved: BTreeMap<String, BTreeMap<String, String>>) -> Export {
        for (id, by_lang) in saved {
            for (l, text) in by_lang {
                if let Ok(r) = serde_json::from_str::<judge::Receipt>(&text) {
                    self.receipts.entry(id.clone()).or_default().insert(l, r);
                } else if let Ok(v @ serde_json::Value::Object(_)) = serde_json::from_str(&text) {
                    self.verdicts.entry(id.clone()).or_default().insert(l, v);
                }
            }
        }
        self
    }
}

/// A progress file as read (any supported version), before the checks.
#[derive(Deserialize)]
struct RawExport {
    format: String,
    version: u32,
    #[serde(default)]
    progress: BTreeMap<String, String>,
    #[serde(default)]
    code: BTreeMap<String, String>,
    #[serde(default)]
    python: BTreeMap<String, String>,
}

/// A checked progress file: what can be imported, and what was skipped.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Import {
    /// Exercise id → outcome, for exercises this book has.
    pub progress: ProgressMap,
    /// Exercise id → code, for exercises this book has.
    pub code: BTreeMap<String, String>,
    /// Exercise id → Python code, for exercises this book has.
    pub python: BTreeMap<String, String>,
    /// Ids in the file that this book does not have (skipped).
    pub unknown_ids: Vec<String>,
    /// Entries with a status this book does not know (skipped): id, status.
    pub unknown_statuses: Vec<(String, String)>,
}

/// Refuses a file larger than [`IMPORT_MAX_BYTES`] before it is read.
pub fn check_import_size(bytes: u64) -> Result<(), Say> {
    if bytes <= IMPORT_MAX_BYTES {
        return Ok(());
    }
    Err(Say::ImportTooBig {
        mib: format!("{:.1}", bytes as f64 / IMPORT_MAX_BYTES as f64),
        bytes: group(bytes),
        max: group(IMPORT_MAX_BYTES),
    })
}

/// `1048576` → `1,048,576`.
fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Checks a progress file. A file that is not one (not JSON, another format,
/// an unsupported version, wrong types) is an error that says why; entries for
/// exercises not in `known_ids`, or with an unknown status, are skipped and listed.
pub fn parse_export(text: &str, known_ids: &[&str]) -> Result<Import, Say> {
    let raw: RawExport =
        serde_json::from_str(text).map_err(|e| Say::NotProgressFile { why: e.to_string() })?;
    if raw.format != EXPORT_FORMAT {
        return Err(Say::NotProgressFormat {
            got: raw.format,
            want: EXPORT_FORMAT.to_owned(),
        });
    }
    if !(1..=EXPORT_VERSION).contains(&raw.version) {
        return Err(Say::ProgressVersion {
            v: raw.version,
            max: EXPORT_VERSION,
        });
    }
    let mut out = Import::default();
    let known = |id: &str| known_ids.contains(&id);
    for id in raw
        .progress
        .keys()
        .chain(raw.code.keys())
        .chain(raw.python.keys())
    {
        if !known(id) && !out.unknown_ids.contains(id) {
            out.unknown_ids.push(id.clone());
        }
    }
    for (id, s) in raw.progress {
        if !known(&id) {
            continue;
        }
        match Outcome::parse(&s) {
            Some(o) => {
                out.progress.insert(id, o);
            }
            None => out.unknown_statuses.push((id, s)),
        }
    }
    out.code = raw.code.into_iter().filter(|(id, _)| known(id)).collect();
    out.python = raw.python.into_iter().filter(|(id, _)| known(id)).collect();
    Ok(out)
}

/// What an import changes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Merge {
    /// The whole progress map to save.
    pub progress: ProgressMap,
    /// Exercise id → the file's code, to save.
    pub code: BTreeMap<String, String>,
    /// Exercise id → this browser's code that the file's replaces (to keep a copy of).
    pub displaced: BTreeMap<String, String>,
    /// Exercise id → the file's Python code, to save.
    pub python: BTreeMap<String, String>,
    /// Exercise id → this browser's Python code that the file's replaces.
    pub displaced_python: BTreeMap<String, String>,
    /// Exercises this browser has passed and the file has not: left as they are.
    pub kept_passes: Vec<String>,
    /// How many of the file's progress entries were taken.
    pub progress_taken: usize,
}

/// Merges a checked file into what is saved. Exercises the file does not
/// mention are untouched. For each exercise it mentions:
///
/// - a pass is never lost: when this browser has passed it and the file has
///   not, this browser's code and pass stay (the file's entry is skipped and
///   listed in [`Merge::kept_passes`]);
/// - otherwise the file wins: its code replaces the saved code, and its status
///   (when it has one) replaces the saved status, so the two still belong
///   together. Saved code that differs from the file's is listed in
///   [`Merge::displaced`], for a copy to be kept.
pub fn merge_import(
    saved: &ProgressMap,
    saved_code: &BTreeMap<String, String>,
    saved_python: &BTreeMap<String, String>,
    file: &Import,
) -> Merge {
    let mut m = Merge {
        progress: saved.clone(),
        ..Merge::default()
    };
    let ids: std::collections::BTreeSet<&String> = file
        .progress
        .keys()
        .chain(file.code.keys())
        .chain(file.python.keys())
        .collect();
    for id in ids {
        let here_passed = saved.get(id) == Some(&Outcome::Passed);
        let file_passed = file.progress.get(id) == Some(&Outcome::Passed);
        if here_passed && !file_passed {
            m.kept_passes.push(id.clone());
            continue;
        }
        if let Some(code) = file.code.get(id) {
            if let Some(old) = saved_code.get(id).filter(|old| *old != code) {
                m.displaced.insert(id.clone(), old.clone());
            }
            m.code.insert(id.clone(), code.clone());
        }
        if let Some(code) = file.python.get(id) {
            if let Some(old) = saved_python.get(id).filter(|old| *old != code) {
                m.displaced_python.insert(id.clone(), old.clone());
            }
            m.python.insert(id.clone(), code.clone());
        }
        if let Some(o) = file.progress.get(id) {
            m.progress.insert(id.clone(), *o);
            m.progress_taken += 1;
        }
    }
    m
}

/// The sentences an import shows: what was taken, what was kept, what was
/// skipped. `copies` are the keys where replaced code was kept.
pub fn import_message(file: &Import, m: &Merge, copies: &[String]) -> Vec<Say> {
    let mut parts = vec![Say::Imported {
        p: m.progress_taken,
        c: m.code.len() + m.python.len(),
    }];
    if !m.kept_passes.is_empty() {
        let ids = m.kept_passes.join(", ");
        parts.push(if m.kept_passes.len() == 1 {
            Say::KeptPassOne { ids }
        } else {
            Say::KeptPassMany { ids }
        });
    }
    if !copies.is_empty() {
        parts.push(Say::ReplacedKept {
            keys: copies.join(", "),
        });
    }
    if !file.unknown_ids.is_empty() {
        parts.push(Say::SkippedUnknown {
            ids: file.unknown_ids.join(", "),
        });
    }
    if !file.unknown_statuses.is_empty() {
        let list: Vec<String> = file
            .unknown_statuses
            .iter()
            .map(|(id, s)| format!("{id} (\"{s}\")"))
            .collect();
        parts.push(Say::SkippedStatuses {
            list: list.join(", "),
        });
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    const EN: &str = include_str!("../../app/locales/en.json");
    const ZH: &str = include_str!("../../app/locales/zh.json");

    fn strings(json: &str) -> BTreeMap<String, String> {
        serde_json::from_str(json).expect("a flat JSON object of strings")
    }

    /// What the English page says for `s`.
    fn english(s: &Say) -> String {
        let Some(key) = s.key() else {
            let Say::Raw(text) = s else { unreachable!() };
            return text.clone();
        };
        let args = s.args();
        let args: Vec<(&str, &dyn std::fmt::Display)> = args
            .iter()
            .map(|(k, v)| (*k, v as &dyn std::fmt::Display))
            .collect();
        fill(&strings(EN)[key], &args)
    }

    /// Key → the `%{…}` placeholders of its string.
    fn placeholders(json: &str) -> BTreeMap<String, BTreeSet<String>> {
        strings(json)
            .into_iter()
            .map(|(k, v)| {
                let names = v
                    .split("%{")
                    .skip(1)
                    .filter_map(|rest| rest.split_once('}').map(|(n, _)| n.to_owned()))
                    .collect();
                (k, names)
            })
            .collect()
    }

    #[test]
    fn both_languages_fill_the_same_placeholders() {
        let en = placeholders(EN);
        let zh = placeholders(ZH);
        assert_eq!(
            en.keys().collect::<Vec<_>>(),
            zh.keys().collect::<Vec<_>>(),
            "the same keys"
        );
        for (key, names) in &en {
            assert_eq!(names, &zh[key], "placeholders of `{key}`");
        }
        assert!(en["ran_in"].contains("ms"), "the parser sees placeholders");
    }

    #[test]
    fn every_message_names_a_string_and_fills_all_its_placeholders() {
        let s = |x: &str| x.to_owned();
        let all = [
            Say::WhatCode { id: s("a") },
            Say::WhatFails { id: s("a") },
            Say::WhatParams { id: s("a") },
            Say::WhatProgress,
            Say::WhatScratch,
            Say::WhatScratchIn { ch: s("c") },
            Say::UnknownStatus {
                s: s("x"),
                id: s("a"),
            },
            Say::ImportTooBig {
                mib: s("1"),
                bytes: s("2"),
                max: s("3"),
            },
            Say::NotProgressFile { why: s("w") },
            Say::NotProgressFormat {
                got: s("g"),
                want: s("w"),
            },
            Say::ProgressVersion { v: 3, max: 2 },
            Say::Imported { p: 1, c: 2 },
            Say::KeptPassOne { ids: s("a") },
            Say::KeptPassMany { ids: s("a, b") },
            Say::ReplacedKept { keys: s("k") },
            Say::SkippedUnknown { ids: s("a") },
            Say::SkippedStatuses { list: s("l") },
        ];
        let en = placeholders(EN);
        for m in &all {
            let key = m.key().unwrap();
            let names: BTreeSet<String> = m.args().iter().map(|(n, _)| (*n).to_owned()).collect();
            assert_eq!(en.get(key), Some(&names), "{m:?}");
            assert!(!english(m).contains("%{"), "{m:?}");
        }
        assert_eq!(Say::Raw(s("x")).key(), None);
    }

    #[test]
    fn fill_puts_every_value_in() {
        let out = fill("%{a} of %{b}, %{a}", &[("a", &3), ("b", &"eight")]);
        assert_eq!(out, "3 of eight, 3");
    }

    fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn progress(pairs: &[(&str, Outcome)]) -> ProgressMap {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    #[test]
    fn outcomes_save_as_codes_that_match_serde() {
        for o in Outcome::ALL {
            assert_eq!(
                serde_json::to_string(&o).unwrap(),
                format!("\"{}\"", o.code())
            );
            assert_eq!(Outcome::parse(o.code()), Some(o));
            assert_eq!(Outcome::parse(o.label()), Some(o));
            let status: judge::Status = serde_json::from_str(&format!("\"{}\"", o.code())).unwrap();
            assert_eq!(Outcome::from(status), o, "judge's codes agree");
            assert_eq!(status.label(), o.label(), "judge's labels agree");
        }
        assert_eq!(Outcome::parse("solved"), None);
        assert_eq!(Outcome::from("solved"), Outcome::Error);
    }

    #[test]
    fn progress_is_read_as_codes_and_corrupt_progress_is_an_error() {
        let p = parse_progress(r#"{"a":"passed","b":"limit_exceeded"}"#).unwrap();
        assert_eq!(
            p,
            progress(&[("a", Outcome::Passed), ("b", Outcome::LimitExceeded)])
        );
        assert!(parse_progress(r#"{"a":"limit exceeded"}"#).is_err());
        assert!(parse_progress("{not json").is_err());
        assert!(parse_progress("[1,2]").is_err());
        assert!(parse_progress(r#"{"a":42}"#).is_err());
    }

    #[test]
    fn first_format_progress_with_labels_migrates_to_codes() {
        let saved = map(&[
            (
                "ih:v1:progress",
                r#"{"ch/a":"passed","ch/b":"limit exceeded","ch/c":"not attempted"}"#,
            ),
            ("ih:v1:code:ch/a", "fn a() { 1 }"),
            ("ih:v1:fails:ch/b", "3"),
            ("ih:v1:scratch", "ledger_models()"),
            ("ih:v1:theme", "dark"),
            ("ih:v1:progress-corrupt-backup", "{"),
            ("other-site", "x"),
        ]);
        let m = plan_migration(&saved);
        let writes: BTreeMap<_, _> = m.writes.iter().cloned().collect();
        assert_eq!(
            writes["ih:v2:progress"],
            r#"{"ch/a":"passed","ch/b":"limit_exceeded","ch/c":"not_attempted"}"#
        );
        assert_eq!(writes["ih:v2:code:ch/a"], r#""fn a() { 1 }""#);
        assert_eq!(writes["ih:v2:fails:ch/b"], r#""3""#);
        assert_eq!(writes["ih:v2:scratch"], r#""ledger_models()""#);
        assert_eq!(writes.len(), 4, "theme and unknown keys stay: {writes:?}");
        assert_eq!(
            m.removes,
            [
                "ih:v1:code:ch/a",
                "ih:v1:fails:ch/b",
                "ih:v1:progress",
                "ih:v1:scratch"
            ]
        );
        assert!(m.corrupt.is_empty());
        // The written progress reads back.
        assert_eq!(parse_progress(&writes["ih:v2:progress"]).unwrap().len(), 3);
    }

    #[test]
    fn migration_never_overwrites_new_entries_or_loses_a_pass() {
        let saved = map(&[
            (
                "ih:v1:progress",
                r#"{"a":"passed","b":"failed","c":"error"}"#,
            ),
            ("ih:v2:progress", r#"{"a":"failed","b":"passed"}"#),
            ("ih:v1:code:a", "old"),
            ("ih:v2:code:a", "\"new\""),
        ]);
        let m = plan_migration(&saved);
        assert_eq!(m.writes.len(), 1);
        assert_eq!(
            parse_progress(&m.writes[0].1).unwrap(),
            progress(&[
                ("a", Outcome::Passed),
                ("b", Outcome::Passed),
                ("c", Outcome::Error)
            ])
        );
        assert_eq!(
            m.removes,
            ["ih:v1:progress"],
            "old code a stays where it is"
        );
    }

    #[test]
    fn corrupt_first_format_progress_is_reported_not_migrated() {
        for bad in [r#"{"a": 42"#, r#"{"a":"solved"}"#] {
            let m = plan_migration(&map(&[("ih:v1:progress", bad)]));
            assert!(m.writes.is_empty());
            assert_eq!(m.corrupt.len(), 1);
            assert_eq!(m.corrupt[0].0, "ih:v1:progress");
        }
        // Corrupt new progress is left for the load to back up.
        let m = plan_migration(&map(&[
            ("ih:v1:progress", r#"{"a":"passed"}"#),
            ("ih:v2:progress", "{"),
        ]));
        assert_eq!(m, Migration::default());
    }

    #[test]
    fn numbered_keys_skip_taken_ones() {
        let taken = ["k.corrupt-1".to_owned(), "k.corrupt-2".to_owned()];
        assert_eq!(
            numbered_key("k", "corrupt", |k| taken.iter().any(|t| t == k)),
            "k.corrupt-3"
        );
        assert_eq!(numbered_key("k", "corrupt", |_| false), "k.corrupt-1");
    }

    #[test]
    fn size_limit_is_checked_and_named() {
        assert!(check_import_size(IMPORT_MAX_BYTES).is_ok());
        let e = english(&check_import_size(2_000_000).unwrap_err());
        assert_eq!(
            e,
            "the file is 1.9 MiB (2,000,000 bytes); a progress file may be at most 1 MiB (1,048,576 bytes)"
        );
    }

    #[test]
    fn export_round_trips_and_bad_files_say_why() {
        let e = Export::new(
            progress(&[("ch/a", Outcome::LimitExceeded)]),
            map(&[("ch/a", "fn a() {}")]),
        );
        let text = serde_json::to_string(&e).unwrap();
        assert!(text.contains("\"limit_exceeded\""), "{text}");
        let i = parse_export(&text, &["ch/a"]).unwrap();
        assert_eq!(i.progress, e.progress);
        assert_eq!(i.code, e.code);
        let why = |text: &str, ids: &[&str]| english(&parse_export(text, ids).unwrap_err());
        assert!(why("{}", &[]).starts_with("not a progress file"));
        assert!(why("[", &[]).starts_with("not a progress file"));
        assert!(why(r#"{"format":"other","version":1}"#, &[]).contains("format is \"other\""));
        let v3 = text.replace("\"version\":2", "\"version\":3");
        assert!(why(&v3, &["ch/a"]).contains("version 3"));
        let wrong_type =
            r#"{"format":"inference-handbook-progress","version":2,"code":{"ch/a":1}}"#;
        assert!(parse_export(wrong_type, &["ch/a"]).is_err());
    }

    #[test]
    fn receipts_and_older_bare_verdicts_are_exported_apart() {
        let receipt = r#"{"judge":"0.1.0","content":"fnv1a128:00","code":"fn f() {}","verdict":{"status":"passed"}}"#;
        let saved = BTreeMap::from([
            (
                "ch/a".to_owned(),
                BTreeMap::from([
                    ("rhai".to_owned(), receipt.to_owned()),
                    ("python".to_owned(), r#"{"status":"failed"}"#.to_owned()),
                ]),
            ),
            (
                "ch/b".to_owned(),
                BTreeMap::from([("rhai".to_owned(), "not json".to_owned())]),
            ),
        ]);
        let e = Export::new(ProgressMap::new(), BTreeMap::new()).with_receipts(saved);
        let r = &e.receipts["ch/a"]["rhai"];
        assert_eq!(
            (r.code.as_str(), r.content.as_str()),
            ("fn f() {}", "fnv1a128:00")
        );
        assert_eq!(e.verdicts["ch/a"]["python"]["status"], "failed");
        assert!(!e.receipts.contains_key("ch/b") && !e.verdicts.contains_key("ch/b"));
        // The file reads back, receipts included, and still imports.
        let text = serde_json::to_string(&e).unwrap();
        let back: Export = serde_json::from_str(&text).unwrap();
        assert_eq!(back, e);
        assert!(parse_export(&text, &["ch/a"]).is_ok());
    }

    #[test]
    fn version_1_files_with_labels_still_import() {
        let v1 = r#"{"format":"inference-handbook-progress","version":1,
            "progress":{"ch/a":"limit exceeded","ch/b":"passed"},"code":{"ch/a":"x"}}"#;
        let i = parse_export(v1, &["ch/a", "ch/b"]).unwrap();
        assert_eq!(
            i.progress,
            progress(&[("ch/a", Outcome::LimitExceeded), ("ch/b", Outcome::Passed)])
        );
    }

    #[test]
    fn unknown_ids_and_statuses_are_skipped_and_named() {
        let text = r#"{"format":"inference-handbook-progress","version":2,
            "progress":{"ch/a":"passed","ch/gone":"passed","ch/b":"solved"},
            "code":{"ch/a":"x","ch/gone":"y"}}"#;
        let i = parse_export(text, &["ch/a", "ch/b"]).unwrap();
        assert_eq!(i.progress, progress(&[("ch/a", Outcome::Passed)]));
        assert_eq!(i.code, map(&[("ch/a", "x")]));
        assert_eq!(i.unknown_ids, ["ch/gone"]);
        assert_eq!(
            i.unknown_statuses,
            [("ch/b".to_owned(), "solved".to_owned())]
        );
        let m = merge_import(&ProgressMap::new(), &BTreeMap::new(), &BTreeMap::new(), &i);
        let gap = &strings(EN)["sentence_gap"];
        let msg: Vec<String> = import_message(&i, &m, &[]).iter().map(english).collect();
        let msg = msg.join(gap);
        assert_eq!(
            msg,
            "Imported progress for 1 exercises and code for 1. \
             Skipped exercises this book does not have: ch/gone. \
             Skipped unknown statuses: ch/b (\"solved\")."
        );
    }

    #[test]
    fn python_code_travels_in_its_own_field() {
        let e = Export::new(
            progress(&[("ch/a", Outcome::Passed)]),
            map(&[("ch/a", "fn a() {}")]),
        );
        // Without Python, the file is what it was before Python answers.
        assert!(!serde_json::to_string(&e).unwrap().contains("python"));
        let e = e.with_python(map(&[("ch/a", "def a(): pass"), ("ch/gone", "x")]));
        let text = serde_json::to_string(&e).unwrap();
        let i = parse_export(&text, &["ch/a"]).unwrap();
        assert_eq!(i.python, map(&[("ch/a", "def a(): pass")]));
        assert_eq!(i.code, map(&[("ch/a", "fn a() {}")]));
        assert_eq!(i.unknown_ids, ["ch/gone"]);
        let m = merge_import(
            &ProgressMap::new(),
            &BTreeMap::new(),
            &map(&[("ch/a", "def a(): return 1")]),
            &i,
        );
        assert_eq!(m.python, map(&[("ch/a", "def a(): pass")]));
        assert_eq!(m.displaced_python, map(&[("ch/a", "def a(): return 1")]));
        assert!(m.displaced.is_empty());
    }

    #[test]
    fn an_older_file_never_removes_a_pass() {
        let saved = progress(&[
            ("a", Outcome::Passed),
            ("b", Outcome::Failed),
            ("c", Outcome::Passed),
        ]);
        let saved_code = map(&[("a", "passing a"), ("b", "newer b"), ("c", "c here")]);
        let file = Import {
            progress: progress(&[
                ("a", Outcome::Failed),
                ("b", Outcome::Error),
                ("c", Outcome::Passed),
                ("d", Outcome::Passed),
            ]),
            code: map(&[("a", "old a"), ("b", "old b"), ("c", "c there")]),
            ..Import::default()
        };
        let m = merge_import(&saved, &saved_code, &BTreeMap::new(), &file);
        assert_eq!(
            m.progress,
            progress(&[
                ("a", Outcome::Passed),
                ("b", Outcome::Error),
                ("c", Outcome::Passed),
                ("d", Outcome::Passed),
            ])
        );
        assert_eq!(m.kept_passes, ["a"]);
        assert_eq!(m.code, map(&[("b", "old b"), ("c", "c there")]));
        assert_eq!(m.displaced, map(&[("b", "newer b"), ("c", "c here")]));
        assert_eq!(m.progress_taken, 3);
        // Exercises the file does not mention are untouched.
        let m = merge_import(&saved, &saved_code, &BTreeMap::new(), &Import::default());
        assert_eq!(m.progress, saved);
        assert!(m.code.is_empty() && m.displaced.is_empty());
    }

    #[test]
    fn descriptions_name_what_was_not_saved() {
        assert_eq!(english(&describe("code:ch/a")), "your code for ch/a");
        assert_eq!(
            english(&describe("code.py:ch/a")),
            "your code for ch/a (Python)"
        );
        assert_eq!(english(&describe(PROGRESS)), "your progress");
        assert_eq!(english(&describe(SCRATCH)), "your scratch code");
        assert_eq!(
            english(&describe("scratch:ch_kvcache")),
            "your scratch code in ch_kvcache"
        );
        assert_eq!(english(&describe("elsewhere")), "\"elsewhere\"");
    }
}
