//! `cargo xtask serve`'s watch mode: when a source of the book changes, the
//! open pages reload themselves with it. A chapter's Markdown, the style, the
//! template and the search script are rendered again in this process (no
//! compiler); anything else (a statement, a demo's code, a figure) runs
//! `cargo xtask build`, which recompiles only what the change touches. A
//! failure shows in the page as well as in the terminal.
//!
//! The pages learn of a build through `GET /__book/changes?since=<n>`
//! ([`answer`]), which waits until build `n` is superseded and answers with the
//! newest build's number and its error, if any. `serve.rs` puts [`SCRIPT`]
//! into every page it serves while watching; the published site has neither.

use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

/// The newest build: its number and, when it failed, what it printed last;
/// and whether a `cargo xtask build` runs now (the pages say so).
#[derive(Clone, Default)]
struct Build {
    n: u64,
    error: Option<String>,
    building: bool,
}

struct State {
    build: Mutex<Build>,
    changed: Condvar,
}

fn state() -> &'static State {
    static STATE: OnceLock<State> = OnceLock::new();
    STATE.get_or_init(|| State {
        build: Mutex::new(Build::default()),
        changed: Condvar::new(),
    })
}

static WATCHING: OnceLock<()> = OnceLock::new();

/// Whether this process watches (pages then get [`SCRIPT`]).
pub fn watching() -> bool {
    WATCHING.get().is_some()
}

/// What the pages run while the server watches: wait for the next build,
/// then reload, or show its error over the page until the one after.
pub const SCRIPT: &str = r#"<script>
(function () {
  var seen = null, box = null;
  function show(error) {
    if (!box) {
      box = document.createElement("pre");
      box.setAttribute("role", "alert");
      box.style.cssText = "position:fixed;inset:auto 0 0 0;max-height:60vh;overflow:auto;margin:0;padding:1em;z-index:99;background:#2b0b0b;color:#ffd7d7;font:13px/1.4 ui-monospace,monospace;white-space:pre-wrap;border-top:3px solid #e5484d";
      document.body.appendChild(box);
    }
    box.textContent = "The build failed; this page is the last good one.\n\n" + error;
  }
  var note = null;
  function building(on) {
    if (on && !note) {
      note = document.createElement("p");
      note.setAttribute("role", "status");
      note.style.cssText = "position:fixed;inset:auto 0 0 0;margin:0;padding:.6em 1em;z-index:98;background:#10243e;color:#d6e8ff;font:13px/1.4 system-ui,sans-serif;border-top:3px solid #3e8ee5";
      note.textContent = "Building the book's code (cells, exercises, the app); this page reloads when it is ready. A first build on a machine takes minutes: the text can be read meanwhile.";
      document.body.appendChild(note);
    } else if (!on && note) { note.remove(); note = null; }
  }
  function poll() {
    fetch("/__book/changes?since=" + (seen === null ? "" : seen), { cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (b) {
        if (seen !== null && b.n !== seen && !b.error) { location.reload(); return; }
        seen = b.n;
        building(b.building);
        if (b.error) show(b.error); else if (box) { box.remove(); box = null; }
        poll();
      })
      .catch(function () { setTimeout(poll, 1000); });
  }
  poll();
})();
</script>"#;

/// The service worker served while watching: it takes over, empties the
/// book's caches and unregisters, so that every page comes from `dist/`.
pub const NO_WORKER: &str = "self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(caches.keys()
  .then((keys) => Promise.all(keys.map((k) => caches.delete(k))))
  .then(() => self.registration.unregister())));
";

/// Answers `/__book/changes?since=<n>`: at once when `n` is missing or not
/// the newest build, else when the next build starts or ends (or after 25 s,
/// as a keep-alive). JSON: `{"n": <newest>, "error": <text or null>,
/// "building": <whether a cargo build runs>}`.
pub fn answer(query: &str) -> String {
    let since = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("since="))
        .and_then(|v| v.parse::<u64>().ok());
    let s = state();
    let mut build = s.build.lock().unwrap_or_else(|e| e.into_inner());
    if since == Some(build.n) {
        let was = build.building;
        build = s
            .changed
            .wait_timeout_while(build, Duration::from_secs(25), |b| {
                Some(b.n) == since && b.building == was
            })
            .map(|(b, _)| b)
            .unwrap_or_else(|e| e.into_inner().0);
    }
    let error = serde_json::to_string(&build.error).unwrap_or_else(|_| "null".to_owned());
    format!(
        "{{\"n\":{},\"error\":{error},\"building\":{}}}",
        build.n, build.building
    )
}

/// What is watched, under the workspace root: everything a build reads that
/// an author edits.
const WATCHED: &[&str] = &[
    "chapters/SUMMARY.md",
    "chapters/glossary.toml",
    "chapters/guide",
    "chapters/src",
    "lang/src",
    "catalog/src",
    "exercises/src",
    "judge",
    "app/src",
    "app/locales",
    "app/worker",
    "app/worker.js",
    "editor",
    "xtask/src",
    "style",
    "web",
    "index.html",
];

