//! What a cell runs: parameters in; text, tables, plot specs and folds out.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::lang::Lang;
use crate::say::Message;
use crate::say::params as say;

/// A demo a `cell` directive can name.
#[derive(Debug, Clone, Copy)]
pub struct Demo {
    /// Id used in the directive, e.g. `attended`.
    pub id: &'static str,
    /// The parameters the reader can edit, in order.
    pub params: &'static [Param],
    /// The Rust source shown in the cell (the anchored part of the demo's module);
    /// only in builds that render the text, which show it highlighted.
    #[cfg(feature = "render")]
    pub source: &'static str,
    /// Runs the demo on raw parameter text, its sentences, headers and chart
    /// labels written in the given language (the numbers are the same in
    /// each); errors name the parameter. Only with the `run` feature: the
    /// page's wasm shows outputs that its worker computes.
    #[cfg(feature = "run")]
    pub run: fn(&Raw, Lang) -> Result<Output, Vec<ParamError>>,
}

/// A parameter of a demo, as the reader sees it, declared once with its type
/// and range: the parse ([`Param::read_int`], …), the range the page's help
/// states ([`Demo::help_in`]) and the errors all come from the declaration.
/// Its label and a note on it, like the demo's title, are words: they are in
/// the chapter's `cells.<lang>.toml`.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    /// Key, e.g. `window`.
    pub name: &'static str,
    /// Default text of the input.
    pub default: &'static str,
    /// What it holds and the values allowed.
    pub kind: Kind,
    /// When not empty, the only values allowed (the app shows a drop-down).
    pub choices: &'static [&'static str],
    /// Several lines of text (the app shows a text area).
    pub multiline: bool,
}

/// What a parameter holds, and the values allowed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A whole number in `min..=max`.
    Int {
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// A number in `min..=max`.
    Float {
        /// Smallest allowed.
        min: f64,
        /// Largest allowed.
        max: f64,
    },
    /// Up to `len` whole numbers, each in `min..=max`.
    Ints {
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
        /// Most values.
        len: usize,
    },
    /// Up to `len` numbers, each in `min..=max`.
    Floats {
        /// Smallest allowed.
        min: f64,
        /// Largest allowed.
        max: f64,
        /// Most values.
        len: usize,
    },
    /// One of [`Param::choices`].
    Choice,
    /// Text the demo parses itself (its note says how).
    Text,
}

impl Param {
    /// A one-line text parameter the demo parses itself.
    pub const fn text(name: &'static str, default: &'static str) -> Param {
        Param {
            name,
            default,
            kind: Kind::Text,
            choices: &[],
            multiline: false,
        }
    }

    /// A whole number in `min..=max`.
    pub const fn int(name: &'static str, default: &'static str, min: i64, max: i64) -> Param {
        Param {
            kind: Kind::Int { min, max },
            ..Param::text(name, default)
        }
    }

    /// A number in `min..=max`.
    pub const fn float(name: &'static str, default: &'static str, min: f64, max: f64) -> Param {
        Param {
            kind: Kind::Float { min, max },
            ..Param::text(name, default)
        }
    }

    /// Up to `len` whole numbers, each in `min..=max`.
    pub const fn ints(
        name: &'static str,
        default: &'static str,
        min: i64,
        max: i64,
        len: usize,
    ) -> Param {
        Param {
            kind: Kind::Ints { min, max, len },
            ..Param::text(name, default)
        }
    }

    /// Up to `len` numbers, each in `min..=max`.
    pub const fn floats(
        name: &'static str,
        default: &'static str,
        min: f64,
        max: f64,
        len: usize,
    ) -> Param {
        Param {
            kind: Kind::Floats { min, max, len },
            ..Param::text(name, default)
        }
    }

