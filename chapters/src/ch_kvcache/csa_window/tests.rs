//! The tests of `csa_window.rs`, apart from it so that a notebook can include that
//! file as it is.

use super::*;
use crate::demo::test_help::{text, table, plot};
use crate::demo::defaults;

crate::demo::test_help::test_helpers!();


#[test]
fn figures_have_the_expected_values() {
    let f: Vec<(&str, String)> = figures();
    let want = [
        ("csa_window.csa_stored_mib", "179.0 MiB"),
        ("csa_window.csa_keys_mib", "33.0 MiB"),
        ("csa_window.csa_topk_mib", "0.57 MiB"),
        ("csa_window.csa_read_ratio", "5.3×"),
        ("csa_window.csa_entry_ratio", "256×"),
        ("csa_window.entries_16", "3"),
        ("csa_window.disjoint_16", "4"),
        ("csa_window.entries_1m", "249,999"),
        ("csa_window.disjoint_1m", "250,000"),
        ("csa_window.entries_1mi", "262,143"),
        ("csa_window.disjoint_1mi", "262,144"),
        ("csa_window.hca_1m", "7,812"),
    ];
    assert_eq!(f.len(), want.len());
    for ((name, value), (wn, wv)) in f.iter().zip(want) {
        assert_eq!((*name, value.as_str()), (wn, wv));
    }
}

