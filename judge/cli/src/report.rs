//! Printing verdicts: a line per exercise and language, the first failing case
//! with its values and what the code printed (after the smallest failing
//! input shrunk from a generated case, when there is one), the known mistake the results
//! match (if any), and `N passed, M failed` last; or
//! the same verdicts as JSON. The lines for people are in the reader's
//! language; the JSON is the same in both.

use std::process::ExitCode;

use judge::{CaseResult, Lang, Mismatch, Status, Value};

use crate::Results;
use crate::words::report as w;

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
            outln!("{}\n{}\n", w::build_error.as_str(lang), indent(e));
        }
        for g in graded {
            let v = &g.verdict;
            let mark = match v.status {
                Status::Passed => "✓",
                Status::NotAttempted => "·",
                _ => "✗",
            };
            let line = w::verdict {
                mark,
                id: &v.exercise,
                language: g.lang,
                label: v.status.label_in(lang),
                passed: v.passed,
                total: v.total,
            };
            outln!("{}", line.text(lang));
            if matches!(v.status, Status::Passed | Status::NotAttempted) {
                continue;
            }
            // The smallest failing input first, then the case it came from.
            if let Some(s) = &v.shrunk {
                shrunk_details(s, v, lang);
            }
            if results.build_error.is_none() || g.lang == "rhai" {
                outln!("{}", indent(&v.message_in(lang)));
            }
            if let Some(c) = v.first_failure() {
                case_details(c, lang);
            }
            if let Some(m) = &v.misconception {
                // In the reader's language, from the exercise's metadata.
                let text = exercises::by_id(&v.exercise)
                    .and_then(|e| e.mistake_in(&m.id, lang))
                    .unwrap_or(&m.text);
                outln!("    {}", w::misconception { text }.text(lang));
            }
        }
        if not_attempted > 0 {
            let count = not_attempted;
            outln!("{}", w::not_attempted { count }.text(lang));
        }
        outln!("{}", w::summary { passed, failed }.text(lang));
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
        let (want, got, errors) = (&m.want, &m.got, errors(m, lang));
        let line = match m.path.as_str() {
            "" => w::value_mismatch { want, got, errors }.text(lang),
            path => w::path_mismatch {
                path,
                want,
                got,
                errors,
            }
            .text(lang),
        };
        outln!("    {line}");
    }
    if let judge::Kind::Generated { seed } = c.kind {
        outln!("    {}", w::generated { seed }.text(lang));
    }
    if !c.printed.is_empty() {
        outln!("    {}", w::printed { case: c.index }.text(lang));
        for l in &c.printed {
            outln!("      | {l}");
        }
    }
    if c.printed_withheld > 0 {
        let withheld = w::withheld {
            case: c.index,
            lines: c.printed_withheld,
        };
        outln!("    {}", withheld.text(lang));
    }
}

/// The smallest failing input found from a generated case: the call, then
/// the expected and actual values (or the error), in `lang`.
fn shrunk_details(s: &judge::shrink::Shrunk, v: &judge::Verdict, lang: Lang) {
    let function = exercises::by_id(&v.exercise).map_or("f", |e| e.function);
    let line = w::shrunk {
        call: judge::call_text(function, &s.input),
        case: s.case,
        seed: s.seed,
    };
    outln!("    {}", line.text(lang));
    let second = match (&s.actual, &s.error) {
        (Some(actual), _) => w::shrunk_value {
            expected: &s.expected,
            actual,
        }
        .text(lang),
        (None, Some(e)) => w::shrunk_error {
            error: e.message_in(lang),
        }
        .text(lang),
        (None, None) => return,
    };
    outln!("      {second}");
}

/// `, off by 3` for integers; `, abs. error …, rel. error …` for floats (in `lang`).
fn errors(m: &Mismatch, lang: Lang) -> String {
    if let (Value::Int(w), Value::Int(g)) = (&m.want, &m.got) {
        let off = (*g as i128 - *w as i128).abs();
        return w::off_by { off }.text(lang);
    }
    // The catalogs take no format specs: the numbers are written here.
    match (m.abs_err, m.rel_err) {
        (Some(a), Some(r)) => w::abs_rel_error {
            abs: format!("{a:e}"),
            rel: format!("{r:e}"),
        }
        .text(lang),
        (Some(a), None) => w::abs_error {
            abs: format!("{a:e}"),
        }
        .text(lang),
        _ => String::new(),
    }
}

fn indent(s: &str) -> String {
    s.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
