//! The per-request KV ledger: bytes per token, fixed bytes per request, and the
//! total at a context length, for models whose formulas the reader can edit.

use crate::demo::{
    Demo, Msg, Output, Param, ParamError, Plot, Raw, Series, group, group_digits,
};
use crate::lang::Lang;
use crate::say::Message;
use crate::say::ledger as say;

// ANCHOR: demo
/// Bytes of one raw or compressed KV entry in V4's FP8 cache format (the source
/// gives only this total). Our reading of it, not the source's: the 448 dims
/// without RoPE in FP8 (448 B), the 64 RoPE dims in BF16 (128 B) and 8 B of
/// scales, 584 B in all; see [`V4_ENTRY_PARTS`].
pub const V4_ENTRY: f64 = 584.0;
/// Tokens in V4's sliding window (every layer).
pub const V4_WINDOW: f64 = 128.0;

/// DeepSeek-V4 KV bytes per token: each C4 layer adds one entry plus one indexer
/// key per 4 tokens, each C128 layer one entry per 128 tokens.
pub fn v4_per_token(c4: f64, c128: f64, idx_bytes: f64) -> f64 {
    c4 * (V4_ENTRY + idx_bytes) / 4.0 + c128 * V4_ENTRY / 128.0
}

/// DeepSeek-V4 fixed bytes per request: the window's raw KV in every layer, plus
/// the compressors' float32 partial state (C4: 8 tokens of KV and gate for the
/// entry and the indexer key, 2·(2·512 + 2·128) values; C128: 128 tokens of 2·512).
pub fn v4_fixed(c4: f64, c128: f64, swa_only: f64) -> f64 {
    let window = (c4 + c128 + swa_only) * V4_WINDOW * V4_ENTRY;
    let state = c4 * 8.0 * (2.0 * 2.0 * 512.0 + 2.0 * 2.0 * 128.0) * 4.0
        + c128 * 128.0 * (2.0 * 512.0) * 4.0;
    window + state
}

/// Dimensions of V4's KV vector, shared by all heads.
pub const V4_KV_DIM: f64 = 512.0;
/// Of those, the dimensions that carry RoPE.
pub const V4_ROPE_DIM: f64 = 64.0;
/// Our reading of [`V4_ENTRY`] (the source states only the total): bytes for the
/// dims without RoPE in FP8 (1 B each), for the RoPE dims in BF16 (2 B each), and
/// what remains for the FP8 values' scales. A test checks that they add up.
pub const V4_ENTRY_PARTS: [(&str, f64); 3] = [
    ("dims without RoPE, FP8", (V4_KV_DIM - V4_ROPE_DIM) * 1.0),
    ("RoPE dims, BF16", V4_ROPE_DIM * 2.0),
    ("scales", 8.0),
];

/// One model's ledger row.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// Name.
    pub name: String,
    /// Bytes added per token of context.
    pub per_token: f64,
    /// Bytes every request holds whatever its length.
    pub fixed: f64,
    /// Longest context the model supports.
    pub max_len: u64,
}

impl Model {
    /// Bytes for one request of `tokens` tokens, or `None` past the maximum context.
    pub fn bytes(&self, tokens: u64) -> Option<f64> {
        (tokens <= self.max_len).then_some(self.per_token * tokens as f64 + self.fixed)
    }

    /// The length at which the growing part equals the fixed part: shorter
    /// requests hold more fixed bytes than KV. `None` when nothing grows or
    /// nothing is fixed.
    pub fn crossover(&self) -> Option<f64> {
        (self.per_token > 0.0 && self.fixed > 0.0).then(|| self.fixed / self.per_token)
    }
}

/// The default models, one per line: `name | bytes per token | fixed bytes | max tokens`.
/// V3.2 and V4 in FP8, Kimi-K3's MLA in BF16, linear-attention states in float32.
pub const MODELS: &str = "\
DeepSeek-V3.2     | 61 * (656 + 132)     | 0                                   | 163840
DeepSeek-V4-Flash | v4_token(21, 20, 132) | v4_fixed(21, 20, 2)                | 1048576
DeepSeek-V4-Pro   | v4_token(30, 31, 132) | v4_fixed(30, 31, 0)                | 1048576
Kimi-K3           | 24 * 576 * 2          | 69 * 96 * 128 * 128 * 4            | 1048576
Gemma 4 12B       | 8 * 512 * 2           | 40 * 1024 * 8 * 256 * 2 * 2        | 262144
Qwen3.5-0.8B      | 6 * 2 * 2 * 256 * 2   | 18 * 16 * 128 * 128 * 4 + 18 * 6144 * 3 * 2 | 262144";
// ANCHOR_END: demo

