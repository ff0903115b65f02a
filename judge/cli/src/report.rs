//! Printing verdicts: a line per exercise and language, the first failing case
//! with its values and what the code printed, and `N passed, M failed` last; or
//! the same verdicts as JSON. The lines for people are in the reader's
//! language; the JSON is the same in both.

use std::process::ExitCode;

use judge::{CaseResult, Lang, Mismatch, Status, Value};

use crate::Results;

/// Prints `results` (in `lang`, or as JSON) and returns the exit status: 0 only
/// when something was attempted and everything attempted passed.
pub fn report(results: &Results, json: bool, lang: Lang) -> ExitCode {
    let graded = &results.graded;
    let count = |s: Status| graded.iter().filter(|g| g.verdict.status == s).count();
    let passed = count(Status::Passed);
    let not_attempted = count(Status::NotAttempted);
    let failed = graded.len() - passed - not_attempted;
    if json {
        let items: Vec<serde_json::Value> = graded
            .iter()
            .map(|g| {
                let mut v = serde_json::to_value(&g.verdict).unwrap_or_default();
                v["language"] = g.lang.into();
                v["elapsed_ms"] = (g.elapsed.as_secs_f64() * 1000.0).round().into();
                v
            })
            .collect();
        let out = match &results.build_error {
            // The package's own errors once, beside the verdicts.
            Some(e) => serde_json::json!({ "build_error": e, "verdicts": items }),
            None => serde_json::Value::Array(items),
        };
        outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        if let Some(e) = &results.build_error {
            match lang {
                Lang::En => outln!(
                    "✗ the Rust practice package does not compile:\n{}\n",
                    indent(e)
                ),
                Lang::Zh => outln!("✗ Rust 练习包无法编译：\n{}\n", indent(e)),
            }
        }
        for g in graded {
            let v = &g.verdict;
            let mark = match v.status {
                Status::Passed => "✓",
                Status::NotAttempted => "·",
                _ => "✗",
            };
            let (id, label, n, all) = (&v.exercise, v.status.label_in(lang), v.passed, v.total);
            match lang {
                Lang::En => outln!("{mark} {id} [{}]: {label} ({n}/{all} cases)", g.lang),
                Lang::Zh => outln!("{mark} {id} [{}]：{label}（{n}/{all} 个用例）", g.lang),
            }
            if matches!(v.status, Status::Passed | Status::NotAttempted) {
                continue;
            }
            if results.build_error.is_none() || g.lang == "rhai" {
                outln!("{}", indent(&v.message_in(lang)));
            }
            if let Some(c) = v.first_failure() {
                case_details(c, lang);
            }
        }
        match lang {
            Lang::En => {
                if not_attempted > 0 {
                    outln!("{not_attempted} not attempted");
                }
                outln!("{passed} passed, {failed} failed");
            }
            Lang::Zh => {
                if not_attempted > 0 {
                    outln!("{not_attempted} 个尚未作答");
                }
                outln!("{passed} 个通过，{failed} 个未通过");
            }
        }
    }
    if failed == 0 && passed > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The values, the seed and the printed output of a failing case, in `lang`.
fn case_details(c: &CaseResult, lang: Lang) {
    if let Some(m) = &c.mismatch {
        let (want, got, errs) = (&m.want, &m.got, errors(m, lang));
        match (lang, m.path.as_str()) {
            (Lang::En, "") => outln!("    value: expected {want}, got {got}{errs}"),
            (Lang::En, at) => outln!("    {at}: expected {want}, got {got}{errs}"),
            (Lang::Zh, "") => outln!("    值：应为 {want}，实际为 {got}{errs}"),
            (Lang::Zh, at) => outln!("    {at}：应为 {want}，实际为 {got}{errs}"),
        }
    }
    if let judge::Kind::Generated { seed } = c.kind {
        match lang {
            Lang::En => outln!("    (generated case, seed {seed})"),
            Lang::Zh => outln!("    （生成的用例，种子 {seed}）"),
        }
    }
    if !c.printed.is_empty() {
        match lang {
            Lang::En => outln!("    printed during case {}:", c.index),
            Lang::Zh => outln!("    第 {} 个用例运行时打印了：", c.index),
        }
        for l in &c.printed {
            outln!("      | {l}");
        }
    }
    if c.printed_withheld > 0 {
        let (i, n) = (c.index, c.printed_withheld);
        match lang {
            Lang::En => {
                outln!("    case {i} is hidden: the {n} line(s) it printed are withheld")
            }
            Lang::Zh => outln!("    第 {i} 个用例是隐藏用例：它打印的 {n} 行内容不予显示"),
        }
    }
}

/// `, off by 3` for integers; `, abs. error …, rel. error …` for floats (in `lang`).
fn errors(m: &Mismatch, lang: Lang) -> String {
    if let (Value::Int(w), Value::Int(g)) = (&m.want, &m.got) {
        let off = (*g as i128 - *w as i128).abs();
        return match lang {
            Lang::En => format!(", off by {off}"),
            Lang::Zh => format!("，相差 {off}"),
        };
    }
    match (m.abs_err, m.rel_err, lang) {
        (Some(a), Some(r), Lang::En) => format!(", abs. error {a:e}, rel. error {r:e}"),
        (Some(a), Some(r), Lang::Zh) => format!("，绝对误差 {a:e}，相对误差 {r:e}"),
        (Some(a), None, Lang::En) => format!(", abs. error {a:e}"),
        (Some(a), None, Lang::Zh) => format!("，绝对误差 {a:e}"),
        _ => String::new(),
    }
}

fn indent(s: &str) -> String {
    s.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
