//! Native half of the parity check: the same fixtures as `tests/web.rs`, which
//! runs them in the browser: verdicts, demo outputs and hostile parameters.

mod fixtures;

#[test]
fn verdicts_match_the_fixtures() {
    fixtures::check_all();
}

#[test]
fn the_attended_demo_computes_the_chapter_figures() {
    fixtures::check_attended_demo();
}

#[test]
fn verdicts_equal_the_recording_that_the_browser_must_reproduce() {
    let (now, zh) = fixtures::all_verdicts();
    if std::env::var_os("UPDATE_VERDICTS").is_some() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/");
        std::fs::write(format!("{dir}verdicts.jsonl"), &now).expect("write the recording");
        std::fs::write(format!("{dir}verdicts.zh.jsonl"), &zh).expect("write the recording");
        return;
    }
    fixtures::assert_same(
        &now,
        fixtures::RECORDED,
        "native verdicts changed (if on purpose, re-record with UPDATE_VERDICTS=1)",
    );
    fixtures::assert_same(
        &zh,
        fixtures::RECORDED_ZH,
        "native verdicts' Chinese words changed (if on purpose, re-record with UPDATE_VERDICTS=1)",
    );
}

#[test]
fn demo_outputs_equal_the_recording_that_the_browser_must_reproduce() {
    let now = fixtures::demos::all_outputs(chapters::Lang::En);
    let zh = fixtures::demos::all_outputs(chapters::Lang::Zh);
    if std::env::var_os("UPDATE_DEMOS").is_some() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/");
        std::fs::write(format!("{dir}demos.jsonl"), &now).expect("write the recording");
        std::fs::write(format!("{dir}demos.zh.jsonl"), &zh).expect("write the recording");
        return;
    }
    fixtures::assert_same(
        &now,
        fixtures::demos::RECORDED,
        "native demo outputs changed (if on purpose, re-record with UPDATE_DEMOS=1)",
    );
    fixtures::assert_same(
        &zh,
        fixtures::demos::RECORDED_ZH,
        "native demo outputs' Chinese words changed (if on purpose, re-record with UPDATE_DEMOS=1)",
    );
}

#[test]
fn hostile_demo_parameters_are_refused() {
    fixtures::demos::check_hostile_parameters();
}
