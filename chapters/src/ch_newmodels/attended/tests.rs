//! The tests of `attended.rs`, apart from it so that a notebook can include that
//! file as it is.

use super::*;
use crate::demo::test_help::text;
use crate::demo::defaults;

#[test]
fn reproduces_the_source_figures() {
    let r = rows(&[4_096, 131_072, 1_048_576], 128, 512);
    assert_eq!(r.iter().map(|r| r.c4).collect::<Vec<_>>(), [640, 640, 640]);
    assert_eq!(
        r.iter().map(|r| r.c128).collect::<Vec<_>>(),
        [160, 1_152, 8_320]
    );
    assert_eq!(r.iter().map(|r| r.swa).collect::<Vec<_>>(), [128, 128, 128]);
    assert_eq!(
        r.iter().map(|r| r.scored).collect::<Vec<_>>(),
        [1_024, 32_768, 262_144]
    );
}

#[test]
fn edges() {
    assert_eq!(
        attended(0, 4, 512, 128),
        1,
        "first token sees itself, nothing compressed yet"
    );
    assert_eq!(attended(2, 4, 512, 128), 3);
    assert_eq!(
        attended(3, 4, 512, 128),
        5,
        "the first C4 entry is complete at the 4th token"
    );
    assert_eq!(
        attended(1_000_000, 0, 0, 128),
        128,
        "ratio 0 is window-only"
    );
    assert_eq!(
        attended(10, 128, 0, 1_000),
        11,
        "window larger than the context"
    );
}

#[test]
fn defaults_run_and_print_the_figures() {
    let demo = super::super::demos()
        .into_iter()
        .find(|d| d.id == "attended")
        .unwrap();
    let out = run(&defaults(demo.params), Lang::En).unwrap();
    let t = text(&out, 0);
    assert!(t.contains("context 1,048,576: full attention 1,048,576; C4 layer 640 (indexer scores 262,144); C128 layer 8,320; window-only 128"), "{t}");
}

#[test]
fn bytes_read_grow_with_the_context_while_entries_stay_flat() {
    // V4-Flash at 2^20 tokens: 21 x 262,144 keys of 132 B, 20 x 8,192 C128
    // entries, 21 x 512 chosen entries and 43 windows of 128, at 584 B.
    let [keys, c128, chosen] = step_bytes(1 << 20, FLASH_LAYERS, 512, 128);
    assert_eq!(keys, 726_663_168.0);
    assert_eq!(c128, 95_682_560.0);
    assert_eq!(chosen, 9_493_504.0);
    assert_eq!(
        [mb(keys), mb(c128), mb(chosen)],
        ["726.7 MB", "95.7 MB", "9.5 MB"]
    );
    let short = step_bytes(4_096, FLASH_LAYERS, 512, 128);
    assert!(short[0] < keys / 200.0);
    // Shorter than the window: every layer reads its few tokens, nothing compressed yet
    // beyond what has finished.
    assert_eq!(
        step_bytes(3, FLASH_LAYERS, 512, 128),
        [0.0, 0.0, (43 * 3) as f64 * 584.0]
    );
}

#[test]
fn a_topk_of_zero_means_no_cap_as_in_the_exercise() {
    let mut raw = defaults(demo().params);
    raw.insert("topk".into(), "0".into());
    let out = run(&raw, Lang::En).unwrap();
    let t = text(&out, 0);
    // 128 window tokens plus all 262,144 finished C4 entries at 1M.
    assert!(
        t.contains("C4 layer 262,272 (indexer scores 262,144)"),
        "{t}"
    );
    assert_eq!(attended((1 << 20) - 1, 4, 0, 128), 128 + (1 << 18));
}

#[test]
fn bad_parameters_name_each_field() {
    let mut raw = defaults(demo().params);
    raw.insert("window".into(), "-3".into());
    raw.insert("topk".into(), "".into());
    let errs = run(&raw, Lang::En).unwrap_err();
    let names: Vec<&str> = errs.iter().map(|e| e.param.as_str()).collect();
    assert_eq!(names, ["window", "topk"]);
}
