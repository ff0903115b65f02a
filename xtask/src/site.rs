//! The release site: cargo build → wasm-bindgen → wasm-opt → dist/.

use std::path::Path;
use std::process::Command;

use crate::{root, run};

/// Gzip budget for what a page loads to paint and mount: the page's module
/// (`pkg/app_bg.wasm`) and its JS glue, in bytes.
///
/// History: the first measurement (665,287 B: wasm 656,937 + JS 8,350) plus 25%
/// gave 831,609 B. Moving cells, grading and scratch into a Web Worker, storage
/// migration, the demos' budget checks and the judge's new limits brought it to
/// 923,441 B. Rendering the pages at build time (no Markdown, LaTeX or
/// highlighter in the wasm, no chapter, demo or reference sources, no
/// statements), rhai without its optimizer and leptos_router gone brought it
/// to 641,904 B. The `plotly` crate's typed figures then added about 77 KB, and
/// the book's second and third chapters (eleven cells, fourteen exercises,
/// twenty-two scripting functions) brought it to 844,113 B, then 941,619 B
/// with both languages' texts: one module for the page and its workers.
/// Splitting off the workers' module (demos, cases, references, the judge's
/// sandbox, Rhai) left the page's module at 420,965 B (wasm 412,075 + JS
/// 8,890), and the budget was that plus 25%. Built with the workers' features,
/// it would be back near 940 KB: this budget is what catches that. Measured
/// again at 434,616 B (#25); the budget is that plus 25%. Python answers (#27)
/// brought it near 500 KB; writing the figures' JSON in `app/src/plot.rs`
/// instead of through the `plotly` crate's builders took the wasm from
/// 490,285 to 421,463 B (gzip -9), 438,285 B with its JS and `page.js`.
pub const BUDGET_PAGE_GZIP: u64 = 543_270;

/// Gzip budget for what the workers load: their module
/// (`pkg/app_worker_bg.wasm`), its glue and `worker.js`. Measured at 560,489 B
/// (wasm 556,999 + JS 2,898 + worker.js 592) when it was split off, 562,954 B
/// again in #25. Building the demos' crates for speed (the `worker` profile,
/// #25) and reading floats exactly (#27) measured 638,450 B; the budget is
/// that plus 25%.
/// The code editor (`editor.js`, 98 KB) and plotly.js load on first use and are
/// outside both budgets; the size table lists them.
pub const BUDGET_WORKER_GZIP: u64 = 798_062;

/// The wasm modules: (cargo package, file stem of its `.wasm` and glue, cargo
/// profile, wasm-opt level). The page's is built for size; the workers' in the
/// `worker` profile (Cargo.toml: the crates that compute at opt-level 3) and
/// through `wasm-opt -O3`: README, "Benchmarks", says what that measured.
/// The native bench is built in the workers' profile.
pub const MODULES: [(&str, &str, &str, &str); 2] = [
    ("app", "app", "release", "-Oz"),
    ("app-worker", "app_worker", "worker", "-O3"),
];

/// Whether this build is `cargo xtask serve`'s: both modules in the `serve`
/// profile (Cargo.toml: the release profile without link-time optimisation,
/// at opt-level 1, in 16 codegen units, incremental) and not through
/// wasm-opt. A first build takes about as long as the release build's, but
/// an edit to a demo recompiles the workers' module in seconds (measured
/// 1.7 s against 23.8 s), and it makes bigger, slower modules; the size
/// budgets and the tests hold the release build (`cargo xtask build`,
/// `test`, `bench`).
static FAST: std::sync::OnceLock<()> = std::sync::OnceLock::new();

/// Builds in the `serve` profile from now on ([`FAST`]).
pub fn fast() {
    let _ = FAST.set(());
}

/// Whether this build is in the `serve` profile ([`fast`]).
pub fn is_fast() -> bool {
    FAST.get().is_some()
}

/// The profile and wasm-opt level a module builds with in this build.
fn profile_of(profile: &'static str, level: &'static str) -> (&'static str, Option<&'static str>) {
    if is_fast() {
        ("serve", None)
    } else {
        (profile, Some(level))
    }
}

