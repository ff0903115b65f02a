//! Reference solution and cases for `ch_deploy/decode_plan`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// The decode side of a deployment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodePlan {
    /// Requests one unit holds at once.
    pub concurrency: i64,
    /// Units needed.
    pub units: i64,
    /// Decode nodes.
    pub d_nodes: i64,
    /// Prefill nodes.
    pub p_nodes: i64,
    /// Decode plus prefill nodes.
    pub total_nodes: i64,
    /// GPUs in all, 8 a node.
    pub gpus: i64,
}

/// GPUs per node.
const GPUS_PER_NODE: i64 = 8;

/// Units of `cards` cards on `nodes_per_unit` nodes, with `free_gb_per_card`
/// GB of KV each, for `concurrent` requests of `request_gb` GB, one prefill
/// node per `pd_ratio` decode nodes; `None` when a unit holds no request.
pub fn decode_plan(
    free_gb_per_card: f64,
    cards: i64,
    request_gb: f64,
    nodes_per_unit: i64,
    concurrent: i64,
    pd_ratio: f64,
    conservative: i64,
) -> Option<DecodePlan> {
    let conservative = conservative == 1;
    // What must fit rounds down, what is bought rounds up; the article rounds
    // both to nearest (f64::round: a half goes up for positive numbers).
    let fit = |x: f64| (if conservative { x.floor() } else { x.round() }) as i64;
    let buy = |x: f64| (if conservative { x.ceil() } else { x.round() }) as i64;
    let concurrency = fit(free_gb_per_card * cards as f64 / request_gb);
    if concurrency == 0 {
        return None;
    }
    let units = buy(concurrent as f64 / concurrency as f64);
    let d_nodes = units * nodes_per_unit;
    let p_nodes = buy(d_nodes as f64 / pd_ratio);
    let total_nodes = d_nodes + p_nodes;
    Some(DecodePlan {
        concurrency,
        units,
        d_nodes,
        p_nodes,
        total_nodes,
        gpus: total_nodes * GPUS_PER_NODE,
    })
}
// ANCHOR_END: reference

/// The checked arguments.
pub type PlanArgs = (f64, i64, f64, i64, i64, f64, i64);

/// A finite float in `lo..=hi` as argument `i`.
fn float_in(a: &Args, i: usize, lo: f64, hi: f64, shown: &str) -> Result<f64, String> {
    let x = a.float(i)?;
    if !(x.is_finite() && (lo..=hi).contains(&x)) {
        return Err(format!(
            "argument {} must be between {shown}, got {x}",
            i + 1
        ));
    }
    Ok(x)
}

/// An int in `lo..=hi` as argument `i`.
fn int_in(a: &Args, i: usize, lo: i64, hi: i64, shown: &str) -> Result<i64, String> {
    let x = a.int(i)?;
    if !(lo..=hi).contains(&x) {
        return Err(format!(
            "argument {} must be between {shown}, got {x}",
            i + 1
        ));
    }
    Ok(x)
}

/// The arguments, checked: free GB in 0..=10^6, cards in 1..=2^20, request GB in
/// 0.001..=10^6, nodes per unit in 1..=1,024, requests in 0..=10^9, P:D ratio in
/// 0.1..=1,000, conservative 0 or 1 (so that every count fits in an int).
pub fn args(args: &[Value]) -> Result<PlanArgs, String> {
    let a = Args(args);
    Ok((
        float_in(&a, 0, 0.0, 1e6, "0 and 1,000,000")?,
        int_in(&a, 1, 1, 1 << 20, "1 and 2^20")?,
        float_in(&a, 2, 1e-3, 1e6, "0.001 and 1,000,000")?,
        int_in(&a, 3, 1, 1_024, "1 and 1,024")?,
        int_in(&a, 4, 0, 1_000_000_000, "0 and 1,000,000,000")?,
        float_in(&a, 5, 0.1, 1e3, "0.1 and 1,000")?,
        int_in(
            &a,
            6,
            0,
            1,
            "0 (the article's rounding) and 1 (conservative)",
        )?,
    ))
}

/// A plan as the judge's value: the map, or () for none.
pub fn value(p: Option<DecodePlan>) -> Value {
    match p {
        None => Value::Unit,
        Some(p) => Value::Map(
            [
                ("concurrency", p.concurrency),
                ("units", p.units),
                ("d_nodes", p.d_nodes),
                ("p_nodes", p.p_nodes),
                ("total_nodes", p.total_nodes),
                ("gpus", p.gpus),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v.into()))
            .collect(),
        ),
    }
}

