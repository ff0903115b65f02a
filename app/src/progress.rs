//! Exercise progress shared by the whole app: the home page, the chapter's
//! contents and the exercise panels read it; a graded run writes it. Saved as
//! stable codes ([`Outcome`]) by [`storage`]; pages show labels.

use leptos::prelude::*;

use crate::storage::{self, Outcome, ProgressMap};

/// Reactive progress: exercise id → outcome.
#[derive(Clone, Copy)]
pub struct Progress {
    /// Exercise id → outcome (an exercise not in the map is not attempted).
    pub map: RwSignal<ProgressMap>,
}

impl Progress {
    /// Loads saved progress (unreadable progress is backed up and reset, with a notice).
    pub fn load() -> Progress {
        Progress {
            map: RwSignal::new(storage::load_progress()),
        }
    }

    /// Records an outcome (a `judge::Status`, an [`Outcome`], or its label) and
    /// saves; a failed save is shown in a notice and the page keeps the outcome.
    pub fn set(&self, id: &str, outcome: impl Into<Outcome>) {
        let o = outcome.into();
        self.map.update(|m| {
            m.insert(id.to_owned(), o);
        });
        storage::save_progress(&self.map.get_untracked());
    }

    /// Forgets one exercise's outcome.
    pub fn forget(&self, id: &str) {
        self.map.update(|m| {
            m.remove(id);
        });
        storage::save_progress(&self.map.get_untracked());
    }

    /// The outcome of one exercise ([`Outcome::NotAttempted`] when nothing is saved).
    pub fn outcome(&self, id: &str) -> Outcome {
        self.map
            .read()
            .get(id)
            .copied()
            .unwrap_or(Outcome::NotAttempted)
    }

    /// How many of these exercises are passed.
    pub fn passed(&self, ids: &[&str]) -> usize {
        ids.iter()
            .filter(|id| self.outcome(id) == Outcome::Passed)
            .count()
    }

    /// The label of one exercise's outcome (`passed`, `not attempted`, ...).
    pub fn status(&self, id: &str) -> String {
        self.outcome(id).label().to_owned()
    }
}

thread_local! {
    static PROGRESS: std::cell::OnceCell<Progress> = const { std::cell::OnceCell::new() };
}

/// The page's progress: one set of signals shared by every island on the page
/// (loaded on first use; [`crate::islands::mount_all`] loads it before mounting,
/// outside any island's owner, so it lives as long as the page).
pub fn use_progress() -> Progress {
    PROGRESS.with(|p| *p.get_or_init(Progress::load))
}

/// A small mark for a status label: ✓ passed, ✗ failed or erroring, · not attempted.
pub fn mark(status: &str) -> &'static str {
    match Outcome::parse(status) {
        Some(Outcome::Passed) => "✓",
        Some(Outcome::NotAttempted) => "·",
        _ => "✗",
    }
}