/// Longest text the models box may hold, in characters; longer text is refused
/// before it is parsed.
pub const MAX_MODELS_CHARS: usize = 4_096;
/// Most models the box may list.
pub const MAX_MODELS: usize = 12;
/// Largest bytes per token or fixed bytes a model may state (10^18, an exabyte),
/// so every total up to the longest context (10^12 tokens) stays finite.
pub const MAX_BYTES: f64 = 1e18;

/// Parses model lines (`#` starts a comment line). Errors name the line and
/// column. Refuses text over [`MAX_MODELS_CHARS`] characters, more than
/// [`MAX_MODELS`] models, and expressions nested deeper than
/// [`expr::MAX_DEPTH`], so no input can exhaust the stack or the time budget.
pub fn parse_models(text: &str) -> Result<Vec<Model>, Msg> {
    if text.chars().nth(MAX_MODELS_CHARS).is_some() {
        let max = group(MAX_MODELS_CHARS as i64);
        let n = group(text.chars().count() as i64);
        return Err(Msg::said(&say::too_long { max, n }));
    }
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        if out.len() == MAX_MODELS {
            return Err(Msg::said(&say::too_many_models {
                line: line_no,
                max: MAX_MODELS,
            }));
        }
        let cols: Vec<&str> = line.split('|').collect();
        if cols.len() != 4 {
            return Err(Msg::said(&say::columns { line: line_no }));
        }
        let name = cols[0].trim();
        if name.is_empty() {
            return Err(Msg::said(&say::no_name { line: line_no }));
        }
        // Where an error is, e.g. "line 2, fixed bytes: ".
        let at = |column: &dyn Message| {
            Msg::in_all(|lang| {
                let column = column.text(lang);
                say::at_column {
                    line: line_no,
                    column,
                }
                .text(lang)
            })
        };
        let eval = |col: usize, what: &dyn Message| {
            expr::eval(cols[col])
                .map_err(|e| e.prefixed(&at(what)))
                .and_then(|v| {
                    if !v.is_finite() {
                        Err(Msg::said(&say::not_finite).prefixed(&at(what)))
                    } else if v >= 0.0 {
                        Ok(v)
                    } else {
                        Err(Msg::said(&say::negative).prefixed(&at(what)))
                    }
                })
        };
        let bytes = |col: usize, what: &dyn Message| {
            eval(col, what).and_then(|v| {
                if v <= MAX_BYTES {
                    Ok(v)
                } else {
                    Err(Msg::said(&say::past_max_bytes).prefixed(&at(what)))
                }
            })
        };
        let per_token = bytes(1, &say::col_per_token)?;
        let fixed = bytes(2, &say::col_fixed)?;
        let max = eval(3, &say::col_max)?;
        if max < 1.0 || max.fract() != 0.0 || max > 1e12 {
            return Err(Msg::said(&say::max_tokens { line: line_no }));
        }
        out.push(Model {
            name: name.to_owned(),
            per_token,
            fixed,
            max_len: max as u64,
        });
    }
    if out.is_empty() {
        return Err(Msg::said(&say::no_models));
    }
    Ok(out)
}

/// The default models.
pub fn default_models() -> Vec<Model> {
    parse_models(MODELS).unwrap_or_default()
}

/// The default model with this name.
pub fn model(name: &str) -> Option<Model> {
    default_models().into_iter().find(|m| m.name == name)
}

/// Binary (KiB, MiB, GiB) or decimal (kB, MB, GB) units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Units {
    /// Powers of 1,024.
    Binary,
    /// Powers of 1,000.
    Decimal,
}

impl Units {
    /// Formats bytes with the largest unit that keeps the number ≥ 1, e.g. `3.8 KiB`.
    pub fn fmt(self, bytes: f64, decimals: usize) -> String {
        let (base, names) = match self {
            Units::Binary => (1024.0, ["B", "KiB", "MiB", "GiB", "TiB"]),
            Units::Decimal => (1000.0, ["B", "kB", "MB", "GB", "TB"]),
        };
        let mut v = bytes;
        let mut i = 0;
        while v >= base && i < names.len() - 1 {
            v /= base;
            i += 1;
        }
        if i == 0 {
            format!("{} B", fmt_exact(bytes))
        } else {
            format!("{v:.decimals$} {}", names[i])
        }
    }

