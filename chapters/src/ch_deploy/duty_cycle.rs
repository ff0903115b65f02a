//! The duty cycle: the share of a request's life it spends decoding, which is
//! the share of the requests' KV that must be on the GPUs at once once idle
//! requests are offloaded (HiCache), and what it does to the planner's node
//! counts.

use crate::ch_deploy::ep_sizing::{K3_TOP_K, V4_TOP_K};
use crate::ch_deploy::plan::{
    Gpu, H200, Mode, Model, article_request_gb, decode_ms, duty_cycle, ep_row, hicache_nodes,
    k3, plan, v4,
};
use crate::ch_deploy::planner::{MODES, mode_of, num, pairs, times};
use crate::demo::{AllOk, Demo, Output, Param, ParamError, Plot, Raw, Series, group_u64};
use crate::lang::Lang;
use crate::say::duty_cycle as say;

// ANCHOR: demo
/// Average context of the planner's upper bound, tokens.
pub const TOKENS: u64 = 500_000;
/// Requests at once of the planner's upper bound.
pub const CONCURRENT: u64 = 10_000;

/// ρ for each idle time: decode time over decode plus idle time.
pub fn rhos(out_tokens: u64, tok_per_s: f64, idle_s: &[u64]) -> Vec<f64> {
    idle_s
        .iter()
        .map(|&idle| duty_cycle(out_tokens as f64, tok_per_s, idle as f64))
        .collect()
}

/// One deployment's HiCache row: (D nodes, total nodes) with every request's
/// KV on the GPUs, then at each ρ.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The planner's upper bound (ρ = 1).
    pub upper: (u64, u64),
    /// At each ρ, in order.
    pub at: Vec<(u64, u64)>,
}

/// The row of `m` on `gpu`: the planner's D nodes at [`TOKENS`] and
/// [`CONCURRENT`], scaled by each ρ with `plan::hicache_nodes`.
pub fn hicache_row(m: &Model, gpu: &Gpu, rhos: &[f64], pd_ratio: f64, mode: Mode) -> Option<Row> {
    let d = plan(m, gpu, TOKENS, CONCURRENT, mode)?.d_nodes;
    Some(Row {
        upper: hicache_nodes(d, 1.0, pd_ratio, mode),
        at: rhos
            .iter()
            .map(|&rho| hicache_nodes(d, rho, pd_ratio, mode))
            .collect(),
    })
}

/// HiCache's reload traffic for `concurrent` sessions of `request_gb` each,
/// one turn every `decode_s + idle_s` seconds, each turn bringing the whole
/// cache back to a GPU: (reloads per second, GB/s in all, GB held off the
/// GPUs by the share `1 − ρ` of sessions that are idle).
pub fn reload_traffic(concurrent: u64, request_gb: f64, decode_s: f64, idle_s: f64) -> (f64, f64, f64) {
    let period = decode_s + idle_s;
    let per_s = concurrent as f64 / period;
    let idle_share = idle_s / period;
    (per_s, per_s * request_gb, concurrent as f64 * idle_share * request_gb)
}

/// One decode step on a full card of `m`'s plan on `gpu`: (GB read, ms,
/// tokens/s per request). A unit decodes one token for each of its
/// `concurrency` requests a step; each token visits `top_k` of `experts`, so
/// a card reads the share `1 − (1 − top_k/experts)^concurrency` of its
/// experts, all the weights every card keeps, and the KV of the requests it
/// holds, at the card's bandwidth.
pub fn full_card_step(m: &Model, gpu: &Gpu, top_k: u64, mode: Mode) -> Option<(f64, f64, f64)> {
    let unit = plan(m, gpu, TOKENS, CONCURRENT, mode)?.concurrency;
    let row = ep_row(m.n_routed, m.ep, m.expert_gb, gpu.memory_gb, m.overhead_gb);
    let hit = 1.0 - crate::math::powf(1.0 - top_k as f64 / m.n_routed as f64, unit as f64);
    let kv = unit as f64 * article_request_gb(m, TOKENS) / m.ep as f64;
    let gb = row.weight_gb * hit + m.overhead_gb + kv;
    let ms = decode_ms(0.0, gb, gpu.bandwidth_tb_s);
    Some((gb, ms, 1000.0 / ms))
}
// ANCHOR_END: demo

