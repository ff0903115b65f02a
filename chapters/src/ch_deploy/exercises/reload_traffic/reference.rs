//! Reference solution and cases for `ch_deploy/reload_traffic`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// HiCache's reload traffic, `(reloads_s, total_tb_s, node_gb_s)`:
/// `sessions` sessions of `session_gb` GB each decode `out_tokens` tokens at
/// `tok_s` tokens/s, idle `idle_s` seconds, and copy their whole cache back to
/// the GPUs at the start of every turn. The decode nodes kept are the share
/// of `full_nodes` that the decoding sessions need, rounded up.
pub fn reload_traffic(
    sessions: i64,
    session_gb: f64,
    out_tokens: i64,
    tok_s: f64,
    idle_s: f64,
    full_nodes: i64,
) -> (f64, f64, f64) {
    let decode_s = out_tokens as f64 / tok_s;
    // A session starts a turn once per decode plus idle time.
    let cycle_s = decode_s + idle_s;
    let reloads_s = sessions as f64 / cycle_s;
    let gb_s = reloads_s * session_gb;
    // The duty cycle's share of the nodes, bought whole.
    let rho = decode_s / cycle_s;
    let nodes = (full_nodes as f64 * rho).ceil();
    (reloads_s, gb_s / 1000.0, gb_s / nodes)
}
// ANCHOR_END: reference

/// The checked arguments, in order.
pub type ReloadArgs = (i64, f64, i64, f64, f64, i64);

/// The arguments, checked: `sessions` in 0..=10^8, `session_gb` in
/// 0..=10^4, `out_tokens` in 1..=10^9, `tok_s` in 0.001..=10^6, `idle_s` in
/// 0.001..=10^9 (a session that never idles is never offloaded), `full_nodes`
/// in 1..=10^6.
pub fn args(args: &[Value]) -> Result<ReloadArgs, String> {
    let a = Args(args);
    let int_in = |i: usize, lo: i64, hi: i64| -> Result<i64, String> {
        let x = a.int(i)?;
        if !(lo..=hi).contains(&x) {
            return Err(format!(
                "argument {} must be between {lo} and {hi}, got {x}",
                i + 1
            ));
        }
        Ok(x)
    };
    let float_in = |i: usize, lo: f64, hi: f64| -> Result<f64, String> {
        let x = a.float(i)?;
        if !(x.is_finite() && (lo..=hi).contains(&x)) {
            return Err(format!(
                "argument {} must be between {lo} and {hi}, got {x}",
                i + 1
            ));
        }
        Ok(x)
    };
    let sessions = int_in(0, 0, 100_000_000)?;
    let session_gb = float_in(1, 0.0, 1e4)?;
    let out_tokens = int_in(2, 1, 1_000_000_000)?;
    let tok_s = float_in(3, 0.001, 1e6)?;
    let idle_s = a.float(4)?;
    if !(idle_s.is_finite() && (0.001..=1e9).contains(&idle_s)) {
        return Err(format!(
            "argument 5 must be between 0.001 and 1000000000 (a session that never idles is never offloaded), got {idle_s}"
        ));
    }
    let full_nodes = int_in(5, 1, 1_000_000)?;
    Ok((sessions, session_gb, out_tokens, tok_s, idle_s, full_nodes))
}

/// [`reload_traffic`] on checked arguments.
pub fn run((s, gb, out, tok_s, idle, full): ReloadArgs) -> (f64, f64, f64) {
    reload_traffic(s, gb, out, tok_s, idle, full)
}

/// The reference, called with judge values.
pub fn reference(args_: &[Value]) -> Result<Value, String> {
    let (reloads, tb_s, node) = run(args(args_)?);
    Ok(Value::Map(
        [
            ("reloads_s".to_owned(), reloads.into()),
            ("total_tb_s".to_owned(), tb_s.into()),
            ("node_gb_s".to_owned(), node.into()),
        ]
        .into(),
    ))
}

