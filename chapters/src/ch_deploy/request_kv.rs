//! The `request_kv` cell: what one request keeps on the GPUs for Kimi-K3 and
//! DeepSeek-V4-Pro (KV per token of context, plus a fixed state), counted the
//! deployment article's way or ch_newmodels' way, against context length; the
//! totals for many requests, the "bare" card counts the article derives from
//! them, and the prefill-to-decode transfer times.
//!
//! Sizes are decimal (KB = 1,000 B, MB = 10^6 B, GB = 10^9 B, TB = 10^12 B) as
//! the article counts them; KiB and MiB (powers of 1,024) are named as such.

use crate::ch_deploy::plan::{self, RoundTo};
use crate::ch_kvcache::kv_calc::{INDEXER_KEY_BYTES, LEDGER_V4, grouped};
use crate::ch_newmodels::ledger::{self, V4_ENTRY, V4_WINDOW, fmt_exact};
use crate::demo::{AllOk, Demo, Output, Param, ParamError, Plot, Raw, Series, group_u64};
use crate::lang::Lang;
use crate::say::request_kv as say;

// ANCHOR: demo
/// How the two models' bytes are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Convention {
    /// The deployment article's: K3 61.4 KB a token plus its 0.207 GB KDA
    /// state, V4 12.2 KB a token; requests rounded to 0.1 GB as it prints them.
    Article,
    /// ch_newmodels' ledger rows `Kimi-K3` and `DeepSeek-V4-Pro`, unrounded.
    NewModels,
}

/// One model's memory per request.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestKv {
    /// Name.
    pub name: &'static str,
    /// KV per token of context, KB (1,000 B).
    pub kb_per_token: f64,
    /// Held whatever the context length (K3's KDA state), GB.
    pub fixed_gb: f64,
    /// FP8 weights, TB (the article's, in both conventions).
    pub weight_tb: f64,
    /// Round a request to 0.1 GB, as the article does.
    pub rounded: bool,
}

impl RequestKv {
    /// One request of `tokens` tokens, GB, unrounded.
    pub fn exact_gb(&self, tokens: u64) -> f64 {
        plan::request_gb(self.kb_per_token, tokens, self.fixed_gb)
    }

    /// One request of `tokens` tokens, GB, as the convention prints it.
    pub fn gb(&self, tokens: u64) -> f64 {
        let gb = self.exact_gb(tokens);
        if self.rounded { gb.round_to(1) } else { gb }
    }

    /// `requests` requests of `tokens` tokens held at once, TB.
    pub fn total_tb(&self, tokens: u64, requests: u64) -> f64 {
        self.gb(tokens) * requests as f64 / 1000.0
    }

    /// "Bare" cards of `card_gb` for the weights and for that KV, each
    /// rounded up (plan::bare_gpus).
    pub fn bare_cards(&self, tokens: u64, requests: u64, card_gb: f64) -> (u64, u64) {
        plan::bare_gpus(self.weight_tb, self.total_tb(tokens, requests), card_gb)
    }
}

/// Kimi-K3 and DeepSeek-V4-Pro in a convention (`None` if ch_newmodels'
/// ledger lacks a row).
pub fn models(conv: Convention) -> Option<[RequestKv; 2]> {
    let (k3, v4) = (plan::k3(), plan::v4());
    Some(match conv {
        // The article rounds K3's 61.44 KB a token to 61.4.
        Convention::Article => [k3, v4].map(|m| RequestKv {
            name: m.name,
            kb_per_token: m.kv_kb_per_token.round_to(1),
            fixed_gb: m.fixed_gb,
            weight_tb: m.weight_tb,
            rounded: true,
        }),
        Convention::NewModels => {
            let row = |m: &plan::Model, ledger_name: &str| {
                ledger::model(ledger_name).map(|l| RequestKv {
                    name: m.name,
                    kb_per_token: l.per_token / 1000.0,
                    fixed_gb: l.fixed / 1e9,
                    weight_tb: m.weight_tb,
                    rounded: false,
                })
            };
            [row(&k3, "Kimi-K3")?, row(&v4, "DeepSeek-V4-Pro")?]
        }
    })
}
// ANCHOR_END: demo