/// The source's three workloads by idle time, seconds.
pub const SCENARIOS: [(u64, Workload); 3] = [
    (5, Workload::Agent),
    (15, Workload::Api),
    (40, Workload::Batch),
];

/// The source's workloads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Workload {
    /// A high-interaction agent.
    Agent,
    /// A standard API.
    Api,
    /// A low-frequency batch.
    Batch,
}

impl Workload {
    /// The workload's name.
    pub fn name(self, lang: Lang) -> String {
        match self {
            Workload::Agent => say::agent.text(lang),
            Workload::Api => say::api.text(lang),
            Workload::Batch => say::batch.text(lang),
        }
    }
}

/// One 400 Gb/s InfiniBand link in GB/s: the source's rate for moving KV
/// between nodes.
pub const LINK_GB_S: f64 = 400.0 / 8.0;

/// Most idle times the cell takes.
pub const MAX_IDLE: usize = 6;

/// Tokens one request generates.
const OUT_TOKENS: Param = Param::int("out_tokens", "1,000", 1, 10_000_000);
/// Tokens per second one request decodes at.
const TOK_PER_S: Param = Param::float("tok_per_s", "200", 0.1, 100_000.0);
/// Seconds a request waits between decodes, one row each.
const IDLE: Param = Param::ints("idle", "5 15 40", 0, 1_000_000, MAX_IDLE);
/// How the plans round.
const MODE: Param = Param::choice("mode", MODES);
/// Decode nodes per prefill node.
const PD_RATIO: Param = Param::float("pd_ratio", "2.5", 0.1, 100.0);

/// The cell's parameters.
pub const PARAMS: &[Param] = &[OUT_TOKENS, TOK_PER_S, IDLE, MODE, PD_RATIO];

/// The cell.
pub fn demo() -> Demo {
    Demo {
        id: "duty_cycle",
        params: PARAMS,
        #[cfg(feature = "render")]
        source: crate::demo::anchored(include_str!("duty_cycle.rs"), "demo"),
        #[cfg(feature = "run")]
        run,
    }
}

/// Checked parameters. The work is four plans and a few dozen scalings, so
/// no budget is needed.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Output tokens per request.
    pub out_tokens: u64,
    /// Decode speed, tokens per second.
    pub tok_per_s: f64,
    /// Idle times, seconds.
    pub idle: Vec<u64>,
    /// Rounding.
    pub mode: Mode,
    /// Decode nodes per prefill node.
    pub pd_ratio: f64,
}

impl Params {
    /// Validates the reader's text; every bad field gets its own message.
    pub fn parse(raw: &Raw) -> Result<Params, Vec<ParamError>> {
        let out = OUT_TOKENS.read_int(raw);
        let speed = TOK_PER_S.read_float(raw);
        let idle = IDLE.read_ints(raw);
        let mode = MODE.read_choice(raw);
        let pd = PD_RATIO.read_float(raw);
        let (out, speed, idle, mode, pd) = (out, speed, idle, mode, pd).all_ok()?;
        Ok(Params {
            out_tokens: out as u64,
            tok_per_s: speed,
            idle: idle.into_iter().map(|i| i as u64).collect(),
            mode: mode_of(mode),
            pd_ratio: pd,
        })
    }
}

/// `rho` as a percentage with at most one decimal: `50%`, `11.1%`.
fn percent(rho: f64) -> String {
    format!("{}%", num(100.0 * rho, 1))
}

