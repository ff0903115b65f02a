//! Build, serve and test the Inference Handbook with nothing but cargo, npm and
//! Debian packages.
//!
//! - `cargo xtask serve [--port N]`: install missing tools, build the release
//!   site into `dist/`, serve it on http://127.0.0.1:8080 (SPA fallback).
//! - `cargo xtask test`: install missing tools, then fmt, docs, native tests
//!   (compiled by clippy's driver, so linted as they build), wasm tests in
//!   headless Chromium, the release build (its wasm32 code linted the same way)
//!   with its size budget, and the end-to-end tests.
//! - `cargo xtask e2e [--busy]`: just the end-to-end suites, on the `dist/`
//!   there is (with `--busy`, while a busy loop keeps one core occupied).
//! - `cargo xtask build`: just the release site.
//! - `cargo xtask bench`: print page weight and timings (not a test).
//! - `cargo xtask notebooks [FILE…]`: check the chapters' notebooks in
//!   `dist/nb/` (or the files given): nbformat schema, code built and run.
//!
//! Every install step checks first and is skipped when the right version is there.

mod compress;
mod r#gen;
mod manifest;
mod nginx;
mod notebook;
mod offline;
mod render;
mod search;
mod serve;
mod site;
mod tools;
mod watch;

use std::path::PathBuf;
use std::process::{Command, ExitCode};

use clap::{Parser, Subcommand};

/// Build, serve, test and benchmark the Inference Handbook.
#[derive(Parser)]
#[command(name = "xtask", bin_name = "cargo xtask", version)]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Install missing tools, build the site into `dist/` and serve it.
    Serve {
        /// The port on 127.0.0.1.
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Serve with Debian's nginx and the README's block
        /// (`web/nginx.conf`) instead, as a static host would.
        #[arg(long)]
        nginx: bool,
        /// Serve what `dist/` holds now, without building it first.
        #[arg(long)]
        no_build: bool,
        /// Do not build again when a source changes (by default the book's
        /// own server watches, rebuilds and reloads the open pages).
        #[arg(long)]
        no_watch: bool,
        /// Build the release profile (small, fast modules; what `build` and
        /// the tests make) instead of the `serve` profile, in which an edit
        /// to a demo recompiles in seconds.
        #[arg(long)]
        release: bool,
    },
    /// Install missing tools, then run every test (what CI runs).
    Test,
    /// Run the end-to-end suites alone, against the `dist/` there is (the
    /// last step of `test`).
    E2e {
        /// Keep one core busy meanwhile (a bounded loop this task starts and
        /// stops), as a loaded machine would: the suites must hold.
        #[arg(long)]
        busy: bool,
    },
    /// Build the release site into `dist/` and print its sizes.
    Build {
        /// Build the modules in the `serve` profile, as `serve` does.
        #[arg(long)]
        fast: bool,
    },
    /// Build the site, then print page weight and browser timings (not a test).
    Bench,
    /// Install the tools the build and the tests need, and nothing else.
    Setup,
    /// Write the files derived from the content (practice folders, README tables).
    Gen,
    /// Check the chapters' notebooks (`dist/nb/`, or the files given): the
    /// nbformat schema, then their code built and run.
    Notebooks {
        /// Notebook files to check instead of `dist/nb/*.ipynb`.
        files: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    let result = match Cli::parse().task {
        Task::Serve {
            port,
            nginx,
            no_build,
            no_watch,
            release,
        } => serve_cmd(port, nginx, no_build, !no_watch, release),
        Task::Build { fast } => {
            if fast {
                site::fast();
            }
            tools::ensure_build_tools_meanwhile()
                .and_then(|()| site::site())
                .map(|_| ())
        }
        Task::Test => test_cmd(),
        Task::E2e { busy } => tools::ensure_all().and_then(|()| e2e_cmd(busy)),
        Task::Bench => tools::ensure_all()
            .and_then(|()| site::site())
            .and_then(|_| bench_cmd()),
        Task::Setup => tools::ensure_all(),
        Task::Gen => r#gen::generate(),
        Task::Notebooks { files } if !files.is_empty() => notebook::check_files(&files),
        Task::Notebooks { .. } => notebook::check(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("\nxtask: {e}");
            ExitCode::FAILURE
        }
    }
}

