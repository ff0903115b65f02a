//! `wasm-glue OUT_DIR MODULE.wasm…`: for each module, its JS glue for
//! `--target web` and its processed wasm in `OUT_DIR`, as
//! `wasm-bindgen --target web --no-typescript --out-dir OUT_DIR MODULE.wasm`
//! writes them (byte for byte: `cargo xtask build` runs this instead of
//! installing the CLI).

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((out, modules)) = args.split_first().filter(|(_, m)| !m.is_empty()) else {
        eprintln!("usage: wasm-glue OUT_DIR MODULE.wasm…");
        return ExitCode::FAILURE;
    };
    for wasm in modules {
        let mut bindgen = wasm_bindgen_cli_support::Bindgen::new();
        let done = bindgen.input_path(wasm).web(true).and_then(|b| {
            b.typescript(false)
                // As the CLI does by default: `init()` without an argument
                // fetches `<stem>_bg.wasm` beside the glue.
                .omit_default_module_path(false)
                .generate(out)
        });
        if let Err(e) = done {
            // `{:#}`: the error with its causes (an anyhow chain).
            eprintln!("wasm-glue: {wasm}: {e:#}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
