//! `cargo xtask serve`'s watch mode: when a source of the book changes (a
//! chapter's Markdown, a statement, a demo's code, the style, the page's
//! JavaScript), it builds again (`cargo xtask build`, which recompiles only
//! what the change touches) and the open pages reload themselves; a failed
//! build shows its error in the page as well as in the terminal.
//!
//! The pages learn of a build through `GET /__book/changes?since=<n>`
//! ([`answer`]), which waits until build `n` is superseded and answers with the
//! newest build's number and its error, if any. `serve.rs` puts [`SCRIPT`]
//! into every page it serves while watching; the published site has neither.

use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

/// The newest build: its number and, when it failed, what it printed last.
#[derive(Clone, Default)]
struct Build {
    n: u64,
    error: Option<String>,
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
    box.textContent = "cargo xtask build failed; the page shows the last good build.\n\n" + error;
  }
  function poll() {
    fetch("/__book/changes?since=" + (seen === null ? "" : seen), { cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (b) {
        if (seen !== null && b.n !== seen && !b.error) { location.reload(); return; }
        seen = b.n;
        if (b.error) show(b.error); else if (box) { box.remove(); box = null; }
        poll();
      })
      .catch(function () { setTimeout(poll, 1000); });
  }
  poll();
})();
</script>"#;

/// Answers `/__book/changes?since=<n>`: at once when `n` is missing or not
/// the newest build, else when the next build ends (or after 25 s, as a
/// keep-alive). JSON: `{"n": <newest>, "error": <text or null>}`.
pub fn answer(query: &str) -> String {
    let since = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("since="))
        .and_then(|v| v.parse::<u64>().ok());
    let s = state();
    let mut build = s.build.lock().unwrap_or_else(|e| e.into_inner());
    if since == Some(build.n) {
        build = s
            .changed
            .wait_timeout_while(build, Duration::from_secs(25), |b| Some(b.n) == since)
            .map(|(b, _)| b)
            .unwrap_or_else(|e| e.into_inner().0);
    }
    let error = build
        .error
        .as_deref()
        .map_or("null".to_owned(), json_string);
    format!("{{\"n\":{},\"error\":{error}}}", build.n)
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// What is watched, under the workspace root: everything a build reads that
/// an author edits.
const WATCHED: &[&str] = &[
    "chapters/SUMMARY.md",
    "chapters/glossary.toml",
    "chapters/src",
    "exercises/src",
    "judge",
    "app/src",
    "app/locales",
    "app/worker",
    "app/worker.js",
    "editor",
    "style",
    "web",
    "index.html",
];

/// The newest modification time under the watched paths, and how many files
/// they hold (a deleted file changes the count).
fn fingerprint(root: &Path) -> (SystemTime, usize) {
    let mut newest = SystemTime::UNIX_EPOCH;
    let mut count = 0;
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
            count += 1;
            if let Ok(t) = meta.modified() {
                newest = newest.max(t);
            }
        }
    }
    (newest, count)
}

/// Watches the sources in a background thread; after each change (and a
/// quiet 150 ms, so that an editor's save of several files is one build)
/// runs `cargo xtask build` and tells the pages.
pub fn start() {
    let _ = WATCHING.set(());
    std::thread::spawn(|| {
        let root = crate::root();
        let mut last = fingerprint(&root);
        loop {
            std::thread::sleep(Duration::from_millis(300));
            let now = fingerprint(&root);
            if now == last {
                continue;
            }
            std::thread::sleep(Duration::from_millis(150));
            last = fingerprint(&root);
            let started = std::time::Instant::now();
            println!("\nwatch: a source changed; building again");
            let error = build(&root);
            match &error {
                None => println!(
                    "watch: built in {:.1} s; open pages reload",
                    started.elapsed().as_secs_f64()
                ),
                Some(_) => println!("watch: the build failed; open pages show its error"),
            }
            let s = state();
            let mut b = s.build.lock().unwrap_or_else(|e| e.into_inner());
            b.n += 1;
            b.error = error;
            s.changed.notify_all();
            // A change saved during the build is seen on the next turn.
        }
    });
}

/// Runs `cargo xtask build`, its output shown in the terminal; on failure,
/// the last 60 lines it printed.
fn build(root: &Path) -> Option<String> {
    let out = std::process::Command::new("cargo")
        .args(["xtask", "build"])
        .current_dir(root)
        .output();
    match out {
        Err(e) => Some(format!("cargo xtask build: {e}")),
        Ok(o) => {
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
            print!("{text}");
            if o.status.success() {
                None
            } else {
                let lines: Vec<&str> = text.lines().collect();
                Some(lines[lines.len().saturating_sub(60)..].join("\n"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_at_once_for_an_old_build_and_escapes_errors() {
        {
            let mut b = state().build.lock().unwrap();
            b.n = 3;
            b.error = Some("line \"1\"\n\tthen".to_owned());
        }
        assert_eq!(
            answer("since=2"),
            r#"{"n":3,"error":"line \"1\"\nthen"}"#.replace("\\nthen", "\\n\\u0009then")
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
        assert_eq!(waiter.join().unwrap(), r#"{"n":4,"error":null}"#);
    }
}
