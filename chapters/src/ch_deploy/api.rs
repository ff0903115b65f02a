//! The scripting API of chapter `ch_deploy`: the deployment planner's steps
//! under the names Rhai calls them by (the browser's scratch cell, `judge eval`).
//!
//! Not a module of the `chapters` crate: the `exercises` crate compiles this file
//! as `exercises::api::ch_deploy` (its build script finds every chapter's
//! `api.rs`), since it needs the judge's values; the machinery (`ApiFn`, the
//! argument reader `A`, `api_fn!`) is `exercises/src/api.rs`.
//!
//! Every argument is bounded so that no count overflows an int and no division
//! is by zero: GB up to 10^6 (10^9 where a whole cluster's worth makes sense),
//! counts of experts and cards up to 2^20, requests up to 10^9.

use chapters::ch_deploy::plan::{self, Mode};
use judge::Value;

use crate::api::{A, ApiFn, BIG};

/// The largest layer or head count an argument may be.
const MAX_LAYERS: i64 = 100_000;

/// The largest expert or card count an argument may be: 2^20.
const MAX_CARDS: i64 = 1 << 20;

/// The largest GB (or TB) a per-card or per-request argument may be.
const MAX_GB: f64 = 1e6;

/// The most concurrent requests a plan may be asked for.
const MAX_REQUESTS: i64 = 1_000_000_000;

