//! Derives the exercise registry from the exercise folders `src/<chapter>/<slug>/`
//! (see `build/manifest.rs`): reads and checks every `exercise.toml`, and writes
//! `$OUT_DIR/exercises.rs`, which `src/lib.rs` includes. A malformed folder fails
//! the build with a message naming the file.

#[path = "build/manifest.rs"]
mod manifest;

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/manifest.rs");
    // A directory is scanned recursively: a new chapter or exercise folder, or any
    // change inside one, runs this script again.
    println!("cargo:rerun-if-changed={}", src.display());
    let folders = match manifest::load(&src) {
        Ok(f) => f,
        Err(errors) => {
            for e in &errors {
                eprintln!("error: {e}");
            }
            eprintln!(
                "exercises/build.rs: {} problem(s) in the exercise folders",
                errors.len()
            );
            std::process::exit(1);
        }
    };
    let code = manifest::generate(&folders);
    let out =
        Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR is set by cargo")).join("exercises.rs");
    if std::fs::read_to_string(&out).ok().as_deref() != Some(code.as_str()) {
        std::fs::write(&out, code).expect("writes $OUT_DIR/exercises.rs");
    }
}
