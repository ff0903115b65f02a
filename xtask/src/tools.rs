//! Installing what the build and tests need, only when it is missing.

use std::path::Path;
use std::process::Command;

use crate::{root, run};

fn output(cmd: &str, args: &[&str]) -> Option<String> {
    let o = Command::new(cmd).args(args).output().ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).into_owned())
}

/// The `wasm-bindgen` version pinned in Cargo.lock.
pub fn wasm_bindgen_version() -> Result<String, String> {
    locked_version("wasm-bindgen")
}

/// The version of `package` in Cargo.lock (the first, if several).
fn locked_version(package: &str) -> Result<String, String> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock"))
        .map_err(|e| format!("Cargo.lock: {e}"))?;
    let mut lines = lock.lines();
    let name = format!("name = \"{package}\"");
    while let Some(l) = lines.next() {
        if l == name
            && let Some(v) = lines.next().and_then(|v| v.strip_prefix("version = \""))
        {
            return Ok(v.trim_end_matches('"').to_owned());
        }
    }
    Err(format!("{package} not found in Cargo.lock"))
}

/// The wasm32 target and the npm packages: what the site's build needs
/// besides cargo (the modules' JS glue comes from `xtask/glue`, which links
/// wasm-bindgen's library). A fresh machine used to install the wasm-bindgen
/// CLI first, 193-270 s of its set-up.
pub fn ensure_build_tools() -> Result<(), String> {
    ensure_build_tools_meanwhile()?;
    npm_installed()
}

/// [`ensure_build_tools`], with `npm ci` (when it is needed) left running in
/// the background: the wasm target is added before this returns, and the
/// site's build calls [`npm_installed`] once its cargo builds are done and
/// it first needs a package, so that npm's downloads (10 s with a warm npm
/// cache, more on a fresh machine) overlap the compile.
pub fn ensure_build_tools_meanwhile() -> Result<(), String> {
    let targets = output("rustup", &["target", "list", "--installed"]).unwrap_or_default();
    if !targets
        .lines()
        .any(|t| t.trim() == "wasm32-unknown-unknown")
    {
        run(Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]))?;
    }
    if npm_needed() {
        let mut npm = NPM.lock().unwrap_or_else(|e| e.into_inner());
        if npm.is_none() {
            println!("\n$ npm ci --no-audit --no-fund (in the background)");
            *npm = Some(std::thread::spawn(|| {
                let out = Command::new("npm")
                    .args(["ci", "--no-audit", "--no-fund"])
                    .current_dir(root())
                    .output()
                    .map_err(|e| format!("npm: {e}"))?;
                if out.status.success() {
                    Ok(())
                } else {
                    Err(format!(
                        "npm ci failed:\n{}{}",
                        String::from_utf8_lossy(&out.stdout),
                        String::from_utf8_lossy(&out.stderr)
                    ))
                }
            }));
        }
    }
    Ok(())
}

/// The `npm ci` that [`ensure_build_tools_meanwhile`] started, if any.
static NPM: std::sync::Mutex<Option<std::thread::JoinHandle<Result<(), String>>>> =
    std::sync::Mutex::new(None);

/// Waits for the background `npm ci`, if one runs, and says how it ended.
pub fn npm_installed() -> Result<(), String> {
    let pending = NPM.lock().unwrap_or_else(|e| e.into_inner()).take();
    match pending {
        Some(h) => {
            let r = h
                .join()
                .unwrap_or_else(|_| Err("npm ci: its thread panicked".into()));
            if r.is_ok() {
                println!("npm ci: done");
            }
            r
        }
        None => Ok(()),
    }
}

/// Whether `node_modules/` lacks a package the build uses or is older than
/// `package-lock.json`.
fn npm_needed() -> bool {
    let nm = root().join("node_modules");
    let ready = [
        "binaryen",
        "esbuild",
        "@codemirror/view",
        "playwright-core",
        "plotly.js-cartesian-dist-min",
        "pagefind",
        "@pagefind/linux-x64",
    ]
    .iter()
    .all(|p| nm.join(p).join("package.json").exists());
    let stale = match (
        std::fs::metadata(root().join("package-lock.json")).and_then(|m| m.modified()),
        std::fs::metadata(nm.join(".package-lock.json")).and_then(|m| m.modified()),
    ) {
        (Ok(lock), Ok(installed)) => lock > installed,
        _ => true,
    };
    !ready || stale
}