/// The chapter's functions, in the order `judge eval --list` shows them.
pub fn functions() -> Vec<ApiFn> {
    vec![
        api_fn!(
            "kda_state_bytes",
            ["layers", "heads", "d_head", "dtype_bytes"],
            "int",
            |a| {
                let l = a.int(0, 0, MAX_LAYERS)?;
                let h = a.int(1, 0, MAX_LAYERS)?;
                let d = a.int(2, 0, 1 << 20)?;
                let s = a.int(3, 0, 64)?;
                let product = [l, h, d, d, s]
                    .iter()
                    .try_fold(1i64, |p, &x| p.checked_mul(x));
                if product.is_none() {
                    return Err(
                        "kda_state_bytes: the bytes do not fit in an int (more than 2^63 - 1)"
                            .to_owned(),
                    );
                }
                Ok(Value::Int(
                    plan::kda_state_bytes(l as u64, h as u64, d as u64, s as u64) as i64,
                ))
            }
        ),
        api_fn!(
            "latent_kv_bytes",
            ["layers", "latent_dim", "n_latents", "dtype_bytes"],
            "int",
            |a| Ok(Value::Int(plan::latent_kv_bytes(
                a.int(0, 0, MAX_LAYERS)? as u64,
                a.int(1, 0, 1 << 20)? as u64,
                a.int(2, 0, 1_024)? as u64,
                a.int(3, 0, 64)? as u64,
            ) as i64))
        ),
        api_fn!(
            "request_gb",
            ["kv_kb_per_token", "tokens", "fixed_gb"],
            "float",
            |a| Ok(Value::Float(plan::request_gb(
                a.float(0, 0.0, MAX_GB)?,
                a.int(1, 0, BIG)? as u64,
                a.float(2, 0.0, 1e9)?,
            )))
        ),
        api_fn!(
            "bare_gpus",
            ["weight_tb", "kv_tb", "card_gb"],
            "[weight_cards, kv_cards]",
            |a| {
                let (w, k) = plan::bare_gpus(
                    a.float(0, 0.0, MAX_GB)?,
                    a.float(1, 0.0, MAX_GB)?,
                    a.float(2, 1e-3, MAX_GB)?,
                );
                Ok(Value::from(vec![w as i64, k as i64]))
            }
        ),
        api_fn!(
            "ep_row",
            ["n_routed", "ep", "expert_gb", "card_gb", "overhead_gb"],
            "#{experts_per_card, weight_gb, free_gb}",
            |a| {
                let n = a.int(0, 1, MAX_CARDS)?;
                let ep = a.int(1, 1, MAX_CARDS)?;
                if n % ep != 0 {
                    return Err(format!(
                        "ep_row: ep ({ep}) must divide n_routed ({n}): every card holds as many experts"
                    ));
                }
                let r = plan::ep_row(
                    n as u64,
                    ep as u64,
                    a.float(2, 0.0, MAX_GB)?,
                    a.float(3, 0.0, MAX_GB)?,
                    a.float(4, 0.0, MAX_GB)?,
                );
                Ok(Value::Map(
                    [
                        (
                            "experts_per_card".to_owned(),
                            Value::Int(r.experts_per_card as i64),
                        ),
                        ("weight_gb".to_owned(), Value::Float(r.weight_gb)),
                        ("free_gb".to_owned(), Value::Float(r.free_gb)),
                    ]
                    .into(),
                ))
            }
        ),
        api_fn!(
            "ep_min",
            [
                "n_routed",
                "expert_gb",
                "card_gb",
                "overhead_gb",
                "min_free_gb"
            ],
            "int or ()",
            |a| Ok(plan::ep_min(
                a.int(0, 1, MAX_CARDS)? as u64,
                a.float(1, 0.0, MAX_GB)?,
                a.float(2, 0.0, MAX_GB)?,
                a.float(3, 0.0, MAX_GB)?,
                a.float(4, 0.0, MAX_GB)?,
            )
            .map_or(Value::Unit, |ep| Value::Int(ep as i64)))
        ),
        api_fn!(
            "decode_plan",
            [
                "free_gb_per_card",
                "cards",
                "request_gb",
                "nodes_per_unit",
                "concurrent",
                "pd_ratio",
                "mode"
            ],
            "#{concurrency, units, d_nodes, p_nodes, total_nodes, gpus} or ()",
            |a| {
                let p = plan::decode_plan(
                    a.float(0, 0.0, MAX_GB)?,
                    a.int(1, 1, MAX_CARDS)? as u64,
                    a.float(2, 1e-3, MAX_GB)?,
                    a.int(3, 1, 1_024)? as u64,
                    a.int(4, 0, MAX_REQUESTS)? as u64,
                    a.float(5, 0.1, 1e3)?,
                    mode(&a, 6)?,
                );
                Ok(p.map_or(Value::Unit, |p| {
                    Value::Map(
                        [
                            ("concurrency", p.concurrency),
                            ("units", p.units),
                            ("d_nodes", p.d_nodes),
                            ("p_nodes", p.p_nodes),
                            ("total_nodes", p.total_nodes),
                            ("gpus", p.gpus),
                        ]
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), Value::Int(v as i64)))
                        .collect(),
                    )
                }))
            }
        ),
        api_fn!(
            "duty_cycle",
            ["out_tokens", "tok_per_s", "idle_s"],
            "float",
            |a| Ok(Value::Float(plan::duty_cycle(
                a.float(0, 0.0, 1e12)?,
                a.float(1, 1e-6, 1e12)?,
                a.float(2, 0.0, 1e12)?,
            )))
        ),
        api_fn!(
            "hicache_nodes",
            ["d_nodes", "rho", "pd_ratio", "mode"],
            "#{d_nodes, total_nodes}",
            |a| {
                let (d, total) = plan::hicache_nodes(
                    a.int(0, 0, BIG)? as u64,
                    a.float(1, 0.0, 1.0)?,
                    a.float(2, 0.1, 1e3)?,
                    mode(&a, 3)?,
                );
                Ok(Value::Map(
                    [
                        ("d_nodes".to_owned(), Value::Int(d as i64)),
                        ("total_nodes".to_owned(), Value::Int(total as i64)),
                    ]
                    .into(),
                ))
            }
        ),
        api_fn!(
            "decode_ms",
            ["active_gb", "kv_gb", "bw_tb_s"],
            "float",
            |a| Ok(Value::Float(plan::decode_ms(
                a.float(0, 0.0, 1e9)?,
                a.float(1, 0.0, 1e9)?,
                a.float(2, 1e-3, MAX_GB)?,
            )))
        ),
        api_fn!(
            "best_plan",
            [
                "n_routed",
                "expert_gb",
                "overhead_gb",
                "card_gb",
                "request_gb",
                "concurrent",
                "pd_ratio"
            ],
            "#{ep, gpus, total_nodes} or ()",
            |a| {
                let best = plan::best_plan(
                    a.int(0, 1, MAX_CARDS)? as u64,
                    a.float(1, 0.0, MAX_GB)?,
                    a.float(2, 0.0, MAX_GB)?,
                    a.float(3, 0.0, MAX_GB)?,
                    a.float(4, 1e-3, MAX_GB)?,
                    a.int(5, 0, MAX_REQUESTS)? as u64,
                    a.float(6, 0.1, 1e3)?,
                );
                Ok(best.map_or(Value::Unit, |(ep, p)| {
                    Value::Map(
                        [("ep", ep), ("gpus", p.gpus), ("total_nodes", p.total_nodes)]
                            .into_iter()
                            .map(|(k, v)| (k.to_owned(), Value::Int(v as i64)))
                            .collect(),
                    )
                }))
            }
        ),
    ]
}

