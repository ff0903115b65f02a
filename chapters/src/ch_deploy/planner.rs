//! The deployment planner: from a model, a card, a request size and a target
//! concurrency to units, nodes and GPUs, with every intermediate number and
//! both rounding modes side by side. The arithmetic is `plan.rs`'s; this cell
//! only chooses its inputs and lays the steps out.

use crate::ch_deploy::plan::{
    B300, DecodePlan, EP_SIZES, EpRow, GPUS_PER_NODE, Gpu, H200, Mode, Model, RoundTo,
    article_free_gb, article_request_gb, best_plan, decode_ms, decode_plan, ep_row, hicache_nodes,
    k3, plan_per_card, request_gb, v4,
};
use crate::ch_kvcache::kv_calc::grouped;
use crate::demo::{AllOk, Demo, Output, Param, ParamError, Plot, Raw, Series, group_u64};
use crate::lang::Lang;
use crate::say::planner as say;

// ANCHOR: demo
/// What the reader asks for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Setup {
    /// The model, its `ep` set to the EP the reader picked.
    pub model: Model,
    /// The card.
    pub gpu: Gpu,
    /// Average context per request, tokens.
    pub tokens: u64,
    /// Requests served at once.
    pub target: u64,
    /// Decode nodes per prefill node.
    pub pd_ratio: f64,
    /// Share of the requests' KV that must be on the GPUs at once (1: all).
    pub rho: f64,
}

/// Every step of one plan in one rounding mode.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Steps {
    /// Experts per card and their exact weight.
    pub row: EpRow,
    /// GB per card left for KV, the weights rounded to whole GB as the
    /// article rounds them.
    pub free_gb: f64,
    /// KV GB of one unit (`free_gb` × EP cards).
    pub unit_gb: f64,
    /// One request, GB, to one decimal as the article prints it.
    pub request_gb: f64,
    /// Nodes one unit spans.
    pub nodes_per_unit: u64,
    /// Requests a unit holds, before rounding.
    pub concurrency_exact: f64,
    /// The plan with every request's KV on the GPUs; `None` when a unit
    /// cannot hold one request.
    pub plan: Option<DecodePlan>,
    /// D nodes and total nodes once only `rho` of the KV stays on the GPUs.
    pub at_rho: Option<(u64, u64)>,
}

/// The plan of `s` in `mode`, step by step, with `plan.rs`'s functions.
pub fn steps(s: &Setup, mode: Mode) -> Steps {
    let m = &s.model;
    let free_gb = article_free_gb(m, &s.gpu);
    let request_gb = article_request_gb(m, s.tokens);
    let nodes_per_unit = m.ep.div_ceil(GPUS_PER_NODE);
    let plan = decode_plan(
        free_gb,
        m.ep,
        request_gb,
        nodes_per_unit,
        s.target,
        s.pd_ratio,
        mode,
    );
    Steps {
        row: ep_row(
            m.n_routed,
            m.ep,
            m.expert_gb,
            s.gpu.memory_gb,
            m.overhead_gb,
        ),
        free_gb,
        unit_gb: free_gb * m.ep as f64,
        request_gb,
        nodes_per_unit,
        concurrency_exact: free_gb * m.ep as f64 / request_gb,
        plan,
        at_rho: plan.map(|p| hicache_nodes(p.d_nodes, s.rho, s.pd_ratio, mode)),
    }
}

/// The EP with the fewest GPUs for `s`'s model, card and requests
/// (`plan::best_plan`: conservative rounding, exact expert weights, every
/// request's KV on the GPUs).
pub fn best(s: &Setup) -> Option<(u64, DecodePlan)> {
    let m = &s.model;
    best_plan(
        m.n_routed,
        m.expert_gb,
        m.overhead_gb,
        s.gpu.memory_gb,
        article_request_gb(m, s.tokens),
        s.target,
        s.pd_ratio,
    )
}

