//! The `decode_step` cell: the article's lower bound on one decode step,
//! every activated weight and one request's KV read from HBM once, divided by
//! the bandwidth (plan::decode_ms), for Kimi-K3 and DeepSeek-V4-Pro on H200
//! and B300, against a latency target and against context length. Sizes are
//! decimal (GB = 10^9 B, TB = 10^12 B): GB / (TB/s) = ms.

use crate::ch_deploy::plan::{self, Gpu, RoundTo};
use crate::ch_deploy::request_kv::{input, num, pct};
use crate::ch_newmodels::ledger;
use crate::demo::{AllOk, Block, Demo, Output, Param, ParamError, Plot, Raw, Series, group_u64};
use crate::lang::Lang;
use crate::say::decode_step as say;

// ANCHOR: demo
/// One model on one GPU at one context length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// Activated weights read per step, GB.
    pub active_gb: f64,
    /// KV per token of context, KB (the article's 61.4 and 12.2).
    pub kv_kb_per_token: f64,
    /// State read per step besides the KV (K3's KDA state), GB; the article
    /// leaves it out.
    pub state_gb: f64,
    /// HBM bandwidth, TB/s.
    pub bw_tb_s: f64,
}

impl Step {
    /// The KV of one request of `tokens` tokens, GB.
    pub fn kv_gb(&self, tokens: u64) -> f64 {
        plan::request_gb(self.kv_kb_per_token, tokens, 0.0)
    }

    /// The article's bound, ms: (active + KV) / bandwidth.
    pub fn ms(&self, tokens: u64) -> f64 {
        plan::decode_ms(self.active_gb, self.kv_gb(tokens), self.bw_tb_s)
    }

    /// The same with the fixed state read too, ms.
    pub fn ms_with_state(&self, tokens: u64) -> f64 {
        plan::decode_ms(
            self.active_gb + self.state_gb,
            self.kv_gb(tokens),
            self.bw_tb_s,
        )
    }

    /// The context at which the article's bound reaches `target_ms`: the GB
    /// the bandwidth reads in that time, less the weights, over the KV per
    /// token. `None` when the weights alone take longer.
    pub fn tokens_at(&self, target_ms: f64) -> Option<f64> {
        let room_gb = target_ms * self.bw_tb_s - self.active_gb;
        (room_gb >= 0.0).then(|| room_gb * 1e6 / self.kv_kb_per_token)
    }
}
// ANCHOR_END: demo

/// The article's average context on a decode node, tokens.
pub const AVG_TOKENS: u64 = 500_000;
/// The article's latency target, ms, which it calls TTFT.
pub const ARTICLE_TARGET_MS: f64 = 50.0;
/// The bandwidth gain the article gives B300 over H200.
pub const ARTICLE_BW_GAIN: f64 = 2.0;
/// Longest context the cell accepts.
pub const MAX_TOKENS: i64 = 100_000_000;

/// The request's context, tokens.
const TOKENS: Param = Param::int("tokens", "500,000", 1, MAX_TOKENS);
/// The latency target, ms.
const TARGET_MS: Param = Param::float("target_ms", "50", 0.001, 100_000.0);
/// H200's bandwidth, TB/s.
const H200_BW: Param = Param::float("h200_bw", "4.8", 0.01, 1_000.0);
/// B300's bandwidth, TB/s.
const B300_BW: Param = Param::float("b300_bw", "8", 0.01, 1_000.0);
/// Kimi-K3's activated weights, GB.
const K3_ACTIVE: Param = Param::float("k3_active", "104", 0.0, 100_000.0);
/// DeepSeek-V4-Pro's activated weights, GB.
const V4_ACTIVE: Param = Param::float("v4_active", "49", 0.0, 100_000.0);

/// The cell's parameters.
pub const PARAMS: &[Param] = &[TOKENS, TARGET_MS, H200_BW, B300_BW, K3_ACTIVE, V4_ACTIVE];

