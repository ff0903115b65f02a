//! The tests of `ledger.rs`, apart from it so that a notebook can include that
//! file as it is.

use super::*;
use crate::demo::test_help::table;
use crate::demo::defaults;

#[test]
fn v4_rows_reproduce_the_source_exactly() {
    let flash = model("DeepSeek-V4-Flash").unwrap();
    let pro = model("DeepSeek-V4-Pro").unwrap();
    assert_eq!(flash.per_token, 3_850.25);
    assert_eq!(flash.fixed, 15_420_416.0);
    assert_eq!(pro.per_token, 5_511.437_5);
    assert_eq!(pro.fixed, 23_270_400.0);
    assert_eq!(pro.bytes(262_144), Some(1_468_060_672.0));
}

#[test]
fn our_reading_of_the_entry_adds_up_to_584_bytes() {
    let parts: Vec<f64> = V4_ENTRY_PARTS.iter().map(|p| p.1).collect();
    assert_eq!(parts, [448.0, 128.0, 8.0]);
    assert_eq!(parts.iter().sum::<f64>(), V4_ENTRY);
    assert_eq!(V4_ENTRY, 584.0);
}

#[test]
fn the_markdown_table_holds_the_six_rows() {
    // Values worked out separately from the raw byte counts of MODELS
    // (e.g. Flash: 3,850.25 B / 1,024 = 3.76 KiB; (3,850.25 × 2^20 +
    // 15,420,416) B / 2^30 = 3.77 GiB).
    let expected = "\
| Model | per token (KiB) | fixed (MiB) | request at 128K = $2^{17}$ tokens (GiB) | request at 1M = $2^{20}$ tokens (GiB) |
|---|---:|---:|---:|---:|
| DeepSeek-V3.2 | 46.9 | 0.0 | 5.87 | not supported (max 160K) |
| DeepSeek-V4-Flash | 3.8 | 14.7 | 0.48 | 3.77 |
| DeepSeek-V4-Pro | 5.4 | 22.2 | 0.69 | 5.40 |
| Kimi-K3 | 27.0 | 414.0 | 3.78 | 27.40 |
| Gemma 4 12B | 8.0 | 320.0 | 1.31 | not supported (max 256K) |
| Qwen3.5-0.8B | 12.0 | 18.6 | 1.52 | not supported (max 256K) |
";
    assert_eq!(markdown_table(&default_models()), expected);
    // A name with the column separator stays in its cell.
    let odd = [Model {
        name: "a|b".into(),
        per_token: 1024.0,
        fixed: 0.0,
        max_len: 1_000,
    }];
    assert!(markdown_table(&odd).contains("| a\\|b | 1.0 | 0.0 | not supported (max 1,000) |"));
}

#[test]
fn length_labels() {
    assert_eq!(length_label(131_072), "128K");
    assert_eq!(length_label(1_048_576), "1M");
    assert_eq!(length_label(163_840), "160K");
    assert_eq!(length_label(3 << 20), "3M");
    assert_eq!(length_label(1_000), "1,000");
    assert_eq!(length_label(0), "0");
    assert_eq!(length_label(1_048_576 + 1_024), "1,025K");
}

#[test]
fn other_rows_and_limits() {
    let m = |n: &str| model(n).unwrap();
    assert_eq!(m("DeepSeek-V3.2").per_token, 48_068.0);
    assert_eq!(
        m("DeepSeek-V3.2").bytes(1_048_576),
        None,
        "past 163,840 tokens"
    );
    assert_eq!(m("Kimi-K3").fixed, 434_110_464.0);
    assert_eq!(m("Gemma 4 12B").fixed, 320.0 * 1024.0 * 1024.0);
    assert_eq!(m("Qwen3.5-0.8B").per_token, 12_288.0);
    assert_eq!(default_models().len(), 6);
}

#[test]
fn source_printout_figures() {
    let gib = |n: &str, l: u64| {
        format!(
            "{:.2}",
            model(n).unwrap().bytes(l).unwrap() / Units::Binary.giga()
        )
    };
    assert_eq!(gib("DeepSeek-V3.2", 131_072), "5.87");
    assert_eq!(gib("DeepSeek-V4-Flash", 1_048_576), "3.77");
    assert_eq!(gib("DeepSeek-V4-Pro", 1_048_576), "5.40");
    assert_eq!(gib("Kimi-K3", 1_048_576), "27.40");
    assert_eq!(gib("Gemma 4 12B", 131_072), "1.31");
    assert_eq!(gib("Qwen3.5-0.8B", 131_072), "1.52");
}

#[test]
fn units_and_exact_formatting() {
    assert_eq!(Units::Binary.fmt(3_850.25, 1), "3.8 KiB");
    assert_eq!(Units::Decimal.fmt(3_850.25, 1), "3.9 kB");
    assert_eq!(Units::Binary.fmt(500.0, 1), "500 B");
    assert_eq!(fmt_exact(5_511.437_5), "5,511.4375");
    assert_eq!(fmt_exact(15_420_416.0), "15,420,416");
}

#[test]
fn fmt_exact_rounds_correctly() {
    // It used to print "21." and "1,000." for these.
    assert_eq!(fmt_exact(2.999_999_9), "3");
    assert_eq!(fmt_exact(1_000.000_000_1), "1,000");
    assert_eq!(fmt_exact(1e19), "10,000,000,000,000,000,000");
    assert_eq!(fmt_exact(-0.0), "0");
    assert_eq!(fmt_exact(-0.000_000_1), "0");
    assert_eq!(fmt_exact(f64::NAN), "NaN");
    assert_eq!(fmt_exact(f64::INFINITY), "∞");
    assert_eq!(fmt_exact(f64::NEG_INFINITY), "-∞");
    assert_eq!(fmt_exact(0.5), "0.5");
    assert_eq!(fmt_exact(5_511.437_5), "5,511.4375");
    assert_eq!(fmt_exact(15_420_416.0), "15,420,416");
    assert_eq!(fmt_exact(3_850.25), "3,850.25");
    assert_eq!(fmt_exact(0.0), "0");
    assert_eq!(fmt_exact(-1_234.5), "-1,234.5");
    assert_eq!(fmt_exact(0.123_456_7), "0.123457");
    assert_eq!(fmt_exact(999_999.999_999_9), "1,000,000");
    assert_eq!(fmt_exact(1e-7), "0");
}

