//! An exercise panel's state as a plain value (#26): the learner's code, the
//! last run, the hints shown (a known mistake opened counts as one, #29), the
//! failed runs, the reference, a shared link's
//! offer. The app's `ExercisePanel` only renders a [`Panel`] and passes events
//! to its methods; each method that changes what is saved returns the
//! [`Store`] writes for the app to make, so that what a reader keeps is
//! decided here and tested natively.

use judge::{SolverError, Status, Verdict};

/// Failed whole runs after which the reference can be revealed (with a
/// confirmation).
pub const REVEAL_AFTER_FAILS: u32 = 3;

/// What the app writes to the reader's storage after a change.
#[derive(Debug, Clone, PartialEq)]
pub enum Store {
    /// The learner's code, as it now is.
    Code(String),
    /// No code saved: the starter is shown.
    ForgetCode,
    /// The count of failed whole runs.
    Fails(u32),
    /// No failed runs counted.
    ForgetFails,
    /// The exercise's progress, from a whole run's status.
    Progress(Status),
    /// No progress: not attempted.
    ForgetProgress,
    /// A whole run's receipt ([`judge::Receipt`]: the code graded, the
    /// verdict as the judge wrote it, the judge's version and the exercise's
    /// content hash), as JSON, for the progress file; `judge verify` grades
    /// its code again (the CLI's `--json` gives the same verdict).
    Verdict(String),
}

/// A finished run as the panel shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The judge's verdict.
    pub verdict: Verdict,
    /// What the code printed, per visible case.
    pub printed: Vec<String>,
    /// Milliseconds from Run to the verdict.
    pub ms: f64,
    /// The case run alone, if one was.
    pub alone: Option<usize>,
}

/// A shared link's code, offered and never loaded without the reader's say.
#[derive(Debug, Clone, PartialEq)]
pub enum Offer {
    /// Code from the link, on offer.
    Code(String),
    /// The link could not be read: why.
    Damaged(String),
}

/// One exercise panel.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    /// The exercise's starter in the page's language.
    pub starter: String,
    /// The code in the editor.
    pub code: String,
    /// Failed whole runs, kept across visits.
    pub fails: u32,
    /// Hints the reader has opened.
    pub hints_shown: usize,
    /// Hints the exercise has.
    pub hints_total: usize,
    /// The known mistakes the reader opened (`misconception` ids, once each):
    /// each is help, counted like a hint ([`Panel::help_used`]).
    pub mistakes_opened: Vec<String>,
    /// Whether the reference solution is shown.
    pub reveal: bool,
    /// The job of the run under way.
    pub running: Option<u64>,
    /// Finished runs in this visit (the page shows it as `data-runs`).
    pub runs: u32,
    /// The last finished run.
    pub last: Option<Run>,
    /// A shared link's code, on offer.
    pub offered: Option<Offer>,
    /// The reader's own code, kept after loading a shared one ("Put mine back").
    pub previous: Option<String>,
    /// The code the run under way was sent with (for its receipt).
    pub graded: Option<String>,
    /// The exercise's content hash (`Exercise::content`), for receipts.
    pub content: String,
}

impl Panel {
    /// A panel as a visit finds it: the saved code (else the starter) and the
    /// saved count of failed runs (a value that is not a count reads as 0).
    pub fn new(
        starter: &str,
        saved_code: Option<String>,
        saved_fails: Option<&str>,
        hints_total: usize,
    ) -> Panel {
        Panel {
            starter: starter.to_owned(),
            code: saved_code.unwrap_or_else(|| starter.to_owned()),
            fails: saved_fails.and_then(|n| n.trim().parse().ok()).unwrap_or(0),
            hints_shown: 0,
            hints_total,
            mistakes_opened: Vec::new(),
            reveal: false,
            running: None,
            runs: 0,
            last: None,
            offered: None,
            previous: None,
            graded: None,
            content: String::new(),
        }
    }

    /// The same panel, whose receipts name the exercise content `hash`.
    pub fn with_content(mut self, hash: &str) -> Panel {
        self.content = hash.to_owned();
        self
    }

    /// The reader changed the code.
    pub fn edit(&mut self, code: String) -> Vec<Store> {
        self.code = code.clone();
        vec![Store::Code(code)]
    }