    /// A parameter with a fixed set of values; the first is the default.
    pub const fn choice(name: &'static str, choices: &'static [&'static str]) -> Param {
        Param {
            choices,
            kind: Kind::Choice,
            ..Param::text(name, choices[0])
        }
    }

    /// A multi-line text parameter the demo parses itself.
    pub const fn lines(name: &'static str, default: &'static str) -> Param {
        Param {
            multiline: true,
            ..Param::text(name, default)
        }
    }

    /// The reader's whole number, checked against the declared range.
    pub fn read_int(&self, raw: &Raw) -> Result<i64, ParamError> {
        match self.kind {
            Kind::Int { min, max } => parse_int(raw, self.name, min, max),
            _ => panic!("`{}` is not declared as a whole number", self.name),
        }
    }

    /// The reader's number, checked against the declared range.
    pub fn read_float(&self, raw: &Raw) -> Result<f64, ParamError> {
        match self.kind {
            Kind::Float { min, max } => parse_float(raw, self.name, min, max),
            _ => panic!("`{}` is not declared as a number", self.name),
        }
    }

    /// The reader's whole numbers, checked against the declared range and count.
    pub fn read_ints(&self, raw: &Raw) -> Result<Vec<i64>, ParamError> {
        match self.kind {
            Kind::Ints { min, max, len } => parse_int_list(raw, self.name, min, max, len),
            _ => panic!("`{}` is not declared as whole numbers", self.name),
        }
    }

    /// The reader's numbers, checked against the declared range and count.
    pub fn read_floats(&self, raw: &Raw) -> Result<Vec<f64>, ParamError> {
        match self.kind {
            Kind::Floats { min, max, len } => parse_float_list(raw, self.name, min, max, len),
            _ => panic!("`{}` is not declared as numbers", self.name),
        }
    }

    /// The reader's choice, one of the declared ones.
    pub fn read_choice(&self, raw: &Raw) -> Result<&'static str, ParamError> {
        parse_choice(raw, self.name, self.choices)
    }

    /// What the declaration allows, in `lang` ("a whole number from 1 to
    /// 1,024"); empty for a choice or a text the demo parses itself.
    pub fn range_in(&self, lang: Lang) -> String {
        let int = |v: i64| group(v);
        match self.kind {
            Kind::Int { min, max } => say::range_int {
                min: int(min),
                max: int(max),
            }
            .text(lang),
            Kind::Float { min, max } => say::range_float {
                min: bound(min),
                max: bound(max),
            }
            .text(lang),
            Kind::Ints { min, max, len } => say::range_ints {
                n: len,
                min: int(min),
                max: int(max),
            }
            .text(lang),
            Kind::Floats { min, max, len } => say::range_floats {
                n: len,
                min: bound(min),
                max: bound(max),
            }
            .text(lang),
            Kind::Choice | Kind::Text => String::new(),
        }
    }
}

/// A float bound as the help shows it: digits grouped, no trailing zeros
/// (`10,000`, `0.01`, `1e-9`).
pub fn bound(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        group(v as i64)
    } else if v != 0.0 && (v.abs() < 1e-3 || v.abs() >= 1e15) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// Longest text a one-line parameter may hold, in characters. Checked before
/// any parsing, so a pasted megabyte costs nothing.
pub const MAX_FIELD_CHARS: usize = 256;

/// The reader's text for parameter `name`, trimmed (empty when absent); an
/// error naming the limit when it is longer than [`MAX_FIELD_CHARS`].
pub fn field_text<'a>(raw: &'a Raw, name: &str) -> Result<&'a str, ParamError> {
    let text = raw.get(name).map(|s| s.trim()).unwrap_or("");
    if text.chars().nth(MAX_FIELD_CHARS).is_some() {
        return Err(ParamError::said(
            name,
            &say::too_long {
                max: MAX_FIELD_CHARS,
            },
        ));
    }
    Ok(text)
}

/// The product of `factors` in 64-bit arithmetic, or `None` past `u64::MAX`.
/// Work estimates use this rather than `usize`, which is 32 bits in WASM.
pub fn checked_product(factors: &[u64]) -> Option<u64> {
    factors.iter().try_fold(1u64, |acc, &f| acc.checked_mul(f))
}