/// Build tools plus Debian's Chromium and chromedriver for the browser tests,
/// nginx with its brotli module (the e2e suites that depend on hosting run
/// against it, `nginx.rs`), and `python3-nbformat` for the notebook check.
pub fn ensure_all() -> Result<(), String> {
    ensure_build_tools()?;
    ensure_test_runner()?;
    let mut missing = Vec::new();
    if !Path::new("/usr/bin/chromium").exists() || !Path::new("/usr/bin/chromedriver").exists() {
        missing.extend(["chromium", "chromium-driver"]);
    }
    if !Path::new(crate::nginx::BINARY).exists() || !Path::new(crate::nginx::BROTLI_MODULE).exists()
    {
        missing.extend(["nginx", "libnginx-mod-http-brotli-static"]);
    }
    if !missing.is_empty() {
        apt_install(&missing)?;
    }
    ensure_nbformat()
}

/// `wasm-bindgen-test-runner` at the version in Cargo.lock, which runs the
/// wasm tests in headless Chromium (`cargo test --target wasm32-unknown-unknown`,
/// `.cargo/config.toml`). Only that binary, and without the CLI's default
/// TLS stack (it talks to chromedriver on localhost): `ring` and `rustls`
/// are most of the CLI's compile.
pub fn ensure_test_runner() -> Result<(), String> {
    let want = wasm_bindgen_version()?;
    let have = output("wasm-bindgen-test-runner", &["--version"]).unwrap_or_default();
    if have.split_whitespace().nth(1) == Some(want.as_str()) {
        return Ok(());
    }
    // `--locked` fails for this crate on crates.io today (see BUILD-NOTES.md).
    run(Command::new("cargo").args([
        "install",
        "wasm-bindgen-cli",
        "--version",
        &want,
        "--no-default-features",
        "--bin",
        "wasm-bindgen-test-runner",
    ]))
}

/// Debian's Python, where Debian's Python packages are installed (the
/// `python3` on the PATH may be another, such as pyenv's).
pub const DEBIAN_PYTHON: &str = "/usr/bin/python3";

/// Debian's `python3-nbformat`, which validates the chapters' notebooks
/// against the nbformat 4 schema (`cargo xtask notebooks`).
pub fn ensure_nbformat() -> Result<(), String> {
    let have = Command::new(DEBIAN_PYTHON)
        .args(["-c", "import nbformat"])
        .output()
        .is_ok_and(|o| o.status.success());
    if have {
        return Ok(());
    }
    apt_install(&["python3-nbformat"])
}

/// Whether this process runs as root.
pub fn is_root() -> bool {
    output("id", &["-u"]).is_some_and(|u| u.trim() == "0")
}

/// `apt-get update`, then `apt-get install` of `packages` (as root, or via sudo).
fn apt_install(packages: &[&str]) -> Result<(), String> {
    let sudo: &[&str] = if is_root() { &[] } else { &["sudo"] };
    let apt = |args: &[&str]| {
        let mut all: Vec<&str> = sudo.to_vec();
        all.push("apt-get");
        all.extend_from_slice(args);
        let mut c = Command::new(all[0]);
        c.args(&all[1..]).env("DEBIAN_FRONTEND", "noninteractive");
        run(&mut c)
    };
    apt(&["update", "-q"])?;
    let mut install = vec!["install", "-y", "-q"];
    install.extend_from_slice(packages);
    apt(&install)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The glue the xtask writes must come from the wasm-bindgen the modules
    /// link, and the test runner is installed at that version too.
    #[test]
    fn bindgen_library_matches_the_modules_wasm_bindgen() {
        let modules = wasm_bindgen_version().expect("wasm-bindgen in Cargo.lock");
        assert_eq!(
            locked_version("wasm-bindgen-cli-support").as_deref(),
            Ok(modules.as_str())
        );
        assert!(locked_version("no-such-crate").is_err());
    }
}