/// A module's two files in `dist/`: its wasm and its JS glue.
fn module_files(stem: &str) -> [String; 2] {
    [format!("pkg/{stem}_bg.wasm"), format!("pkg/{stem}.js")]
}

/// A file of the page's module, or the page's script that loads it: what
/// every page loads to mount.
fn in_page_module(file: &str) -> bool {
    file == "page.js" || module_files(MODULES[0].1).iter().any(|f| f == file)
}

/// A file of the workers' module, or their script: what a page loads when it
/// starts a worker.
fn in_worker_module(file: &str) -> bool {
    file == "worker.js" || module_files(MODULES[1].1).iter().any(|f| f == file)
}

/// A part of what is shipped: (name, which files, gzip budget).
type Part = (&'static str, fn(&str) -> bool, u64);

/// What the size table totals and the budgets hold.
const PARTS: [Part; 2] = [
    ("page wasm + JS", in_page_module, BUDGET_PAGE_GZIP),
    ("worker wasm + JS", in_worker_module, BUDGET_WORKER_GZIP),
];

/// Sizes of the shipped files: (name, raw bytes, gzip bytes, bytes as sent:
/// the build's brotli copy where it has one, else the raw size).
pub type Sizes = Vec<(String, u64, u64, u64)>;

/// Builds `dist/` and returns the sizes of what it ships.
pub fn site() -> Result<Sizes, String> {
    site_linted(false)
}

/// [`site`]; with `lint`, the app is compiled by clippy's driver with warnings
/// denied ([`crate::clippy_env`]), which lints its wasm32 code in the same
/// compile that builds it.
pub fn site_linted(lint: bool) -> Result<Sizes, String> {
    let r = root();
    // Two modules, each built by its own cargo command: built together, cargo
    // would unify their features, and the page's module would get the demos'
    // and the judge's code that only the workers' module should carry. In the
    // `serve` profile, where no size is held, they build together: one
    // compile of what both use (the host's macros, wasm-bindgen, js-sys, the
    // book's crates) instead of two, 171 s against 200 s on a fresh target.
    let together = is_fast() && !lint;
    let mut wasm = Vec::new();
    for (i, (package, file, profile, level)) in MODULES.into_iter().enumerate() {
        let (profile, level) = profile_of(profile, level);
        if !together || i == 0 {
            let mut build = Command::new("cargo");
            build.args(["build", "-p", package]);
            if together {
                build.args(MODULES[1..].iter().flat_map(|m| ["-p", m.0]));
            }
            build.args(["--profile", profile, "--target", "wasm32-unknown-unknown"]);
            if lint {
                crate::clippy_env(&mut build)?;
            }
            run(&mut build)?;
        }
        wasm.push((
            r.join(format!(
                "target/wasm32-unknown-unknown/{profile}/{file}.wasm"
            )),
            level,
        ));
    }
    // wasm-opt and the steps below use npm's packages.
    crate::tools::npm_installed()?;
    let dist = r.join("dist");
    let pkg = dist.join("pkg");
    // wasm-bindgen + wasm-opt take ~15 s a module: skip them for a module
    // whose wasm is what its copy in dist/pkg was made from, byte for byte
    // (an edit to a demo's code recompiles the page's module too, to the
    // same bytes: only the workers' is made again).
    std::fs::create_dir_all(&pkg).map_err(|e| e.to_string())?;
    for ((w, level), (_, stem, _, _)) in wasm.iter().zip(MODULES) {
        let bytes = std::fs::read(w).map_err(|e| format!("{}: {e}", w.display()))?;
        let stamp = format!(
            "{:016x} {} bytes, wasm-opt {level:?}",
            {
                let mut h = crate::offline::Fnv::new();
                h.update(&bytes);
                h.finish()
            },
            bytes.len()
        );
        let stamp_file = pkg.join(format!(".{stem}.built-from"));
        let current = std::fs::read_to_string(&stamp_file).ok().as_deref() == Some(stamp.as_str())
            && module_files(stem).iter().all(|f| dist.join(f).exists());
        if current {
            println!("dist/pkg: {stem} is up to date");
        } else {
            let _ = std::fs::remove_file(&stamp_file);
            bindgen_and_opt(w, &pkg, *level)?;
            std::fs::write(&stamp_file, &stamp).map_err(|e| e.to_string())?;
        }
    }
    write_content(&dist)?;
    copy(&r.join("app/worker.js"), &dist.join("worker.js"))?;
    // Python answers: Pyodide (npm `pyodide`), the Python lane's worker and the
    // judge's harness, loaded when a reader first runs Python.
    copy_pyodide(&r.join("node_modules/pyodide"), &dist.join("pyodide"))?;
    copy(
        &r.join("app/python-worker.js"),
        &dist.join("python-worker.js"),
    )?;
    copy(
        &r.join("judge/core/python/harness.py"),
        &dist.join("python/harness.py"),
    )?;
    copy(
        &r.join("node_modules/plotly.js-cartesian-dist-min/plotly-cartesian.min.js"),
        &dist.join("plotly.min.js"),
    )?;
    // The code editor (CodeMirror 6), one ES module the page loads when an
    // editor first comes near the screen.
    run(Command::new(r.join("node_modules/.bin/esbuild"))
        .arg(r.join("editor/editor.js"))
        .args([
            "--bundle",
            "--minify",
            "--format=esm",
            "--log-level=warning",
        ])
        .arg(format!("--outfile={}", dist.join("editor.js").display())))?;
    // In this order: the search index reads the pages, and the service worker's
    // precache list names every file the steps before it wrote.
    crate::search::index(&dist)?;
    crate::notebook::write(&dist)?;
    crate::offline::write(&dist)?;
    if is_fast() {
        // `serve` sends files as they are (localhost gains nothing from
        // brotli at quality 11, about 1 MB/s and 60-90 s for the bigger
        // modules of this profile); no copy may outlive its file.
        let removed = crate::compress::remove_copies(&dist)?;
        println!("not precompressed (serve profile): {removed} old copies removed");
    } else {
        // Last, so that sw.js and everything above get their copies.
        let (compressed, current) = crate::compress::precompress(&dist)?;
        println!("precompressed (brotli, gzip): {compressed} files, {current} already current");
    }
    let sizes = measure()?;
    print_sizes(&sizes);
    Ok(sizes)
}

/// The files of npm's `pyodide` a browser loads, and their names under
/// `dist/pyodide/`: the loader, CPython's wasm module and its glue, the
/// standard library, and the lock file the loader reads. The two ES modules
/// are renamed `.js`: many hosts (Debian's nginx among them) send `.mjs` as
/// `application/octet-stream`, which a browser refuses to run as a module.
pub const PYODIDE_FILES: [(&str, &str); 5] = [
    ("pyodide.mjs", "pyodide.js"),
    ("pyodide.asm.mjs", "pyodide.asm.js"),
    ("pyodide.asm.wasm", "pyodide.asm.wasm"),
    ("python_stdlib.zip", "python_stdlib.zip"),
    ("pyodide-lock.json", "pyodide-lock.json"),
];

/// Copies [`PYODIDE_FILES`] from `from` (npm's package) into `to`; the loader
/// names its glue module, so the new name is written into it (and into the
/// glue's own stack-trace filter).
fn copy_pyodide(from: &Path, to: &Path) -> Result<(), String> {
    for (name, renamed) in PYODIDE_FILES {
        if name == renamed {
            copy(&from.join(name), &to.join(renamed))?;
            continue;
        }
        let file = from.join(name);
        let text =
            std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let found = text.matches("pyodide.asm.mjs").count();
        if name == "pyodide.mjs" && found != 1 {
            return Err(format!(
                "{}: names pyodide.asm.mjs {found} times (1 expected): the loader changed, see copy_pyodide",
                file.display()
            ));
        }
        let text = text.replace("pyodide.asm.mjs", "pyodide.asm.js");
        std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
        let out = to.join(renamed);
        if std::fs::read_to_string(&out).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(&out, text).map_err(|e| format!("{}: {e}", out.display()))?;
        }
    }
    Ok(())
}

