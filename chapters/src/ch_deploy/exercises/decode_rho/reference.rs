//! Reference solution and cases for `ch_deploy/decode_rho`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// The learner's signature has one argument per quantity of the situation.
#[allow(clippy::too_many_arguments)]
// ANCHOR: reference
/// One decode step of a full card in an EP unit, and what it implies:
/// `(step_ms, tok_s, rho)`. The unit of `ep` cards holds `requests` requests,
/// every one decoding a token a step; each token goes to `top_k` of
/// `n_routed` experts, `n_routed / ep` of them on each card.
pub fn decode_rho(
    n_routed: i64,
    top_k: i64,
    expert_gb: f64,
    overhead_gb: f64,
    ep: i64,
    requests: i64,
    request_gb: f64,
    bw_tb_s: f64,
    out_tokens: i64,
    idle_s: f64,
) -> (f64, f64, f64) {
    // An expert is read when at least one of the step's tokens picks it: one
    // token misses it with probability 1 − top_k / n_routed.
    let miss = 1.0 - top_k as f64 / n_routed as f64;
    let read_share = 1.0 - miss.powf(requests as f64);
    let experts_gb = (n_routed / ep) as f64 * expert_gb * read_share;
    // The unit's KV is spread over its cards.
    let kv_gb = requests as f64 * request_gb / ep as f64;
    // GB / (TB/s) is milliseconds.
    let step_ms = (experts_gb + overhead_gb + kv_gb) / bw_tb_s;
    let tok_s = 1000.0 / step_ms;
    let rho = if out_tokens == 0 {
        0.0 // nothing to decode: the request never needs the GPU
    } else {
        let decode_s = out_tokens as f64 / tok_s;
        decode_s / (decode_s + idle_s)
    };
    (step_ms, tok_s, rho)
}
// ANCHOR_END: reference

/// The checked arguments, in order.
pub type RhoArgs = (i64, i64, f64, f64, i64, i64, f64, f64, i64, f64);

/// A finite float in `lo..=hi` as argument `i`; `what` names its unit.
fn float_in(a: &Args, i: usize, lo: f64, hi: f64, what: &str) -> Result<f64, String> {
    let x = a.float(i)?;
    if !(x.is_finite() && (lo..=hi).contains(&x)) {
        return Err(format!(
            "argument {} must be between {lo} and {hi} ({what}), got {x}",
            i + 1
        ));
    }
    Ok(x)
}

/// An int in `lo..=hi` as argument `i`.
fn int_in(a: &Args, i: usize, lo: i64, hi: i64) -> Result<i64, String> {
    let x = a.int(i)?;
    if !(lo..=hi).contains(&x) {
        return Err(format!(
            "argument {} must be between {lo} and {hi}, got {x}",
            i + 1
        ));
    }
    Ok(x)
}

/// The arguments, checked: `n_routed` in 1..=2^20, `top_k` in 1..=`n_routed`,
/// `ep` dividing `n_routed`, `requests` in 1..=10^6, `expert_gb` in
/// 0.001..=10^4 (so that a step reads something), the other GB in 0..=10^4,
/// bandwidth in 0.001..=10^4 TB/s, `out_tokens` in 0..=10^9, `idle_s` in
/// 0..=10^9.
pub fn args(args: &[Value]) -> Result<RhoArgs, String> {
    let a = Args(args);
    let n_routed = int_in(&a, 0, 1, 1 << 20)?;
    let top_k = int_in(&a, 1, 1, n_routed)?;
    let expert_gb = float_in(&a, 2, 0.001, 1e4, "GB")?;
    let overhead_gb = float_in(&a, 3, 0.0, 1e4, "GB")?;
    let ep = int_in(&a, 4, 1, n_routed)?;
    if n_routed % ep != 0 {
        return Err(format!(
            "ep ({ep}) must divide n_routed ({n_routed}): every card holds as many experts"
        ));
    }
    let requests = int_in(&a, 5, 1, 1_000_000)?;
    let request_gb = float_in(&a, 6, 0.0, 1e4, "GB")?;
    let bw = float_in(&a, 7, 0.001, 1e4, "TB/s")?;
    let out_tokens = int_in(&a, 8, 0, 1_000_000_000)?;
    let idle_s = float_in(&a, 9, 0.0, 1e9, "s")?;
    Ok((
        n_routed,
        top_k,
        expert_gb,
        overhead_gb,
        ep,
        requests,
        request_gb,
        bw,
        out_tokens,
        idle_s,
    ))
}

/// [`decode_rho`] on checked arguments.
pub fn run((n, k, e, o, ep, c, r, bw, out, idle): RhoArgs) -> (f64, f64, f64) {
    decode_rho(n, k, e, o, ep, c, r, bw, out, idle)
}