/// Total nodes (at `s.rho`) of `model` (at its `ep`) on `gpu` for each target
/// in `targets`, the rest of `s` unchanged; targets without a plan are left out.
pub fn curve(s: &Setup, model: Model, gpu: Gpu, targets: &[u64], mode: Mode) -> Vec<(u64, u64)> {
    targets
        .iter()
        .filter_map(|&target| {
            let t = Setup {
                model,
                gpu,
                target,
                ..*s
            };
            steps(&t, mode).at_rho.map(|(_, total)| (target, total))
        })
        .collect()
}
// ANCHOR_END: demo

/// Routed experts each token goes to, as the article gives them: K3 16 of
/// 896, V4 8 of 256.
pub fn top_k(m: &Model) -> u64 {
    if m.name == k3().name { 16 } else { 8 }
}

/// The models the reader can pick, by name.
pub const MODELS: &[&str] = &["Kimi-K3", "DeepSeek-V4-Pro"];
/// The cards the reader can pick; `custom` takes `card_gb` and `card_tb_s`.
pub const GPUS: &[&str] = &["H200", "B300", "custom"];
/// The EP choices: the model's own (K3 32, V4 16), or one of `plan::EP_SIZES`.
pub const EPS: &[&str] = &["model's own", "8", "16", "32", "64", "128", "256"];
/// The rounding modes, in the order of `plan::Mode`.
pub const MODES: &[&str] = &["article", "conservative"];

/// The model to deploy.
const MODEL: Param = Param::choice("model", MODELS);
/// The card, or `custom` for the two fields below.
const GPU: Param = Param::choice("gpu", GPUS);
/// A custom card's memory, GB.
const CARD_GB: Param = Param::float("card_gb", "192", 1.0, 100_000.0);
/// A custom card's bandwidth, TB/s.
const CARD_TB_S: Param = Param::float("card_tb_s", "8", 0.1, 1_000.0);
/// The cards one expert-parallel unit spreads the routed experts over.
const EP: Param = Param::choice("ep", EPS);
/// Average context of a request, tokens.
const TOKENS: Param = Param::int("tokens", "500,000", 10_000, 10_000_000);
/// Requests to serve at once.
const TARGET: Param = Param::int("target", "10,000", 1, 10_000_000);
/// Decode nodes per prefill node.
const PD_RATIO: Param = Param::float("pd_ratio", "2.5", 0.1, 100.0);
/// Share of the requests' KV on the GPUs at once.
const RHO: Param = Param::float("rho", "1", 0.01, 1.0);
/// How the plans round.
const MODE: Param = Param::choice("mode", MODES);

/// The cell's parameters.
pub const PARAMS: &[Param] = &[
    MODEL, GPU, CARD_GB, CARD_TB_S, EP, TOKENS, TARGET, PD_RATIO, RHO, MODE,
];

/// The cell.
pub fn demo() -> Demo {
    Demo {
        id: "planner",
        params: PARAMS,
        #[cfg(feature = "render")]
        source: crate::demo::anchored(include_str!("planner.rs"), "demo"),
        #[cfg(feature = "run")]
        run,
    }
}

/// Checked parameters: the setup, whether the EP is the model's own, the
/// chosen mode. The work is a few dozen plans, so no budget is needed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// The setup.
    pub setup: Setup,
    /// The reader kept the model's own EP.
    pub own_ep: bool,
    /// The chosen rounding.
    pub mode: Mode,
}

