//! The tests of `compressor.rs`, apart from it so that a notebook can include that
//! file as it is.

use super::*;
use crate::demo::defaults;

fn params(overlap: bool, tokens: usize, ratio: usize, seed: u64) -> Params {
    Params {
        overlap,
        tokens,
        ratio,
        dim: 8,
        seed,
    }
}

#[test]
fn defaults_give_five_entries_and_two_partial_tokens() {
    let p = Params::parse(&defaults(PARAMS)).unwrap();
    assert_eq!(p, params(false, 22, 4, 1));
    let r = compute(&p);
    assert_eq!((r.streamed.len(), r.batch.len(), r.partial), (5, 5, 2));
    assert!(r.max_abs_diff <= 1e-12, "{}", r.max_abs_diff);
    assert_eq!(compressor_counts(22, 4), (5, 2));
}

#[test]
fn streaming_equals_batch_for_both_layouts_and_awkward_lengths() {
    for overlap in [false, true] {
        for tokens in [0, 1, 3, 4, 7, 8, 9, 22, 131] {
            for ratio in [1, 4, 5, 128] {
                let r = compute(&params(overlap, tokens, ratio, tokens as u64));
                let window = if overlap { 2 * ratio } else { ratio };
                let expected = if tokens >= window {
                    (tokens - window) / ratio + 1
                } else {
                    0
                };
                assert_eq!(
                    r.batch.len(),
                    expected,
                    "overlap={overlap} n={tokens} r={ratio}"
                );
                assert_eq!(r.streamed.len(), expected);
                assert!(r.max_abs_diff <= 1e-12, "{}", r.max_abs_diff);
            }
        }
    }
}

#[test]
fn overlap_matches_the_other_source_count() {
    // (n - 8) / 4 + 1 entries for C4 with windows of 8 (kvcache-evolution).
    let r = compute(&params(true, 22, 4, 3));
    assert_eq!(r.batch.len(), (22 - 8) / 4 + 1);
    assert_eq!(
        r.partial, 6,
        "4 tokens of the previous block plus 2 new ones"
    );
}

#[test]
fn pool_weights_sum_to_one_per_dimension() {
    let kv = Array2::from_elem((4, 3), 2.5);
    let score = Array2::from_shape_fn((4, 3), |(i, d)| (i * d) as f64 - 1.0);
    assert!(
        pool(kv.view(), score.view())
            .iter()
            .all(|v| (v - 2.5).abs() < 1e-12)
    );
    // Huge scores do not overflow.
    let score = Array2::from_elem((4, 3), 1e6);
    assert!(
        pool(kv.view(), score.view())
            .iter()
            .all(|v| (v - 2.5).abs() < 1e-9)
    );
}

#[test]
fn prefix_reuse_on_c128() {
    assert_eq!(prefix_reuse(1_000, 128), (7, 896, 104));
    assert_eq!(prefix_reuse(0, 128), (0, 0, 0));
    assert_eq!(prefix_reuse(256, 128), (2, 256, 0));
}

#[test]
fn work_is_estimated_and_refused_before_running() {
    // The browser froze for ~10 s on these, both inside their ranges.
    assert_eq!(work(4_096, 512), Some(1_074_266_112));
    assert_eq!(work(u64::MAX, 1), None);
    assert_eq!(work(1 << 32, 1 << 32), None);
    let mut raw = defaults(PARAMS);
    raw.insert("tokens".into(), "4,096".into());
    raw.insert("dim".into(), "512".into());
    let errs = run(&raw, Lang::En).unwrap_err();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].param, "dim");
    assert_eq!(errs[0].message, "must be between 1 and 256");
    raw.insert("dim".into(), "256".into());
    let errs = run(&raw, Lang::En).unwrap_err();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].param, "tokens");
    assert_eq!(
        errs[0].message,
        "(tokens + 2) × D² = 268,566,528 exceeds the cell's budget of 2,097,152 element operations; lower tokens or D"
    );
    // The largest runs the budget allows at a few widths all run.
    for (tokens, dim) in [(4_096, 22), (510, 64), (126, 128), (30, 256)] {
        raw.insert("tokens".into(), tokens.to_string());
        raw.insert("dim".into(), dim.to_string());
        assert!(run(&raw, Lang::En).is_ok(), "{tokens} × {dim}");
        raw.insert("tokens".into(), (tokens + 1).to_string());
        if work(tokens as u64 + 1, dim) > Some(MAX_WORK) {
            assert!(run(&raw, Lang::En).is_err(), "{} × {dim}", tokens + 1);
        }
    }
    for lang in Lang::ALL {
        let help = |p: Param| demo().help_in(p.name, lang);
        assert!(help(TOKENS).contains(&crate::demo::group(MAX_WORK as i64)));
        assert!(help(DIM).contains(&crate::demo::group(MAX_DIM as i64)));
    }
}

#[test]
fn bad_parameters_each_get_a_message() {
    let mut raw = defaults(PARAMS);
    raw.insert("layout".into(), "diagonal".into());
    raw.insert("ratio".into(), "0".into());
    raw.insert("dim".into(), "x".into());
    let errs = run(&raw, Lang::En).unwrap_err();
    let names: Vec<&str> = errs.iter().map(|e| e.param.as_str()).collect();
    assert_eq!(names, ["layout", "ratio", "dim"]);
}