/// K3's MLA layers, values per latent, latents per layer (K and V) and bytes
/// per value (BF16), as the article counts them.
pub const K3_MLA: (u64, u64, u64, u64) = (24, 640, 2, 2);
/// K3's KDA layers, heads, head width, and bytes per value (BF16, the
/// article's count).
pub const K3_KDA: (u64, u64, u64, u64) = (69, 96, 128, 2);
/// ch_newmodels' K3: one latent of 576 values a layer in BF16, and the KDA
/// state in float32.
pub const NM_K3: (u64, u64) = (576, 4);
/// DeepSeek-V3.2's layers and the bytes per layer and token the article gives.
pub const V32: (u64, u64) = (61, 2_048);
/// MLA's latent plus RoPE key, values per layer and token (DeepSeek-V3).
pub const MLA_VALUES: u64 = 512 + 64;
/// The share of V3.2's KV that DeepSeek says V4 keeps.
pub const V4_SHARE: f64 = 0.1;
/// Context at which the article counts bare cards.
pub const BARE_TOKENS: u64 = 1_000_000;
/// The article's average context on a decode node.
pub const AVG_TOKENS: u64 = 500_000;
/// InfiniBand between nodes, Gb/s (bits).
pub const IB_GBIT_S: f64 = 400.0;
/// Longest context the cell accepts.
pub const MAX_CONTEXT: i64 = 100_000_000;

/// The choices of `convention`, in the order of [`Convention`].
pub const CONVENTIONS: &[&str] = &[
    "article (decimal KB, 12.2 / 61.4 KB a token)",
    "ch_newmodels (FP8 V4 entries, 576-dim K3 latents)",
];

/// The context lengths to size, tokens.
const CONTEXTS: Param = Param::ints("contexts", "131,072 500,000 1,000,000", 1, MAX_CONTEXT, 8);
/// Requests held at once.
const REQUESTS: Param = Param::int("requests", "10,000", 1, 10_000_000);
/// How bytes are counted.
const CONVENTION: Param = Param::choice("convention", CONVENTIONS);
/// One card's memory, GB.
const CARD_GB: Param = Param::float("card_gb", "141", 1.0, 10_000.0);

/// The cell's parameters.
pub const PARAMS: &[Param] = &[CONTEXTS, REQUESTS, CONVENTION, CARD_GB];

/// The cell.
pub fn demo() -> Demo {
    Demo {
        id: "request_kv",
        params: PARAMS,
        #[cfg(feature = "render")]
        source: crate::demo::anchored(include_str!("request_kv.rs"), "demo"),
        #[cfg(feature = "run")]
        run,
    }
}

/// Checked parameters. The work is a few dozen multiplications per context
/// and chart point, so the cell needs no budget.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Context lengths, tokens.
    pub contexts: Vec<u64>,
    /// Requests held at once.
    pub requests: u64,
    /// How bytes are counted.
    pub convention: Convention,
    /// One card's memory, GB.
    pub card_gb: f64,
}

impl Params {
    /// Validates the reader's text; every bad field gets its own message.
    pub fn parse(raw: &Raw) -> Result<Params, Vec<ParamError>> {
        let contexts = CONTEXTS.read_ints(raw);
        let requests = REQUESTS.read_int(raw);
        let conv = CONVENTION.read_choice(raw);
        let card = CARD_GB.read_float(raw);
        let (c, r, v, g) = (contexts, requests, conv, card).all_ok()?;
        Ok(Params {
            contexts: c.into_iter().map(|x| x as u64).collect(),
            requests: r as u64,
            convention: if v == CONVENTIONS[0] {
                Convention::Article
            } else {
                Convention::NewModels
            },
            card_gb: g,
        })
    }
}

