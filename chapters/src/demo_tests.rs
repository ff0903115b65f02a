//! The tests of `demo.rs`, apart from it so that a notebook can include that
//! file as it is.

use super::*;

fn has_chinese(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// Titles, labels and help come from the chapters' `cells.<lang>.toml`,
/// each parameter's from its own demo's table, and the Chinese ones are
/// written in Chinese.
#[test]
fn cells_read_in_both_languages() {
    for d in crate::all_demos() {
        for lang in Lang::ALL {
            let t = crate::cells::cell_texts(lang, d.id).expect("every demo has its texts");
            assert_eq!(d.title_in(lang), t.title);
            for p in d.params {
                let pt = t.params.iter().find(|t| t.name == p.name).expect("texts");
                let help = d.help_in(p.name, lang);
                assert_eq!(d.label_in(p.name, lang), pt.label, "{}.{}", d.id, p.name);
                // The whole help, or the declared range and then the note.
                if pt.full {
                    assert_eq!(help, pt.help, "{}.{}", d.id, p.name);
                } else {
                    assert!(help.starts_with(&p.range_in(lang)), "{}.{}", d.id, p.name);
                    assert!(help.ends_with(pt.help), "{}.{}", d.id, p.name);
                }
                if lang == Lang::Zh {
                    assert!(has_chinese(&help), "{}.{}: {help}", d.id, p.name);
                }
            }
        }
        assert!(has_chinese(d.title_in(Lang::Zh)), "{}", d.id);
        assert!(!has_chinese(d.title_in(Lang::En)), "{}", d.id);
    }
}

/// A note says what the declaration does not: it never restates the
/// declared largest value, which the page's help already shows.
#[test]
fn notes_do_not_restate_the_declared_range() {
    let number_at = |text: &str, n: &str| {
        text.match_indices(n).any(|(i, _)| {
            let before = text[..i].chars().next_back();
            let after = text[i + n.len()..].chars().next();
            let part = |c: Option<char>| {
                c.is_some_and(|c| c.is_ascii_alphanumeric() || c == ',' || c == '.')
            };
            !part(before) && !part(after)
        })
    };
    for d in crate::all_demos() {
        for lang in Lang::ALL {
            let t = crate::cells::cell_texts(lang, d.id).expect("every demo has its texts");
            for p in d.params {
                let max = match p.kind {
                    Kind::Int { max, .. } | Kind::Ints { max, .. } => group(max),
                    Kind::Float { max, .. } | Kind::Floats { max, .. } => bound(max),
                    Kind::Choice | Kind::Text => continue,
                };
                let Some(pt) = t.params.iter().find(|t| t.name == p.name) else {
                    continue;
                };
                assert!(
                    pt.full || !number_at(pt.help, &max),
                    "{}.{} ({}): the note restates the declared {max}: {}",
                    d.id,
                    p.name,
                    lang.code(),
                    pt.help
                );
            }
        }
    }
}

/// Every demo refuses empty and over-long fields with a message in each
/// language, and the Chinese one is written in Chinese.
#[test]
fn parameter_errors_come_in_both_languages() {
    for d in crate::all_demos() {
        for bad in ["", "x", "-1", &"9".repeat(MAX_FIELD_CHARS + 1)] {
            let raw: Raw = d
                .params
                .iter()
                .map(|p| (p.name.to_owned(), bad.to_owned()))
                .collect();
            let Err(errors) = (d.run)(&raw, Lang::En) else {
                continue;
            };
            for e in errors {
                assert_eq!(e.message_in(Lang::En), e.message);
                let zh = e.message_in(Lang::Zh);
                assert!(has_chinese(&zh), "{} `{bad}`: {zh:?} ({})", d.id, e.message);
            }
        }
    }
    assert_eq!(source_summary_in(Lang::Zh, 12, None), "Rust 源码（12 行）");
    assert_eq!(
        source_summary_in(Lang::En, 12, None),
        source_summary(12, None)
    );
    assert_eq!(cjk_join("请调小", "token 数"), "请调小 token 数");
    assert_eq!(cjk_join("请调小", "层数"), "请调小层数");
}

#[test]
fn chart_values_read_as_numbers() {
    assert_eq!(fmt_value(131072.0), "131,072");
    assert_eq!(fmt_value(0.1 + 0.2), "0.3");
    assert_eq!(fmt_value(1.23456), "1.235");
    let f = |t: &str| {
        let mut raw = Raw::new();
        raw.insert("x".into(), t.into());
        parse_float(&raw, "x", -1e9, 1e9)
    };
    assert_eq!(f("10,000"), Ok(10_000.0));
    assert_eq!(f("-1,234,567.25"), Ok(-1_234_567.25));
    assert_eq!(f("1_000.5"), Ok(1_000.5));
    assert!(
        f("1,5")
            .unwrap_err()
            .message
            .contains("use a point for decimals")
    );
    assert!(f("1,0000").is_err());
    assert!(f("1.000,5").is_err());
    assert!(f(",100").is_err());
    assert_eq!(fmt_value(1234.56), "1,235");
    assert_eq!(fmt_value(1030.1), "1,030");
    assert_eq!(fmt_value(-20000.5), "-20,001");
    assert_eq!(fmt_value(100.5), "100.5");
    assert_eq!(fmt_value(0.0012346), "0.001235");
    assert_eq!(fmt_value(2.5e-7), "2.500e-7");
    assert_eq!(fmt_value(3.0e20), "3.000e20");
    assert_eq!(fmt_value(f64::INFINITY), "inf");
}

#[test]
fn a_chart_reads_as_a_table() {
    let s = |name: &str, x: &[f64], y: &[f64]| Series {
        name: name.into(),
        x: x.to_vec(),
        y: y.to_vec(),
        ..Series::default()
    };
    let p = Plot {
        x_label: "layers".into(),
        series: vec![
            s("a", &[1.0, 2.0, 3.0], &[1.0, 0.5, 0.25]),
            s("b", &[1.0, 2.0], &[2.0, 4.0]),
        ],
        ..Plot::default()
    };
    let (header, rows) = p.data_table();
    assert_eq!(header, ["layers", "a", "b"]);
    assert_eq!(
        rows,
        [["1", "1", "2"], ["2", "0.5", "4"], ["3", "0.25", ""]]
    );

    let h = Plot {
        heatmap: Some(Heatmap {
            x: vec!["0".into(), "1".into()],
            y: vec!["row".into()],
            z: vec![vec![0.5, 1.5]],
            z_label: "load".into(),
            z_range: None,
        }),
        ..Plot::default()
    };
    let (header, rows) = h.data_table();
    assert_eq!(header, ["", "0", "1"]);
    assert_eq!(rows, [["row", "0.5", "1.5"]]);
}

fn raw(v: &str) -> Raw {
    [("n".to_owned(), v.to_owned())].into()
}

#[test]
fn parse_int_accepts_separators_and_checks_range() {
    assert_eq!(parse_int(&raw("131,072"), "n", 1, 1 << 30), Ok(131_072));
    assert_eq!(parse_int(&raw(" 4_096 "), "n", 1, 1 << 30), Ok(4096));
    assert_eq!(
        parse_int(&raw("-5"), "n", 1, 10).unwrap_err().message,
        "must be between 1 and 10"
    );
    assert_eq!(
        parse_int(&raw(""), "n", 1, 10).unwrap_err().message,
        "enter a whole number"
    );
    assert_eq!(
        parse_int(&raw("abc"), "n", 1, 10).unwrap_err().message,
        "`abc` is not a whole number"
    );
    assert_eq!(
        parse_int(&raw("1e3"), "n", 1, 10).unwrap_err().message,
        "`1e3` is not a whole number"
    );
    // Past 64 bits: too large or too small, with the bound (#30).
    let big = parse_int(&raw("99999999999999999999999"), "n", 0, 4_294_967_295).unwrap_err();
    assert_eq!(
        big.message,
        "`99999999999999999999999` is too large: the largest allowed is 4,294,967,295"
    );
    assert_eq!(
        big.message_zh,
        "`99999999999999999999999` 太大：最大允许 4,294,967,295"
    );
    assert_eq!(
        parse_int(&raw("-99,999,999,999,999,999,999"), "n", -5, 10)
            .unwrap_err()
            .message,
        "`-99,999,999,999,999,999,999` is too small: the smallest allowed is -5"
    );
}

#[test]
fn parse_int_list_splits_on_space_and_semicolon() {
    assert_eq!(
        parse_int_list(&raw("4,096 131,072; 1048576"), "n", 1, 1 << 30, 8),
        Ok(vec![4096, 131_072, 1_048_576])
    );
    assert!(parse_int_list(&raw(" "), "n", 1, 10, 8).is_err());
    assert!(parse_int_list(&raw("1 2 x"), "n", 1, 10, 8).is_err());
}

#[test]
fn long_text_is_refused_before_parsing() {
    let long = "1".repeat(MAX_FIELD_CHARS + 1);
    for result in [
        parse_int(&raw(&long), "n", 1, 10).map(drop),
        parse_float(&raw(&long), "n", 1.0, 10.0).map(drop),
        parse_int_list(&raw(&long), "n", 1, 10, 8).map(drop),
        parse_choice(&raw(&long), "n", &["a"]).map(drop),
    ] {
        assert_eq!(result.unwrap_err().message, "at most 256 characters");
    }
    let spaces = "  7  ";
    assert_eq!(parse_int(&raw(spaces), "n", 1, 10), Ok(7));
    // A megabyte of separators is refused, not split into a million items.
    let huge = "1 ".repeat(500_000);
    assert!(parse_int_list(&raw(&huge), "n", 1, 10, 8).is_err());
}

#[test]
fn budgets_are_checked_in_64_bits() {
    assert_eq!(checked_product(&[4_096, 1 << 20]), Some(1 << 32));
    assert_eq!(checked_product(&[u64::MAX, 2]), None);
    assert_eq!(checked_product(&[]), Some(1));
    assert_eq!(checked_sum(&[u64::MAX, 1]), None);
    assert_eq!(checked_sum(&[524_288, 524_288]), Some(1 << 20));
    assert_eq!(
        check_budget(
            "n",
            &Msg::new("n", "n"),
            Some(10),
            10,
            &Msg::new("steps", "步数"),
            &Msg::new("n", "n")
        ),
        Ok(())
    );
    assert_eq!(
        check_budget(
            "tokens",
            &Msg::new("tokens × D", "token 数 × D"),
            Some(2_097_152),
            1_000_000,
            &Msg::new("element operations", "元素运算次数"),
            &Msg::new("tokens or D", "token 数或 D")
        )
        .unwrap_err(),
        ParamError::new(
            "tokens",
            "tokens × D = 2,097,152 exceeds the cell's budget of 1,000,000 element operations; lower tokens or D",
            "token 数 × D = 2,097,152，超出本单元格的预算（元素运算次数至多 1,000,000）；请调小 token 数或 D"
        )
    );
    assert_eq!(
        check_budget(
            "a",
            &Msg::new("a × b", "a × b"),
            None,
            5,
            &Msg::new("steps", "步数"),
            &Msg::new("a or b", "a 或 b")
        )
        .unwrap_err()
        .message,
        "a × b is more than 2^64, far beyond the cell's budget of 5 steps; lower a or b"
    );
}

#[test]
fn group_thousands() {
    assert_eq!(group(1_048_576), "1,048,576");
    assert_eq!(group(640), "640");
    assert_eq!(group(-1000), "-1,000");
    assert_eq!(group(i64::MIN), "-9,223,372,036,854,775,808");
    assert_eq!(group_u64(u64::MAX), "18,446,744,073,709,551,615");
    assert_eq!(group_u64(0), "0");
}

#[test]
fn anchored_extracts_the_region() {
    let src = "use x;\n// ANCHOR: demo\nfn a() {}\n// ANCHOR_END: demo\nmod tests {}\n";
    assert_eq!(anchored(src, "demo"), "fn a() {}");
}

#[test]
fn a_missing_anchor_never_shows_the_whole_file() {
    let src = "fn hidden_cases() {}\n// ANCHOR: demo\nfn a() {}\n";
    for name in ["reference", "demo"] {
        let shown = std::panic::catch_unwind(|| anchored(src, name));
        assert!(shown.is_err(), "`{name}` should fail, got {shown:?}");
    }
}