/// The cell.
pub fn demo() -> Demo {
    Demo {
        id: "decode_step",
        params: PARAMS,
        #[cfg(feature = "render")]
        source: crate::demo::anchored(include_str!("decode_step.rs"), "demo"),
        #[cfg(feature = "run")]
        run,
    }
}

/// Checked parameters. The work is four steps at a few dozen context
/// lengths, so the cell needs no budget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Context length, tokens.
    pub tokens: u64,
    /// Latency target, ms.
    pub target_ms: f64,
    /// H200 bandwidth, TB/s.
    pub h200_bw: f64,
    /// B300 bandwidth, TB/s.
    pub b300_bw: f64,
    /// Kimi-K3's activated weights, GB.
    pub k3_active: f64,
    /// DeepSeek-V4-Pro's activated weights, GB.
    pub v4_active: f64,
}

impl Params {
    /// Validates the reader's text; every bad field gets its own message.
    pub fn parse(raw: &Raw) -> Result<Params, Vec<ParamError>> {
        let tokens = TOKENS.read_int(raw);
        let target = TARGET_MS.read_float(raw);
        let h = H200_BW.read_float(raw);
        let b = B300_BW.read_float(raw);
        let k = K3_ACTIVE.read_float(raw);
        let v = V4_ACTIVE.read_float(raw);
        let (t, m, h, b, k, v) = (tokens, target, h, b, k, v).all_ok()?;
        Ok(Params {
            tokens: t as u64,
            target_ms: m,
            h200_bw: h,
            b300_bw: b,
            k3_active: k,
            v4_active: v,
        })
    }

    /// The two GPUs, with the reader's bandwidths.
    pub fn gpus(&self) -> [Gpu; 2] {
        [
            Gpu {
                bandwidth_tb_s: self.h200_bw,
                ..plan::H200
            },
            Gpu {
                bandwidth_tb_s: self.b300_bw,
                ..plan::B300
            },
        ]
    }

    /// The four cases: (model, GPU, step), K3 and V4 on H200, then on B300.
    pub fn cases(&self) -> Vec<(plan::Model, Gpu, Step)> {
        let mut out = Vec::new();
        for gpu in self.gpus() {
            for (m, active) in [(plan::k3(), self.k3_active), (plan::v4(), self.v4_active)] {
                let step = Step {
                    active_gb: active,
                    kv_kb_per_token: m.kv_kb_per_token.round_to(1),
                    state_gb: m.fixed_gb,
                    bw_tb_s: gpu.bandwidth_tb_s,
                };
                out.push((m, gpu, step));
            }
        }
        out
    }
}

/// Milliseconds with one decimal.
fn ms(v: f64) -> String {
    format!("{} ms", num(v, 1))
}

/// "44% under 50 ms" or "12% over 50 ms".
fn margin(step_ms: f64, target_ms: f64, lang: Lang) -> String {
    let m = 1.0 - step_ms / target_ms;
    let target = ms_in(target_ms);
    if m >= 0.0 {
        say::under { pct: pct(m, 0), target }.text(lang)
    } else {
        say::over { pct: pct(-m, 0), target }.text(lang)
    }
}

/// "1,000 tokens" or "1,000 个 token".
fn tokens(n: u64, lang: Lang) -> String {
    let n_text = group_u64(n);
    if n == 1 {
        say::tokens_one { n: n_text }.text(lang)
    } else {
        say::tokens { n: n_text }.text(lang)
    }
}

/// "Kimi-K3 on H200".
fn on(model: &str, gpu: &str, lang: Lang) -> String {
    say::on { model, gpu }.text(lang)
}

/// Milliseconds as the reader typed them.
fn ms_in(v: f64) -> String {
    format!("{} ms", input(v))
}

/// Whole tokens, or "never" when the weights alone exceed the target.
fn limit(step: &Step, target_ms: f64, lang: Lang) -> String {
    step.tokens_at(target_ms).map_or_else(
        || say::never.text(lang),
        |t| tokens(t.floor() as u64, lang),
    )
}