impl Params {
    /// Validates the reader's text; every bad field gets its own message.
    pub fn parse(raw: &Raw) -> Result<Params, Vec<ParamError>> {
        let model = MODEL.read_choice(raw);
        let gpu = GPU.read_choice(raw);
        let card_gb = CARD_GB.read_float(raw);
        let card_tb_s = CARD_TB_S.read_float(raw);
        let ep = EP.read_choice(raw);
        let tokens = TOKENS.read_int(raw);
        let target = TARGET.read_int(raw);
        let pd_ratio = PD_RATIO.read_float(raw);
        let rho = RHO.read_float(raw);
        let mode = MODE.read_choice(raw);
        let model = model.map(|n| if n == MODELS[0] { k3() } else { v4() });
        // The EP must split the model's routed experts evenly: checked when
        // the model parsed (if it did not, its error is the one shown).
        let ep = ep.and_then(|e| {
            let Ok(m) = &model else { return Ok((0, false)) };
            let n: u64 = e.parse().unwrap_or(m.ep);
            if !m.n_routed.is_multiple_of(n) {
                let fits: Vec<String> = EP_SIZES
                    .iter()
                    .filter(|&&x| m.n_routed.is_multiple_of(x))
                    .map(|x| x.to_string())
                    .collect();
                let texts = Lang::ALL.map(|l| {
                    say::ep_uneven {
                        model: m.name,
                        experts: group_u64(m.n_routed),
                        n,
                        fits: fits.join(&say::sep_list.text(l)),
                    }
                    .text(l)
                });
                return Err(ParamError::in_all(EP.name, texts));
            }
            Ok((n, e == EPS[0]))
        });
        let (m, g, mem, bw, (ep, own_ep), tokens, target, pd_ratio, rho, mode) = (
            model, gpu, card_gb, card_tb_s, ep, tokens, target, pd_ratio, rho, mode,
        )
            .all_ok()?;
        Ok(Params {
            setup: Setup {
                model: Model { ep, ..m },
                gpu: match g {
                    "H200" => H200,
                    "B300" => B300,
                    _ => Gpu {
                        name: "custom card",
                        memory_gb: mem,
                        bandwidth_tb_s: bw,
                    },
                },
                tokens: tokens as u64,
                target: target as u64,
                pd_ratio,
                rho,
            },
            own_ep,
            mode: mode_of(mode),
        })
    }
}

/// The mode a name of [`MODES`] stands for.
pub fn mode_of(name: &str) -> Mode {
    if name == MODES[0] {
        Mode::Article
    } else {
        Mode::Conservative
    }
}

/// `v` with at most `digits` decimals, trailing zeros dropped, the whole part
/// grouped: `68.6`, `2,144`, `30.907`.
pub fn num(v: f64, digits: usize) -> String {
    let s = grouped(v, digits);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    }
}

/// `x` and what it rounds to, when they differ: `144.93 → 145`.
fn rounded(x: f64, to: u64) -> String {
    if x == to as f64 {
        group_u64(to)
    } else {
        format!("{} → {}", num(x, 2), group_u64(to))
    }
}

/// A ratio to one decimal: `4.3×`; a dash when it has no value (0 ÷ 0, no plan).
pub fn times(a: f64, b: f64) -> String {
    let r = a / b;
    if r.is_finite() {
        format!("{}×", grouped(r, 1))
    } else {
        "—".to_owned()
    }
}

/// `rho` as a percentage with at most one decimal: `100%`, `11.1%`.
fn percent(rho: f64) -> String {
    format!("{}%", num(100.0 * rho, 1))
}

/// "H200 (141 GB, 4.8 TB/s)".
fn card(g: &Gpu, lang: Lang) -> String {
    say::card {
        name: g.name,
        gb: num(g.memory_gb, 2),
        bw: num(g.bandwidth_tb_s, 2),
    }
    .text(lang)
}

/// The rounding mode's name: "article" or "conservative".
fn mode_label(mode: Mode, lang: Lang) -> String {
    match mode {
        Mode::Article => say::mode_article.text(lang),
        Mode::Conservative => say::mode_conservative.text(lang),
    }
}