/// The sum of `terms` in 64-bit arithmetic, or `None` past `u64::MAX`.
pub fn checked_sum(terms: &[u64]) -> Option<u64> {
    terms.iter().try_fold(0u64, |acc, &t| acc.checked_add(t))
}

/// Checks a demo's estimated work before it runs: `Ok` when `work` is at most
/// `budget`, otherwise an error on `param` such as "tokens × D² = 2,097,152
/// exceeds the cell's budget of 1,000,000 element operations; lower tokens or
/// D". `what` names the estimate, `unit` what it counts, `lower` the
/// parameters to lower: messages of the demo's catalog. `None` (the estimate
/// overflowed 64 bits) is over budget.
pub fn check_budget(
    param: &str,
    what: &dyn Message,
    work: Option<u64>,
    budget: u64,
    unit: &dyn Message,
    lower: &dyn Message,
) -> Result<(), ParamError> {
    if work.is_some_and(|w| w <= budget) {
        return Ok(());
    }
    let budget = group_u64(budget);
    Err(ParamError::in_all(
        param,
        Lang::ALL.map(|lang| {
            let (what, unit) = (what.text(lang), unit.text(lang));
            let lower = cjk_join(say::lower.as_str(lang), &lower.text(lang));
            match work {
                Some(w) => say::over_budget {
                    what,
                    work: group_u64(w),
                    budget: &budget,
                    unit,
                    lower,
                }
                .text(lang),
                None => say::past_64_bits {
                    what,
                    budget: &budget,
                    unit,
                    lower,
                }
                .text(lang),
            }
        }),
    ))
}

/// `a` and `b` joined as Chinese typesetting has it: a space between a Chinese
/// character and a Latin letter or digit, none between two Chinese characters
/// (`请调小` + `token 数` → `请调小 token 数`; `请调小` + `层数` → `请调小层数`).
pub fn cjk_join(a: &str, b: &str) -> String {
    let latin = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    let wide = |c: Option<char>| c.is_some_and(|c| !c.is_ascii());
    let (last, first) = (a.chars().last(), b.chars().next());
    if (wide(last) && latin(first)) || (latin(last) && wide(first)) {
        format!("{a} {b}")
    } else {
        format!("{a}{b}")
    }
}

/// Parses one of a fixed set of values.
pub fn parse_choice(
    raw: &Raw,
    name: &str,
    choices: &[&'static str],
) -> Result<&'static str, ParamError> {
    let text = field_text(raw, name)?;
    choices
        .iter()
        .find(|c| **c == text)
        .copied()
        .ok_or_else(|| {
            let texts = Lang::ALL.map(|lang| {
                let choices = choices.join(&say::list_sep.text(lang));
                say::choose { choices }.text(lang)
            });
            ParamError::in_all(name, texts)
        })
}

