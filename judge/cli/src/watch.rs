//! `--watch`: grade now, then again after every change to the folder (file
//! system events from `notify`: saves, new, deleted, renamed and copied files).

use std::path::Path;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use judge::Lang;
use notify::{RecursiveMode, Watcher};

use crate::complain;
use crate::words::watch as w;

/// Quiet time after an event before grading (editors save in several steps).
const SETTLE: Duration = Duration::from_millis(200);

/// Calls `grade` now and after every change under `folder`, until Ctrl+C.
/// What it says is in `lang`.
pub fn watch(folder: &Path, lang: Lang, mut grade: impl FnMut(&Path)) -> ExitCode {
    let (tx, rx) = mpsc::channel();
    let mut watcher = match notify::recommended_watcher(tx) {
        Ok(w) => w,
        Err(error) => {
            complain(lang, &w::cannot_watch_here { error }.text(lang));
            return ExitCode::from(2);
        }
    };
    if let Err(error) = watcher.watch(folder, RecursiveMode::Recursive) {
        let folder = folder.display();
        complain(lang, &w::cannot_watch { folder, error }.text(lang));
        return ExitCode::from(2);
    }
    loop {
        out!("\x1b[2J\x1b[H");
        grade(folder);
        let folder_shown = folder.display();
        outln!(
            "\n{}",
            w::watching {
                folder: folder_shown
            }
            .text(lang)
        );
        // Wait for a change that concerns the learner's files, then for quiet.
        loop {
            match rx.recv() {
                Ok(Ok(ev)) if concerns_learner(&ev) => break,
                Ok(_) => {}
                Err(_) => return ExitCode::from(2),
            }
        }
        while rx.recv_timeout(SETTLE).is_ok() {}
    }
}

/// A change to a `.rhai`, `.rs` or `.toml` file, not to the build's output. Reads
/// (access events, which grading itself causes) are not changes.
fn concerns_learner(ev: &notify::Event) -> bool {
    !matches!(ev.kind, notify::EventKind::Access(_))
        && ev.paths.iter().any(|p| {
            !p.components().any(|c| c.as_os_str() == "target")
                && matches!(
                    p.extension().and_then(|e| e.to_str()),
                    Some("rhai" | "py" | "rs" | "toml")
                )
        })
}