/// `v` with `digits` decimals, whole part grouped, negatives with a real
/// minus sign (U+2212): "4,368.8", "−1.2". The chapter's cells share it.
pub fn num(v: f64, digits: usize) -> String {
    grouped(v, digits).replace('-', "−")
}

/// A number the reader typed, as short as it prints exactly, whole part
/// grouped: "2.45", "141", "10,000", "0.001".
pub fn input(v: f64) -> String {
    let s = format!("{v}");
    let digits = s.split_once('.').map_or(0, |(_, f)| f.len());
    num(v, digits)
}

/// A share as a percentage with `digits` decimals: "0.3%".
pub fn pct(share: f64, digits: usize) -> String {
    format!("{}%", num(100.0 * share, digits))
}

/// A ratio with one decimal: "5.0×".
pub fn times(r: f64) -> String {
    format!("{}×", num(r, 1))
}

/// GB with one decimal: "61.6 GB".
fn gb(v: f64) -> String {
    format!("{} GB", num(v, 1))
}

/// A total in TB: whole TB from 100 TB, one decimal from 1 TB, GB below.
fn tb(v: f64) -> String {
    if v >= 100.0 {
        format!("{} TB", num(v, 0))
    } else if v >= 1.0 {
        format!("{} TB", num(v, 1))
    } else {
        gb(v * 1000.0)
    }
}

/// Bytes in KiB, one decimal.
fn kib(bytes: f64) -> String {
    format!("{} KiB", num(bytes / 1024.0, 1))
}

/// Bytes in MiB, `digits` decimals.
fn mib(bytes: f64, digits: usize) -> String {
    format!("{} MiB", num(bytes / 1_048_576.0, digits))
}

/// Bytes in KB, one decimal.
fn kb(bytes: f64) -> String {
    format!("{} KB", num(bytes / 1000.0, 1))
}

/// Bytes in MB, `digits` decimals.
fn mb(bytes: f64, digits: usize) -> String {
    format!("{} MB", num(bytes / 1e6, digits))
}

/// Milliseconds or seconds.
fn duration(seconds: f64) -> String {
    if seconds < 0.1 {
        format!("{} ms", num(seconds * 1000.0, 1))
    } else {
        format!("{} s", num(seconds, 2))
    }
}

/// Seconds to move `gb` GB over [`IB_GBIT_S`] (bits, so / 8 for bytes).
pub fn transfer_s(gb: f64) -> f64 {
    gb / (IB_GBIT_S / 8.0)
}

/// The exact KDA state in the article's count, bytes.
pub fn k3_kda_bytes() -> u64 {
    let (l, h, d, b) = K3_KDA;
    plan::kda_state_bytes(l, h, d, b)
}

/// "500,000 tokens" or "500,000 个 token".
fn tokens(n: u64, lang: Lang) -> String {
    let n_text = group_u64(n);
    if n == 1 {
        say::tokens_one { n: n_text }.text(lang)
    } else {
        say::tokens { n: n_text }.text(lang)
    }
}

/// "10,000 requests" or "10,000 个请求".
fn requests(n: u64, lang: Lang) -> String {
    let n_text = group_u64(n);
    if n == 1 {
        say::requests_one { n: n_text }.text(lang)
    } else {
        say::requests { n: n_text }.text(lang)
    }
}