/// The step table: one row per step, a column per rounding mode.
fn step_table(
    s: &Setup,
    steps: [&Steps; 2],
    mode: Mode,
    lang: Lang,
) -> (Vec<String>, Vec<Vec<String>>) {
    let m = &s.model;
    let [a, c] = steps;
    let header = vec![
        say::col_step.text(lang),
        say::col_how.text(lang),
        if mode == Mode::Article {
            say::col_article_chosen.text(lang)
        } else {
            say::col_article.text(lang)
        },
        if mode == Mode::Conservative {
            say::col_conservative_chosen.text(lang)
        } else {
            say::col_conservative.text(lang)
        },
    ];
    let both = |v: String| [v.clone(), v];
    let per = |f: &dyn Fn(&Steps) -> String| [f(a), f(c)];
    let plan_cell = |f: &dyn Fn(&DecodePlan) -> String| {
        per(&|st: &Steps| st.plan.as_ref().map_or_else(|| "—".to_owned(), f))
    };
    let weight = a.row.weight_gb;
    let fixed = if m.fixed_gb > 0.0 {
        say::kda_fixed {
            gb: num(m.fixed_gb, 3),
        }
        .text(lang)
    } else {
        String::new()
    };
    let kb = m.kv_kb_per_token.round_to(1);
    let up = say::up.text(lang);
    let (pd, ep) = (num(s.pd_ratio, 3), group_u64(m.ep));
    let how_gpus = say::how_gpus { n: GPUS_PER_NODE }.text(lang);
    let mut rows: Vec<(String, String, [String; 2])> = vec![
        (
            say::experts_per_card.text(lang),
            say::how_experts {
                n_routed: group_u64(m.n_routed),
                ep: &ep,
            }
            .text(lang),
            both(group_u64(a.row.experts_per_card)),
        ),
        (
            say::weights_per_card.text(lang),
            say::how_weights {
                per_card: group_u64(a.row.experts_per_card),
                expert: num(m.expert_gb, 2),
                w: num(weight, 2),
            }
            .text(lang),
            both(format!("{} GB", num(weight.round(), 0))),
        ),
        (
            say::free_per_card.text(lang),
            say::how_free {
                mem: num(s.gpu.memory_gb, 2),
                whole: num(weight.round(), 0),
                over: num(m.overhead_gb, 2),
            }
            .text(lang),
            both(format!("{} GB", num(a.free_gb, 2))),
        ),
        (
            say::kv_per_unit.text(lang),
            say::how_unit {
                free: num(a.free_gb, 2),
                ep: &ep,
            }
            .text(lang),
            both(format!("{} GB", num(a.unit_gb, 2))),
        ),
        (
            say::one_request.text(lang),
            say::how_request {
                kbs: num(kb, 1),
                tokens: group_u64(s.tokens),
                fixed,
                req: num(request_gb(kb, s.tokens, m.fixed_gb), 3),
            }
            .text(lang),
            both(format!("{} GB", num(a.request_gb, 1))),
        ),
        (
            say::per_unit.text(lang),
            say::how_per_unit {
                unit: num(a.unit_gb, 2),
                one: num(a.request_gb, 1),
            }
            .text(lang),
            per(&|st: &Steps| rounded(st.concurrency_exact, st.plan.map_or(0, |p| p.concurrency))),
        ),
        (
            say::units.text(lang),
            say::how_units {
                target: group_u64(s.target),
                up: &up,
            }
            .text(lang),
            plan_cell(&|p| rounded(s.target as f64 / p.concurrency as f64, p.units)),
        ),
        (
            say::d_nodes.text(lang),
            say::how_d {
                npu: group_u64(a.nodes_per_unit),
            }
            .text(lang),
            plan_cell(&|p| group_u64(p.d_nodes)),
        ),
        (
            say::p_nodes.text(lang),
            say::how_p { pd: &pd, up: &up }.text(lang),
            plan_cell(&|p| rounded(p.d_nodes as f64 / s.pd_ratio, p.p_nodes)),
        ),
        (
            say::total_nodes.text(lang),
            "D + P".into(),
            plan_cell(&|p| group_u64(p.total_nodes)),
        ),
        (
            say::gpus.text(lang),
            how_gpus.clone(),
            plan_cell(&|p| group_u64(p.gpus)),
        ),
    ];
    if s.rho < 1.0 {
        let at = |f: &dyn Fn(&DecodePlan, (u64, u64)) -> String| {
            per(&|st: &Steps| match (st.plan, st.at_rho) {
                (Some(p), Some(r)) => f(&p, r),
                _ => "—".to_owned(),
            })
        };
        let r = percent(s.rho);
        let rho = num(s.rho, 4);
        rows.extend([
            (
                say::d_nodes_at { r: &r }.text(lang),
                say::how_d_at { rho, up: &up }.text(lang),
                at(&|p, (d, _)| rounded(p.d_nodes as f64 * s.rho, d)),
            ),
            (
                say::p_nodes_at { r: &r }.text(lang),
                say::how_p_at { pd: &pd, up: &up }.text(lang),
                at(&|_, (d, t)| rounded(d as f64 / s.pd_ratio, t - d)),
            ),
            (
                say::total_nodes_at { r: &r }.text(lang),
                "D + P".into(),
                at(&|_, (_, t)| group_u64(t)),
            ),
            (
                say::gpus_at { r: &r }.text(lang),
                how_gpus,
                at(&|_, (_, t)| group_u64(t * GPUS_PER_NODE)),
            ),
        ]);
    }
    let rows = rows
        .into_iter()
        .map(|(step, how, [x, y])| vec![step, how, x, y])
        .collect();
    (header, rows)
}