/// What an edit to the text or the look changes in `dist/`: every page
/// pre-rendered again, the style, the page's script and the search dialog
/// (loaded on the first search); and the end-to-end tests' manifest
/// (`crate::manifest`). The watch mode of `cargo xtask serve` runs this alone.
pub fn write_content(dist: &Path) -> Result<(), String> {
    let r = root();
    write_pages(dist)?;
    crate::manifest::write()?;
    std::fs::create_dir_all(dist.join("style")).map_err(|e| e.to_string())?;
    for f in std::fs::read_dir(r.join("style")).map_err(|e| e.to_string())? {
        let f = f.map_err(|e| e.to_string())?.path();
        if let Some(name) = f.file_name() {
            copy(&f, &dist.join("style").join(name))?;
        }
    }
    copy(&r.join("web/page.js"), &dist.join("page.js"))?;
    copy(&r.join("web/search.js"), &dist.join("search.js"))
}

/// Pre-renders every route into `dist/` from the `index.html` template.
fn write_pages(dist: &Path) -> Result<(), String> {
    let template = std::fs::read_to_string(root().join("index.html"))
        .map_err(|e| format!("index.html: {e}"))?;
    let pages = crate::render::pages()?;
    // Chapters an older build wrote go: a removed one is no longer served or precached.
    let chapters = dist.join("ch");
    if chapters.exists() {
        std::fs::remove_dir_all(&chapters).map_err(|e| format!("{}: {e}", chapters.display()))?;
    }
    for page in &pages {
        let file = dist.join(&page.file);
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::write(&file, crate::render::fill(&template, page)?)
            .map_err(|e| format!("{}: {e}", file.display()))?;
    }
    println!("pre-rendered {} pages into dist/", pages.len());
    Ok(())
}