/// Parses a number (decimal point or exponent allowed) in `min..=max`.
pub fn parse_float(raw: &Raw, name: &str, min: f64, max: f64) -> Result<f64, ParamError> {
    let err = |m: &dyn Message| ParamError::said(name, m);
    let text = field_text(raw, name)?;
    if text.is_empty() {
        return Err(err(&say::enter_number));
    }
    // Commas group digits, as in whole-number fields ("10,000.5"), but only
    // in groups of three before the point: "1,5" is refused rather than read
    // as 15 (or as 1.5).
    let int_part = text.split(['.', 'e', 'E']).next().unwrap_or("");
    if text.contains(',') {
        let groups: Vec<&str> = int_part.trim_start_matches(['-', '+']).split(',').collect();
        let grouped = groups[0].len() <= 3
            && !groups[0].is_empty()
            && groups[1..].iter().all(|g| g.len() == 3)
            && !text[int_part.len()..].contains(',');
        if !grouped {
            return Err(err(&say::decimal_comma { text }));
        }
    }
    let v: f64 = text
        .replace(['_', ','], "")
        .parse()
        .map_err(|_| err(&say::not_number { text }))?;
    if !v.is_finite() || v < min || v > max {
        return Err(err(&say::between { min, max }));
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

/// The defaults of `params` with some fields changed: `(name, text)` pairs.
pub fn defaults_with(params: &[Param], changes: &[(&str, &str)]) -> Raw {
    let mut raw = defaults(params);
    for (name, text) in changes {
        raw.insert((*name).to_owned(), (*text).to_owned());
    }
    raw
}

/// A parameter the reader got wrong, and why, in both languages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParamError {
    /// The parameter's name.
    pub param: String,
    /// A sentence for the reader, in English.
    pub message: String,
    /// The same sentence in Chinese, written alongside the English (never
    /// translated from it at run time).
    pub message_zh: String,
}

impl ParamError {
    /// An error on `param` with its English and Chinese sentences.
    pub fn new(param: &str, message: impl Into<String>, message_zh: impl Into<String>) -> Self {
        ParamError {
            param: param.to_owned(),
            message: message.into(),
            message_zh: message_zh.into(),
        }
    }

    /// An error on `param` saying `m` (a message of the catalogs) in every
    /// language.
    pub fn said(param: &str, m: &dyn Message) -> Self {
        ParamError::in_all(param, Lang::ALL.map(|lang| m.text(lang)))
    }

    /// An error on `param` with its sentence in each language of
    /// [`Lang::ALL`], in that order.
    pub fn in_all(param: &str, texts: [String; 2]) -> Self {
        let [message, message_zh] = texts;
        ParamError::new(param, message, message_zh)
    }

    /// An error on `param` with a [`Msg`].
    pub fn from_msg(param: &str, msg: Msg) -> Self {
        ParamError::new(param, msg.en, msg.zh)
    }

    /// The sentence in `lang`.
    pub fn message_in(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.message.clone(),
            Lang::Zh => self.message_zh.clone(),
        }
    }
}

/// A sentence for the reader in every language, for errors built in steps (a
/// parser's message, then the line it was on); made from messages of the
/// catalogs ([`Msg::said`], [`Msg::in_all`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Msg {
    /// English.
    pub en: String,
    /// Chinese.
    pub zh: String,
}

impl Message for Msg {
    fn text(&self, lang: Lang) -> String {
        self.text_in(lang).to_owned()
    }
}

impl Msg {
    /// A message from its two texts.
    pub fn new(en: impl Into<String>, zh: impl Into<String>) -> Self {
        Msg {
            en: en.into(),
            zh: zh.into(),
        }
    }

    /// The text in `lang`.
    pub fn text_in(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }

    /// A message of the catalogs in every language.
    pub fn said(m: &dyn Message) -> Msg {
        Msg::in_all(|lang| m.text(lang))
    }

    /// The message `text(lang)` gives in each language.
    pub fn in_all(text: impl Fn(Lang) -> String) -> Msg {
        let [en, zh] = Lang::ALL.map(text);
        Msg::new(en, zh)
    }

    /// Each text after its prefix: `msg.prefixed(&say::on_line { line: 2 })`.
    pub fn prefixed(self, prefix: &dyn Message) -> Msg {
        Msg::in_all(|lang| format!("{}{}", prefix.text(lang), self.text_in(lang)))
    }
}

impl std::fmt::Display for Msg {
    /// The English text (what tests and logs print).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.en)
    }
}

/// What a demo produced, in display order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Output {
    /// Text, tables and plots, in order.
    pub blocks: Vec<Block>,
}

/// The builder a demo ends with, blocks in display order:
/// `Output::new().text(summary).table(header, rows).plot(chart)`.
impl Output {
    /// No blocks yet.
    pub fn new() -> Output {
        Output::default()
    }

    /// Then preformatted text.
    pub fn text(mut self, text: impl Into<String>) -> Output {
        self.blocks.push(Block::Text(text.into()));
        self
    }

    /// Then a table: its column headers and rows of cells.
    pub fn table(mut self, header: impl Into<Vec<String>>, rows: Vec<Vec<String>>) -> Output {
        self.blocks.push(Block::Table {
            header: header.into(),
            rows,
        });
        self
    }

