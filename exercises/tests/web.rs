//! The judge and the demos inside WebAssembly, in headless Chromium
//! (`cargo test --target wasm32-unknown-unknown -p exercises --no-default-features --features script --test web`).
//! The verdicts must equal the native ones in `tests/parity.rs`: both files
//! check the same fixtures from `tests/fixtures/`, and so must the demo
//! outputs (`tests/fixtures/demos.jsonl`).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;

// In a worker: these tests run for tens of seconds of debug wasm, and a busy
// page stops answering chromedriver ("Timed out receiving message from
// renderer"), which failed CI once. A worker leaves the page free.
wasm_bindgen_test_configure!(run_in_dedicated_worker);

mod fixtures;

#[wasm_bindgen_test]
fn verdicts_match_the_fixtures() {
    fixtures::check_all();
}

#[wasm_bindgen_test]
fn the_attended_demo_computes_the_chapter_figures() {
    fixtures::check_attended_demo();
}

#[wasm_bindgen_test]
fn verdicts_in_the_browser_equal_the_native_recording() {
    let (now, zh) = fixtures::all_verdicts();
    for (i, (web, native)) in now.lines().zip(fixtures::RECORDED.lines()).enumerate() {
        assert_eq!(
            web,
            native,
            "verdict {} differs between the browser and native",
            i + 1
        );
    }
    assert_eq!(now.lines().count(), fixtures::RECORDED.lines().count());
    for (i, (web, native)) in zh.lines().zip(fixtures::RECORDED_ZH.lines()).enumerate() {
        assert_eq!(
            web,
            native,
            "verdict {}'s Chinese words differ between the browser and native",
            i + 1
        );
    }
    assert_eq!(zh.lines().count(), fixtures::RECORDED_ZH.lines().count());
}

#[wasm_bindgen_test]
fn demo_outputs_in_the_browser_equal_the_native_recording() {
    fixtures::assert_same(
        &fixtures::demos::all_outputs(chapters::Lang::En),
        fixtures::demos::RECORDED,
        "demo outputs differ between the browser and native (tests/fixtures/demos.jsonl)",
    );
    fixtures::assert_same(
        &fixtures::demos::all_outputs(chapters::Lang::Zh),
        fixtures::demos::RECORDED_ZH,
        "Chinese demo outputs differ between the browser and native (tests/fixtures/demos.zh.jsonl)",
    );
}

/// The overflow cases, where they matter: `usize` is 32 bits here.
#[wasm_bindgen_test]
fn hostile_demo_parameters_are_refused_in_wasm32() {
    assert_eq!(usize::BITS, 32);
    fixtures::demos::check_hostile_parameters();
}
