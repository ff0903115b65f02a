//! Native half of the parity check: the same fixtures as `tests/web.rs`, which
//! runs them in the browser.

mod fixtures;

#[test]
fn verdicts_match_the_fixtures() {
    fixtures::check_all();
}

#[test]
fn the_attended_demo_computes_the_chapter_figures() {
    fixtures::check_attended_demo();
}
