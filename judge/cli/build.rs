//! Compiles everything the command line says, `say.en.toml` and `say.zh.toml`
//! (one table per kind of message: `[help]`, `[clap]`, `[report]`…), into
//! `$OUT_DIR/words.rs` through the `catalog` crate: one type per message, its
//! placeholders as fields. A key missing from a language, placeholders that
//! differ between languages or a malformed one fails the build, naming the
//! file and the key. `$OUT_DIR/help_keys.rs` lists the keys of `[help]`, for
//! the test that they name exactly what the command shows.

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let says = catalog::compile_crate_catalog(dir, "judge/cli", "judge::Lang");
    let keys: Vec<String> = says[0]
        .keys()
        .filter(|(module, _)| module == "help")
        .map(|(_, key)| format!("{key:?}"))
        .collect();
    let text = format!(
        "/// The keys of `[help]`.\n#[cfg(test)]\npub const HELP_KEYS: &[&str] = &[{}];\n",
        keys.join(", ")
    );
    let out = std::env::var("OUT_DIR").expect("OUT_DIR is set by cargo");
    catalog::write_if_changed(&std::path::Path::new(&out).join("help_keys.rs"), &text);
}