    /// Then a chart.
    pub fn plot(mut self, plot: Plot) -> Output {
        self.blocks.push(Block::Plot(plot));
        self
    }

    /// Then a fold, shown closed under `summary`, holding `inside`'s blocks.
    pub fn details(mut self, summary: impl Into<String>, inside: Output) -> Output {
        self.blocks.push(Block::Details {
            summary: summary.into(),
            blocks: inside.blocks,
        });
        self
    }
}

/// One piece of output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
    /// A fold, shown closed: a line that says what it holds, and the blocks
    /// that opening it shows (a cell's step-by-step audit under its headline).
    Details {
        /// The line shown while it is closed.
        summary: String,
        /// What it holds.
        blocks: Vec<Block>,
    },
}

/// A chart as plain series.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
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
    /// A heatmap drawn instead of the series (a chart has one or the other).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heatmap: Option<Heatmap>,
}

/// A grid of values coloured by size: `z[row][column]`, with a label per row
/// (`y`) and per column (`x`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Heatmap {
    /// Column labels.
    pub x: Vec<String>,
    /// Row labels, top to bottom.
    pub y: Vec<String>,
    /// One row of values per row label.
    pub z: Vec<Vec<f64>>,
    /// What the colour means (the colour bar's title).
    pub z_label: String,
    /// The values the colour scale spans, when fixed (weights in 0..1); `None`
    /// fits it to the data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub z_range: Option<(f64, f64)>,
}

/// The builder of a chart: `Plot::new(title, x_label, y_label).log_x()`, then
/// its series in legend order (`.line(name, xs, ys)`, `.dashed(…)`,
/// `.bars(…)`, or ready-made ones with `.series(…)`).
impl Plot {
    /// A chart of series with linear axes and none yet.
    pub fn new(
        title: impl Into<String>,
        x_label: impl Into<String>,
        y_label: impl Into<String>,
    ) -> Plot {
        Plot {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            ..Plot::default()
        }
    }

    /// A heatmap chart: `heatmap` drawn under the title and axis labels.
    pub fn heatmap(
        title: impl Into<String>,
        x_label: impl Into<String>,
        y_label: impl Into<String>,
        heatmap: Heatmap,
    ) -> Plot {
        Plot {
            heatmap: Some(heatmap),
            ..Plot::new(title, x_label, y_label)
        }
    }

    /// With a logarithmic x axis.
    pub fn log_x(self) -> Plot {
        Plot {
            log_x: true,
            ..self
        }
    }

    /// With a logarithmic y axis.
    pub fn log_y(self) -> Plot {
        Plot {
            log_y: true,
            ..self
        }
    }

    /// Then these series (any number: a `Vec`, an iterator, an `Option`).
    pub fn series(mut self, series: impl IntoIterator<Item = Series>) -> Plot {
        self.series.extend(series);
        self
    }

    /// Then a line with markers through the points `(xs[i], ys[i])`.
    pub fn line(self, name: impl Into<String>, xs: impl Numbers, ys: impl Numbers) -> Plot {
        self.series([Series::line(name, xs, ys)])
    }

    /// Then a dashed line (a bound, a target, a reference curve).
    pub fn dashed(self, name: impl Into<String>, xs: impl Numbers, ys: impl Numbers) -> Plot {
        self.series([Series::line(name, xs, ys).dashed()])
    }

    /// Then a set of bars, one at each x.
    pub fn bars(self, name: impl Into<String>, xs: impl Numbers, ys: impl Numbers) -> Plot {
        self.series([Series::bars(name, xs, ys)])
    }
}

impl Plot {
    /// Height of the drawn chart in CSS pixels; a heatmap grows with its rows.
    pub fn height(&self) -> usize {
        match &self.heatmap {
            Some(h) => (160 + 26 * h.y.len()).clamp(280, 480),
            None => 360,
        }
    }

