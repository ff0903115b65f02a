//! Exercise progress shared by the whole app: the home page, the chapter's
//! contents and the exercise panels read it; a graded run writes it.

use std::collections::BTreeMap;

use leptos::prelude::*;

use crate::storage;

/// Reactive progress (exercise id → status) plus a notice about recovered data.
#[derive(Clone, Copy)]
pub struct Progress {
    /// Exercise id → status label.
    pub map: RwSignal<BTreeMap<String, String>>,
    /// A message for the reader (corrupt data reset, import done, ...).
    pub notice: RwSignal<Option<String>>,
}

impl Progress {
    /// Loads saved progress, resetting corrupt data with a notice.
    pub fn load() -> Progress {
        let (map, notice) = storage::load_progress_checked();
        Progress {
            map: RwSignal::new(map),
            notice: RwSignal::new(notice),
        }
    }

    /// Records a status and saves.
    pub fn set(&self, id: &str, status: &str) {
        self.map.update(|m| {
            m.insert(id.to_owned(), status.to_owned());
        });
        storage::save_progress(&self.map.get_untracked());
    }

    /// Forgets one exercise's status.
    pub fn forget(&self, id: &str) {
        self.map.update(|m| {
            m.remove(id);
        });
        storage::save_progress(&self.map.get_untracked());
    }

    /// The status of one exercise (`not attempted` when nothing is saved).
    pub fn status(&self, id: &str) -> String {
        self.map
            .read()
            .get(id)
            .cloned()
            .unwrap_or_else(|| "not attempted".to_owned())
    }
}

/// The app's progress (provided by `App`).
pub fn use_progress() -> Progress {
    use_context::<Progress>().unwrap_or_else(Progress::load)
}

/// A small mark for a status: ✓ passed, ✗ failed or erroring, · not attempted.
pub fn mark(status: &str) -> &'static str {
    match status {
        "passed" => "✓",
        "not attempted" => "·",
        _ => "✗",
    }
}