/// Argument `i` as a rounding mode: `"article"` or `"conservative"`.
fn mode(a: &A, i: usize) -> Result<Mode, String> {
    match a.str(i)? {
        "article" => Ok(Mode::Article),
        "conservative" => Ok(Mode::Conservative),
        other => Err(format!(
            "{}: unknown mode \"{other}\"; the modes are \"article\" (round to nearest) and \"conservative\" (floor what must fit, ceil what is bought)",
            a.f
        )),
    }
}

#[cfg(all(test, feature = "script"))]
mod tests {
    use super::functions;
    use crate::api::{ApiFn, eval};
    use judge::Value;
    use judge::script::Limits;

    fn ev(src: &str) -> Result<Value, String> {
        eval(src, Limits::default(), None, judge::Lang::En).0
    }

    fn ints(pairs: &[(&str, i64)]) -> Value {
        Value::Map(
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), Value::Int(*v)))
                .collect(),
        )
    }

    fn float(src: &str) -> f64 {
        match ev(src) {
            Ok(Value::Float(x)) => x,
            other => panic!("{src}: {other:?}"),
        }
    }

    #[test]
    fn every_function_works_from_rhai() {
        assert_eq!(
            ev("kda_state_bytes(69, 96, 128, 2)"),
            Ok(Value::Int(217_055_232))
        );
        assert_eq!(ev("latent_kv_bytes(24, 640, 2, 2)"), Ok(Value::Int(61_440)));
        assert_eq!(
            format!("{:.1}", float("request_gb(61.4, 500000, 0.207)")),
            "30.9"
        );
        assert_eq!(
            ev("bare_gpus(2.8, 616.0, 141.0)"),
            Ok(Value::from(vec![20, 4_369]))
        );
        assert_eq!(
            ev("ep_row(896, 32, 2.45, 141.0, 5.0).experts_per_card"),
            Ok(Value::Int(28))
        );
        assert_eq!(
            format!("{:.1}", float("ep_row(896, 16, 2.45, 141, 5).free_gb")),
            "-1.2"
        );
        assert_eq!(
            ev("ep_min(896, 2.45, 141.0, 5.0, 10.0)"),
            Ok(Value::Int(32))
        );
        assert_eq!(ev("ep_min(896, 2.45, 141.0, 5.0, 1000.0)"), Ok(Value::Unit));
        assert_eq!(
            ev("decode_plan(56.0, 16, 6.1, 2, 10000, 2.5, \"article\")"),
            Ok(ints(&[
                ("concurrency", 147),
                ("units", 68),
                ("d_nodes", 136),
                ("p_nodes", 54),
                ("total_nodes", 190),
                ("gpus", 1_520),
            ]))
        );
        assert_eq!(
            ev("decode_plan(56.0, 16, 6.1, 2, 10000, 2.5, \"conservative\").gpus"),
            Ok(Value::Int(1_552))
        );
        assert_eq!(
            ev("decode_plan(10.0, 2, 30.9, 1, 100, 2.5, \"conservative\")"),
            Ok(Value::Unit)
        );
        assert_eq!(
            ev("duty_cycle(1000.0, 200.0, 15.0)"),
            Ok(Value::Float(0.25))
        );
        assert_eq!(ev("duty_cycle(0, 200, 5)"), Ok(Value::Float(0.0)));
        assert_eq!(
            ev("hicache_nodes(580, 0.25, 2.5, \"article\")"),
            Ok(ints(&[("d_nodes", 145), ("total_nodes", 203)]))
        );
        assert_eq!(
            ev("hicache_nodes(138, 0.11, 2.5, \"conservative\")"),
            Ok(ints(&[("d_nodes", 16), ("total_nodes", 23)]))
        );
        assert_eq!(
            format!("{:.2}", float("decode_ms(104.0, 30.7, 4.8)")),
            "28.06"
        );
        assert_eq!(
            ev("best_plan(896, 2.45, 5.0, 141.0, 30.9, 10000, 2.5)"),
            Ok(ints(&[("ep", 128), ("gpus", 3_768), ("total_nodes", 471)]))
        );
        assert_eq!(
            ev("best_plan(256, 5.1, 3.0, 141.0, 6.1, 10000, 2.5).ep"),
            Ok(Value::Int(128))
        );
        assert_eq!(
            ev("best_plan(896, 2.45, 5.0, 141.0, 100000.0, 10, 2.5)"),
            Ok(Value::Unit)
        );
    }

    #[test]
    fn bad_arguments_name_function_and_argument() {
        let e = ev("kda_state_bytes(69, -96, 128, 2)").unwrap_err();
        assert!(
            e.contains("kda_state_bytes: argument 2 (`heads`) must be between 0"),
            "{e}"
        );
        let e = ev("kda_state_bytes(100000, 100000, 1048576, 64)").unwrap_err();
        assert!(e.contains("do not fit in an int"), "{e}");
        let e = ev("bare_gpus(2.8, 616.0, 0.0)").unwrap_err();
        assert!(
            e.contains("bare_gpus: argument 3 (`card_gb`) must be between 0.001"),
            "{e}"
        );
        let e = ev("ep_row(896, 256, 2.45, 141.0, 5.0)").unwrap_err();
        assert!(
            e.contains("ep_row: ep (256) must divide n_routed (896)"),
            "{e}"
        );
        let e = ev("ep_row(896, 0, 2.45, 141.0, 5.0)").unwrap_err();
        assert!(
            e.contains("ep_row: argument 2 (`ep`) must be between 1"),
            "{e}"
        );
        let e = ev("decode_plan(56.0, 16, 6.1, 2, 10000, 2.5, \"floor\")").unwrap_err();
        assert!(
            e.contains(
                "decode_plan: unknown mode \"floor\"; the modes are \"article\" (round to nearest) and \"conservative\""
            ),
            "{e}"
        );
        let e = ev("decode_plan(56.0, 16, 6.1, 2, 10000, 2.5, 1)").unwrap_err();
        assert!(
            e.contains("decode_plan: argument 7 (`mode`) must be a string, got int"),
            "{e}"
        );
        let e = ev("decode_plan(56.0, 16, 0.0, 2, 10000, 2.5, \"article\")").unwrap_err();
        assert!(
            e.contains("argument 3 (`request_gb`) must be between 0.001"),
            "{e}"
        );
        let e = ev("hicache_nodes(580, 1.5, 2.5, \"article\")").unwrap_err();
        assert!(
            e.contains("hicache_nodes: argument 2 (`rho`) must be between 0 and 1, got 1.5"),
            "{e}"
        );
        let e = ev("hicache_nodes(580, 0.25, 2.5, \"x\")").unwrap_err();
        assert!(e.contains("hicache_nodes: unknown mode \"x\""), "{e}");
        let e = ev("duty_cycle(1000, 0, 5)").unwrap_err();
        assert!(
            e.contains("duty_cycle: argument 2 (`tok_per_s`) must be between"),
            "{e}"
        );
        let e = ev("decode_ms(104, 30.7, 0)").unwrap_err();
        assert!(
            e.contains("decode_ms: argument 3 (`bw_tb_s`) must be between 0.001"),
            "{e}"
        );
        let e = ev("best_plan(896, 2.45, 5.0, 141.0, 30.9, -1, 2.5)").unwrap_err();
        assert!(
            e.contains("best_plan: argument 6 (`concurrent`) must be between 0"),
            "{e}"
        );
        let e = ev("decode_plan(56.0, 16, 6.1, 2, 10000, 2.5)").unwrap_err();
        assert!(
            e.ends_with(
                "the API has decode_plan(free_gb_per_card, cards, request_gb, nodes_per_unit, concurrent, pd_ratio, mode) -> #{concurrency, units, d_nodes, p_nodes, total_nodes, gpus} or ()"
            ),
            "{e}"
        );
    }

    /// The chapter's own functions (the book's are `crate::api::functions()`).
    #[test]
    fn signatures_are_listed() {
        let sigs: Vec<String> = functions().iter().map(ApiFn::signature).collect();
        assert!(sigs.contains(
            &"hicache_nodes(d_nodes, rho, pd_ratio, mode) -> #{d_nodes, total_nodes}".to_owned()
        ));
        assert_eq!(sigs.len(), 11);
    }
}