    /// The chart's data as a table (its text alternative, and what print keeps):
    /// for series, one row per x value with a column per series (blank where a
    /// series has no point there); for a heatmap, one row per row label.
    pub fn data_table(&self) -> (Vec<String>, Vec<Vec<String>>) {
        if let Some(h) = &self.heatmap {
            let mut header = vec![String::new()];
            header.extend(h.x.iter().cloned());
            let rows =
                h.y.iter()
                    .zip(&h.z)
                    .map(|(label, row)| {
                        let mut r = vec![label.clone()];
                        r.extend(row.iter().map(|&v| fmt_value(v)));
                        r
                    })
                    .collect();
            return (header, rows);
        }
        let mut header = vec![self.x_label.clone()];
        header.extend(self.series.iter().map(|s| s.name.clone()));
        let mut xs: Vec<f64> = self
            .series
            .iter()
            .flat_map(|s| s.x.iter().copied())
            .collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup();
        let rows = xs
            .iter()
            .map(|&x| {
                let mut r = vec![fmt_value(x)];
                r.extend(self.series.iter().map(|s| {
                    s.x.iter()
                        .position(|&sx| sx == x)
                        .and_then(|i| s.y.get(i))
                        .map_or_else(String::new, |&y| fmt_value(y))
                }));
                r
            })
            .collect();
        (header, rows)
    }
}