/// The chart's context lengths: 2^12 to 2^22 and the reader's, sorted.
pub fn chart_lengths(tokens: u64) -> Vec<u64> {
    let mut xs: Vec<u64> = (12..=22).map(|e| 1u64 << e).collect();
    xs.push(tokens);
    xs.sort_unstable();
    xs.dedup();
    xs
}

/// Runs the demo: the four bounds with their margins, what the bound is and
/// is not, a table, and a chart of step time against context.
pub fn run(raw: &Raw, lang: Lang) -> Result<Output, Vec<ParamError>> {
    let p = Params::parse(raw)?;
    let cases = p.cases();
    let t = p.tokens;
    let mut text = say::intro {
        tokens: tokens(t, lang),
    }
    .text(lang);
    for (m, gpu, s) in &cases {
        let state = if s.state_gb > 0.0 {
            say::state {
                gb: num(s.state_gb, 3),
                ms: ms(s.ms_with_state(t)),
            }
            .text(lang)
        } else {
            String::new()
        };
        text += &say::case {
            on: on(m.name, gpu.name, lang),
            active: input(s.active_gb),
            kv: num(s.kv_gb(t), 1),
            bw: input(s.bw_tb_s),
            ms: ms(s.ms(t)),
            margin: margin(s.ms(t), p.target_ms, lang),
            state,
        }
        .text(lang);
    }
    let max_len = ledger::model("Kimi-K3").map_or(1 << 20, |m| m.max_len);
    if let Some(x) = cases[0].2.tokens_at(p.target_ms) {
        let past = if x > max_len as f64 {
            say::past {
                max: tokens(max_len, lang),
            }
            .text(lang)
        } else {
            String::new()
        };
        text += &say::reaches {
            target: ms_in(p.target_ms),
            at: tokens(x.floor() as u64, lang),
            past,
        }
        .text(lang);
    }
    let (k_h, v_h) = (&cases[0].2, &cases[1].2);
    let ratio = (v_h.active_gb + v_h.kv_gb(t)) / (k_h.active_gb + k_h.kv_gb(t));
    text += &say::ratio {
        r: num(ratio, 2),
        va: input(v_h.active_gb),
        vk: num(v_h.kv_gb(t), 1),
        ka: input(k_h.active_gb),
        kk: num(k_h.kv_gb(t), 1),
    }
    .text(lang);
    let [h200, b300] = p.gpus();
    let gain = num(p.b300_bw / p.h200_bw, 2);
    let not_article = if gain == num(ARTICLE_BW_GAIN, 2) {
        String::new()
    } else {
        say::not_article {
            gain: input(ARTICLE_BW_GAIN),
        }
        .text(lang)
    };
    text += &say::gain {
        bb: input(p.b300_bw),
        hb: input(p.h200_bw),
        gain,
        not_article,
        bm: input(b300.memory_gb),
        hm: input(h200.memory_gb),
        mg: num(b300.memory_gb / h200.memory_gb, 2),
        from: ms(cases[0].2.ms(t)),
        to: ms(cases[2].2.ms(t)),
    }
    .text(lang);
    let k3 = plan::k3();
    let card = plan::ep_row(
        k3.n_routed,
        k3.ep,
        k3.expert_gb,
        h200.memory_gb,
        k3.overhead_gb,
    );
    text += &say::not_this {
        target: ms_in(ARTICLE_TARGET_MS),
        ep: k3.ep,
        experts: card.experts_per_card,
        card_gb: num(card.weight_gb, 1),
    }
    .text(lang);
    text += &say::memory {
        ka: input(p.k3_active),
        kh: pct(p.k3_active / h200.memory_gb, 0),
        hm: input(h200.memory_gb),
        kb: pct(p.k3_active / b300.memory_gb, 0),
        bm: input(b300.memory_gb),
        va: input(p.v4_active),
        vh: pct(p.v4_active / h200.memory_gb, 0),
    }
    .text(lang);
    let header = vec![
        say::col_model.text(lang),
        say::col_gpu.text(lang),
        say::col_active.text(lang),
        say::col_kv.text(lang),
        say::col_bandwidth.text(lang),
        say::col_step.text(lang),
        say::col_margin.text(lang),
        say::col_state.text(lang),
        say::col_tok_s.text(lang),
        say::col_reaches.text(lang),
    ];
    let rows = cases
        .iter()
        .map(|(m, gpu, s)| {
            vec![
                m.name.to_owned(),
                gpu.name.to_owned(),
                format!("{} GB", input(s.active_gb)),
                format!("{} GB", num(s.kv_gb(t), 1)),
                format!("{} TB/s", input(s.bw_tb_s)),
                ms(s.ms(t)),
                margin(s.ms(t), p.target_ms, lang),
                if s.state_gb > 0.0 {
                    ms(s.ms_with_state(t))
                } else {
                    "—".to_owned()
                },
                num(1000.0 / s.ms(t), 1),
                limit(s, p.target_ms, lang),
            ]
        })
        .collect();
    Ok(Output {
        blocks: vec![
            Block::Text(text),
            Block::Table { header, rows },
            Block::Plot(plot(&cases, &p, lang)),
        ],
    })
}