/// Every file under the watched paths, with its modification time.
type Files = std::collections::BTreeMap<PathBuf, SystemTime>;

fn files(root: &Path) -> Files {
    let mut out = Files::new();
    let mut stack: Vec<PathBuf> = WATCHED.iter().map(|p| root.join(p)).collect();
    while let Some(p) = stack.pop() {
        let Ok(meta) = std::fs::metadata(&p) else {
            continue;
        };
        if meta.is_dir() {
            if p.file_name()
                .is_some_and(|n| n == "target" || n == "node_modules")
            {
                continue;
            }
            if let Ok(entries) = std::fs::read_dir(&p) {
                stack.extend(entries.flatten().map(|e| e.path()));
            }
        } else {
            out.insert(p, meta.modified().unwrap_or(SystemTime::UNIX_EPOCH));
        }
    }
    out
}

/// The files added, removed or modified between two looks.
fn changed(before: &Files, now: &Files) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = now
        .iter()
        .filter(|(p, t)| before.get(*p) != Some(t))
        .map(|(p, _)| p.clone())
        .collect();
    out.extend(before.keys().filter(|p| !now.contains_key(*p)).cloned());
    out
}

/// Whether this process can take the change itself, without compiling: a
/// chapter's Markdown, the style, the page template, the search script.
/// Anything else (code, statements, figures, texts compiled in) is a build.
fn is_content(root: &Path, file: &Path) -> bool {
    let Ok(rel) = file.strip_prefix(root) else {
        return false;
    };
    let rel = rel.to_string_lossy().replace('\\', "/");
    let name = rel.rsplit('/').next().unwrap_or("");
    (rel.starts_with("chapters/src/")
        && rel.matches('/').count() == 3
        && matches!(name, "chapter.md" | "chapter.zh.md"))
        || rel.starts_with("style/")
        || rel == "index.html"
        || rel == "web/page.js"
        || rel == "web/search.js"
}

/// Watches the sources in a background thread. After each change (and a
/// quiet 150 ms, so that an editor's save of several files is one change):
/// a change of content only is rendered here, in a second or two, and the
/// pages reload; anything else runs `cargo xtask build`, and when that
/// rebuilt this program, the server starts again as the new one (the pages
/// reconnect and reload). With `build_first`, the thread starts with such a
/// build: the server answers with the pages the caller rendered while the
/// modules compile (minutes on a fresh machine), and they reload once built.
pub fn start(port: u16, build_first: bool) {
    let _ = WATCHING.set(());
    {
        // A number the next server (after a rebuild of this program) will not
        // reuse, so the pages see that something changed.
        let mut b = state().build.lock().unwrap_or_else(|e| e.into_inner());
        b.n = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
    }
    std::thread::spawn(move || {
        let root = crate::root();
        let mut last = files(&root);
        let program = program_time(&root);
        if !build_first {
            // Renders every page once (written nowhere), so that even the
            // first edit renders with the cells and exercises made
            // (`render.rs`, `once_per_program`); with `build_first` the
            // caller has just rendered them.
            let _ = crate::render::pages();
        }
        let mut first = build_first;
        loop {
            // The first build, or the next change: a look every 100 ms (a
            // stat of each of some 400 files: a few milliseconds), then 100
            // ms more for an editor that writes a file in several steps to
            // finish.
            let initial = std::mem::take(&mut first);
            let content = if initial {
                println!(
                    "\nwatch: building the modules; the open pages reload when they are ready"
                );
                false
            } else {
                std::thread::sleep(Duration::from_millis(100));
                if files(&root) == last {
                    continue;
                }
                std::thread::sleep(Duration::from_millis(100));
                let now = files(&root);
                let touched = changed(&last, &now);
                last = now;
                touched.iter().all(|f| is_content(&root, f))
            };
            let started = std::time::Instant::now();
            let error = if content {
                println!("\nwatch: content changed; rendering again");
                render(&root)
            } else {
                if !initial {
                    println!("\nwatch: a source changed; building again");
                }
                build_in_view(&root)
            };
            match &error {
                None => println!(
                    "watch: done in {:.1} s; open pages reload",
                    started.elapsed().as_secs_f64()
                ),
                Some(_) => println!("watch: that failed; open pages show why"),
            }
            if error.is_none() && !content && program_time(&root) != program {
                println!("watch: this program was rebuilt; serving as the new one");
                restart(port);
            }
            finish(error);
        }
    });
}

/// Sets whether a build runs, and tells the waiting pages.
fn set_building(on: bool) {
    let s = state();
    s.build.lock().unwrap_or_else(|e| e.into_inner()).building = on;
    s.changed.notify_all();
}

/// [`build`], with the pages told while it runs.
fn build_in_view(root: &Path) -> Option<String> {
    set_building(true);
    build(root)
}