    /// Bytes in one GiB or GB.
    pub fn giga(self) -> f64 {
        match self {
            Units::Binary => 1024f64.powi(3),
            Units::Decimal => 1e9,
        }
    }

    /// `GiB` or `GB`.
    pub fn giga_name(self) -> &'static str {
        match self {
            Units::Binary => "GiB",
            Units::Decimal => "GB",
        }
    }
}

/// A byte count, grouped, rounded to at most 6 decimals with trailing zeros
/// dropped: `3,850.25`, `15,420,416`, `3` for 2.9999999. Rounding is Rust's
/// (correct, to the nearest of the exact binary value); `-0` and negatives
/// that round to zero print `0`; NaN prints `NaN` and infinities `∞`, `-∞`.
pub fn fmt_exact(v: f64) -> String {
    if v.is_nan() {
        return "NaN".to_owned();
    }
    if v.is_infinite() {
        return if v > 0.0 { "∞" } else { "-∞" }.to_owned();
    }
    let fixed = format!("{:.6}", v.abs());
    let (whole, frac) = fixed.split_once('.').unwrap_or((&fixed, ""));
    let frac = frac.trim_end_matches('0');
    let mut s = group_digits(whole);
    if !frac.is_empty() {
        s = format!("{s}.{frac}");
    }
    if v < 0.0 && s != "0" {
        format!("-{s}")
    } else {
        s
    }
}

/// Context lengths the table reports: 128K and 1M tokens (1M = 2^20).
pub const REPORT_AT: [u64; 2] = [131_072, 1_048_576];

/// A context length as the text writes it: `128K` for 131,072 tokens, `1M` for
/// 1,048,576 (K = 2^10, M = 2^20); other lengths as grouped digits.
pub fn length_label(tokens: u64) -> String {
    const K: u64 = 1 << 10;
    const M: u64 = 1 << 20;
    if tokens >= M && tokens.is_multiple_of(M) {
        format!("{}M", group((tokens / M) as i64))
    } else if tokens >= K && tokens.is_multiple_of(K) {
        format!("{}K", group((tokens / K) as i64))
    } else {
        group(tokens as i64)
    }
}

/// The ledger as a Markdown table in binary units: bytes per token in KiB (one
/// decimal), fixed bytes per request in MiB (one decimal), and one request's
/// total, per-token bytes × length + fixed bytes, in GiB (two decimals) at each
/// length of [`REPORT_AT`]. A length past a model's longest context reads "not
/// supported" with that maximum.
pub fn markdown_table(models: &[Model]) -> String {
    markdown_table_in(models, Lang::En)
}

/// [`markdown_table`] with its words (headers, "not supported") in `lang`;
/// the numbers and units are the same in both.
pub fn markdown_table_in(models: &[Model], lang: Lang) -> String {
    let mib = 1024.0 * 1024.0;
    let mut header = vec![
        say::md_col_model.text(lang),
        say::md_col_per_token.text(lang),
        say::md_col_fixed.text(lang),
    ];
    for len in REPORT_AT {
        let power = if len.is_power_of_two() {
            format!(" = $2^{{{}}}$", len.ilog2())
        } else {
            String::new()
        };
        let len = length_label(len);
        header.push(say::md_col_request { len, power }.text(lang));
    }
    let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
    let mut out = line(&header);
    out += "|---|---:|---:|";
    out += &"---:|".repeat(REPORT_AT.len());
    out += "\n";
    for m in models {
        let mut row = vec![
            m.name.replace('|', "\\|"),
            format!("{:.1}", m.per_token / 1024.0),
            format!("{:.1}", m.fixed / mib),
        ];
        for len in REPORT_AT {
            row.push(m.bytes(len).map_or_else(
                || {
                    let max = length_label(m.max_len);
                    say::md_not_supported { max }.text(lang)
                },
                |b| format!("{:.2}", b / Units::Binary.giga()),
            ));
        }
        out += &line(&row);
    }
    out
}