    /// A run was sent as `job`; `false` (and nothing changes) while another
    /// is under way.
    pub fn start(&mut self, job: u64) -> bool {
        if self.running.is_some() {
            return false;
        }
        self.running = Some(job);
        self.graded = Some(self.code.clone());
        true
    }

    /// A run ended. A whole run (`run.alone` is `None`) sets the progress, and
    /// one that did not pass counts as a failed run; a case run alone changes
    /// neither.
    pub fn finish(&mut self, run: Run) -> Vec<Store> {
        self.running = None;
        let graded = self.graded.take().unwrap_or_else(|| self.code.clone());
        self.runs += 1;
        let mut out = Vec::new();
        if run.alone.is_none() {
            let status = run.verdict.status;
            out.push(Store::Progress(status));
            if matches!(
                status,
                Status::Failed | Status::Error | Status::LimitExceeded
            ) {
                self.fails += 1;
                out.push(Store::Fails(self.fails));
            }
            let receipt = judge::Receipt::new(&self.content, &graded, &run.verdict);
            if let Ok(json) = serde_json::to_string(&receipt) {
                out.push(Store::Verdict(json));
            }
        }
        self.last = Some(run);
        out
    }

    /// A run that ended without the judge's verdict (refused, stopped, timed
    /// out, the worker lost): a verdict on no case with `error`, for `total`
    /// cases of exercise `id`, then as [`Panel::finish`].
    pub fn finish_without_verdict(
        &mut self,
        id: &str,
        total: usize,
        error: SolverError,
        ms: f64,
        alone: Option<usize>,
    ) -> Vec<Store> {
        self.finish(Run {
            verdict: Verdict::no_case_ran(id, total, error),
            printed: Vec::new(),
            ms,
            alone,
        })
    }

    /// Opens the next hint, if one is left.
    pub fn next_hint(&mut self) {
        self.hints_shown = (self.hints_shown + 1).min(self.hints_total);
    }

    /// The reader opened the known mistake the last run's verdict names
    /// (its fold after the diff): counted once per mistake, like a hint.
    pub fn open_mistake(&mut self) {
        let Some(id) = self
            .last
            .as_ref()
            .and_then(|r| r.verdict.misconception.as_ref())
            .map(|m| m.id.clone())
        else {
            return;
        };
        if !self.mistakes_opened.contains(&id) {
            self.mistakes_opened.push(id);
        }
    }

    /// The help the reader took: the hints opened and the known mistakes
    /// opened.
    pub fn help_used(&self) -> usize {
        self.hints_shown + self.mistakes_opened.len()
    }

    /// Whether every hint is open.
    pub fn hints_done(&self) -> bool {
        self.hints_shown >= self.hints_total
    }

    /// Whether the reveal button shows: after a pass (`passed`, from the saved
    /// progress), or after [`REVEAL_AFTER_FAILS`] failed runs, while the
    /// reference is hidden.
    pub fn can_reveal(&self, passed: bool) -> bool {
        (passed || self.fails >= REVEAL_AFTER_FAILS) && !self.reveal
    }

    /// Shows the reference solution.
    pub fn show_reference(&mut self) {
        self.reveal = true;
    }

    /// Back to the starter: the code, the failed runs, the progress and the
    /// last run forgotten, the reference hidden.
    pub fn reset(&mut self) -> Vec<Store> {
        self.code = self.starter.clone();
        self.fails = 0;
        self.reveal = false;
        self.last = None;
        vec![Store::ForgetCode, Store::ForgetFails, Store::ForgetProgress]
    }

    /// A shared link arrived: its code (or why it could not be read) is
    /// offered.
    pub fn offer(&mut self, offer: Offer) {
        self.offered = Some(offer);
    }

    /// Loads the offered code, keeping the reader's own for
    /// [`Panel::put_back`]; nothing when no code is on offer.
    pub fn load_offered(&mut self) -> Vec<Store> {
        let Some(Offer::Code(shared)) = self.offered.take() else {
            return Vec::new();
        };
        self.previous = Some(std::mem::replace(&mut self.code, shared.clone()));
        vec![Store::Code(shared)]
    }

    /// Drops the offer; the code stays as it is.
    pub fn dismiss_offer(&mut self) {
        self.offered = None;
    }

    /// Puts the reader's own code back after a shared one was loaded.
    pub fn put_back(&mut self) -> Vec<Store> {
        let Some(mine) = self.previous.take() else {
            return Vec::new();
        };
        self.code = mine.clone();
        vec![Store::Code(mine)]
    }