/// Where the article's numbers come from.
fn article_sources(k3: &RequestKv, v4: &RequestKv, lang: Lang) -> String {
    let (l, dim, n, b) = K3_MLA;
    let layer = plan::latent_kv_bytes(1, dim, n, b);
    let token = plan::latent_kv_bytes(l, dim, n, b);
    let (kl, heads, d, kda_bytes) = K3_KDA;
    let kda_layer = plan::kda_state_bytes(1, heads, d, kda_bytes);
    let kda = k3_kda_bytes() as f64;
    let (vl, vb) = V32;
    let v32 = (vl * vb) as f64;
    let nm_v4 = ledger::model("DeepSeek-V4-Pro").map_or(0.0, |m| m.fixed);
    let k3_text = say::article_k3 {
        model: k3.name,
        l,
        n,
        dim,
        b,
        layer_b: group_u64(layer),
        token_b: group_u64(token),
        token_kb: num(token as f64 / 1000.0, 2),
        token_kib: kib(token as f64),
        rounded: kb(k3.kb_per_token * 1000.0),
        kl,
        heads,
        d,
        kda_bytes,
        kda_layer: group_u64(kda_layer),
        kda_b: group_u64(k3_kda_bytes()),
        kda_mib: mib(kda, 0),
        kda_mb: mb(kda, 0),
        written: num(kda / 1_048_576.0, 0),
        counted: num(k3.fixed_gb, 3),
        exact: num(kda / 1e9, 3),
        more: mb(kda - k3.fixed_gb * 1e9, 0),
    }
    .text(lang);
    let v32_b = group_u64(V32.0 * V32.1);
    k3_text
        + &say::article_v4 {
            model: v4.name,
            vl,
            vb: group_u64(vb),
            v32_b: &v32_b,
            v32_kib: kib(v32),
            v32_kb: kb(v32),
            called: num(v32 / 1024.0, 0),
            ten: kb(v4.kb_per_token * 1000.0),
            ten_exact: kb(V4_SHARE * v32),
            mla: group_u64(MLA_VALUES),
            mla_b: group_u64(MLA_VALUES * 2),
            mla_all: group_u64(vl * MLA_VALUES * 2),
            nm_fixed: mb(nm_v4, 1),
        }
        .text(lang)
}

/// Where ch_newmodels' numbers come from.
fn ledger_sources(k3: &RequestKv, v4: &RequestKv, lang: Lang) -> String {
    let (l, ..) = K3_MLA;
    let (dim, fp32) = NM_K3;
    let (kl, heads, d, _) = K3_KDA;
    let token = plan::latent_kv_bytes(l, dim, 1, 2) as f64;
    let kda = plan::kda_state_bytes(kl, heads, d, fp32) as f64;
    let (_, csa, hca, _) = LEDGER_V4[1];
    let v4_token = v4.kb_per_token * 1000.0;
    let v4_fixed = v4.fixed_gb * 1e9;
    let k3_text = say::ledger_k3 {
        model: k3.name,
        l,
        dim,
        token_b: fmt_exact(token),
        token_kib: kib(token),
        token_kb: kb(token),
        kl,
        heads,
        d,
        fp32,
        kda_b: fmt_exact(kda),
        kda_mib: mib(kda, 0),
        kda_mb: mb(kda, 0),
    }
    .text(lang);
    k3_text
        + &say::ledger_v4 {
            model: v4.name,
            csa,
            hca,
            entry: fmt_exact(V4_ENTRY),
            key: fmt_exact(INDEXER_KEY_BYTES),
            token_b: fmt_exact(v4_token),
            token_kib: kib(v4_token),
            token_kb: kb(v4_token),
            window: fmt_exact(V4_WINDOW),
            layers: group_u64(csa + hca),
            fixed_b: fmt_exact(v4_fixed),
            fixed_mib: mib(v4_fixed, 1),
            fixed_mb: mb(v4_fixed, 1),
        }
        .text(lang)
}

/// The bare-card paragraph at [`BARE_TOKENS`].
fn bare_text(ms: &[RequestKv; 2], p: &Params, lang: Lang) -> String {
    let mut t = say::bare_intro {
        at: tokens(BARE_TOKENS, lang),
        n: requests(p.requests, lang),
        card: input(p.card_gb),
    }
    .text(lang);
    let mut totals = Vec::new();
    for m in ms {
        let kv_tb = m.total_tb(BARE_TOKENS, p.requests);
        let (w, k) = m.bare_cards(BARE_TOKENS, p.requests, p.card_gb);
        let cards = |tb_: f64| num(tb_ * 1000.0 / p.card_gb, 1);
        t += &say::bare_row {
            name: m.name,
            wt: tb(m.weight_tb),
            wc: cards(m.weight_tb),
            w: group_u64(w),
            kt: tb(kv_tb),
            kc: cards(kv_tb),
            k: group_u64(k),
            all: group_u64(w + k),
            share: pct(w as f64 / (w + k) as f64, 1),
        }
        .text(lang);
        totals.push(w + k);
    }
    t += &say::bare_ratio {
        a: ms[0].name,
        x: times(totals[0] as f64 / totals[1] as f64),
        b: ms[1].name,
    }
    .text(lang);
    t
}