/// The models, one a line, which [`parse_models`] reads.
const MODEL_LIST: Param = Param::lines("models", MODELS);
/// Powers of 1,024 or of 1,000 for the sizes shown.
const UNITS: Param = Param::choice("units", &["binary", "decimal"]);

/// The cell's parameters.
pub const PARAMS: &[Param] = &[MODEL_LIST, UNITS];

/// The cell.
pub fn demo() -> Demo {
    Demo {
        id: "ledger",
        params: PARAMS,
        #[cfg(feature = "render")]
        source: crate::demo::anchored(include_str!("ledger.rs"), "demo"),
        #[cfg(feature = "run")]
        run,
    }
}

/// Runs the demo.
pub fn run(raw: &Raw, lang: Lang) -> Result<Output, Vec<ParamError>> {
    let models =
        parse_models(raw.get(MODEL_LIST.name).map(String::as_str).unwrap_or(""))
            .map_err(|m| ParamError::from_msg(MODEL_LIST.name, m));
    let units = UNITS.read_choice(raw);
    let (models, units) = match (models, units) {
        (Ok(m), Ok(u)) => (
            m,
            if u == "binary" {
                Units::Binary
            } else {
                Units::Decimal
            },
        ),
        (m, u) => return Err(m.err().into_iter().chain(u.err()).collect()),
    };
    let at = |m: &Model, len: u64| {
        m.bytes(len).map_or_else(
            || say::not_supported.text(lang),
            |b| format!("{:.2} {}", b / units.giga(), units.giga_name()),
        )
    };
    let cross = |m: &Model| {
        m.crossover()
            .map_or_else(|| "—".to_owned(), |c| group(c.round() as i64))
    };
    let mut text = String::new();
    for m in &models {
        let (name, per_token, fixed) = (&m.name, units.fmt(m.per_token, 1), units.fmt(m.fixed, 1));
        let (short, long) = (at(m, REPORT_AT[0]), at(m, REPORT_AT[1]));
        // How many tokens' KV the fixed part is worth, where it is worth any.
        let worth = match m.crossover() {
            None => String::new(),
            Some(_) => say::worth { n: cross(m) }.text(lang),
        };
        text += &say::row {
            name,
            per_token,
            fixed,
            worth,
            short,
            long,
        }
        .text(lang);
    }
    let header = [
        say::col_model.text(lang),
        say::col_per_token.text(lang),
        say::col_fixed.text(lang),
        say::col_crossover.text(lang),
        say::col_max.text(lang),
        say::col_short.text(lang),
        say::col_long.text(lang),
    ];
    let rows = models
        .iter()
        .map(|m| {
            vec![
                m.name.clone(),
                fmt_exact(m.per_token),
                fmt_exact(m.fixed),
                cross(m),
                group(m.max_len as i64),
                at(m, REPORT_AT[0]),
                at(m, REPORT_AT[1]),
            ]
        })
        .collect();
    let lens: Vec<u64> = (10..=20).map(|e| 1u64 << e).collect();
    let series = models.iter().map(|m| {
        let (x, y): (Vec<_>, Vec<_>) = lens
            .iter()
            .filter_map(|&l| m.bytes(l).map(|b| (l, b / units.giga())))
            .unzip();
        Series::line(&m.name, x, y)
    });
    let plot = Plot::new(
        say::chart_title {
            unit: units.giga_name(),
        }
        .text(lang),
        say::chart_x.text(lang),
        units.giga_name(),
    )
    .log_x()
    // Logarithmic, so a short request's few MiB are as readable as 1M tokens' GiB.
    .log_y()
    .series(series);
    Ok(Output::new().text(text).table(header, rows).plot(plot))
}

/// A tiny arithmetic language for the model lines: numbers, `+ - * /`,
/// parentheses and the two V4 functions.
pub mod expr {
    use crate::demo::Msg;
    use crate::say::Message;
    use crate::say::ledger as say;

    /// Deepest nesting of parentheses, function calls and unary minus signs;
    /// the evaluator recurses once per level, so this bounds its stack.
    pub const MAX_DEPTH: usize = 32;

    /// Evaluates an expression; nesting deeper than [`MAX_DEPTH`] is an error.
    pub fn eval(src: &str) -> Result<f64, Msg> {
        let mut p = P {
            s: src.as_bytes(),
            i: 0,
            depth: 0,
        };
        let v = p.sum()?;
        p.ws();
        if p.i < p.s.len() {
            return Err(p.err(&say::expr_unexpected));
        }
        Ok(v)
    }

