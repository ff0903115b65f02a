//! What a cell runs: parameters in, text, tables and plot specs out.

use std::collections::BTreeMap;

use serde::Serialize;

/// A demo a `cell` directive can name.
#[derive(Debug, Clone, Copy)]
pub struct Demo {
    /// Id used in the directive, e.g. `attended`.
    pub id: &'static str,
    /// Title shown above the cell.
    pub title: &'static str,
    /// The parameters the reader can edit, in order.
    pub params: &'static [Param],
    /// The Rust source shown in the cell (the anchored part of the demo's module).
    pub source: &'static str,
    /// Runs the demo on raw parameter text; errors name the parameter.
    pub run: fn(&Raw) -> Result<Output, Vec<ParamError>>,
}

/// A parameter of a demo, as the reader sees it.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    /// Key, e.g. `window`.
    pub name: &'static str,
    /// Label shown next to the input.
    pub label: &'static str,
    /// Default text of the input.
    pub default: &'static str,
    /// What is allowed, shown as a hint.
    pub help: &'static str,
    /// When not empty, the only values allowed (the app shows a drop-down).
    pub choices: &'static [&'static str],
    /// Several lines of text (the app shows a text area).
    pub multiline: bool,
}

impl Param {
    /// A one-line text parameter.
    pub const fn text(
        name: &'static str,
        label: &'static str,
        default: &'static str,
        help: &'static str,
    ) -> Param {
        Param {
            name,
            label,
            default,
            help,
            choices: &[],
            multiline: false,
        }
    }

    /// A parameter with a fixed set of values; the first is the default.
    pub const fn choice(
        name: &'static str,
        label: &'static str,
        choices: &'static [&'static str],
        help: &'static str,
    ) -> Param {
        Param {
            choices,
            ..Param::text(name, label, choices[0], help)
        }
    }

    /// A multi-line text parameter.
    pub const fn lines(
        name: &'static str,
        label: &'static str,
        default: &'static str,
        help: &'static str,
    ) -> Param {
        Param {
            multiline: true,
            ..Param::text(name, label, default, help)
        }
    }
}

/// Parses one of a fixed set of values.
pub fn parse_choice(
    raw: &Raw,
    name: &str,
    choices: &[&'static str],
) -> Result<&'static str, ParamError> {
    let text = raw.get(name).map(|s| s.trim()).unwrap_or("");
    choices
        .iter()
        .find(|c| **c == text)
        .copied()
        .ok_or_else(|| ParamError {
            param: name.to_owned(),
            message: format!("choose one of: {}", choices.join(", ")),
        })
}

/// Parses a number (decimal point or exponent allowed) in `min..=max`.
pub fn parse_float(raw: &Raw, name: &str, min: f64, max: f64) -> Result<f64, ParamError> {
    let err = |message: String| ParamError {
        param: name.to_owned(),
        message,
    };
    let text = raw.get(name).map(|s| s.trim()).unwrap_or("");
    if text.is_empty() {
        return Err(err("enter a number".to_owned()));
    }
    let v: f64 = text
        .replace('_', "")
        .parse()
        .map_err(|_| err(format!("`{text}` is not a number")))?;
    if !v.is_finite() || v < min || v > max {
        return Err(err(format!("must be between {min} and {max}")));
    }
    Ok(v)
}

/// Raw parameter text by name, as typed by the reader.
pub type Raw = BTreeMap<String, String>;

/// The defaults of a list of parameters.
pub fn defaults(params: &[Param]) -> Raw {
    params
        .iter()
        .map(|p| (p.name.to_owned(), p.default.to_owned()))
        .collect()
}

/// A parameter the reader got wrong, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ParamError {
    /// The parameter's name.
    pub param: String,
    /// A sentence for the reader.
    pub message: String,
}

/// What a demo produced, in display order.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Output {
    /// Text, tables and plots, in order.
    pub blocks: Vec<Block>,
}

/// One piece of output.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Block {
    /// Preformatted text.
    Text(String),
    /// A table with a header row.
    Table {
        /// Column headers.
        header: Vec<String>,
        /// Rows of cells.
        rows: Vec<Vec<String>>,
    },
    /// A chart; only the app knows how it is drawn.
    Plot(Plot),
}