/// Step time against context for the four cases, and the target, dashed.
fn plot(cases: &[(plan::Model, Gpu, Step)], p: &Params, lang: Lang) -> Plot {
    let xs = chart_lengths(p.tokens);
    let x: Vec<f64> = xs.iter().map(|&t| t as f64).collect();
    let mut series: Vec<Series> = cases
        .iter()
        .map(|(m, gpu, s)| Series {
            name: on(m.name, gpu.name, lang),
            x: x.clone(),
            y: xs.iter().map(|&t| s.ms(t)).collect(),
            bars: false,
            dashed: false,
        })
        .collect();
    series.push(Series {
        name: say::target {
            ms: ms_in(p.target_ms),
        }
        .text(lang),
        x: x.clone(),
        y: vec![p.target_ms; xs.len()],
        bars: false,
        dashed: true,
    });
    Plot {
        title: say::chart_title.text(lang),
        x_label: say::chart_x.text(lang),
        y_label: say::chart_y.text(lang),
        log_x: true,
        log_y: false,
        series,
        heatmap: None,
    }
}

/// The figures the chapter's text quotes from this cell: (name, value), at
/// the defaults.
pub fn figures() -> Vec<(&'static str, String)> {
    let Ok(p) = Params::parse(&crate::demo::defaults(PARAMS)) else {
        return Vec::new();
    };
    let c = p.cases();
    let t = p.tokens;
    let [h200, b300] = p.gpus();
    let [k_h, v_h, k_b] = [c[0].2, c[1].2, c[2].2];
    let under = |s: &Step| pct(1.0 - s.ms(t) / p.target_ms, 0);
    let tok_s = |s: &Step| num(1000.0 / s.ms(t), 1);
    vec![
        (
            "decode_step.k3_kv_gb",
            format!("{} GB", num(k_h.kv_gb(t), 1)),
        ),
        (
            "decode_step.v4_kv_gb",
            format!("{} GB", num(v_h.kv_gb(t), 1)),
        ),
        ("decode_step.k3_h200_ms", ms(k_h.ms(t))),
        ("decode_step.v4_h200_ms", ms(v_h.ms(t))),
        ("decode_step.k3_b300_ms", ms(k_b.ms(t))),
        ("decode_step.k3_h200_margin", under(&k_h)),
        ("decode_step.v4_h200_margin", under(&v_h)),
        (
            "decode_step.bw_gain",
            format!("{}×", num(p.b300_bw / p.h200_bw, 2)),
        ),
        (
            "decode_step.cost_ratio",
            num(
                (v_h.active_gb + v_h.kv_gb(t)) / (k_h.active_gb + k_h.kv_gb(t)),
                2,
            ),
        ),
        (
            "decode_step.k3_active_h200",
            pct(p.k3_active / h200.memory_gb, 0),
        ),
        (
            "decode_step.k3_active_b300",
            pct(p.k3_active / b300.memory_gb, 0),
        ),
        (
            "decode_step.v4_active_h200",
            pct(p.v4_active / h200.memory_gb, 0),
        ),
        ("decode_step.v4_h200_tok_s", tok_s(&v_h)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::defaults;

    crate::demo::test_helpers!();

    fn text(o: &Output) -> &str {
        o.text_at(0)
    }

    fn table(o: &Output) -> &Vec<Vec<String>> {
        o.table_at(1).1
    }

    fn plot(o: &Output) -> &Plot {
        o.plot_at(2)
    }

    #[test]
    fn help_is_the_declared_range_then_the_note() {
        let d = demo();
        assert_eq!(
            d.help_in(TOKENS.name, Lang::En),
            "a whole number from 1 to 100,000,000; the article's average context is 500,000"
        );
        assert_eq!(
            d.help_in(H200_BW.name, Lang::Zh),
            "0.01 到 1,000 之间的数；单位 TB/s（十进制）；H200 SXM 为 4.8"
        );
    }

    #[test]
    fn figures_at_the_defaults() {
        let expected = [
            ("decode_step.k3_kv_gb", "30.7 GB"),
            ("decode_step.v4_kv_gb", "6.1 GB"),
            ("decode_step.k3_h200_ms", "28.1 ms"),
            ("decode_step.v4_h200_ms", "11.5 ms"),
            ("decode_step.k3_b300_ms", "16.8 ms"),
            ("decode_step.k3_h200_margin", "44%"),
            ("decode_step.v4_h200_margin", "77%"),
            ("decode_step.bw_gain", "1.67×"),
            ("decode_step.cost_ratio", "0.41"),
            ("decode_step.k3_active_h200", "74%"),
            ("decode_step.k3_active_b300", "36%"),
            ("decode_step.v4_active_h200", "35%"),
            ("decode_step.v4_h200_tok_s", "87.1"),
        ];
        let got = figures();
        let got: Vec<(&str, &str)> = got.iter().map(|(n, v)| (*n, v.as_str())).collect();
        assert_eq!(got, expected);
        // The same as plan's test of the article's figures.
        let c = Params::parse(&defaults(PARAMS)).unwrap().cases();
        assert_eq!(c[0].2.ms(AVG_TOKENS), plan::decode_ms(104.0, 30.7, 4.8));
    }

    #[test]
    fn the_default_text_and_table() {
        let o = out(&[]);
        let t = text(&o);
        for s in [
            "Context 500,000 tokens, KV as the article counts it",
            "  Kimi-K3 on H200: (104 + 30.7) GB / 4.8 TB/s = 28.1 ms, 44% under 50 ms; reading the 0.207 GB KDA state too: 28.1 ms\n",
            "  DeepSeek-V4-Pro on H200: (49 + 6.1) GB / 4.8 TB/s = 11.5 ms, 77% under 50 ms\n",
            "  Kimi-K3 on B300: (104 + 30.7) GB / 8 TB/s = 16.8 ms, 66% under 50 ms; reading the 0.207 GB KDA state too: 16.9 ms\n",
            "  DeepSeek-V4-Pro on B300: (49 + 6.1) GB / 8 TB/s = 6.9 ms, 86% under 50 ms\n",
            "DeepSeek-V4-Pro reads 0.41 of Kimi-K3's bytes a step: (49 + 6.1) / (104 + 30.7)",
            "Kimi-K3 on H200 reaches 50 ms at 2,214,983 tokens, past the 1,048,576 tokens both models accept (ch_newmodels' ledger).\n",
            "B300's bandwidth gain is 8 / 4.8 = 1.67×, not the article's 2×; its memory gain is 288 / 141 = 2.04×. Kimi-K3's step goes from 28.1 ms to 16.8 ms.",
            "It is not the time to the first token (TTFT)",
            "The article calls its 50 ms target TTFT.",
            "(Kimi-K3 at EP = 32: 28 experts, 68.6 GB)",
            "Kimi-K3's 104 GB is 74% of an H200's 141 GB and 36% of a B300's 288 GB; DeepSeek-V4-Pro's 49 GB is 35% of an H200's.",
        ] {
            assert!(t.contains(s), "missing {s:?} in\n{t}");
        }
        let rows = table(&o);
        assert_eq!(
            rows[0],
            [
                "Kimi-K3",
                "H200",
                "104 GB",
                "30.7 GB",
                "4.8 TB/s",
                "28.1 ms",
                "44% under 50 ms",
                "28.1 ms",
                "35.6",
                "2,214,983 tokens"
            ]
        );
        assert_eq!(rows[1][7], "—");
    }

    #[test]
    fn the_chart() {
        let o = out(&[]);
        let p = plot(&o);
        let names: Vec<&str> = p.series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Kimi-K3 on H200",
                "DeepSeek-V4-Pro on H200",
                "Kimi-K3 on B300",
                "DeepSeek-V4-Pro on B300",
                "target, 50 ms"
            ]
        );
        assert!(p.log_x && !p.log_y);
        assert!(p.series[4].dashed && p.series[..4].iter().all(|s| !s.dashed));
        // 2^12 .. 2^22 and 500,000.
        assert_eq!(p.series[0].x.len(), 12);
        let i = p.series[0].x.iter().position(|&x| x == 500_000.0).unwrap();
        assert_eq!(p.series[0].y[i], plan::decode_ms(104.0, 30.7, 4.8));
        // K3 on H200 crosses 50 ms between 2^21 and 2^22 tokens.
        let y = &p.series[0].y;
        assert!(y[y.len() - 2] < 50.0 && y[y.len() - 1] > 50.0);
    }

    #[test]
    fn over_the_target_and_never() {
        let o = out(&[("tokens", "4,000,000"), ("target_ms", "20")]);
        let t = text(&o);
        assert!(
            t.contains("Kimi-K3 on H200: (104 + 245.6) GB / 4.8 TB/s = 72.8 ms, 264% over 20 ms"),
            "{t}"
        );
        assert_eq!(table(&o)[0][9], "never (the weights alone take longer)");
        assert_eq!(table(&o)[1][9], "3,852,459 tokens");
        assert!(t.contains("The article calls its 50 ms target TTFT."));
        let o = out(&[("target_ms", "30")]);
        assert!(
            text(&o).contains("Kimi-K3 on H200 reaches 30 ms at 651,465 tokens.\n"),
            "{}",
            text(&o)
        );
        let o = out(&[("b300_bw", "9.6")]);
        assert!(
            text(&o).contains("= 2.00×; its memory gain"),
            "{}",
            text(&o)
        );
    }

    #[test]
    fn bad_parameters_are_named() {
        let e = errors(&[
            ("tokens", "0"),
            ("target_ms", "0"),
            ("h200_bw", "x"),
            ("b300_bw", "2000"),
            ("k3_active", "-1"),
            ("v4_active", ""),
        ]);
        let names: Vec<&str> = e.iter().map(|e| e.param.as_str()).collect();
        assert_eq!(
            names,
            [
                "tokens",
                "target_ms",
                "h200_bw",
                "b300_bw",
                "k3_active",
                "v4_active"
            ]
        );
        assert_eq!(e[0].message, "must be between 1 and 100,000,000");
    }

    #[test]
    fn the_demo_is_registered_and_fast() {
        let d = super::super::demos()
            .into_iter()
            .find(|d| d.id == "decode_step")
            .unwrap();
        let t0 = std::time::Instant::now();
        assert!((d.run)(&defaults(d.params), Lang::En).is_ok());
        assert!(t0.elapsed().as_millis() < 50);
    }
}
