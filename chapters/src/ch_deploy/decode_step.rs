//! The `decode_step` cell: the article's lower bound on one decode step,
//! every activated weight and one request's KV read from HBM once, divided by
//! the bandwidth (plan::decode_ms), for Kimi-K3 and DeepSeek-V4-Pro on H200
//! and B300, against a latency target and against context length. Sizes are
//! decimal (GB = 10^9 B, TB = 10^12 B): GB / (TB/s) = ms.

use crate::ch_deploy::plan::{self, Gpu, RoundTo};
use crate::ch_deploy::request_kv::{input, num, pct};
use crate::ch_newmodels::ledger;
use crate::demo::{AllOk, Demo, Output, Param, ParamError, Plot, Raw, Series, group_u64};
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
    Ok(Output::new()
        .text(text)
        .table(header, rows)
        .plot(plot(&cases, &p, lang)))
}

/// Step time against context for the four cases, and the target, dashed.
fn plot(cases: &[(plan::Model, Gpu, Step)], p: &Params, lang: Lang) -> Plot {
    let xs = chart_lengths(p.tokens);
    Plot::new(
        say::chart_title.text(lang),
        say::chart_x.text(lang),
        say::chart_y.text(lang),
    )
    .log_x()
    .series(cases.iter().map(|(m, gpu, s)| {
        Series::line(on(m.name, gpu.name, lang), &xs, xs.iter().map(|&t| s.ms(t)))
    }))
    .dashed(
        say::target {
            ms: ms_in(p.target_ms),
        }
        .text(lang),
        &xs,
        vec![p.target_ms; xs.len()],
    )
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
mod tests;