/// The transfer paragraph at [`AVG_TOKENS`].
fn transfer_text(ms: &[RequestKv; 2], conv: Convention, lang: Lang) -> String {
    let [k3, v4] = ms;
    let exact = match conv {
        Convention::Article => {
            let e = k3_kda_bytes() as f64 / 1e9;
            say::exact {
                gb: num(e, 3),
                time: duration(transfer_s(e)),
            }
            .text(lang)
        }
        Convention::NewModels => String::new(),
    };
    say::transfer {
        gbit: num(IB_GBIT_S, 0),
        gbyte: num(IB_GBIT_S / 8.0, 0),
        at: tokens(AVG_TOKENS, lang),
        k3: k3.name,
        k3_fixed: num(k3.fixed_gb, 3),
        k3_fixed_time: duration(transfer_s(k3.fixed_gb)),
        exact,
        k3_gb: gb(k3.gb(AVG_TOKENS)),
        k3_time: duration(transfer_s(k3.gb(AVG_TOKENS))),
        v4: v4.name,
        v4_gb: gb(v4.gb(AVG_TOKENS)),
        v4_time: duration(transfer_s(v4.gb(AVG_TOKENS))),
    }
    .text(lang)
}

/// The chart's context lengths: 2^10 to 2^24 and the reader's, sorted.
pub fn chart_lengths(contexts: &[u64]) -> Vec<u64> {
    let mut xs: Vec<u64> = (10..=24).map(|e| 1u64 << e).collect();
    xs.extend_from_slice(contexts);
    xs.sort_unstable();
    xs.dedup();
    xs
}

/// Runs the demo: where the bytes come from, a line per context length, the
/// bare cards and the transfers; a table per context; a log-log chart.
pub fn run(raw: &Raw, lang: Lang) -> Result<Output, Vec<ParamError>> {
    let p = Params::parse(raw)?;
    let Some(ms) = models(p.convention) else {
        return Err(vec![ParamError::said("convention", &say::no_ledger_row)]);
    };
    let [k3, v4] = &ms;
    let mut text = say::intro.text(lang);
    text += &match p.convention {
        Convention::Article => article_sources(k3, v4, lang) + &say::article_rounding.text(lang),
        Convention::NewModels => ledger_sources(k3, v4, lang) + &say::ledger_gb.text(lang),
    };
    text += &say::held {
        n: requests(p.requests, lang),
    }
    .text(lang);
    let mut rows = Vec::new();
    for &t in &p.contexts {
        let (a, b) = (k3.gb(t), v4.gb(t));
        let share = k3.fixed_gb / k3.exact_gb(t);
        let ratio = if b > 0.0 {
            times(a / b)
        } else {
            "—".to_owned()
        };
        let (ta, tb_) = (k3.total_tb(t, p.requests), v4.total_tb(t, p.requests));
        text += &say::context_row {
            at: tokens(t, lang),
            kn: k3.name,
            ka: gb(a),
            ks: pct(share, 1),
            vn: v4.name,
            vb: gb(b),
            ratio: &ratio,
            kt: tb(ta),
            vt: tb(tb_),
        }
        .text(lang);
        rows.push(vec![
            group_u64(t),
            gb(a),
            pct(share, 1),
            gb(b),
            ratio,
            tb(ta),
            tb(tb_),
        ]);
    }
    let max_len = ledger::model("Kimi-K3").map_or(1 << 20, |m| m.max_len);
    if p.contexts.iter().any(|&t| t > max_len) {
        text += &say::past {
            max: tokens(max_len, lang),
        }
        .text(lang);
    }
    text += &bare_text(&ms, &p, lang);
    text += &transfer_text(&ms, p.convention, lang);

    let n = requests(p.requests, lang);
    let headline = headline(&ms, &p, lang);
    let header = vec![
        say::col_context.text(lang),
        say::col_one { model: k3.name }.text(lang),
        say::col_kda.text(lang),
        say::col_one { model: v4.name }.text(lang),
        "K3 / V4".to_owned(),
        say::col_all { model: k3.name, n: &n }.text(lang),
        say::col_all { model: v4.name, n: &n }.text(lang),
    ];
    Ok(Output::new()
        .text(headline)
        .details(say::audit.text(lang), Output::new().text(text))
        .table(header, rows)
        .plot(plot(&ms, &p, lang)))
}