    /// Keeps the shared code: "Put mine back" goes away.
    pub fn keep_loaded(&mut self) {
        self.previous = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(status: Status) -> Verdict {
        let mut v = Verdict::no_case_ran("ch_x/y", 3, SolverError::Runtime("boom".into()));
        v.status = status;
        v
    }

    fn run(status: Status, alone: Option<usize>) -> Run {
        Run {
            verdict: verdict(status),
            printed: Vec::new(),
            ms: 1.0,
            alone,
        }
    }

    #[test]
    fn a_visit_starts_from_what_was_saved() {
        let p = Panel::new("starter", None, None, 2);
        assert_eq!((p.code.as_str(), p.fails), ("starter", 0));
        let p = Panel::new("starter", Some("mine".into()), Some(" 4 "), 2);
        assert_eq!((p.code.as_str(), p.fails), ("mine", 4));
        // Corrupt counts read as none.
        for bad in ["", "x", "-1", "1e3", "99999999999"] {
            assert_eq!(Panel::new("s", None, Some(bad), 0).fails, 0, "{bad}");
        }
    }

    /// The writes other than the verdict (checked on its own below).
    fn without_verdict(stores: Vec<Store>) -> Vec<Store> {
        stores
            .into_iter()
            .filter(|s| !matches!(s, Store::Verdict(_)))
            .collect()
    }

    #[test]
    fn a_whole_run_saves_its_receipt_with_the_code_it_graded() {
        let mut p = Panel::new("s", None, None, 0).with_content("fnv1a128:00ff");
        p.edit("sent".into());
        p.start(1);
        // Typing while the run is under way does not change what was graded.
        p.edit("typed after".into());
        let stores = p.finish(run(Status::Failed, None));
        let Some(Store::Verdict(json)) = stores.last() else {
            panic!("no verdict saved: {stores:?}");
        };
        let back: judge::Receipt = serde_json::from_str(json).expect("receipt JSON");
        assert_eq!(
            (
                back.judge.as_str(),
                back.content.as_str(),
                back.code.as_str()
            ),
            (judge::VERSION, "fnv1a128:00ff", "sent")
        );
        let v: Verdict = serde_json::from_value(back.verdict).expect("verdict JSON");
        assert_eq!(v, verdict(Status::Failed));
        p.start(2);
        let alone = p.finish(run(Status::Passed, Some(1)));
        assert!(
            alone.is_empty(),
            "a case run alone saves nothing: {alone:?}"
        );
    }

    #[test]
    fn whole_runs_count_and_runs_alone_do_not() {
        let mut p = Panel::new("s", None, None, 0);
        assert!(p.start(7));
        assert!(!p.start(8), "a second run waits for the first");
        assert_eq!(p.running, Some(7));
        assert_eq!(
            without_verdict(p.finish(run(Status::Failed, None))),
            [Store::Progress(Status::Failed), Store::Fails(1)]
        );
        assert_eq!((p.running, p.runs), (None, 1));
        assert!(p.finish(run(Status::Error, Some(2))).is_empty());
        assert_eq!((p.fails, p.runs), (1, 2));
        assert_eq!(p.last.as_ref().and_then(|r| r.alone), Some(2));
        assert_eq!(
            without_verdict(p.finish(run(Status::LimitExceeded, None))),
            [Store::Progress(Status::LimitExceeded), Store::Fails(2)]
        );
        assert_eq!(
            without_verdict(p.finish(run(Status::Passed, None))),
            [Store::Progress(Status::Passed)]
        );
        assert_eq!(
            without_verdict(p.finish(run(Status::NotAttempted, None))),
            [Store::Progress(Status::NotAttempted)]
        );
        assert_eq!(p.fails, 2);
    }

    #[test]
    fn a_run_without_verdict_is_a_verdict_on_no_case() {
        let mut p = Panel::new("s", None, None, 0);
        p.start(1);
        let stores =
            p.finish_without_verdict("ch_x/y", 5, SolverError::Limit("time".into()), 30.0, None);
        assert_eq!(
            without_verdict(stores),
            [Store::Progress(Status::LimitExceeded), Store::Fails(1)]
        );
        let last = p.last.expect("a run");
        assert_eq!((last.verdict.total, last.verdict.passed), (5, 0));
        assert_eq!(p.running, None);
    }

    #[test]
    fn the_reference_opens_after_a_pass_or_three_failed_runs() {
        let mut p = Panel::new("s", None, None, 0);
        assert!(!p.can_reveal(false));
        assert!(p.can_reveal(true));
        for _ in 0..REVEAL_AFTER_FAILS - 1 {
            p.finish(run(Status::Failed, None));
        }
        assert!(!p.can_reveal(false));
        p.finish(run(Status::Failed, None));
        assert!(p.can_reveal(false));
        p.show_reference();
        assert!(!p.can_reveal(false) && !p.can_reveal(true), "already shown");
    }

    #[test]
    fn hints_open_one_at_a_time_up_to_the_last() {
        let mut p = Panel::new("s", None, None, 2);
        assert!(!p.hints_done());
        p.next_hint();
        p.next_hint();
        p.next_hint();
        assert_eq!(p.hints_shown, 2);
        assert!(p.hints_done());
        assert!(Panel::new("s", None, None, 0).hints_done());
    }

    #[test]
    fn an_opened_known_mistake_counts_like_a_hint_once() {
        let mut p = Panel::new("s", None, None, 2);
        p.open_mistake();
        assert_eq!(p.help_used(), 0, "no run, no mistake to open");
        let mut r = run(Status::Failed, None);
        r.verdict.misconception = Some(judge::Misconception {
            id: "rounds_to_nearest".into(),
            text: "You rounded.".into(),
        });
        p.finish(r.clone());
        p.open_mistake();
        p.open_mistake();
        p.next_hint();
        assert_eq!((p.hints_shown, p.help_used()), (1, 2));
        assert_eq!(p.mistakes_opened, ["rounds_to_nearest"]);
        // The same mistake in a later run is not counted again; another is.
        p.finish(r);
        p.open_mistake();
        assert_eq!(p.help_used(), 2);
        let mut other = run(Status::Failed, None);
        other.verdict.misconception = Some(judge::Misconception {
            id: "floor".into(),
            text: "You floored.".into(),
        });
        p.finish(other);
        p.open_mistake();
        assert_eq!(p.help_used(), 3);
        // Hints are not shifted by it.
        assert_eq!(p.hints_shown, 1);
    }

    #[test]
    fn reset_goes_back_to_the_starter_and_forgets_the_rest() {
        let mut p = Panel::new("starter", Some("mine".into()), Some("5"), 1);
        p.finish(run(Status::Failed, None));
        p.show_reference();
        p.next_hint();
        assert_eq!(
            p.reset(),
            [Store::ForgetCode, Store::ForgetFails, Store::ForgetProgress]
        );
        assert_eq!((p.code.as_str(), p.fails, p.reveal), ("starter", 0, false));
        assert!(p.last.is_none());
        // Hints already read stay read; the run count is this visit's.
        assert_eq!((p.hints_shown, p.runs), (1, 1));
    }

    #[test]
    fn shared_code_is_offered_loaded_and_put_back() {
        let mut p = Panel::new("s", Some("mine".into()), None, 0);
        // Nothing on offer: loading does nothing.
        assert!(p.load_offered().is_empty());
        p.offer(Offer::Damaged("cut short".into()));
        assert!(p.load_offered().is_empty());
        assert_eq!(p.code, "mine");
        p.offer(Offer::Code("theirs".into()));
        assert_eq!(p.load_offered(), [Store::Code("theirs".into())]);
        assert_eq!((p.code.as_str(), p.offered.as_ref()), ("theirs", None));
        assert_eq!(p.previous.as_deref(), Some("mine"));
        assert_eq!(p.put_back(), [Store::Code("mine".into())]);
        assert_eq!((p.code.as_str(), p.previous.as_ref()), ("mine", None));
        assert!(p.put_back().is_empty());
        // Keeping the shared code drops the way back; dismissing keeps the code.
        p.offer(Offer::Code("theirs".into()));
        p.load_offered();
        p.keep_loaded();
        assert_eq!((p.code.as_str(), p.previous.as_ref()), ("theirs", None));
        p.offer(Offer::Code("other".into()));
        p.dismiss_offer();
        assert_eq!((p.code.as_str(), p.offered.as_ref()), ("theirs", None));
    }

    #[test]
    fn edits_are_saved_as_typed() {
        let mut p = Panel::new("s", None, None, 0);
        assert_eq!(p.edit("x = 1".into()), [Store::Code("x = 1".into())]);
        assert_eq!(p.code, "x = 1");
    }
}
