//! Solutions (correct, wrong, erroring, looping) and the exact verdict JSON the
//! judge must give for each, natively and in WASM alike.

use chapters::demo::{Block, defaults};
use judge::script::Limits;

/// (exercise, source, expected status, expected message)
const FIXTURES: &[(&str, &str, &str, &str)] = &[
    (
        "ch_newmodels/attended",
        "fn attended(pos, ratio, topk, window) {
            let swa = if window < pos + 1 { window } else { pos + 1 };
            if ratio <= 1 { return swa; }
            let done = (pos + 1) / ratio;
            swa + if topk > 0 && done > topk { topk } else { done }
        }",
        "passed",
        "all 20 cases passed",
    ),
    (
        "ch_newmodels/attended",
        "fn attended(pos, ratio, topk, window) { if ratio > 1 { window + (pos + 1) / ratio } else { window } }",
        "failed",
        "case 1: attended(1048575, 4, 512, 128) returned 262272, expected 640 (values differ)",
    ),
    (
        "ch_newmodels/attended",
        "fn attended(pos, ratio, topk, window) { if ratio == 1 { throw \"no window-only layers\"; } 0 }",
        "error",
        "case 3: runtime error (line 1, column 57): error thrown: no window-only layers",
    ),
    (
        "ch_newmodels/attended",
        "fn attended(pos, ratio, topk, window) { 1 / (ratio - ratio) }",
        "error",
        "case 1: runtime error (line 1, column 43): Division by zero: 1 / 0",
    ),
    (
        "ch_newmodels/attended",
        "fn attended(pos, ratio, topk, window) { loop {} }",
        "limit_exceeded",
        "case 1: operation limit exceeded (an endless loop?)",
    ),
    (
        "ch_newmodels/attended",
        "fn attended(pos, ratio) { 0 }",
        "error",
        "`attended` must take 4 parameters, yours takes 2",
    ),
    (
        "ch_newmodels/attended",
        "fn attended(pos, ratio, topk, window) { [640] }",
        "failed",
        "case 1: attended(1048575, 4, 512, 128) returned [640], expected 640 (expected int, got array)",
    ),
];

pub fn check_all() {
    for (id, src, status, message) in FIXTURES {
        let ex = exercises::by_id(id).expect("exercise exists");
        let (v, _) = exercises::grade_rhai(&ex, src, Limits::default(), None);
        let json = serde_json::to_value(&v).expect("verdict serialises");
        assert_eq!(json["status"], *status, "{src}\n{json:#}");
        assert_eq!(json["message"], *message, "{src}");
    }
    // A whole verdict, field by field, for one failing solution.
    let ex = exercises::by_id("ch_newmodels/attended").expect("exercise exists");
    let (v, _) = exercises::grade_rhai(&ex, FIXTURES[1].1, Limits::default(), None);
    let first = serde_json::to_value(&v.cases[0]).expect("serialises");
    assert_eq!(
        first,
        serde_json::json!({
            "index": 1, "kind": "public", "passed": false,
            "input": [1048575, 4, 512, 128], "expected": 640, "actual": 262272,
            "mismatch": { "path": "", "want": 640, "got": 262272, "abs_err": 261632.0,
                          "rel_err": 408.8, "reason": "values differ" },
            "error": null
        })
    );
}

pub fn check_attended_demo() {
    let demo = chapters::demo("attended").expect("demo exists");
    let out = (demo.run)(&defaults(demo.params)).expect("defaults are valid");
    let Block::Table { rows, .. } = &out.blocks[1] else {
        panic!("second block is the table")
    };
    let col = |i: usize| rows.iter().map(|r| r[i].as_str()).collect::<Vec<_>>();
    assert_eq!(col(2), ["640", "640", "640"]);
    assert_eq!(col(4), ["160", "1,152", "8,320"]);
    assert_eq!(col(5), ["128", "128", "128"]);
}