fn serve_cmd(
    port: u16,
    with_nginx: bool,
    no_build: bool,
    watch: bool,
    release: bool,
) -> Result<(), String> {
    if !release {
        site::fast();
    }
    // Watching, in the serve profile: the book is served as soon as its pages
    // are rendered (the xtask alone, no wasm target or npm needed), and the
    // modules build in the background; the open pages say so and reload when
    // they are ready. A fresh machine reads the text minutes earlier.
    let text_first = !no_build && watch && !release && !with_nginx;
    if text_first {
        let t0 = std::time::Instant::now();
        site::write_content(&root().join("dist"))?;
        println!(
            "rendered the pages in {:.1} s; the modules build while the book is served",
            t0.elapsed().as_secs_f64()
        );
    } else if !no_build {
        let t0 = std::time::Instant::now();
        tools::ensure_build_tools_meanwhile()?;
        site::site()?;
        println!(
            "\nbuilt in {:.0} s{}",
            t0.elapsed().as_secs_f64(),
            if release {
                ""
            } else {
                " (the serve profile: `--release` for the release build)"
            }
        );
    }
    if with_nginx {
        let _nginx = nginx::Nginx::start_on(&root().join("dist"), port)?;
        println!("(Ctrl+C to stop)");
        loop {
            std::thread::park();
        }
    }
    if watch {
        watch::start(port, text_first);
        println!("watching the sources: a change builds again and reloads the open pages");
    }
    println!("serving dist/ on http://127.0.0.1:{port}/ (Ctrl+C to stop)");
    serve::serve(port, true)
}

/// Runs a command from the workspace root; fails with its name when it fails.
pub fn run(cmd: &mut Command) -> Result<(), String> {
    let shown = format!("{cmd:?}").replace('"', "");
    println!("\n$ {shown}");
    let status = cmd
        .current_dir(root())
        .status()
        .map_err(|e| format!("{shown}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("failed: {shown} ({status})"))
    }
}

/// Runs a command from the workspace root and returns what it printed
/// (standard output, then standard error), which it also prints once the
/// command ends; `Err` with the same text when it fails or cannot start.
pub fn run_shown(cmd: &mut Command) -> Result<String, String> {
    let out = cmd
        .current_dir(root())
        .output()
        .map_err(|e| format!("{cmd:?}: {e}"))?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    print!("{text}");
    if out.status.success() {
        Ok(text)
    } else {
        Err(text)
    }
}

/// The workspace root.
pub fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(|p| p.to_path_buf())
        .unwrap_or_default()
}

/// Prints a step's heading with the time since the first step began, so a
/// slow step shows in the log.
fn step(name: &str) {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    let t = START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs();
    let free = free_gb().map_or(String::new(), |gb| format!(", {gb:.1} GB free"));
    println!("\n=== {name} [at {}:{:02}{free}] ===", t / 60, t % 60);
}

/// Free space, in GB, on the disk that holds `target/` (`df`'s answer), or
/// `None` where `df` does not answer. A full disk fails a build with a
/// message about an archive or a linker; the step headings say when it
/// filled.
fn free_gb() -> Option<f64> {
    let out = Command::new("df").args(["-Pk"]).arg(root()).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let kib: f64 = text
        .lines()
        .nth(1)?
        .split_whitespace()
        .nth(3)?
        .parse()
        .ok()?;
    Some(kib / 1024.0 / 1024.0)
}

/// What a run of `cargo xtask test` on a fresh clone leaves under
/// `target/`, in GB (6.2 at `05d9809`: `du -sh target` after `.ci/run`).
const TEST_DISK_GB: f64 = 7.0;

/// Makes `cmd` (a cargo build) compile the selected workspace crates with
/// clippy's driver, as `cargo clippy` does, with every warning denied; their
/// dependencies compile as usual. One compile then both lints and builds.
pub fn clippy_env(cmd: &mut Command) -> Result<(), String> {
    let sysroot = std::process::Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .map_err(|e| format!("rustc --print sysroot: {e}"))?;
    let driver = std::path::PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim())
        .join("bin/clippy-driver");
    if !driver.exists() {
        return Err(format!(
            "{} is missing: rustup component add clippy",
            driver.display()
        ));
    }
    cmd.env("RUSTC_WORKSPACE_WRAPPER", driver).env(
        "CLIPPY_ARGS",
        "-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__",
    );
    Ok(())
}