/// The article's four deployments: model × card.
pub fn pairs() -> [(Model, Gpu); 4] {
    [(k3(), H200), (v4(), H200), (k3(), B300), (v4(), B300)]
}

/// The four deployments at the reader's requests, target, P:D and ρ, each
/// model at its own EP.
fn pair_setups(s: &Setup) -> [Setup; 4] {
    pairs().map(|(model, gpu)| Setup { model, gpu, ..*s })
}

/// Total nodes at ρ of a setup, as `f64` for ratios (`NaN` when no plan).
fn total(s: &Setup, mode: Mode) -> f64 {
    steps(s, mode).at_rho.map_or(f64::NAN, |(_, t)| t as f64)
}

/// Targets of the chart: a tenth of the reader's to twice it, in tenths.
pub fn chart_targets(target: u64) -> Vec<u64> {
    let mut xs: Vec<u64> = (1..=20u64)
        .map(|k| ((k * target) as f64 / 10.0).round().max(1.0) as u64)
        .collect();
    xs.dedup();
    xs
}

/// "Kimi-K3 on H200".
fn pair_name(s: &Setup, lang: Lang) -> String {
    say::pair {
        model: s.model.name,
        gpu: s.gpu.name,
    }
    .text(lang)
}

/// One line of a plan in words: "812 nodes (580 D + 232 P), 6,496 GPUs".
fn plan_words(st: &Steps, rho: f64, lang: Lang) -> String {
    let nodes = |t: u64, d: u64, p: u64, g: u64| {
        say::nodes {
            t: group_u64(t),
            d: group_u64(d),
            p: group_u64(p),
            g: group_u64(g),
        }
        .text(lang)
    };
    match (st.plan, st.at_rho) {
        (Some(p), Some((d, t))) => {
            let all = nodes(p.total_nodes, p.d_nodes, p.p_nodes, p.gpus);
            if rho < 1.0 {
                say::plan_at {
                    all,
                    at: nodes(t, d, t - d, t * GPUS_PER_NODE),
                    r: percent(rho),
                }
                .text(lang)
            } else {
                all
            }
        }
        _ => say::no_plan.text(lang),
    }
}

