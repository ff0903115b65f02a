//! Printing verdicts: a line per exercise and language, the first failing case
//! with its values and what the code printed, and `N passed, M failed` last; or
//! the same verdicts as JSON.

use std::process::ExitCode;

use judge::{CaseResult, Mismatch, Status, Value};

use crate::Results;

/// Prints `results` and returns the exit status: 0 only when something was
/// attempted and everything attempted passed.
pub fn report(results: &Results, json: bool) -> ExitCode {
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
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        if let Some(e) = &results.build_error {
            println!(
                "✗ the Rust practice package does not compile:\n{}\n",
                indent(e)
            );
        }
        for g in graded {
            let v = &g.verdict;
            let mark = match v.status {
                Status::Passed => "✓",
                Status::NotAttempted => "·",
                _ => "✗",
            };
            println!(
                "{mark} {} [{}]: {} ({}/{} cases)",
                v.exercise,
                g.lang,
                v.status.label(),
                v.passed,
                v.total
            );
            if matches!(v.status, Status::Passed | Status::NotAttempted) {
                continue;
            }
            if results.build_error.is_none() || g.lang == "rhai" {
                println!("{}", indent(&v.message));
            }
            if let Some(c) = v.first_failure() {
                case_details(c);
            }
        }
        if not_attempted > 0 {
            println!("{not_attempted} not attempted");
        }
        println!("{passed} passed, {failed} failed");
    }
    if failed == 0 && passed > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The values, the seed and the printed output of a failing case.
fn case_details(c: &CaseResult) {
    if let Some(m) = &c.mismatch {
        let at = if m.path.is_empty() {
            "value".to_owned()
        } else {
            m.path.clone()
        };
        println!("    {at}: expected {}, got {}{}", m.want, m.got, errors(m));
    }
    if let judge::Kind::Generated { seed } = c.kind {
        println!("    (generated case, seed {seed})");
    }
    if !c.printed.is_empty() {
        println!("    printed during case {}:", c.index);
        for l in &c.printed {
            println!("      | {l}");
        }
    }
    if c.printed_withheld > 0 {
        println!(
            "    case {} is hidden: the {} line(s) it printed are withheld",
            c.index, c.printed_withheld
        );
    }
}

/// `, off by 3` for integers; `, abs. error …, rel. error …` for floats.
fn errors(m: &Mismatch) -> String {
    if let (Value::Int(w), Value::Int(g)) = (&m.want, &m.got) {
        return format!(", off by {}", (*g as i128 - *w as i128).abs());
    }
    match (m.abs_err, m.rel_err) {
        (Some(a), Some(r)) => format!(", abs. error {a:e}, rel. error {r:e}"),
        (Some(a), None) => format!(", abs. error {a:e}"),
        _ => String::new(),
    }
}

fn indent(s: &str) -> String {
    s.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