fn test_cmd() -> Result<(), String> {
    let t0 = std::time::Instant::now();
    step("install missing tools");
    if let Some(gb) = free_gb()
        && gb < TEST_DISK_GB
    {
        println!(
            "warning: {gb:.1} GB free on the disk of target/; a run from a fresh clone writes about {TEST_DISK_GB} GB there"
        );
    }
    tools::ensure_all()?;
    step("format");
    run(Command::new("cargo").args(["fmt", "--all", "--check"]))?;
    // The app's two wasm32 cdylibs (the page's, `app`, and the workers',
    // `app-worker`) are compiled (and linted) for wasm32 by the release build
    // below, and nothing of them is tested natively (what the page keeps is
    // plain data, tested in the `saved` crate; what the workers serve is
    // `exercises::jobs`, tested natively and by the wasm tests). Leaving them
    // out of the native steps leaves out leptos and the rest of their
    // dependency tree, which were more than half of their compile time
    // (`cargo test --timings`).
    let wasm_only = site::MODULES.map(|(package, ..)| ["--exclude", package]);
    step("docs");
    run(Command::new("cargo")
        .args(["doc", "--workspace", "--no-deps"])
        .args(wasm_only.as_flattened())
        .env("RUSTDOCFLAGS", "-D warnings"))?;
    // Clippy runs as the compiler of the workspace's own crates in the builds
    // the tests need anyway (native tests, then the wasm32 release build), so
    // the dependency tree is not compiled a third and fourth time just to be
    // checked. Warnings, rustc's and clippy's, fail the build.
    step("native tests, linted by clippy as they compile");
    let mut test = Command::new("cargo");
    test.args(["test", "--workspace"])
        .args(wasm_only.as_flattened());
    clippy_env(&mut test)?;
    run(&mut test)?;
    step("practice crates build (starters compile)");
    // One target directory for every chapter's folder (each is its own package,
    // so nothing of one stands in for another): the harness's dependencies
    // compile once, not once per chapter.
    for ch in r#gen::chapters() {
        run(Command::new("cargo")
            .args([
                "build",
                "--manifest-path",
                &format!("practice/{ch}/Cargo.toml"),
            ])
            .env("CARGO_TARGET_DIR", root().join("target/practice-starters")))?;
    }
    step("wasm tests in headless Chromium");
    run(Command::new("cargo")
        .args([
            "test",
            "--target",
            "wasm32-unknown-unknown",
            "-p",
            "exercises",
            // What the page's wasm has: grading and the demos, without the
            // build-time Markdown, LaTeX and highlighting crates (`render`).
            "--no-default-features",
            "--features",
            "script",
            "--test",
            "web",
        ])
        .env("CHROMEDRIVER", "/usr/bin/chromedriver")
        .env("WASM_BINDGEN_TEST_TIMEOUT", "300"))?;
    step("release build (its wasm32 code linted by clippy) and size budget");
    let sizes = site::site_linted(true)?;
    site::check_budget(&sizes)?;
    step("notebooks: the nbformat schema, and their code built and run against the native demos");
    notebook::check()?;
    e2e()?;
    println!("\nall tests passed in {:.0} s", t0.elapsed().as_secs_f64());
    Ok(())
}

/// `cargo xtask e2e [--busy]`: the end-to-end suites on the `dist/` there is.
fn e2e_cmd(busy: bool) -> Result<(), String> {
    if !root().join("dist/index.html").exists() {
        return Err("dist/ has no book: run `cargo xtask build` first".into());
    }
    let t0 = std::time::Instant::now();
    let load = busy.then(busy_core).transpose()?;
    let result = e2e();
    if let Some(mut child) = load {
        let _ = child.kill();
        let _ = child.wait();
    }
    result?;
    println!(
        "\nend-to-end suites passed in {:.0} s{}",
        t0.elapsed().as_secs_f64(),
        if busy { ", one core kept busy" } else { "" }
    );
    Ok(())
}