/// What the parameters come to, ahead of the audit: both models' KV for all
/// the requests at the longest context, and their bare cards at
/// [`BARE_TOKENS`].
fn headline(ms: &[RequestKv; 2], p: &Params, lang: Lang) -> String {
    let [k3, v4] = ms;
    let at = p.contexts.iter().copied().max().unwrap_or(BARE_TOKENS);
    let (a, b) = (k3.gb(at), v4.gb(at));
    let cards = |m: &RequestKv| {
        let (w, k) = m.bare_cards(BARE_TOKENS, p.requests, p.card_gb);
        group_u64(w + k)
    };
    let held = say::headline {
        n: requests(p.requests, lang),
        at: tokens(at, lang),
        kn: k3.name,
        kt: tb(k3.total_tb(at, p.requests)),
        ka: gb(a),
        vn: v4.name,
        vt: tb(v4.total_tb(at, p.requests)),
        vb: gb(b),
        ratio: if b > 0.0 {
            times(a / b)
        } else {
            "—".to_owned()
        },
    };
    let bare = say::headline_cards {
        card: input(p.card_gb),
        bare_at: tokens(BARE_TOKENS, lang),
        kn: k3.name,
        kc: cards(k3),
        vn: v4.name,
        vc: cards(v4),
    };
    held.text(lang) + &bare.text(lang)
}

/// Per-request GB against context length, unrounded, with each model's fixed
/// part and one card's memory as dashed lines.
fn plot(ms: &[RequestKv; 2], p: &Params, lang: Lang) -> Plot {
    let xs = chart_lengths(&p.contexts);
    let level = |y: f64| vec![y; xs.len()];
    let card = say::series_card {
        gb: input(p.card_gb),
    };
    Plot::new(
        say::chart_title.text(lang),
        say::chart_x.text(lang),
        say::chart_y.text(lang),
    )
    .log_x()
    .log_y()
    .series(
        ms.iter()
            .map(|m| Series::line(m.name, &xs, xs.iter().map(|&x| m.exact_gb(x)))),
    )
    .series(ms.iter().filter(|m| m.fixed_gb > 0.0).map(|m| {
        let name = say::series_fixed { model: m.name };
        Series::line(name.text(lang), &xs, level(m.fixed_gb)).dashed()
    }))
    .dashed(card.text(lang), &xs, level(p.card_gb))
}