/// The JS glue for `--target web` (`xtask/glue`: wasm-bindgen's library, what
/// the CLI writes), then wasm-opt at `level` (if any) in place.
fn bindgen_and_opt(wasm: &Path, pkg: &Path, level: Option<&str>) -> Result<(), String> {
    // Its own program, built in the `serve` profile whatever this build's
    // (a tool: no link-time optimisation to wait for); the first build on a
    // machine compiles it after the modules, not with the xtask.
    run(Command::new("cargo")
        .args([
            "run",
            "--quiet",
            "-p",
            "wasm-glue",
            "--profile",
            "serve",
            "--",
        ])
        .arg(pkg)
        .arg(wasm))?;
    let Some(level) = level else {
        return Ok(());
    };
    let stem = wasm
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let bg = pkg.join(format!("{stem}_bg.wasm"));
    // binaryen from npm (Debian's wasm-opt 108 produces a broken module).
    run(Command::new(root().join("node_modules/.bin/wasm-opt"))
        .args([
            level,
            "--enable-bulk-memory",
            "--enable-nontrapping-float-to-int",
            "--enable-sign-ext",
            "--enable-mutable-globals",
            "--enable-reference-types",
            "--enable-multivalue",
        ])
        .arg(&bg)
        .arg("-o")
        .arg(&bg))
}

fn copy(from: &Path, to: &Path) -> Result<(), String> {
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| format!("copy {}: {e}", from.display()))
}

fn gzip_len(bytes: &[u8]) -> u64 {
    crate::compress::gzip_bytes(bytes).map_or(0, |v| v.len() as u64)
}