/// A loop that keeps one core busy for at most 40 minutes (so that it ends
/// even if this process is killed), killed by the caller when the suites end.
fn busy_core() -> Result<std::process::Child, String> {
    println!("a busy loop keeps one core occupied while the suites run");
    Command::new("node")
        .args([
            "-e",
            "const end = Date.now() + 40 * 60e3; let x = 0; while (Date.now() < end) x = (x * 31 + 7) % 1e9;",
        ])
        .spawn()
        .map_err(|e| format!("node (busy loop): {e}"))
}

/// The end-to-end suites in headless Chromium, against `dist/`.
fn e2e() -> Result<(), String> {
    step("end-to-end tests in headless Chromium");
    // Two servers of the same dist/: the xtask's own, and nginx configured as
    // the README's "Publishing" section shows (web/nginx.conf). The suites
    // whose outcome depends on how a host answers (redirects, encodings,
    // caching, the service worker) run against nginx; `hosts` runs against
    // both and holds each one's answers to the other's.
    let port = serve::spawn_background()?;
    let nginx = nginx::Nginx::start(&root().join("dist"))?;
    let own = format!("http://127.0.0.1:{port}");
    let host = format!("http://127.0.0.1:{}", nginx.port);
    let suites: [(&str, &str, &str); 15] = [
        ("reader", &own, ""),
        ("book", &own, ""),
        ("charts", &own, ""),
        ("touch", &own, ""),
        ("drawn", &own, ""),
        ("storage", &own, ""),
        ("notebook", &own, ""),
        ("hosts", &own, ""),
        ("hosts", &host, &own),
        ("hostile", &host, ""),
        ("links", &host, ""),
        ("zh", &host, ""),
        ("offline", &host, ""),
        // Python answers: Pyodide's files as a static host sends them.
        ("python", &host, ""),
        // Last: it runs `cargo xtask serve` (watching), which writes dist/'s
        // pages and style again.
        ("watch", "", ""),
    ];
    for (suite, url, compare) in suites {
        run(Command::new("node")
            .arg(format!("e2e/{suite}.mjs"))
            .env("BOOK_URL", url)
            .env("COMPARE_URL", compare))?;
    }
    drop(nginx);
    Ok(())
}

/// `judge class` on a synthetic class of 200 learners (correct, known-wrong
/// and starter solutions, Rhai and Python, four hostile learners) at
/// `--jobs 1` and `--jobs 2`: wall time and learners per second
/// (`judge/cli/examples/class_bench.rs`), built in the native bench's profile.
fn class_bench() -> Result<(), String> {
    let profile = site::MODULES[1].2;
    run(Command::new("cargo").args([
        "build",
        "--quiet",
        "--profile",
        profile,
        "-p",
        "judge-cli",
        "--bin",
        "judge",
        "--example",
        "class_bench",
    ]))?;
    let dir = root().join("target").join(profile);
    run(Command::new(dir.join("examples/class_bench")).arg(dir.join("judge")))
        .map_err(|_| "the class bench failed".to_owned())
}

/// After `site::site()` has built `dist/` and printed its sizes: native and
/// browser timings.
fn bench_cmd() -> Result<(), String> {
    // The native times, printed; the browser bench runs the same binary
    // again (`--cells`) between its own rounds, for each cell's
    // browser/native ratio.
    run(Command::new("cargo").args([
        "run",
        "--quiet",
        // The workers' module's profile: the same code, built the same way.
        "--profile",
        site::MODULES[1].2,
        "-p",
        "exercises",
        "--example",
        "bench",
    ]))
    .map_err(|_| "the native bench failed".to_owned())?;
    let native = root().join(format!("target/{}/examples/bench", site::MODULES[1].2));
    class_bench()?;
    // The bench loads the book from nginx, as a reader's browser would get it
    // from a static host (precompressed, with its cache headers).
    let nginx = nginx::Nginx::start(&root().join("dist"))?;
    let url = format!("http://127.0.0.1:{}", nginx.port);
    run(Command::new("node")
        .arg("e2e/bench.mjs")
        .env("BOOK_URL", &url)
        .env("NATIVE_BENCH", &native))?;
    // Lighthouse, every chapter in both languages, mobile and desktop.
    run(Command::new("node")
        .arg("e2e/lighthouse.mjs")
        .env("BOOK_URL", &url))
}