    struct P<'a> {
        s: &'a [u8],
        i: usize,
        /// Current nesting depth.
        depth: usize,
    }

    /// Longest piece of the remaining text an error quotes, in characters.
    const QUOTE_CHARS: usize = 24;

    impl P<'_> {
        /// `what` went wrong, with where: the rest of the text.
        fn err(&self, what: &dyn Message) -> Msg {
            let rest = String::from_utf8_lossy(&self.s[self.i.min(self.s.len())..])
                .trim()
                .to_owned();
            Msg::in_all(|lang| {
                let what = what.text(lang);
                if rest.is_empty() {
                    return say::expr_at_end { what }.text(lang);
                }
                let quoted = if rest.chars().nth(QUOTE_CHARS).is_some() {
                    let head: String = rest.chars().take(QUOTE_CHARS).collect();
                    format!("`{head}…`")
                } else {
                    format!("`{rest}`")
                };
                say::expr_at { what, quoted }.text(lang)
            })
        }
        /// Runs `f` one nesting level deeper, or fails past [`MAX_DEPTH`].
        fn nested(
            &mut self,
            f: impl FnOnce(&mut Self) -> Result<f64, Msg>,
        ) -> Result<f64, Msg> {
            if self.depth == MAX_DEPTH {
                return Err(self.err(&say::expr_too_deep { max: MAX_DEPTH }));
            }
            self.depth += 1;
            let v = f(self);
            self.depth -= 1;
            v
        }
        fn ws(&mut self) {
            while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
                self.i += 1;
            }
        }
        fn eat(&mut self, c: u8) -> bool {
            self.ws();
            if self.s.get(self.i) == Some(&c) {
                self.i += 1;
                true
            } else {
                false
            }
        }
        fn sum(&mut self) -> Result<f64, Msg> {
            let mut v = self.product()?;
            loop {
                if self.eat(b'+') {
                    v += self.product()?;
                } else if self.eat(b'-') {
                    v -= self.product()?;
                } else {
                    return Ok(v);
                }
            }
        }
        fn product(&mut self) -> Result<f64, Msg> {
            let mut v = self.atom()?;
            loop {
                if self.eat(b'*') {
                    v *= self.atom()?;
                } else if self.eat(b'/') {
                    let d = self.atom()?;
                    if d == 0.0 {
                        return Err(Msg::said(&say::expr_division_by_zero));
                    }
                    v /= d;
                } else {
                    return Ok(v);
                }
            }
        }
        fn atom(&mut self) -> Result<f64, Msg> {
            self.ws();
            if self.eat(b'(') {
                let v = self.nested(Self::sum)?;
                return if self.eat(b')') {
                    Ok(v)
                } else {
                    Err(self.err(&say::expr_close))
                };
            }
            if self.eat(b'-') {
                return Ok(-self.nested(Self::atom)?);
            }
            let start = self.i;
            while self.i < self.s.len()
                && (self.s[self.i].is_ascii_alphanumeric() || b"._".contains(&self.s[self.i]))
            {
                self.i += 1;
            }
            let word = String::from_utf8_lossy(&self.s[start..self.i]).replace('_', "");
            if word.is_empty() {
                return Err(self.err(&say::expr_number));
            }
            if word.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
                return word
                    .parse()
                    .map_err(|_| Msg::said(&say::expr_not_number { word: &word }));
            }
            let name = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
            if !self.eat(b'(') {
                return Err(Msg::said(&say::expr_unknown_name { name }));
            }
            let mut args = vec![self.nested(Self::sum)?];
            while self.eat(b',') {
                args.push(self.nested(Self::sum)?);
            }
            if !self.eat(b')') {
                return Err(self.err(&say::expr_close));
            }
            let need = |n: usize| {
                if args.len() == n {
                    Ok(())
                } else {
                    Err(Msg::said(&say::expr_arity {
                        name: &name,
                        n,
                        got: args.len(),
                    }))
                }
            };
            match name.as_str() {
                "v4_token" => need(3).map(|()| super::v4_per_token(args[0], args[1], args[2])),
                "v4_fixed" => need(3).map(|()| super::v4_fixed(args[0], args[1], args[2])),
                _ => Err(Msg::said(&say::expr_unknown_function { name: &name })),
            }
        }
    }
}

#[cfg(test)]
mod tests;