/// A build or render ended: the next number, its error, and the pages told.
fn finish(error: Option<String>) {
    let s = state();
    let mut b = s.build.lock().unwrap_or_else(|e| e.into_inner());
    b.n += 1;
    b.building = false;
    b.error = error;
    s.changed.notify_all();
}

/// The rendering part of a build, in this process: the chapters' Markdown read
/// again from their files, the pages, the style and the search script.
fn render(root: &Path) -> Option<String> {
    for ch in chapters::all() {
        for lang in [chapters::Lang::En, chapters::Lang::Zh] {
            if let Ok(text) =
                std::fs::read_to_string(root.join(crate::render::repo_path(&ch, lang)))
            {
                chapters::set_source(ch.id, lang, text);
            }
        }
    }
    crate::site::write_content(&root.join("dist")).err()
}

/// When the xtask binary was last built.
fn program_time(root: &Path) -> Option<SystemTime> {
    std::fs::metadata(root.join("target/debug/xtask"))
        .and_then(|m| m.modified())
        .ok()
}

/// Becomes `cargo xtask serve --no-build --port <port>` (and `--release` if
/// this one was): the same server, run by the program just rebuilt.
fn restart(port: u16) {
    use std::os::unix::process::CommandExt;
    let e = std::process::Command::new("cargo")
        .args(["xtask", "serve", "--no-build", "--port", &port.to_string()])
        .args((!crate::site::is_fast()).then_some("--release"))
        .current_dir(crate::root())
        .exec();
    eprintln!("watch: could not start the rebuilt server: {e}");
}

/// Runs `cargo xtask build` (`--fast` if this server's build was), its output
/// shown in the terminal; on failure, the last 60 lines it printed.
fn build(root: &Path) -> Option<String> {
    let out = crate::run_shown(
        std::process::Command::new("cargo")
            .args(["xtask", "build"])
            .args(crate::site::is_fast().then_some("--fast"))
            .current_dir(root),
    );
    let text = out.err()?;
    let lines: Vec<&str> = text.lines().collect();
    Some(lines[lines.len().saturating_sub(60)..].join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_is_rendered_here_and_code_is_built() {
        let root = Path::new("/book");
        for f in [
            "chapters/src/ch_deploy/chapter.md",
            "chapters/src/ch_deploy/chapter.zh.md",
            "style/book.css",
            "index.html",
            "web/page.js",
            "web/search.js",
        ] {
            assert!(is_content(root, &root.join(f)), "{f}");
        }
        for f in [
            "chapters/src/ch_deploy/planner.rs",
            "chapters/src/ch_deploy/figures.rs",
            "chapters/src/ch_deploy/cells.en.toml",
            "chapters/src/ch_deploy/cells.zh.toml",
            "chapters/src/ch_deploy/exercises/ep_row/statement.md",
            "chapters/glossary.toml",
            "web/sw.js",
            "app/src/cell.rs",
        ] {
            assert!(!is_content(root, &root.join(f)), "{f}");
        }
    }

    #[test]
    fn changes_are_files_added_removed_or_modified() {
        let t = |s| SystemTime::UNIX_EPOCH + Duration::from_secs(s);
        let before: Files = [("a", 1), ("b", 1), ("c", 1)]
            .into_iter()
            .map(|(p, s)| (PathBuf::from(p), t(s)))
            .collect();
        let now: Files = [("a", 1), ("b", 2), ("d", 1)]
            .into_iter()
            .map(|(p, s)| (PathBuf::from(p), t(s)))
            .collect();
        let mut got = changed(&before, &now);
        got.sort();
        assert_eq!(got, ["b", "c", "d"].map(PathBuf::from));
    }

    #[test]
    fn answers_at_once_for_an_old_build_and_escapes_errors() {
        {
            let mut b = state().build.lock().unwrap();
            b.n = 3;
            b.error = Some("line \"1\"\n\tthen".to_owned());
        }
        assert_eq!(
            answer("since=2"),
            r#"{"n":3,"error":"line \"1\"\n\tthen","building":false}"#
        );
        assert!(answer("").starts_with(r#"{"n":3,"#));
        // A waiting page is answered when the next build ends.
        let waiter = std::thread::spawn(|| answer("since=3"));
        std::thread::sleep(Duration::from_millis(50));
        {
            let mut b = state().build.lock().unwrap();
            b.n = 4;
            b.error = None;
            state().changed.notify_all();
        }
        assert_eq!(
            waiter.join().unwrap(),
            r#"{"n":4,"error":null,"building":false}"#
        );
        // A page waiting on build 4 hears when a cargo build starts, and
        // again when it ends.
        let answered_after = |change: fn()| {
            let waiter = std::thread::spawn(|| answer("since=4"));
            std::thread::sleep(Duration::from_millis(50));
            change();
            waiter.join().unwrap()
        };
        assert_eq!(
            answered_after(|| set_building(true)),
            r#"{"n":4,"error":null,"building":true}"#
        );
        assert_eq!(
            answered_after(|| finish(None)),
            r#"{"n":5,"error":null,"building":false}"#
        );
    }
}
