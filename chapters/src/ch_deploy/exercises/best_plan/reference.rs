//! Reference solution and cases for `ch_deploy/best_plan`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// The EP sizes to try.
const EP_SIZES: [i64; 6] = [8, 16, 32, 64, 128, 256];

/// GPUs per node.
const GPUS_PER_NODE: i64 = 8;

/// GPUs of the conservative plan with units of `ep` cards, `free_gb` each
/// for KV; `None` when a unit cannot hold one request.
fn gpus_at(ep: i64, free_gb: f64, request_gb: f64, concurrent: i64, pd_ratio: f64) -> Option<i64> {
    let concurrency = (free_gb * ep as f64 / request_gb).floor() as i64; // whole requests
    if concurrency == 0 {
        return None;
    }
    let units = (concurrent as f64 / concurrency as f64).ceil() as i64; // whole units
    let d_nodes = units * ((ep + GPUS_PER_NODE - 1) / GPUS_PER_NODE); // whole nodes
    let p_nodes = (d_nodes as f64 / pd_ratio).ceil() as i64; // whole nodes
    Some(GPUS_PER_NODE * (d_nodes + p_nodes))
}

/// The EP size whose conservative plan needs the fewest GPUs, and that
/// number: `(ep, gpus)`; ties go to the smaller size.
pub fn best_plan(
    n_routed: i64,
    expert_gb: f64,
    overhead_gb: f64,
    card_gb: f64,
    request_gb: f64,
    concurrent: i64,
    pd_ratio: f64,
) -> Option<(i64, i64)> {
    let mut best: Option<(i64, i64)> = None;
    for ep in EP_SIZES {
        if n_routed % ep != 0 {
            continue; // the experts cannot be split evenly
        }
        let free_gb = card_gb - (n_routed / ep) as f64 * expert_gb - overhead_gb;
        if free_gb <= 0.0 {
            continue; // no room for any KV
        }
        let Some(gpus) = gpus_at(ep, free_gb, request_gb, concurrent, pd_ratio) else {
            continue;
        };
        // Strictly fewer: on a tie the smaller size, tried first, stays.
        if best.is_none_or(|(_, g)| gpus < g) {
            best = Some((ep, gpus));
        }
    }
    best
}
// ANCHOR_END: reference

/// The checked arguments.
pub type BestArgs = (i64, f64, f64, f64, f64, i64, f64);

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

/// The arguments, checked: `n_routed` in 1..=2^20, GB in 0..=10^6, the request
/// in 0.001..=10^6 GB, `concurrent` in 0..=10^9, `pd_ratio` in 0.1..=1,000.
pub fn args(args: &[Value]) -> Result<BestArgs, String> {
    let a = Args(args);
    let n = a.int(0)?;
    if !(1..=1 << 20).contains(&n) {
        return Err(format!("argument 1 must be between 1 and 2^20, got {n}"));
    }
    let gb = "0 and 1,000,000 (GB)";
    let (expert, overhead, card) = (
        float_in(&a, 1, 0.0, 1e6, gb)?,
        float_in(&a, 2, 0.0, 1e6, gb)?,
        float_in(&a, 3, 0.0, 1e6, gb)?,
    );
    let request = float_in(&a, 4, 1e-3, 1e6, "0.001 and 1,000,000 (GB)")?;
    let k = a.int(5)?;
    if !(0..=1_000_000_000).contains(&k) {
        return Err(format!(
            "argument 6 must be between 0 and 1,000,000,000, got {k}"
        ));
    }
    let pd = float_in(&a, 6, 0.1, 1e3, "0.1 and 1,000")?;
    Ok((n, expert, overhead, card, request, k, pd))
}

/// The reference, called with judge values.
pub fn reference(args_: &[Value]) -> Result<Value, String> {
    let (n, e, o, card, r, k, pd) = args(args_)?;
    Ok(match best_plan(n, e, o, card, r, k, pd) {
        None => Value::Unit,
        Some((ep, gpus)) => Value::Map(
            [
                ("ep".to_owned(), ep.into()),
                ("gpus".to_owned(), gpus.into()),
            ]
            .into(),
        ),
    })
}