/// A chart value for a table: whole numbers with digit groups, others with
/// four significant digits (scientific notation far from 1).
pub fn fmt_value(v: f64) -> String {
    if !v.is_finite() {
        return format!("{v}");
    }
    if v.fract() == 0.0 && v.abs() < 1e15 {
        return group(v as i64);
    }
    let a = v.abs();
    if (1e-3..1e6).contains(&a) {
        // Digits after the point for four significant digits, without log10
        // (whose last bit may differ between the native and wasm libm).
        let decimals = [1e3, 1e2, 1e1, 1.0, 1e-1, 1e-2]
            .iter()
            .position(|&p| a >= p)
            .unwrap_or(6);
        if decimals == 0 {
            // From 1,000 up, four significant digits are whole: no point to
            // trim zeros after (trimming them turned 1,030.1 into "103").
            return group(v.round() as i64);
        }
        let s = format!("{v:.decimals$}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        s.to_owned()
    } else {
        format!("{v:.3e}")
    }
}

/// One line (or set of bars) on a chart.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
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

impl Series {
    /// A line with markers through the points `(xs[i], ys[i])`.
    pub fn line(name: impl Into<String>, xs: impl Numbers, ys: impl Numbers) -> Series {
        Series {
            name: name.into(),
            x: xs.f64s(),
            y: ys.f64s(),
            ..Series::default()
        }
    }

    /// Bars, one at each x.
    pub fn bars(name: impl Into<String>, xs: impl Numbers, ys: impl Numbers) -> Series {
        Series {
            bars: true,
            ..Series::line(name, xs, ys)
        }
    }

    /// The same, drawn dashed.
    pub fn dashed(self) -> Series {
        Series {
            dashed: true,
            ..self
        }
    }
}

/// Numbers a chart plots, of any of Rust's number types, by value or by
/// reference: a `Vec<f64>`, `&[u64]`, `xs.iter().map(|&t| cost(t))`. Each
/// becomes an `f64` as `as f64` converts it.
pub trait Numbers {
    /// The numbers as `f64`s, in order.
    fn f64s(self) -> Vec<f64>;
}

impl<I> Numbers for I
where
    I: IntoIterator,
    I::Item: ToF64,
{
    fn f64s(self) -> Vec<f64> {
        self.into_iter().map(ToF64::to_f64).collect()
    }
}

/// One number a chart plots (see [`Numbers`]).
pub trait ToF64 {
    /// The number as `as f64` converts it.
    fn to_f64(self) -> f64;
}

/// [`ToF64`] for the number types the demos chart, owned and borrowed.
macro_rules! to_f64 {
    ($($t:ty),+) => {
        $(
            impl ToF64 for $t {
                #[allow(clippy::unnecessary_cast)]
                fn to_f64(self) -> f64 {
                    self as f64
                }
            }
            impl ToF64 for &$t {
                #[allow(clippy::unnecessary_cast)]
                fn to_f64(self) -> f64 {
                    *self as f64
                }
            }
        )+
    };
}
to_f64!(f64, f32, u64, i64, usize, u32, i32);

/// The summary of a cell's folded source. When the source answers an exercise
/// on the page (its title given), it says so: the page shows the plain summary
/// once that exercise is passed.
pub fn source_summary(lines: usize, answers: Option<&str>) -> String {
    source_summary_in(Lang::En, lines, answers)
}

/// [`source_summary`] in `lang`; `answers` is the exercise's title in that
/// language.
pub fn source_summary_in(lang: Lang, lines: usize, answers: Option<&str>) -> String {
    match answers {
        Some(title) => crate::say::source::answers { lines, title }.text(lang),
        None => crate::say::source::plain { lines }.text(lang),
    }
}

/// Parses a whole number in `min..=max`; underscores and commas are allowed as
/// digit separators (`131_072`, `131,072`).
pub fn parse_int(raw: &Raw, name: &str, min: i64, max: i64) -> Result<i64, ParamError> {
    let err = |m: &dyn Message| ParamError::said(name, m);
    let text = field_text(raw, name)?;
    if text.is_empty() {
        return Err(err(&say::enter_whole));
    }
    let digits: String = text.chars().filter(|c| *c != '_' && *c != ',').collect();
    let v: i64 = digits.parse().map_err(|e: std::num::ParseIntError| {
        use std::num::IntErrorKind::{NegOverflow, PosOverflow};
        match e.kind() {
            // A whole number past what 64 bits hold is past `max` (or `min`) too.
            PosOverflow => err(&say::too_large {
                text,
                max: group(max),
            }),
            NegOverflow => err(&say::too_small {
                text,
                min: group(min),
            }),
            _ => err(&say::not_whole { text }),
        }
    })?;
    if v < min || v > max {
        return Err(err(&say::between {
            min: group(min),
            max: group(max),
        }));
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
    parse_list(raw, name, max_len, &[';'], &say::enter_wholes, |one| {
        parse_int(one, name, min, max)
    })
}

/// Parses up to `max_len` numbers (decimal point or exponent allowed)
/// separated by spaces, commas or semicolons, each in `min..=max`.
pub fn parse_float_list(
    raw: &Raw,
    name: &str,
    min: f64,
    max: f64,
    max_len: usize,
) -> Result<Vec<f64>, ParamError> {
    parse_list(
        raw,
        name,
        max_len,
        &[';', ','],
        &say::enter_numbers,
        |one| parse_float(one, name, min, max),
    )
}

/// The items of a list field, split at whitespace and `separators`, each
/// parsed by `parse_one` as if it were the whole field; `empty` is the message
/// for a field with no item.
fn parse_list<T>(
    raw: &Raw,
    name: &str,
    max_len: usize,
    separators: &[char],
    empty: &dyn Message,
    parse_one: impl Fn(&Raw) -> Result<T, ParamError>,
) -> Result<Vec<T>, ParamError> {
    let text = field_text(raw, name)?;
    let items: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || separators.contains(&c))
        .filter(|s| !s.is_empty())
        .collect();
    if items.is_empty() {
        return Err(ParamError::said(name, empty));
    }
    if items.len() > max_len {
        return Err(ParamError::said(name, &say::too_many { max: max_len }));
    }
    items
        .iter()
        .map(|item| parse_one(&[(name.to_owned(), (*item).to_owned())].into()))
        .collect()
}

/// Groups digits by thousands: `1048576` → `1,048,576`.
pub fn group(v: i64) -> String {
    let out = group_u64(v.unsigned_abs());
    if v < 0 { format!("-{out}") } else { out }
}

/// Groups the digits of an unsigned number by thousands, up to `u64::MAX`.
pub fn group_u64(v: u64) -> String {
    group_digits(&v.to_string())
}

/// Groups a string of ASCII digits by thousands: `"1048576"` → `"1,048,576"`.
pub fn group_digits(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A demo's parsed fields, each a `Result` of its own, checked together: every
/// value when all parsed, else every field's error in the order given (one per
/// bad field). The one way a demo's `Params::parse` ends:
///
/// ```
/// use chapters::demo::{AllOk, Raw, parse_float, parse_int};
/// let raw: Raw = [("n", "3"), ("x", "no")].map(|(k, v)| (k.to_owned(), v.to_owned())).into();
/// let bad = (parse_int(&raw, "n", 1, 9), parse_float(&raw, "x", 0.0, 1.0)).all_ok();
/// assert_eq!(bad.unwrap_err().iter().map(|e| e.param.as_str()).collect::<Vec<_>>(), ["x"]);
/// let (n,) = (parse_int(&raw, "n", 1, 9),).all_ok().unwrap();
/// assert_eq!(n, 3);
/// ```
pub trait AllOk {
    /// The values, when every field parsed.
    type Values;
    /// Every value, or every error.
    fn all_ok(self) -> Result<Self::Values, Vec<ParamError>>;
}

impl<T> AllOk for Vec<Result<T, ParamError>> {
    type Values = Vec<T>;
    fn all_ok(self) -> Result<Vec<T>, Vec<ParamError>> {
        let (ok, errs): (Vec<_>, Vec<_>) = self.into_iter().partition(Result::is_ok);
        if errs.is_empty() {
            Ok(ok.into_iter().filter_map(Result::ok).collect())
        } else {
            Err(errs.into_iter().filter_map(Result::err).collect())
        }
    }
}

/// [`AllOk`] for tuples of fields of any types, up to twelve.
macro_rules! all_ok_tuple {
    ($($t:ident $v:ident),+) => {
        impl<$($t),+> AllOk for ($(Result<$t, ParamError>,)+) {
            type Values = ($($t,)+);
            fn all_ok(self) -> Result<Self::Values, Vec<ParamError>> {
                let ($($v,)+) = self;
                match ($($v,)+) {
                    ($(Ok($v),)+) => Ok(($($v,)+)),
                    ($($v,)+) => Err([$($v.err()),+].into_iter().flatten().collect()),
                }
            }
        }
    };
}
all_ok_tuple!(A a);
all_ok_tuple!(A a, B b);
all_ok_tuple!(A a, B b, C c);
all_ok_tuple!(A a, B b, C c, D d);
all_ok_tuple!(A a, B b, C c, D d, E e);
all_ok_tuple!(A a, B b, C c, D d, E e, F f);
all_ok_tuple!(A a, B b, C c, D d, E e, F f, G g);
all_ok_tuple!(A a, B b, C c, D d, E e, F f, G g, H h);
all_ok_tuple!(A a, B b, C c, D d, E e, F f, G g, H h, I i);
all_ok_tuple!(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j);
all_ok_tuple!(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j, K k);
all_ok_tuple!(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j, K k, L l);

/// The part of a source file between `// ANCHOR: name` and `// ANCHOR_END: name`,
/// so cells quote compiled code rather than a copy of it.
///
/// # Panics
/// When either marker is missing: showing the whole file instead could reveal
/// what the anchor was meant to hide (an exercise's hidden cases). The content
/// checker builds every cell and reference, so a missing anchor fails the tests.
pub fn anchored(source: &'static str, name: &str) -> &'static str {
    let start = format!("// ANCHOR: {name}\n");
    let end = format!("// ANCHOR_END: {name}");
    let Some(a) = source.find(&start) else {
        panic!("no `// ANCHOR: {name}` line in the source");
    };
    let body = &source[a + start.len()..];
    match body.find(&end) {
        Some(b) => body[..b].trim_end(),
        None => panic!("`// ANCHOR: {name}` has no `// ANCHOR_END: {name}`"),
    }
}

#[cfg(test)]
#[path = "demo_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "demo_test_help.rs"]
pub(crate) mod test_help;