/// The figures the chapter's text quotes from this cell: (name, value), at
/// the defaults (10,000 requests, 141 GB cards).
pub fn figures() -> Vec<(&'static str, String)> {
    let (Some([k3, v4]), Some([nk, nv])) =
        (models(Convention::Article), models(Convention::NewModels))
    else {
        return Vec::new();
    };
    let (requests, card) = (10_000, plan::H200.memory_gb);
    let (m1, m5) = (BARE_TOKENS, AVG_TOKENS);
    let (_, dim, n, b) = K3_MLA;
    let (_, heads, d, kb_) = K3_KDA;
    let kda = k3_kda_bytes() as f64;
    let v32 = (V32.0 * V32.1) as f64;
    let (kw, kk) = k3.bare_cards(m1, requests, card);
    let (vw, vk) = v4.bare_cards(m1, requests, card);
    vec![
        (
            "request_kv.k3_layer_bytes",
            format!("{} B", group_u64(plan::latent_kv_bytes(1, dim, n, b))),
        ),
        ("request_kv.k3_per_token_kb", kb(k3.kb_per_token * 1000.0)),
        (
            "request_kv.k3_kda_layer_bytes",
            format!("{} B", group_u64(plan::kda_state_bytes(1, heads, d, kb_))),
        ),
        ("request_kv.k3_kda_mib", mib(kda, 0)),
        ("request_kv.k3_kda_mb", mb(kda, 0)),
        (
            "request_kv.k3_1m_gb",
            gb(plan::request_gb(k3.kb_per_token, m1, 0.0)),
        ),
        ("request_kv.k3_1m_total_gb", gb(k3.gb(m1))),
        (
            "request_kv.kda_share_1m",
            pct(k3.fixed_gb / k3.exact_gb(m1), 1),
        ),
        (
            "request_kv.v32_per_token_bytes",
            format!("{} B", group_u64(V32.0 * V32.1)),
        ),
        ("request_kv.v32_per_token_kib", kib(v32)),
        ("request_kv.v4_per_token_kb", kb(v4.kb_per_token * 1000.0)),
        ("request_kv.v4_from_exact_v32_kb", kb(V4_SHARE * v32)),
        ("request_kv.v4_1m_gb", gb(v4.gb(m1))),
        ("request_kv.k3_over_v4", times(k3.gb(m1) / v4.gb(m1))),
        (
            "request_kv.k3_over_v4_per_token",
            times(k3.kb_per_token / v4.kb_per_token),
        ),
        ("request_kv.k3_10k_tb", tb(k3.total_tb(m1, requests))),
        ("request_kv.v4_10k_tb", tb(v4.total_tb(m1, requests))),
        ("request_kv.k3_500k_gb", gb(k3.gb(m5))),
        ("request_kv.v4_500k_gb", gb(v4.gb(m5))),
        (
            "request_kv.kda_share_500k",
            pct(k3.fixed_gb / k3.exact_gb(m5), 1),
        ),
        (
            "request_kv.nm_k3_per_token_kib",
            kib(nk.kb_per_token * 1000.0),
        ),
        (
            "request_kv.nm_v4_per_token_kib",
            kib(nv.kb_per_token * 1000.0),
        ),
        ("request_kv.nm_k3_fixed_mib", mib(nk.fixed_gb * 1e9, 0)),
        (
            "request_kv.kda_transfer_ms",
            duration(transfer_s(k3.fixed_gb)),
        ),
        (
            "request_kv.kda_transfer_ms_exact",
            duration(transfer_s(kda / 1e9)),
        ),
        ("request_kv.v4_transfer_s", duration(transfer_s(v4.gb(m5)))),
        ("request_kv.k3_weight_cards", group_u64(kw)),
        ("request_kv.k3_kv_cards", group_u64(kk)),
        ("request_kv.k3_bare_total", group_u64(kw + kk)),
        ("request_kv.v4_weight_cards", group_u64(vw)),
        ("request_kv.v4_kv_cards", group_u64(vk)),
        (
            "request_kv.v4_kv_cards_unrounded",
            num(v4.total_tb(m1, requests) * 1000.0 / card, 1),
        ),
        ("request_kv.v4_bare_total", group_u64(vw + vk)),
        (
            "request_kv.bare_ratio",
            times((kw + kk) as f64 / (vw + vk) as f64),
        ),
        (
            "request_kv.k3_weight_share",
            pct(kw as f64 / (kw + kk) as f64, 1),
        ),
        (
            "request_kv.v4_weight_share",
            pct(vw as f64 / (vw + vk) as f64, 1),
        ),
    ]
}

#[cfg(test)]
mod tests;