/// Whether `free × ep / request` is within 1e-6 of a whole number for some
/// candidate size: then the floor could hang on the order of the learner's
/// operations, and a case must not.
fn on_an_edge((n, e, o, card, r, _, _): BestArgs) -> bool {
    EP_SIZES.iter().any(|&ep| {
        let held = (card - (n / ep) as f64 * e - o) * ep as f64 / r;
        n % ep == 0 && held > 0.0 && (held - held.round()).abs() < 1e-6
    })
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, (n, e, o, card, r, k, pd): BestArgs| Case {
        args: vec![
            n.into(),
            e.into(),
            o.into(),
            card.into(),
            r.into(),
            k.into(),
            pd.into(),
        ],
        kind,
    };
    let mut cases = vec![
        // Kimi-K3 and DeepSeek-V4-Pro on H200, 10,000 requests of 500K tokens.
        case(Kind::Public, (896, 2.45, 5.0, 141.0, 30.9, 10_000, 2.5)),
        case(Kind::Public, (256, 5.1, 3.0, 141.0, 6.1, 10_000, 2.5)),
        // 1,000 K3 requests: EP 64 beats EP 128.
        case(Kind::Public, (896, 2.45, 5.0, 141.0, 30.9, 1_000, 2.5)),
        // On B300 (288 GB): K3's EP 64 and 128 tie; V4's 32 to 256 all tie.
        case(Kind::Hidden, (896, 2.45, 5.0, 288.0, 30.9, 10_000, 2.5)),
        case(Kind::Hidden, (256, 5.1, 3.0, 288.0, 6.1, 10_000, 2.5)),
        // Fewer requests: smaller sizes win.
        case(Kind::Hidden, (256, 5.1, 3.0, 141.0, 6.1, 1_000, 2.5)),
        case(Kind::Hidden, (256, 5.1, 3.0, 141.0, 6.1, 10, 2.5)),
        case(Kind::Hidden, (256, 5.1, 3.0, 288.0, 6.1, 100, 2.5)),
        // At 1M tokens (61.6 and 12.2 GB a request).
        case(Kind::Hidden, (896, 2.45, 5.0, 141.0, 61.6, 10_000, 2.5)),
        case(Kind::Hidden, (256, 5.1, 3.0, 141.0, 12.2, 10_000, 2.5)),
        case(Kind::Hidden, (896, 2.45, 5.0, 288.0, 61.6, 10_000, 2.5)),
        // A three-way tie at P:D = 1:2; 384 experts.
        case(Kind::Hidden, (160, 1.0, 2.0, 80.0, 3.0, 500, 2.0)),
        case(Kind::Hidden, (384, 2.5, 3.0, 141.0, 6.1, 10_000, 2.5)),
        // Nothing to serve: the smallest size with room, at 0 GPUs.
        case(Kind::Hidden, (896, 2.45, 5.0, 141.0, 30.9, 0, 2.5)),
        // No plan: a request larger than any unit; experts no size divides.
        case(Kind::Hidden, (896, 2.45, 5.0, 141.0, 100_000.0, 10, 2.5)),
        case(Kind::Hidden, (100, 1.0, 5.0, 141.0, 6.1, 10_000, 2.5)),
        // Cards all but full: half a GB each still holds 13 small requests.
        case(Kind::Hidden, (8, 10.0, 1.0, 11.5, 0.3, 8, 2.5)),
    ];
    let seed = 20_261_407;
    let mut rng = SplitMix64::new(seed);
    while cases.len() < 29 {
        let args = (
            rng.pick(&[64, 128, 160, 256, 384, 512, 896]),
            rng.range(1, 1_000) as f64 / 100.0,
            rng.range(0, 100) as f64 / 10.0,
            rng.pick(&[80.0, 141.0, 192.0, 288.0]),
            rng.range(1, 1_000) as f64 / 10.0,
            rng.range(0, 20_000),
            rng.pick(&[1.0, 1.5, 2.0, 2.5, 3.0, 4.0]),
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
    use chapters::ch_deploy::plan;

    fn run(c: &Case) -> Option<(i64, i64)> {
        let (n, e, o, card, r, k, pd) = args(&c.args).unwrap();
        best_plan(n, e, o, card, r, k, pd)
    }

    #[test]
    fn the_worked_examples() {
        assert_eq!(
            best_plan(896, 2.45, 5.0, 141.0, 30.9, 10_000, 2.5),
            Some((128, 3_768))
        );
        assert_eq!(
            best_plan(256, 5.1, 3.0, 141.0, 6.1, 10_000, 2.5),
            Some((128, 720))
        );
        assert_eq!(
            best_plan(896, 2.45, 5.0, 141.0, 30.9, 1_000, 2.5),
            Some((64, 448))
        );
        assert_eq!(
            best_plan(896, 2.45, 5.0, 288.0, 30.9, 10_000, 2.5),
            Some((64, 1_792))
        );
        assert_eq!(best_plan(160, 1.0, 2.0, 80.0, 3.0, 500, 2.0), Some((8, 48)));
    }

    #[test]
    fn agrees_with_the_chapter_demo() {
        for c in cases() {
            let (n, e, o, card, r, k, pd) = args(&c.args).unwrap();
            let chapter = plan::best_plan(n as u64, e, o, card, r, k as u64, pd)
                .map(|(ep, p)| (ep as i64, p.gpus as i64));
            assert_eq!(run(&c), chapter, "{:?}", c.args);
        }
    }

    #[test]
    fn no_case_sits_on_a_rounding_edge_and_every_size_wins_somewhere() {
        let mut won = Vec::new();
        for c in cases() {
            assert!(!on_an_edge(args(&c.args).unwrap()), "{:?}", c.args);
            won.push(run(&c).map(|(ep, _)| ep));
        }
        assert!(won.contains(&None));
        for ep in [8, 16, 32, 64, 128] {
            assert!(won.contains(&Some(ep)), "no case picks EP {ep}: {won:?}");
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let mut v: Vec<Value> = vec![
            896.into(),
            2.45.into(),
            5.0.into(),
            141.0.into(),
            30.9.into(),
            10_000.into(),
            2.5.into(),
        ];
        v[4] = 0.0.into();
        let e = reference(&v).unwrap_err();
        assert_eq!(
            e,
            "argument 5 must be between 0.001 and 1,000,000 (GB), got 0"
        );
        v[4] = 30.9.into();
        v[6] = 0.0.into();
        let e = reference(&v).unwrap_err();
        assert_eq!(e, "argument 7 must be between 0.1 and 1,000, got 0");
    }
}