/// "idle 5 s (high-interaction agent)".
fn idle_name(idle: u64, lang: Lang) -> String {
    let n = group_u64(idle);
    match SCENARIOS.iter().find(|s| s.0 == idle) {
        Some((_, w)) => say::idle_named {
            n,
            name: w.name(lang),
        }
        .text(lang),
        None => say::idle { n }.text(lang),
    }
}

/// "Kimi-K3 on H200".
fn pair_name(m: &Model, g: &Gpu, lang: Lang) -> String {
    say::pair {
        model: m.name,
        gpu: g.name,
    }
    .text(lang)
}

/// The rounding mode's name: "article" or "conservative".
fn mode_label(mode: Mode, lang: Lang) -> String {
    match mode {
        Mode::Article => say::mode_article.text(lang),
        _ => say::mode_conservative.text(lang),
    }
}

/// The four deployments' rows; `None` if one has no plan (it always has one).
fn all_rows(rhos: &[f64], pd_ratio: f64, mode: Mode) -> Option<Vec<Row>> {
    pairs()
        .iter()
        .map(|(m, g)| hicache_row(m, g, rhos, pd_ratio, mode))
        .collect()
}

/// Runs the demo: ρ per idle time, the HiCache tables (D nodes and total
/// nodes per deployment at each ρ), notes, and a chart of total nodes
/// against ρ.
pub fn run(raw: &Raw, lang: Lang) -> Result<Output, Vec<ParamError>> {
    let p = Params::parse(raw)?;
    let rs = rhos(p.out_tokens, p.tok_per_s, &p.idle);
    let decode_s = p.out_tokens as f64 / p.tok_per_s;
    let mode_name = mode_label(p.mode, lang);
    let Some(rows) = all_rows(&rs, p.pd_ratio, p.mode) else {
        return Ok(Output::new().text(say::no_plan.text(lang)));
    };
    let secs = num(decode_s, 2);
    let mut text = say::decode {
        out: group_u64(p.out_tokens),
        speed: num(p.tok_per_s, 3),
        secs: &secs,
    }
    .text(lang);
    for (&idle, &rho) in p.idle.iter().zip(&rs) {
        text += &say::rho_row {
            idle: idle_name(idle, lang),
            secs: &secs,
            idle_s: group_u64(idle),
            rho: percent(rho),
        }
        .text(lang);
    }
    let (tokens, concurrent) = (group_u64(TOKENS), group_u64(CONCURRENT));
    text += &say::upper {
        tokens: &tokens,
        concurrent: &concurrent,
        k3_ep: k3().ep,
        v4_ep: v4().ep,
        mode: &mode_name,
        pd: num(p.pd_ratio, 3),
        rounded: if p.mode == Mode::Article {
            say::rounded_nearest.text(lang)
        } else {
            say::rounded_up.text(lang)
        },
    }
    .text(lang);

    // What a full card reads a step, and the ρ that speed implies.
    text += &say::full_card.text(lang);
    for (m, g) in pairs() {
        let top_k = if m.name == k3().name { K3_TOP_K } else { V4_TOP_K };
        let Some((gb, ms, tok_s)) = full_card_step(&m, &g, top_k, p.mode) else {
            continue;
        };
        let implied: Vec<String> = rhos(p.out_tokens, tok_s, &p.idle)
            .into_iter()
            .map(percent)
            .collect();
        text += &say::full_card_row {
            name: pair_name(&m, &g, lang),
            gb: num(gb, 1),
            ms: num(ms, 1),
            tok_s: num(tok_s, 1),
            implied: implied.join(&say::sep_list.text(lang)),
        }
        .text(lang);
    }

    // What HiCache moves: every idle request's cache comes back once a turn.
    text += &say::reloads.text(lang);
    for (j, &idle) in p.idle.iter().enumerate() {
        let mut parts = Vec::new();
        let mut reloads = 0.0;
        for (i, m) in [(0, k3()), (1, v4())] {
            let (per_s, gb_s, off_gb) =
                reload_traffic(CONCURRENT, article_request_gb(&m, TOKENS), decode_s, idle as f64);
            reloads = per_s;
            let d = rows[i].at[j].0.max(1) as f64;
            parts.push(
                say::reload_part {
                    model: m.name,
                    all: num(gb_s / 1000.0, 1),
                    node: num(gb_s / d, 0),
                    off: num(off_gb / 1000.0, 0),
                }
                .text(lang),
            );
        }
        text += &say::reload_row {
            idle: idle_name(idle, lang),
            reloads: num(reloads, 0),
            parts: parts.join(&say::sep_parts.text(lang)),
        }
        .text(lang);
    }

    // The two tables.
    let mut header = vec![say::col_deployment.text(lang), say::col_upper.text(lang)];
    header.extend(p.idle.iter().zip(&rs).map(|(&i, &r)| {
        say::col_rho {
            rho: percent(r),
            idle: group_u64(i),
        }
        .text(lang)
    }));
    let names: Vec<String> = pairs()
        .iter()
        .map(|(m, g)| pair_name(m, g, lang))
        .collect();
    let table = |pick: fn(&(u64, u64)) -> u64| -> Vec<Vec<String>> {
        rows.iter()
            .zip(&names)
            .map(|(r, name)| {
                let mut cells = vec![name.clone(), group_u64(pick(&r.upper))];
                cells.extend(r.at.iter().map(|x| group_u64(pick(x))));
                cells
            })
            .collect()
    };
    let d_rows = table(|x| x.0);
    let total_rows = table(|x| x.1);

    // Notes.
    let ratio = |a: (u64, u64), b: (u64, u64)| times(a.1 as f64, b.1 as f64);
    let mut notes = String::new();
    for (gpu, k, v) in [("H200", 0, 1), ("B300", 2, 3)] {
        let at: Vec<String> = rs
            .iter()
            .zip(rows[k].at.iter().zip(&rows[v].at))
            .map(|(&rho, (&a, &b))| {
                say::ratio_at {
                    ratio: ratio(a, b),
                    rho: percent(rho),
                }
                .text(lang)
            })
            .collect();
        notes += &say::ratio_row {
            gpu,
            upper: ratio(rows[k].upper, rows[v].upper),
            at: at.join(&say::sep_clauses.text(lang)),
        }
        .text(lang);
    }
    notes += &say::ratio_note.text(lang);
    let hi = (0..rs.len()).max_by(|&a, &b| rs[a].total_cmp(&rs[b]));
    let lo = (0..rs.len()).min_by(|&a, &b| rs[a].total_cmp(&rs[b]));
    if let (Some(hi), Some(lo)) = (hi, lo)
        && rs[hi] > rs[lo]
    {
        let k3_h200 = &rows[0];
        notes += &say::load_note {
            rho_hi: percent(rs[hi]),
            x: times(rs[hi], rs[lo]),
            rho_lo: percent(rs[lo]),
            n_hi: group_u64(k3_h200.at[hi].1),
            n_lo: group_u64(k3_h200.at[lo].1),
            r: ratio(k3_h200.at[hi], k3_h200.at[lo]),
            gap: ratio(rows[0].upper, rows[1].upper),
        }
        .text(lang);
    }
    let (k, v) = (k3(), v4());
    let (k_gb, v_gb) = (
        article_request_gb(&k, TOKENS),
        article_request_gb(&v, TOKENS),
    );
    let shortest = p.idle.iter().copied().filter(|&i| i > 0).min();
    // Idle times are whole seconds and a K3 request takes 0.62 s, so the
    // copy fits in any idle time but 0.
    let against = shortest.map_or_else(String::new, |i| {
        say::against { s: group_u64(i) }.text(lang)
    });
    notes += &say::offload_note {
        link: num(LINK_GB_S, 1),
        kg: num(k_gb, 1),
        ks: num(k_gb / LINK_GB_S, 2),
        vg: num(v_gb, 1),
        vs: num(v_gb / LINK_GB_S, 2),
        against,
        fixed: num(k.fixed_gb, 3),
        share: percent_1(k.fixed_gb / k_gb),
        tokens: &tokens,
        ms: num(1000.0 * k.fixed_gb / LINK_GB_S, 0),
    }
    .text(lang);

    // The chart: total nodes against ρ, the reader's ρ values marked.
    let mut xs: Vec<f64> = (1..=20)
        .map(|i| i as f64 / 20.0)
        .chain(rs.iter().copied())
        .collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let Some(curves) = all_rows(&xs, p.pd_ratio, p.mode) else {
        return Ok(Output::new());
    };
    let marks = p.idle.iter().zip(&rs).enumerate().map(|(j, (&idle, &rho))| {
        let mut ys: Vec<f64> = rows.iter().map(|r| r.at[j].1 as f64).collect();
        ys.sort_by(|a, b| b.total_cmp(a));
        let name = say::series_idle {
            idle: group_u64(idle),
            rho: percent(rho),
        };
        Series::line(name.text(lang), vec![rho; ys.len()], ys).dashed()
    });
    let plot = Plot::new(
        say::chart_title {
            tokens: &tokens,
            concurrent: &concurrent,
            mode: &mode_name,
        }
        .text(lang),
        say::chart_x.text(lang),
        say::chart_y.text(lang),
    )
    .series(
        curves
            .iter()
            .zip(&names)
            .map(|(r, name)| Series::line(name, &xs, r.at.iter().map(|x| x.1))),
    )
    .series(marks);
    let mut d_header = header.clone();
    d_header[0] = say::col_d.text(lang);
    let mut t_header = header;
    t_header[0] = say::col_total.text(lang);
    Ok(Output::new()
        .text(text)
        .table(d_header, d_rows)
        .table(t_header, total_rows)
        .text(notes)
        .plot(plot))
}