/// The reference, called with judge values.
pub fn reference(args_: &[Value]) -> Result<Value, String> {
    let (f, c, r, n, k, pd, m) = args(args_)?;
    Ok(value(decode_plan(f, c, r, n, k, pd, m)))
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, (f, c, r, n, k, pd, m): PlanArgs| Case {
        args: vec![
            f.into(),
            c.into(),
            r.into(),
            n.into(),
            k.into(),
            pd.into(),
            m.into(),
        ],
        kind,
    };
    let mut cases = vec![
        // DeepSeek-V4-Pro on H200 at EP 16, the article's count and the conservative one.
        case(Kind::Public, (56.0, 16, 6.1, 2, 10_000, 2.5, 0)),
        case(Kind::Public, (56.0, 16, 6.1, 2, 10_000, 2.5, 1)),
        // Kimi-K3 on H200 at EP 32 (4 nodes a unit).
        case(Kind::Public, (67.0, 32, 30.9, 4, 10_000, 2.5, 0)),
        case(Kind::Hidden, (67.0, 32, 30.9, 4, 10_000, 2.5, 1)),
        // Both on B300: 222 and 532 requests a unit in the article's count.
        case(Kind::Hidden, (214.0, 32, 30.9, 4, 10_000, 2.5, 0)),
        case(Kind::Hidden, (214.0, 32, 30.9, 4, 10_000, 2.5, 1)),
        case(Kind::Hidden, (203.0, 16, 6.1, 2, 10_000, 2.5, 0)),
        case(Kind::Hidden, (203.0, 16, 6.1, 2, 10_000, 2.5, 1)),
        // A unit holds 0.65 of a request: none conservatively, one in the article's count.
        case(Kind::Hidden, (10.0, 2, 30.9, 1, 100, 2.5, 1)),
        case(Kind::Hidden, (10.0, 2, 30.9, 1, 100, 2.5, 0)),
        // 0.32 of a request: no plan in either mode.
        case(Kind::Hidden, (5.0, 2, 30.9, 1, 100, 2.5, 0)),
        // Nothing to serve.
        case(Kind::Hidden, (56.0, 16, 6.1, 2, 0, 2.5, 1)),
        // Exact: 100 requests a unit, 10 units, 20 decode and 10 prefill nodes.
        case(Kind::Hidden, (50.0, 16, 8.0, 2, 1_000, 2.0, 1)),
        // 5 decode nodes at P:D = 1:2 need 2.5 prefill nodes: the article's rounding gives 3.
        case(Kind::Hidden, (10.0, 8, 8.0, 1, 50, 2.0, 0)),
        // One request: one unit of 16 nodes, and 6.4 prefill nodes bought as 7.
        case(Kind::Hidden, (118.85, 128, 30.9, 16, 1, 2.5, 1)),
    ];
    let seed = 20_261_404;
    let mut rng = SplitMix64::new(seed);
    while cases.len() < 25 {
        let cards = rng.pick(&[8, 16, 32, 64, 128, 256]);
        let free = rng.range(1, 2_000) as f64 / 10.0;
        let request = rng.range(1, 1_000) as f64 / 10.0;
        let held = free * cards as f64 / request;
        // Keep the quotient away from the roundings' edges (whole and half numbers),
        // so that any sound order of the multiplication and division agrees.
        let edge = (held - held.round()).abs() < 1e-6 || (held.fract() - 0.5).abs() < 1e-6;
        let args = (
            free,
            cards,
            request,
            (cards + 7) / 8,
            rng.range(0, 100_000),
            rng.pick(&[1.0, 1.5, 2.0, 2.5, 3.0, 4.0]),
            rng.range(0, 1),
        );
        if !edge {
            cases.push(case(Kind::Generated { seed }, args));
        }
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use chapters::ch_deploy::plan;

    fn counts(p: Option<DecodePlan>) -> Option<[i64; 6]> {
        p.map(|p| {
            [
                p.concurrency,
                p.units,
                p.d_nodes,
                p.p_nodes,
                p.total_nodes,
                p.gpus,
            ]
        })
    }

    #[test]
    fn the_worked_examples_are_the_articles_and_the_conservative_counts() {
        let v4 = |m| counts(decode_plan(56.0, 16, 6.1, 2, 10_000, 2.5, m));
        assert_eq!(v4(0), Some([147, 68, 136, 54, 190, 1_520]));
        assert_eq!(v4(1), Some([146, 69, 138, 56, 194, 1_552]));
        let k3 = |m| counts(decode_plan(67.0, 32, 30.9, 4, 10_000, 2.5, m));
        assert_eq!(k3(0), Some([69, 145, 580, 232, 812, 6_496]));
        assert_eq!(k3(1), k3(0));
        let b300 = counts(decode_plan(203.0, 16, 6.1, 2, 10_000, 2.5, 0));
        assert_eq!(b300, Some([532, 19, 38, 15, 53, 424]));
        assert_eq!(
            counts(decode_plan(10.0, 8, 8.0, 1, 50, 2.0, 0)).unwrap()[3],
            3
        );
        assert_eq!(decode_plan(10.0, 2, 30.9, 1, 100, 2.5, 1), None);
    }

    #[test]
    fn agrees_with_the_chapter_demo() {
        for c in cases() {
            let (f, cards, r, n, k, pd, m) = args(&c.args).unwrap();
            let mode = if m == 1 {
                plan::Mode::Conservative
            } else {
                plan::Mode::Article
            };
            let chapter =
                plan::decode_plan(f, cards as u64, r, n as u64, k as u64, pd, mode).map(|p| {
                    [
                        p.concurrency,
                        p.units,
                        p.d_nodes,
                        p.p_nodes,
                        p.total_nodes,
                        p.gpus,
                    ]
                    .map(|x| x as i64)
                });
            let got = counts(decode_plan(f, cards, r, n, k, pd, m));
            assert_eq!(got, chapter, "{:?}", c.args);
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let v = |m: i64| -> Vec<Value> {
            vec![
                56.0.into(),
                16.into(),
                6.1.into(),
                2.into(),
                10_000.into(),
                2.5.into(),
                m.into(),
            ]
        };
        let e = reference(&v(2)).unwrap_err();
        assert_eq!(
            e,
            "argument 7 must be between 0 (the article's rounding) and 1 (conservative), got 2"
        );
        let mut a = v(0);
        a[2] = 0.0.into();
        let e = reference(&a).unwrap_err();
        assert_eq!(e, "argument 3 must be between 0.001 and 1,000,000, got 0");
    }
}
