//! Compiles what the judge says, `say.en.toml` and `say.zh.toml` (one table per
//! kind of message), into `$OUT_DIR/words.rs` through the `catalog` crate:
//! one type per message, its placeholders as fields. A key missing from a
//! language, placeholders that differ between languages or a malformed one
//! fails the build, naming the file and the key.

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    catalog::compile_crate_catalog(dir, "judge/core", "crate::Lang");
}