/// Whether `full × ρ` sits within a hair of a whole number without being
/// one whichever way it is computed: rounding up would then depend on the
/// order of the float operations, not on the understanding.
fn on_an_edge((_, _, out, tok_s, idle, full): ReloadArgs) -> bool {
    let decode = out as f64 / tok_s;
    let a = full as f64 * (decode / (decode + idle));
    let b = full as f64 * decode / (decode + idle);
    let c = full as f64 * (1.0 - idle / (decode + idle));
    a.ceil() != b.ceil() || a.ceil() != c.ceil() || (a != a.round() && (a - a.round()).abs() < 1e-6)
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, (s, gb, out, tok_s, idle, full): ReloadArgs| Case {
        args: vec![
            s.into(),
            gb.into(),
            out.into(),
            tok_s.into(),
            idle.into(),
            full.into(),
        ],
        kind,
    };
    let mut cases = vec![
        // The API workload (1,000 tokens at 200 tokens/s, 15 s idle), 10,000
        // sessions: Kimi-K3 on H200 (30.9 GB, 580 decode nodes without
        // HiCache), DeepSeek-V4-Pro on H200 (6.1 GB, 136).
        case(Kind::Public, (10_000, 30.9, 1_000, 200.0, 15.0, 580)),
        case(Kind::Public, (10_000, 6.1, 1_000, 200.0, 15.0, 136)),
        // K3 as an agent (5 s idle) and as batch work (40 s): 580 / 9 is
        // 64.4 nodes, so 65 are kept.
        case(Kind::Public, (10_000, 30.9, 1_000, 200.0, 40.0, 580)),
        case(Kind::Hidden, (10_000, 30.9, 1_000, 200.0, 5.0, 580)),
        // V4 as batch work: 136 / 9 = 15.1 nodes, 16 kept (rounding gives 15).
        case(Kind::Hidden, (10_000, 6.1, 1_000, 200.0, 40.0, 136)),
        // The same on B300 (180 and 38 decode nodes without HiCache).
        case(Kind::Hidden, (10_000, 30.9, 1_000, 200.0, 15.0, 180)),
        case(Kind::Hidden, (10_000, 6.1, 1_000, 200.0, 15.0, 38)),
        // At the speed a full V4 card allows, about 34 tokens/s: a longer
        // cycle, fewer reloads, more nodes kept.
        case(Kind::Hidden, (10_000, 6.1, 1_000, 34.3, 15.0, 136)),
        // A share of one node is still one node.
        case(Kind::Hidden, (40, 30.9, 1_000, 200.0, 15.0, 1)),
        // No sessions: nothing moves.
        case(Kind::Hidden, (0, 30.9, 1_000, 200.0, 15.0, 580)),
        // A 1M-token K3 cache (61.6 GB), a short turn and a long wait.
        case(Kind::Hidden, (10_000, 61.6, 100, 50.0, 118.0, 1_160)),
        // 92 nodes at one half: 46 exactly.
        case(Kind::Hidden, (3_000, 12.2, 500, 100.0, 5.0, 92)),
    ];
    let seed = 20_261_409;
    let mut rng = SplitMix64::new(seed);
    while cases.len() < 24 {
        let args = (
            rng.range(0, 50_000),
            rng.range(1, 700) as f64 / 10.0,
            rng.range(1, 4_000),
            rng.pick(&[25.0, 34.3, 40.0, 50.0, 100.0, 200.0]),
            rng.range(1, 120) as f64,
            rng.range(1, 1_200),
        );
        if !on_an_edge(args) {
            cases.push(case(Kind::Generated { seed }, args));
        }
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use chapters::ch_deploy::duty_cycle::{self, CONCURRENT, SCENARIOS, TOKENS, figures};
    use chapters::ch_deploy::plan::{self, H200, Mode, article_request_gb, k3, v4};
    use chapters::ch_deploy::planner::num;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs()
    }

    /// The cell's reloads and GB/s for both models at every workload, and its
    /// decode nodes at ρ for the API case, are the reference's.
    #[test]
    fn agrees_with_the_chapter_cell() {
        for m in [k3(), v4()] {
            let gb = article_request_gb(&m, TOKENS);
            let full = plan::plan(&m, &H200, TOKENS, CONCURRENT, Mode::Article)
                .unwrap()
                .d_nodes;
            for (idle, _) in SCENARIOS {
                let (per_s, gb_s, _) = duty_cycle::reload_traffic(CONCURRENT, gb, 5.0, idle as f64);
                let (reloads, tb_s, node) = reload_traffic(
                    CONCURRENT as i64,
                    gb,
                    1_000,
                    200.0,
                    idle as f64,
                    full as i64,
                );
                assert!(
                    close(reloads, per_s) && close(tb_s, gb_s / 1000.0),
                    "{}",
                    m.name
                );
                let rho = plan::duty_cycle(1_000.0, 200.0, idle as f64);
                let (d, _) = plan::hicache_nodes(full, rho, 2.5, Mode::Conservative);
                assert!(close(node, gb_s / d as f64), "{} at {idle} s", m.name);
            }
        }
    }

    /// 500 reloads a second, 15.4 TB/s and 107 GB/s a node for K3, 3 TB/s
    /// for V4: the chapter's figures, formatted as the cell formats them.
    #[test]
    fn gives_the_chapters_figures() {
        let fig = figures();
        let get = |name: &str| {
            fig.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.clone())
                .unwrap()
        };
        let cs = cases();
        let (reloads, k3_tb_s, k3_node) = run(args(&cs[0].args).unwrap());
        let (_, v4_tb_s, _) = run(args(&cs[1].args).unwrap());
        assert_eq!(get("duty_cycle.reloads_api"), num(reloads, 0));
        assert_eq!(
            get("duty_cycle.k3_reload_tb_s"),
            format!("{} TB/s", num(k3_tb_s, 1))
        );
        assert_eq!(
            get("duty_cycle.k3_reload_per_node"),
            format!("{} GB/s", num(k3_node, 0))
        );
        assert_eq!(
            get("duty_cycle.v4_reload_tb_s"),
            format!("{} TB/s", num(v4_tb_s, 1))
        );
        assert_eq!(num(k3_node, 0), "107");
    }

    #[test]
    fn the_edges() {
        // 580 / 9 = 64.4 decode nodes: 65 kept.
        let (_, _, node) = reload_traffic(10_000, 30.9, 1_000, 200.0, 40.0, 580);
        assert!(close(node, 10_000.0 / 45.0 * 30.9 / 65.0));
        // Less than one node: one.
        let (_, _, node) = reload_traffic(40, 30.9, 1_000, 200.0, 15.0, 1);
        assert!(close(node, 2.0 * 30.9));
        // Exactly 46 nodes.
        let (_, _, node) = reload_traffic(3_000, 12.2, 500, 100.0, 5.0, 92);
        assert!(close(node, 300.0 * 12.2 / 46.0));
        assert_eq!(
            reload_traffic(0, 30.9, 1_000, 200.0, 15.0, 580),
            (0.0, 0.0, 0.0)
        );
        assert!(cases().iter().all(|c| !on_an_edge(args(&c.args).unwrap())));
    }

    #[test]
    fn bad_arguments_are_errors() {
        let v = |idle: f64, full: i64| -> Vec<Value> {
            vec![
                10_000.into(),
                30.9.into(),
                1_000.into(),
                200.0.into(),
                idle.into(),
                full.into(),
            ]
        };
        assert!(reference(&v(15.0, 580)).is_ok());
        let e = reference(&v(0.0, 580)).unwrap_err();
        assert!(e.contains("never idles"), "{e}");
        let e = reference(&v(15.0, 0)).unwrap_err();
        assert_eq!(e, "argument 6 must be between 1 and 1000000, got 0");
    }
}