/// Runs the demo: a summary, the step table (both modes), the four
/// deployments, notes on ratios, the decode step and the best EP, and a chart
/// of total nodes against the target.
pub fn run(raw: &Raw, lang: Lang) -> Result<Output, Vec<ParamError>> {
    let p = Params::parse(raw)?;
    let s = p.setup;
    let m = &s.model;
    let art = steps(&s, Mode::Article);
    let con = steps(&s, Mode::Conservative);
    let chosen = if p.mode == Mode::Article { &art } else { &con };
    let mode_name = mode_label(p.mode, lang);
    let unit = group_u64(art.nodes_per_unit);
    let (tokens, rho) = (group_u64(s.tokens), percent(s.rho));
    let mut text = say::summary {
        name: m.name,
        gpu: card(&s.gpu, lang),
        ep: group_u64(m.ep),
        own: if p.own_ep {
            say::own_ep.text(lang)
        } else {
            say::chosen_ep.text(lang)
        },
        unit: if art.nodes_per_unit == 1 {
            say::unit_nodes_one { n: unit }.text(lang)
        } else {
            say::unit_nodes { n: unit }.text(lang)
        },
        tokens: &tokens,
        target: group_u64(s.target),
        pd: num(s.pd_ratio, 3),
        rho: &rho,
        mode: &mode_name,
    }
    .text(lang);
    let same = art.at_rho == con.at_rho && art.plan.map(|x| x.gpus) == con.plan.map(|x| x.gpus);
    let (a, c) = (plan_words(&art, s.rho, lang), plan_words(&con, s.rho, lang));
    text += &if same {
        say::plans_same { a, c }.text(lang)
    } else {
        say::plans { a, c }.text(lang)
    };
    if art.free_gb <= 0.0 {
        text += &say::too_small {
            n: group_u64(art.row.experts_per_card),
            gb: num(m.expert_gb, 2),
            mem: num(s.gpu.memory_gb, 2),
        }
        .text(lang);
    }
    if art.plan.is_some_and(|x| x.units == 0) {
        text += &say::zero_units.text(lang);
    }
    let (header, rows) = step_table(&s, [&art, &con], p.mode, lang);

    // The four deployments in the chosen mode.
    let four = pair_setups(&s);
    let mut pair_header: Vec<String> = vec![
        say::col_model.text(lang),
        say::col_gpu.text(lang),
        say::col_ep.text(lang),
        say::weights_per_card.text(lang),
        say::free_per_card.text(lang),
        say::per_unit.text(lang),
        say::units.text(lang),
        say::d_nodes.text(lang),
        say::p_nodes.text(lang),
        say::total_nodes.text(lang),
        say::gpus.text(lang),
    ];
    if s.rho < 1.0 {
        pair_header.extend([
            say::d_nodes_at { r: &rho }.text(lang),
            say::total_nodes_at { r: &rho }.text(lang),
        ]);
    }
    let pair_rows: Vec<Vec<String>> = four
        .iter()
        .map(|t| {
            let st = steps(t, p.mode);
            let mut r = vec![
                t.model.name.to_owned(),
                t.gpu.name.to_owned(),
                group_u64(t.model.ep),
                format!(
                    "{} GB",
                    num(t.gpu.memory_gb - st.free_gb - t.model.overhead_gb, 2)
                ),
                format!("{} GB", num(st.free_gb, 2)),
            ];
            let cells = st.plan.map_or_else(
                || vec!["—".to_owned(); 6],
                |d| {
                    [
                        d.concurrency,
                        d.units,
                        d.d_nodes,
                        d.p_nodes,
                        d.total_nodes,
                        d.gpus,
                    ]
                    .map(group_u64)
                    .to_vec()
                },
            );
            r.extend(cells);
            if s.rho < 1.0 {
                let (d, tot) = st.at_rho.map_or(("—".into(), "—".into()), |(d, tot)| {
                    (group_u64(d), group_u64(tot))
                });
                r.extend([d, tot]);
            }
            r
        })
        .collect();

    // Notes.
    let tot = |i: usize, mode| total(&four[i], mode);
    let (mode, o) = (p.mode, other(p.mode));
    let mut notes = say::ratios {
        mode: &mode_name,
        kv_h200: times(tot(0, mode), tot(1, mode)),
        kv_b300: times(tot(2, mode), tot(3, mode)),
        k3_hb: times(tot(0, mode), tot(2, mode)),
        v4_hb: times(tot(1, mode), tot(3, mode)),
        o_kv_h200: times(tot(0, o), tot(1, o)),
        o_kv_b300: times(tot(2, o), tot(3, o)),
        o_k3_hb: times(tot(0, o), tot(2, o)),
        o_v4_hb: times(tot(1, o), tot(3, o)),
    }
    .text(lang);
    notes += &say::modes_note {
        k_over: num(k3().overhead_gb, 2),
        v_over: num(v4().overhead_gb, 2),
    }
    .text(lang);
    notes += &say::decode_note {
        active: num(m.active_gb, 2),
        req: num(chosen.request_gb, 1),
        bw: num(s.gpu.bandwidth_tb_s, 2),
        ms: grouped(
            decode_ms(m.active_gb, chosen.request_gb, s.gpu.bandwidth_tb_s),
            1,
        ),
    }
    .text(lang);
    let (first, last) = (EP_SIZES[0], EP_SIZES[EP_SIZES.len() - 1]);
    match best(&s) {
        Some((ep, b)) => {
            let my_ep = group_u64(m.ep);
            let mine = match con.plan {
                None => say::mine_none { ep: &my_ep }.text(lang),
                Some(x) => say::mine_gpus {
                    gpus: group_u64(x.gpus),
                    ep: &my_ep,
                }
                .text(lang),
            };
            let best_ep = group_u64(ep);
            notes += &say::best {
                first,
                last,
                best_ep: &best_ep,
                gpus: group_u64(b.gpus),
                d: group_u64(b.d_nodes),
                pn: group_u64(b.p_nodes),
                c: group_u64(b.concurrency),
                mine,
            }
            .text(lang);
            let nodes = ep.div_ceil(GPUS_PER_NODE);
            let (n, own_n) = (group_u64(nodes), group_u64(art.nodes_per_unit));
            if ep > m.ep {
                notes += &say::wider {
                    best_ep: &best_ep,
                    n,
                    own_n,
                    my_ep: &my_ep,
                    k: top_k(m),
                    reach: group_u64(top_k(m).min(nodes)),
                }
                .text(lang);
            } else if ep < m.ep {
                notes += &say::narrower { n, own_n }.text(lang);
            }
        }
        None => notes += &say::no_best { first, last }.text(lang),
    }

    // The chart.
    let xs = chart_targets(s.target);
    let curves = four.iter().map(|t| {
        let pts = curve(&s, t.model, t.gpu, &xs, p.mode);
        let (x, y): (Vec<_>, Vec<_>) = pts.into_iter().unzip();
        Series::line(pair_name(t, lang), x, y)
    });
    let yours = chosen.at_rho.map(|(_, t)| {
        let name = say::your_plan {
            model: m.name,
            gpu: s.gpu.name,
            ep: group_u64(m.ep),
        };
        Series::line(name.text(lang), [s.target], [t])
    });
    let plot = Plot::new(
        say::chart_title {
            tokens: &tokens,
            rho: &rho,
            mode: &mode_name,
        }
        .text(lang),
        say::chart_x.text(lang),
        say::chart_y.text(lang),
    )
    .series(curves)
    .series(yours);
    Ok(Output::new()
        .text(text)
        .details(say::audit.text(lang), Output::new().table(header, rows))
        .table(pair_header, pair_rows)
        .text(notes)
        .plot(plot))
}