#[test]
fn nesting_is_limited_not_a_stack_overflow() {
    let deep = "(".repeat(10_000);
    let e = expr::eval(&deep).unwrap_err().en;
    assert!(e.starts_with("nested more than 32 deep"), "{e}");
    assert!(e.ends_with("at `((((((((((((((((((((((((…`"), "{e}");
    let minus = "-".repeat(10_000) + "1";
    assert!(
        expr::eval(&minus)
            .unwrap_err()
            .en
            .starts_with("nested more than 32 deep")
    );
    let calls = "v4_token(".repeat(1_000);
    assert!(
        expr::eval(&calls)
            .unwrap_err()
            .en
            .starts_with("nested more than 32 deep")
    );
    // 32 levels are fine, 33 are not.
    let ok = format!("{}1{}", "(".repeat(32), ")".repeat(32));
    assert_eq!(expr::eval(&ok), Ok(1.0));
    let too_deep = format!("{}1{}", "(".repeat(33), ")".repeat(33));
    assert!(expr::eval(&too_deep).is_err());
    // In the models box the error names the line and the column.
    let text = format!("A | 1 | 2 | 3\nB | {too_deep} | 0 | 5");
    let e = parse_models(&text).unwrap_err().en;
    assert!(
        e.starts_with("line 2, bytes per token: nested more than 32 deep"),
        "{e}"
    );
}

#[test]
fn the_models_box_has_length_and_count_limits() {
    let e = parse_models(&"(".repeat(10_000)).unwrap_err().en;
    assert_eq!(e, "at most 4,096 characters (this text has 10,000)");
    let thirteen: String = (1..=13).map(|i| format!("M{i} | 1 | 0 | 10\n")).collect();
    assert_eq!(
        parse_models(&thirteen).unwrap_err().en,
        "line 13: at most 12 models"
    );
    assert_eq!(
        parse_models(&thirteen[..thirteen.rfind("M13").unwrap()])
            .unwrap()
            .len(),
        12
    );
    assert!(MODELS.chars().count() <= MAX_MODELS_CHARS);
    let help = demo().help_in(MODEL_LIST.name, Lang::En);
    for limit in [
        format!("{MAX_MODELS} models"),
        format!("{} characters", group(MAX_MODELS_CHARS as i64)),
        format!("{} deep", expr::MAX_DEPTH),
    ] {
        assert!(help.contains(&limit), "{limit}");
    }
    let e = parse_models("A | 1e400 | 0 | 10").unwrap_err().en;
    assert_eq!(e, "line 1, bytes per token: too large for a 64-bit float");
    let e = parse_models("A | 1 | 2e18 | 10").unwrap_err().en;
    assert_eq!(e, "line 1, fixed bytes: at most 10^18 bytes");
    let e = parse_models("A | -1 | 0 | 10").unwrap_err().en;
    assert_eq!(e, "line 1, bytes per token: must be ≥ 0");
    // The largest values allowed give finite totals everywhere.
    let m = &parse_models("A | 10^18 | 0 | 10").unwrap_err().en;
    assert!(m.contains("unexpected text"), "{m}");
    let big = parse_models("A | 1e18 | 1e18 | 1e12").unwrap();
    assert!(big[0].bytes(1_000_000_000_000).unwrap().is_finite());
}

#[test]
fn expressions() {
    assert_eq!(expr::eval("61 * (656 + 132)"), Ok(48_068.0));
    assert_eq!(expr::eval("1_048_576 / 4 - -1"), Ok(262_145.0));
    assert!(
        expr::eval("2 +")
            .unwrap_err()
            .en
            .contains("expected a number")
    );
    assert!(
        expr::eval("foo(1)")
            .unwrap_err()
            .en
            .contains("unknown function `foo`")
    );
    assert!(
        expr::eval("v4_token(1, 2)")
            .unwrap_err()
            .en
            .contains("takes 3 arguments")
    );
    assert!(
        expr::eval("1 / 0")
            .unwrap_err()
            .en
            .contains("division by zero")
    );
    assert!(expr::eval("x").unwrap_err().en.contains("unknown name"));
}

#[test]
fn the_reader_can_add_a_model_and_bad_lines_are_named() {
    let mut raw = defaults(PARAMS);
    raw.insert(
        "models".into(),
        format!("{MODELS}\nMy model | 1000 | 2 * 1024 | 4096"),
    );
    let out = run(&raw, Lang::En).unwrap();
    let (_, rows) = table(&out, 0);
    assert_eq!(rows.len(), 7);
    assert_eq!(rows[6][5], "not supported");
    raw.insert("models".into(), "A | 1 | 2 | 3\nB | 1 + | 0 | 5".into());
    let e = run(&raw, Lang::En).unwrap_err();
    assert_eq!(e[0].param, "models");
    assert!(
        e[0].message.starts_with("line 2, bytes per token:"),
        "{}",
        e[0].message
    );
    raw.insert("models".into(), "A | 1 | 2".into());
    assert!(
        run(&raw, Lang::En).unwrap_err()[0]
            .message
            .contains("expected `name |")
    );
}