/// Raw and gzip sizes of the files in `dist/`.
pub fn measure() -> Result<Sizes, String> {
    let dist = root().join("dist");
    let files: Vec<String> = MODULES
        .iter()
        .flat_map(|(_, stem, _, _)| module_files(stem))
        .chain(
            [
                "worker.js",
                "style/book.css",
                "index.html",
                "page.js",
                "plotly.min.js",
                "editor.js",
                "search.js",
            ]
            .map(String::from),
        )
        .collect();
    // The pre-rendered pages: the 404 page, and in each language the
    // glossary, the Rhai guide and every chapter.
    let mut pages = vec!["404.html".to_owned()];
    for lang in ["", "zh/"] {
        for page in ["glossary.html", "rhai.html"] {
            if dist.join(format!("{lang}{page}")).exists() {
                pages.push(format!("{lang}{page}"));
            }
        }
        if let Ok(dir) = std::fs::read_dir(dist.join(format!("{lang}ch"))) {
            let mut chapters: Vec<String> = dir
                .filter_map(|e| e.ok())
                .map(|e| format!("{lang}ch/{}", e.file_name().to_string_lossy()))
                .filter(|n| n.ends_with(".html"))
                .collect();
            chapters.sort();
            pages.extend(chapters);
        }
    }
    let mut sizes = files
        .into_iter()
        .chain(pages)
        .map(|f| {
            let b = std::fs::read(dist.join(&f))
                .map_err(|e| format!("dist/{f}: {e} (run `cargo xtask build`)"))?;
            let (raw, gz) = (b.len() as u64, gzip_len(&b));
            Ok((f.clone(), raw, gz, sent_len(&dist.join(&f), raw)))
        })
        .collect::<Result<Sizes, String>>()?;
    // The whole search index (loader, engine, index and fragments); a search
    // fetches only part of it.
    let mut index = (0, 0, 0);
    for f in files_under(&dist.join("pagefind")) {
        if crate::compress::is_copy(&f) {
            continue;
        }
        let b = std::fs::read(&f).map_err(|e| format!("{}: {e}", f.display()))?;
        let raw = b.len() as u64;
        index = (
            index.0 + raw,
            index.1 + gzip_len(&b),
            index.2 + sent_len(&f, raw),
        );
    }
    sizes.push(("pagefind/ (all)".to_owned(), index.0, index.1, index.2));
    // Python, fetched when a reader first runs a Python answer (not precached).
    let mut python = (0, 0, 0);
    let python_files = files_under(&dist.join("pyodide")).into_iter().chain([
        dist.join("python-worker.js"),
        dist.join("python/harness.py"),
    ]);
    for f in python_files {
        if crate::compress::is_copy(&f) {
            continue;
        }
        let b = std::fs::read(&f).map_err(|e| format!("{}: {e}", f.display()))?;
        let raw = b.len() as u64;
        python = (
            python.0 + raw,
            python.1 + gzip_len(&b),
            python.2 + sent_len(&f, raw),
        );
    }
    sizes.push((
        "pyodide/ + Python worker (first Python run)".to_owned(),
        python.0,
        python.1,
        python.2,
    ));
    Ok(sizes)
}

/// What a host sends for `file`: its brotli copy's size, or `raw` without one.
fn sent_len(file: &Path, raw: u64) -> u64 {
    std::fs::metadata(format!("{}.br", file.display())).map_or(raw, |m| m.len())
}

/// Every file under `dir`, recursively, in a stable order.
pub fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(files_under(&p));
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Prints the size table.
pub fn print_sizes(sizes: &Sizes) {
    println!(
        "\n{:<20} {:>12} {:>12} {:>12}",
        "file", "raw bytes", "gzip bytes", "sent (br)"
    );
    for (f, raw, gz, br) in sizes {
        println!("{f:<20} {raw:>12} {gz:>12} {br:>12}");
    }
    for (name, part, _) in PARTS {
        let (raw, gz, br) = total(sizes, part);
        println!("{name:<20} {raw:>12} {gz:>12} {br:>12}");
    }
}

/// (raw, gzip, sent) bytes of the files `part` selects.
fn total(sizes: &Sizes, part: fn(&str) -> bool) -> (u64, u64, u64) {
    sizes
        .iter()
        .filter(|(f, ..)| part(f))
        .fold((0, 0, 0), |a, (_, r, g, b)| (a.0 + r, a.1 + g, a.2 + b))
}

/// Fails when the gzip size of the page's module passes [`BUDGET_PAGE_GZIP`]
/// or the workers' passes [`BUDGET_WORKER_GZIP`].
pub fn check_budget(sizes: &Sizes) -> Result<(), String> {
    let mut over = Vec::new();
    for (name, part, budget) in PARTS {
        let (_, gz, _) = total(sizes, part);
        println!("{name} gzip: {gz} B (budget {budget} B)");
        if gz > budget {
            over.push(format!("{name} is {gz} B gzip, budget {budget} B"));
        }
    }
    if over.is_empty() {
        Ok(())
    } else {
        Err(format!("size budget exceeded: {}", over.join("; ")))
    }
}