/// A chart as plain series.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Plot {
    /// Chart title.
    pub title: String,
    /// X axis label.
    pub x_label: String,
    /// Y axis label.
    pub y_label: String,
    /// Logarithmic x axis.
    pub log_x: bool,
    /// Logarithmic y axis.
    pub log_y: bool,
    /// The series.
    pub series: Vec<Series>,
}

/// One line (or set of bars) on a chart.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Series {
    /// Legend name.
    pub name: String,
    /// X values.
    pub x: Vec<f64>,
    /// Y values.
    pub y: Vec<f64>,
    /// Draw as bars instead of lines with markers.
    pub bars: bool,
    /// Dashed line.
    pub dashed: bool,
}

/// Parses a whole number in `min..=max`; underscores and commas are allowed as
/// digit separators (`131_072`, `131,072`).
pub fn parse_int(raw: &Raw, name: &str, min: i64, max: i64) -> Result<i64, ParamError> {
    let err = |message: String| ParamError {
        param: name.to_owned(),
        message,
    };
    let text = raw.get(name).map(|s| s.trim()).unwrap_or("");
    if text.is_empty() {
        return Err(err("enter a whole number".to_owned()));
    }
    let digits: String = text.chars().filter(|c| *c != '_' && *c != ',').collect();
    let v: i64 = digits
        .parse()
        .map_err(|_| err(format!("`{text}` is not a whole number")))?;
    if v < min || v > max {
        return Err(err(format!(
            "must be between {} and {}",
            group(min),
            group(max)
        )));
    }
    Ok(v)
}

/// Parses a list of whole numbers separated by spaces or semicolons (commas
/// inside a number are digit separators), each in `min..=max`, at most `max_len`.
pub fn parse_int_list(
    raw: &Raw,
    name: &str,
    min: i64,
    max: i64,
    max_len: usize,
) -> Result<Vec<i64>, ParamError> {
    let err = |message: String| ParamError {
        param: name.to_owned(),
        message,
    };
    let text = raw.get(name).map(|s| s.trim()).unwrap_or("");
    let items: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ';')
        .filter(|s| !s.is_empty())
        .collect();
    if items.is_empty() {
        return Err(err("enter at least one whole number".to_owned()));
    }
    if items.len() > max_len {
        return Err(err(format!("at most {max_len} values")));
    }
    items
        .iter()
        .map(|item| {
            let one: Raw = [(name.to_owned(), (*item).to_owned())].into();
            parse_int(&one, name, min, max)
        })
        .collect()
}

/// Groups digits by thousands: `1048576` → `1,048,576`.
pub fn group(v: i64) -> String {
    let s = v.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    if v < 0 { format!("-{out}") } else { out }
}

/// Collects the errors of several independent parses, or returns all values.
pub fn all_ok<T>(results: Vec<Result<T, ParamError>>) -> Result<Vec<T>, Vec<ParamError>> {
    let (ok, errs): (Vec<_>, Vec<_>) = results.into_iter().partition(Result::is_ok);
    if errs.is_empty() {
        Ok(ok.into_iter().filter_map(Result::ok).collect())
    } else {
        Err(errs.into_iter().filter_map(Result::err).collect())
    }
}

/// The part of a source file between `// ANCHOR: name` and `// ANCHOR_END: name`,
/// so cells quote compiled code rather than a copy of it.
pub fn anchored(source: &'static str, name: &str) -> &'static str {
    let start = format!("// ANCHOR: {name}\n");
    let end = format!("// ANCHOR_END: {name}");
    let Some(a) = source.find(&start) else {
        return source;
    };
    let body = &source[a + start.len()..];
    match body.find(&end) {
        Some(b) => body[..b].trim_end(),
        None => body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn group_thousands() {
        assert_eq!(group(1_048_576), "1,048,576");
        assert_eq!(group(640), "640");
        assert_eq!(group(-1000), "-1,000");
    }

    #[test]
    fn anchored_extracts_the_region() {
        let src = "use x;\n// ANCHOR: demo\nfn a() {}\n// ANCHOR_END: demo\nmod tests {}\n";
        assert_eq!(anchored(src, "demo"), "fn a() {}");
    }
}