/// The other rounding mode.
fn other(mode: Mode) -> Mode {
    match mode {
        Mode::Article => Mode::Conservative,
        Mode::Conservative => Mode::Article,
    }
}

/// The default setup (500,000-token requests, 10,000 at once, P:D 1:2.5,
/// ρ = 1) for `model` on `gpu` at its own EP.
pub fn default_setup(model: Model, gpu: Gpu) -> Setup {
    Setup {
        model,
        gpu,
        tokens: 500_000,
        target: 10_000,
        pd_ratio: 2.5,
        rho: 1.0,
    }
}

/// The figures the chapter's text quotes from this cell: (name, value).
pub fn figures() -> Vec<(&'static str, String)> {
    let setups = pairs().map(|(m, g)| default_setup(m, g));
    // A default setup's plan, by the pair's name in `pairs()` order.
    let plan = |pair: &str, mode: Mode| {
        let i = ["k3_h200", "v4_h200", "k3_b300", "v4_b300"]
            .iter()
            .position(|p| *p == pair)
            .unwrap_or_else(|| panic!("no pair {pair}"));
        steps(&setups[i], mode)
    };
    let planned = |mode| setups.iter().all(|s| steps(s, mode).plan.is_some());
    if !planned(Mode::Article) || !planned(Mode::Conservative) {
        return Vec::new();
    }
    let value = |pair: &str, mode: Mode, what: &str| {
        let st = plan(pair, mode);
        let Some(d) = st.plan else {
            return String::new();
        };
        match what {
            "free" => format!("{} GB", num(st.free_gb, 2)),
            "unit_gb" => format!("{} GB", num(st.unit_gb, 2)),
            "concurrency" => group_u64(d.concurrency),
            "units" => group_u64(d.units),
            "d" => group_u64(d.d_nodes),
            "p" => group_u64(d.p_nodes),
            "total" => group_u64(d.total_nodes),
            "gpus" => group_u64(d.gpus),
            _ => panic!("no step `{what}`"),
        }
    };
    // `planner.<pair>_<step>`, with `_c` under conservative rounding: the
    // name is made of the tokens that pick the value.
    macro_rules! fig {
        ($pair:ident $what:ident) => {
            (
                concat!("planner.", stringify!($pair), "_", stringify!($what)),
                value(stringify!($pair), Mode::Article, stringify!($what)),
            )
        };
        ($pair:ident $what:ident c) => {
            (
                concat!("planner.", stringify!($pair), "_", stringify!($what), "_c"),
                value(stringify!($pair), Mode::Conservative, stringify!($what)),
            )
        };
    }
    let mut out = vec![
        fig!(k3_h200 free),
        fig!(k3_h200 unit_gb),
        fig!(k3_h200 concurrency),
        fig!(k3_h200 units),
        fig!(k3_h200 d),
        fig!(k3_h200 p),
        fig!(k3_h200 total),
        fig!(k3_h200 gpus),
        fig!(k3_h200 concurrency c),
        fig!(k3_h200 total c),
        fig!(v4_h200 free),
        fig!(v4_h200 unit_gb),
        fig!(v4_h200 concurrency),
        fig!(v4_h200 units),
        fig!(v4_h200 d),
        fig!(v4_h200 p),
        fig!(v4_h200 total),
        fig!(v4_h200 gpus),
        fig!(v4_h200 concurrency c),
        fig!(v4_h200 units c),
        fig!(v4_h200 d c),
        fig!(v4_h200 p c),
        fig!(v4_h200 total c),
        fig!(v4_h200 gpus c),
        fig!(k3_b300 free),
        fig!(k3_b300 concurrency),
        fig!(k3_b300 d),
        fig!(k3_b300 total),
        fig!(k3_b300 total c),
        fig!(v4_b300 free),
        fig!(v4_b300 concurrency),
        fig!(v4_b300 d),
        fig!(v4_b300 total),
        fig!(v4_b300 total c),
    ];
    let exact = |i: usize| grouped(steps(&setups[i], Mode::Article).concurrency_exact, 1);
    let tot = |i: usize, mode| total(&setups[i], mode);
    let a = Mode::Article;
    let c = Mode::Conservative;
    out.extend([
        ("planner.k3_h200_concurrency_exact", exact(0)),
        ("planner.v4_h200_concurrency_exact", exact(1)),
        ("planner.ratio_h200", times(tot(0, a), tot(1, a))),
        ("planner.ratio_b300", times(tot(2, a), tot(3, a))),
        ("planner.ratio_h200_c", times(tot(0, c), tot(1, c))),
        ("planner.k3_b300_gain", times(tot(0, a), tot(2, a))),
        ("planner.v4_b300_gain", times(tot(1, a), tot(3, a))),
    ]);
    // V4's GPUs over K3's for the same 10,000 requests on H200: the cost
    // ratio once batching shares each weight read among a card's requests.
    let gpus = |i: usize| steps(&setups[i], a).plan.map_or(f64::NAN, |d| d.gpus as f64);
    out.push(("planner.v4_over_k3_gpus", num(gpus(1) / gpus(0), 2)));
    // Whole requests per card (no pooling), on H200.
    for (i, names) in [
        (0, ["planner.k3_h200_per_card", "planner.k3_h200_concurrency_pc", "planner.k3_h200_total_pc"]),
        (1, ["planner.v4_h200_per_card", "planner.v4_h200_concurrency_pc", "planner.v4_h200_total_pc"]),
    ] {
        let s = &setups[i];
        let (per_card, Some(d)) = plan_per_card(&s.model, &s.gpu, s.tokens, s.target) else {
            return Vec::new();
        };
        out.extend(names.into_iter().zip([
            group_u64(per_card),
            group_u64(d.concurrency),
            group_u64(d.total_nodes),
        ]));
    }
    for (i, ep_name, gpus_name) in [
        (0, "planner.best_k3_ep", "planner.best_k3_gpus"),
        (1, "planner.best_v4_ep", "planner.best_v4_gpus"),
    ] {
        let Some((ep, b)) = best(&setups[i]) else {
            return Vec::new();
        };
        out.push((ep_name, group_u64(ep)));
        out.push((gpus_name, group_u64(b.gpus)));
    }
    out
}

#[cfg(test)]
mod tests;