/// The reference, called with judge values.
pub fn reference(args_: &[Value]) -> Result<Value, String> {
    let (ms, tok_s, rho) = run(args(args_)?);
    Ok(Value::Map(
        [
            ("step_ms".to_owned(), ms.into()),
            ("tok_s".to_owned(), tok_s.into()),
            ("rho".to_owned(), rho.into()),
        ]
        .into(),
    ))
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, (n, k, e, o, ep, c, r, bw, out, idle): RhoArgs| Case {
        args: vec![
            n.into(),
            k.into(),
            e.into(),
            o.into(),
            ep.into(),
            c.into(),
            r.into(),
            bw.into(),
            out.into(),
            idle.into(),
        ],
        kind,
    };
    let mut cases = vec![
        // A full DeepSeek-V4-Pro card on H200 (147 requests a unit of 16) and a
        // full Kimi-K3 card (69 a unit of 32), 1,000 tokens then 15 s idle.
        case(
            Kind::Public,
            (256, 8, 5.1, 3.0, 16, 147, 6.1, 4.8, 1_000, 15.0),
        ),
        case(
            Kind::Public,
            (896, 16, 2.45, 5.0, 32, 69, 30.9, 4.8, 1_000, 15.0),
        ),
        // One V4 request alone in its unit: only its own 8 experts are read.
        case(
            Kind::Public,
            (256, 8, 5.1, 3.0, 16, 1, 6.1, 4.8, 1_000, 15.0),
        ),
        // The agent (5 s idle) and batch (40 s) workloads on full cards.
        case(
            Kind::Hidden,
            (256, 8, 5.1, 3.0, 16, 147, 6.1, 4.8, 1_000, 5.0),
        ),
        case(
            Kind::Hidden,
            (896, 16, 2.45, 5.0, 32, 69, 30.9, 4.8, 1_000, 40.0),
        ),
        // Full B300 cards (288 GB, 8 TB/s): 222 K3 and 532 V4 requests a unit.
        case(
            Kind::Hidden,
            (896, 16, 2.45, 5.0, 32, 222, 30.9, 8.0, 1_000, 15.0),
        ),
        case(
            Kind::Hidden,
            (256, 8, 5.1, 3.0, 16, 532, 6.1, 8.0, 1_000, 15.0),
        ),
        // Two requests: an off-by-one in the exponent shows.
        case(
            Kind::Hidden,
            (896, 16, 2.45, 5.0, 32, 2, 30.9, 4.8, 1_000, 15.0),
        ),
        // Every token visits every expert: all of them are read.
        case(Kind::Hidden, (64, 64, 1.0, 2.0, 8, 3, 0.5, 2.0, 100, 1.0)),
        // One card holds every expert and every request's KV.
        case(Kind::Hidden, (8, 2, 10.0, 4.0, 1, 5, 2.0, 3.35, 500, 10.0)),
        // One expert per card.
        case(Kind::Hidden, (16, 2, 3.0, 1.0, 16, 7, 4.0, 4.8, 200, 2.0)),
        // Nothing generated: rho is 0, with or without idle time.
        case(Kind::Hidden, (256, 8, 5.1, 3.0, 16, 147, 6.1, 4.8, 0, 15.0)),
        case(Kind::Hidden, (256, 8, 5.1, 3.0, 16, 147, 6.1, 4.8, 0, 0.0)),
        // Never idle: rho is 1.
        case(
            Kind::Hidden,
            (896, 16, 2.45, 5.0, 32, 69, 30.9, 4.8, 1_000, 0.0),
        ),
        // No shared weights and no cache: the experts alone.
        case(
            Kind::Hidden,
            (256, 8, 5.1, 0.0, 16, 147, 0.0, 4.8, 1_000, 15.0),
        ),
    ];
    let seed = 20_261_408;
    let mut rng = SplitMix64::new(seed);
    for _ in 0..12 {
        let n: i64 = rng.pick(&[64, 128, 256, 384, 896]);
        let divisors: Vec<i64> = [1, 2, 4, 8, 16, 32, 64]
            .into_iter()
            .filter(|d| n % d == 0)
            .collect();
        let ep = rng.pick(&divisors);
        let args = (
            n,
            rng.range(1, 16),
            rng.range(1, 800) as f64 / 100.0,
            rng.range(0, 100) as f64 / 10.0,
            ep,
            rng.range(1, 600),
            rng.range(1, 600) as f64 / 10.0,
            rng.pick(&[3.35, 4.8, 8.0]),
            rng.range(1, 4_000),
            rng.range(0, 60) as f64,
        );
        cases.push(case(Kind::Generated { seed }, args));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use chapters::ch_deploy::duty_cycle::{CONCURRENT, TOKENS, figures, full_card_step};
    use chapters::ch_deploy::ep_sizing::{K3_TOP_K, V4_TOP_K};
    use chapters::ch_deploy::plan::{self, Mode, article_request_gb, k3};
    use chapters::ch_deploy::planner::{num, pairs};

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs()
    }

    /// The cell's full-card step for each deployment, from the planner's
    /// occupancy, is the reference's; the first two are the public cases.
    #[test]
    fn agrees_with_the_chapter_cell() {
        for (m, g) in pairs() {
            let top_k = if m.name == k3().name {
                K3_TOP_K
            } else {
                V4_TOP_K
            };
            let unit = plan::plan(&m, &g, TOKENS, CONCURRENT, Mode::Article)
                .unwrap()
                .concurrency;
            let (_, ms, tok_s) = full_card_step(&m, &g, top_k, Mode::Article).unwrap();
            let args = (
                m.n_routed as i64,
                top_k as i64,
                m.expert_gb,
                m.overhead_gb,
                m.ep as i64,
                unit as i64,
                article_request_gb(&m, TOKENS),
                g.bandwidth_tb_s,
                1_000,
                15.0,
            );
            let (r_ms, r_tok_s, rho) = run(args);
            assert!(close(r_ms, ms) && close(r_tok_s, tok_s), "{}", m.name);
            let cell_rho = plan::duty_cycle(1_000.0, tok_s, 15.0);
            assert!(close(rho, cell_rho), "{}", m.name);
            // The public and hidden cases use these occupancies.
            assert!(
                cases().iter().any(|c| args_of(c) == args),
                "no case for {} on {} ({unit} requests)",
                m.name,
                g.name
            );
        }
    }

    fn args_of(c: &Case) -> RhoArgs {
        args(&c.args).unwrap()
    }

    /// The chapter's figures: 34 and 40 tokens/s, ρ of 66% and 63%.
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
        let (v4_ms, v4_tok_s, v4_rho) = run(args_of(&cs[0]));
        let (_, k3_tok_s, k3_rho) = run(args_of(&cs[1]));
        assert_eq!(
            get("duty_cycle.v4_full_ms"),
            format!("{} ms", num(v4_ms, 0))
        );
        assert_eq!(get("duty_cycle.v4_full_tok_s"), num(v4_tok_s, 0));
        assert_eq!(
            get("duty_cycle.v4_full_rho_api"),
            format!("{}%", num(100.0 * v4_rho, 0))
        );
        assert_eq!(get("duty_cycle.k3_full_tok_s"), num(k3_tok_s, 0));
        assert_eq!(
            get("duty_cycle.k3_full_rho_api"),
            format!("{}%", num(100.0 * k3_rho, 0))
        );
        assert_eq!(
            (num(v4_tok_s, 0), num(100.0 * v4_rho, 0)),
            ("34".to_owned(), "66".to_owned())
        );
    }

    #[test]
    fn the_edges() {
        // One request: the share read is top_k / n_routed exactly.
        let (ms, _, _) = decode_rho(256, 8, 5.1, 3.0, 16, 1, 6.1, 4.8, 1_000, 15.0);
        assert!(close(ms, (16.0 * 5.1 / 32.0 + 3.0 + 6.1 / 16.0) / 4.8));
        // Every expert visited.
        let (ms, _, _) = decode_rho(64, 64, 1.0, 2.0, 8, 3, 0.5, 2.0, 100, 1.0);
        assert!(close(ms, (8.0 + 2.0 + 1.5 / 8.0) / 2.0));
        assert_eq!(
            decode_rho(256, 8, 5.1, 3.0, 16, 147, 6.1, 4.8, 0, 0.0).2,
            0.0
        );
        assert_eq!(
            decode_rho(256, 8, 5.1, 3.0, 16, 147, 6.1, 4.8, 5, 0.0).2,
            1.0
        );
    }

    #[test]
    fn bad_arguments_are_errors() {
        let mut v: Vec<Value> = vec![
            256.into(),
            8.into(),
            5.1.into(),
            3.0.into(),
            16.into(),
            147.into(),
            6.1.into(),
            4.8.into(),
            1_000.into(),
            15.0.into(),
        ];
        assert!(reference(&v).is_ok());
        v[4] = 24.into();
        let e = reference(&v).unwrap_err();
        assert!(e.starts_with("ep (24) must divide n_routed (256)"), "{e}");
        v[4] = 16.into();
        v[1] = 300.into();
        let e = reference(&v).unwrap_err();
        assert_eq!(e, "argument 2 must be between 1 and 256, got 300");
        v[1] = 8.into();
        v[7] = 0.0.into();
        let e = reference(&v).unwrap_err();
        assert!(e.starts_with("argument 8 must be between 0.001"), "{e}");
    }
}