#[test]
fn spans_coverage_and_state() {
    assert_eq!(entry_span(1, 4, 8), (1, 8));
    assert_eq!(entry_span(2, 4, 8), (5, 12));
    assert_eq!(entry_span(3, 4, 8), (9, 16));
    let cov: Vec<u64> = (1..=16).map(|t| covering(t, 4, 8)).collect();
    assert_eq!(cov, [1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    // Disjoint: one entry per token; width 3 stride 2: 1 or 2.
    assert!((1..100).all(|t| covering(t, 4, 4) == 1));
    assert_eq!(steady_coverage(4, 8), (5, 2, 2));
    assert_eq!(steady_coverage(2, 3), (1, 1, 2));
    assert_eq!(steady_coverage(4, 4), (1, 1, 1));
    // Brute force agrees with the closed form.
    for (s, w) in [(4, 8), (3, 7), (1, 5), (5, 5), (2, 9)] {
        for t in 1..60 {
            let brute = (1..=t)
                .filter(|&k| {
                    let (a, b) = entry_span(k, s, w);
                    a <= t && t <= b
                })
                .count() as u64;
            assert_eq!(covering(t, s, w), brute, "t {t} s {s} w {w}");
        }
    }
    // After 16 tokens: 3 entries, tokens 13–16 held, none uncovered.
    assert_eq!(
        counts(16, 4, 8, 128),
        Counts {
            tokens: 16,
            overlapping: 3,
            disjoint: 4,
            hca: 0,
            uncovered: 0,
            held: 4,
            hca_held: 16
        }
    );
    assert_eq!((held(7, 4, 8), uncovered(7, 4, 8)), (7, 7));
    assert_eq!((held(10, 4, 8), uncovered(10, 4, 8)), (6, 2));
    assert_eq!(
        (held(1_000_000, 128, 128), csa_entries(1_000_000, 128, 128)),
        (64, 7_812)
    );
    // The source's n/4 is one entry too many at every n ≥ 4.
    for n in 4..2_000 {
        assert_eq!(n / 4 - csa_entries(n, 4, 8), 1, "{n}");
    }
}

#[test]
fn the_picture_at_sixteen_tokens() {
    let pic = picture(16, 4, 8, Lang::En);
    for line in [
        "token  1       9",
        "c1     ████████........  tokens 1–8",
        "c2     ....████████....  tokens 5–12",
        "c3     ........████████  tokens 9–16",
        "c4     ............▒▒▒▒  tokens 13–20, 4 of 8 so far",
        "d1     ████............  tokens 1–4",
        "d4     ............████  tokens 13–16",
    ] {
        assert!(pic.lines().any(|l| l == line), "{line:?} not in\n{pic}");
    }
    assert!(!pic.contains("showing tokens"), "{pic}");
    assert!(pic.contains("3 entries finished after 16 tokens"), "{pic}");
    assert!(
        pic.contains("disjoint blocks of 4: 4 entries finished"),
        "{pic}"
    );
}

#[test]
fn long_pictures_are_cut_and_say_so() {
    let pic = picture(1_000, 1, 8, Lang::En);
    assert!(pic.starts_with("(showing tokens 1–64 of 1,000)\n"), "{pic}");
    assert!(
        pic.contains("… and 32 more entries start within tokens 1–64\n"),
        "{pic}"
    );
    let widest = pic.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(widest < 120, "{widest}\n{pic}");
    let h = coverage(1_000, 1, 8, Lang::En);
    assert_eq!((h.x.len(), h.y.len()), (64, 32));
    assert!(h.z.iter().all(|r| r.len() == 64));
}

#[test]
fn defaults_run() {
    let out = run(&defaults(PARAMS), Lang::En).unwrap();
    assert_eq!(out.blocks.len(), 4);
    let t = text(&out, 0);
    assert!(
            t.contains("after 16 tokens: 3 entries with windows of 8 every 4, 4 entries with disjoint blocks of 4 (n/4 = 4), 0 entries of HCA (blocks of 128)"),
            "{t}"
        );
    assert!(
        t.contains("every token from token 5 on is in 2 entries"),
        "{t}"
    );
    assert!(
            t.contains("holds tokens 13–16 (4) for entries not yet finished; every token is in a finished entry\n"),
            "{t}"
        );
    assert!(
        t.contains("⌊(n − 8)/4⌋ + 1 = ⌊n/4⌋ − 1 entries for every n ≥ 8: 1 entry fewer"),
        "{t}"
    );
    let (header, rows) = table(&out, 0);
    assert_eq!(header.len(), 7);
    assert_eq!(
        rows[0],
        ["1,000,000", "249,999", "250,000", "7,812", "0", "4", "64"]
    );
    assert_eq!(
        rows[1],
        ["1,048,576", "262,143", "262,144", "8,192", "0", "4", "0"]
    );
    let h = plot(&out, 0).heatmap.as_ref().expect("a heatmap");
    assert_eq!(h.y, ["c1", "c2", "c3", "c4"]);
    assert_eq!(h.x.len(), 16);
    let ones = |r: &Vec<f64>| {
        let first = r.iter().position(|&v| v > 0.0).unwrap() + 1;
        let n = r.iter().filter(|&&v| v > 0.0).count();
        (first, first + n - 1, r.contains(&0.5))
    };
    assert_eq!(ones(&h.z[0]), (1, 8, false));
    assert_eq!(ones(&h.z[1]), (5, 12, false));
    assert_eq!(ones(&h.z[2]), (9, 16, false));
    assert_eq!(ones(&h.z[3]), (13, 16, true));
    let chart = plot(&out, 1);
    assert_eq!(chart.series[0].y[15], 3.0);
    assert_eq!(chart.series[1].y[15], 4.0);
    assert_eq!(chart.series[2].y[15], 4.0);
}

#[test]
fn other_layouts() {
    let out = run(
        &raw(&[("stride", "2"), ("width", "3"), ("tokens", "9")]),
        Lang::En,
    )
    .unwrap();
    let t = text(&out, 0);
    assert!(t.contains("is in 1 or 2 entries"), "{t}");
    assert!(!t.contains("fewer than disjoint"), "{t}");
    assert!(
        t.contains(
            "holds token 9 for entries not yet finished; every token is in a finished entry"
        ),
        "{t}"
    );
    let out = run(&raw(&[("tokens", "10")]), Lang::En).unwrap();
    let t = text(&out, 0);
    assert!(
            t.contains("holds tokens 5–10 (6) for entries not yet finished; tokens 9–10 (2) in no finished entry yet"),
            "{t}"
        );
    let out = run(&raw(&[("width", "4")]), Lang::En).unwrap();
    assert!(text(&out, 0).contains("every token is in 1 entry"));
    let out = run(&raw(&[("width", "200")]), Lang::En).unwrap();
    assert!(!text(&out, 0).contains("raw tokens every V4 layer keeps"));
    assert!(run(&raw(&[("tokens", "1")]), Lang::En).is_ok());
    assert!(
        run(
            &raw(&[("tokens", "1,024"), ("stride", "1"), ("width", "256")]),
            Lang::En
        )
        .is_ok()
    );
}

#[test]
fn bad_parameters_name_each_field() {
    let errs = run(
        &raw(&[
            ("tokens", "0"),
            ("stride", "0"),
            ("ratio_hca", "x"),
            ("long", ""),
        ]),
        Lang::En,
    )
    .unwrap_err();
    let names: Vec<&str> = errs.iter().map(|e| e.param.as_str()).collect();
    assert_eq!(names, ["tokens", "stride", "ratio_hca", "long"]);
    let errs = run(&raw(&[("width", "3")]), Lang::En).unwrap_err();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].param, "width");
    assert!(
        errs[0]
            .message
            .starts_with("must be at least the stride (4)")
    );
    let errs = run(&raw(&[("long", "1 2 3 4 5 6 7 8 9")]), Lang::En).unwrap_err();
    assert_eq!(errs[0].message, "at most 8 values");
    assert!(run(&raw(&[("long", "1,099,511,627,777")]), Lang::En).is_err());
    assert!(run(&raw(&[("long", "1,099,511,627,776")]), Lang::En).is_ok());
}