/// A share as a percentage to one decimal, kept: `0.7%`.
fn percent_1(share: f64) -> String {
    format!("{}%", crate::ch_kvcache::kv_calc::grouped(100.0 * share, 1))
}

/// The figures the chapter's text quotes from this cell: (name, value).
pub fn figures() -> Vec<(&'static str, String)> {
    /// Per deployment (the rows of `all_rows`, in order): D and total nodes
    /// at ρ = 50%, 25%, 11%, named `duty_cycle.<deployment>_{d,total}_<ρ>`.
    macro_rules! at_rhos {
        ($($dep:literal),*) => {
            [$([
                concat!("duty_cycle.", $dep, "_d_50"),
                concat!("duty_cycle.", $dep, "_d_25"),
                concat!("duty_cycle.", $dep, "_d_11"),
                concat!("duty_cycle.", $dep, "_total_50"),
                concat!("duty_cycle.", $dep, "_total_25"),
                concat!("duty_cycle.", $dep, "_total_11"),
            ]),*]
        };
    }
    const NAMES: [[&str; 6]; 4] = at_rhos!("k3_h200", "v4_h200", "k3_b300", "v4_b300");
    let idle: Vec<u64> = SCENARIOS.iter().map(|s| s.0).collect();
    // The analysis's request: 1,000 output tokens at 200 tokens/s.
    let (out_tokens, tok_per_s) = (1_000, 200.0);
    let decode_s = out_tokens as f64 / tok_per_s;
    let rs = rhos(out_tokens, tok_per_s, &idle);
    let Some(rows) = all_rows(&rs, 2.5, Mode::Article) else {
        return Vec::new();
    };
    let whole = |rho: f64| format!("{}%", num(100.0 * rho, 0));
    let mut out = vec![
        (
            "duty_cycle.decode_s",
            format!("{} s", num(decode_s, 2)),
        ),
        ("duty_cycle.rho_agent", whole(rs[0])),
        ("duty_cycle.rho_api", whole(rs[1])),
        ("duty_cycle.rho_batch", whole(rs[2])),
    ];
    for (names, r) in NAMES.iter().zip(&rows) {
        let d = r.at.iter().map(|a| a.0);
        let total = r.at.iter().map(|a| a.1);
        for (name, v) in names.iter().zip(d.chain(total)) {
            out.push((*name, group_u64(v)));
        }
    }
    let ratio =
        |k: usize, v: usize, j: usize| times(rows[k].at[j].1 as f64, rows[v].at[j].1 as f64);
    let (k, v) = (k3(), v4());
    let k_gb = article_request_gb(&k, TOKENS);
    let (Some(v4_full), Some(k3_full)) = (
        full_card_step(&v, &H200, V4_TOP_K, Mode::Article),
        full_card_step(&k, &H200, K3_TOP_K, Mode::Article),
    ) else {
        return Vec::new();
    };
    // The API case's ρ (idle 15 s) at the speed a full card allows.
    let api_idle = SCENARIOS[1].0;
    let v4_rho = rhos(out_tokens, v4_full.2, &[api_idle])[0];
    let k3_rho = rhos(out_tokens, k3_full.2, &[api_idle])[0];
    // The API case's reloads: a turn every 5 s of decode plus 15 s idle.
    let api_idle = api_idle as f64;
    let k3_reload = reload_traffic(CONCURRENT, k_gb, decode_s, api_idle);
    let v4_reload = reload_traffic(CONCURRENT, article_request_gb(&v, TOKENS), decode_s, api_idle);
    out.extend([
        ("duty_cycle.agent_over_batch", times(rs[0], rs[2])),
        ("duty_cycle.ratio_h200_50", ratio(0, 1, 0)),
        ("duty_cycle.ratio_h200_25", ratio(0, 1, 1)),
        (
            "duty_cycle.v4_full_gb",
            format!("{} GB", num(v4_full.0, 0)),
        ),
        ("duty_cycle.v4_full_ms", format!("{} ms", num(v4_full.1, 0))),
        ("duty_cycle.v4_full_tok_s", num(v4_full.2, 0)),
        ("duty_cycle.v4_full_rho_api", whole(v4_rho)),
        (
            "duty_cycle.k3_full_gb",
            format!("{} GB", num(k3_full.0, 0)),
        ),
        ("duty_cycle.k3_full_tok_s", num(k3_full.2, 0)),
        ("duty_cycle.k3_full_rho_api", whole(k3_rho)),
        ("duty_cycle.reloads_api", num(k3_reload.0, 0)),
        (
            "duty_cycle.k3_reload_tb_s",
            format!("{} TB/s", num(k3_reload.1 / 1000.0, 1)),
        ),
        (
            "duty_cycle.k3_reload_per_node",
            format!("{} GB/s", num(k3_reload.1 / rows[0].at[1].0.max(1) as f64, 0)),
        ),
        (
            "duty_cycle.k3_off_gpu_tb",
            format!("{} TB", num(k3_reload.2 / 1000.0, 0)),
        ),
        (
            "duty_cycle.v4_reload_tb_s",
            format!("{} TB/s", num(v4_reload.1 / 1000.0, 1)),
        ),
        (
            "duty_cycle.dualpath_tokens",
            group_u64(DUALPATH_TURNS * DUALPATH_NEW_TOKENS),
        ),
        (
            "duty_cycle.context_over_dualpath",
            times(
                TOKENS as f64,
                (DUALPATH_TURNS * DUALPATH_NEW_TOKENS) as f64,
            ),
        ),
    ]);
    out
}

/// DualPath's agent sessions: turns per session, and new tokens per turn.
const DUALPATH_TURNS: u64 = 157;
const DUALPATH_NEW_TOKENS: u64 = 429;

#[cfg(test)]
mod tests;
