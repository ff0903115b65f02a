//! Reference solution and cases for `ch_deploy/ep_min`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// The EP sizes to try, smallest first.
const EP_SIZES: [i64; 6] = [8, 16, 32, 64, 128, 256];

/// The smallest EP size that divides `n_routed` and leaves at least
/// `min_free_gb` GB per card once the experts and the overhead are loaded.
pub fn ep_min(
    n_routed: i64,
    expert_gb: f64,
    card_gb: f64,
    overhead_gb: f64,
    min_free_gb: f64,
) -> Option<i64> {
    EP_SIZES.into_iter().find(|&ep| {
        // Uneven splits are not an option: every card holds as many experts.
        if n_routed % ep != 0 {
            return false;
        }
        let weight_gb = (n_routed / ep) as f64 * expert_gb;
        card_gb - weight_gb - overhead_gb >= min_free_gb // "at least": >=
    })
}
// ANCHOR_END: reference

/// The largest GB an argument may be.
const MAX_GB: f64 = 1e6;

/// The arguments, checked: `n_routed` in 1..=2^20, GB in 0..=10^6.
pub fn args(args: &[Value]) -> Result<(i64, f64, f64, f64, f64), String> {
    let a = Args(args);
    let n = a.int(0)?;
    if !(1..=1 << 20).contains(&n) {
        return Err(format!("argument 1 must be between 1 and 2^20, got {n}"));
    }
    let mut gb = [0.0; 4];
    for (i, x) in gb.iter_mut().enumerate() {
        *x = a.float(i + 1)?;
        if !(x.is_finite() && (0.0..=MAX_GB).contains(x)) {
            return Err(format!(
                "argument {} must be between 0 and 1,000,000 (GB), got {x}",
                i + 2
            ));
        }
    }
    Ok((n, gb[0], gb[1], gb[2], gb[3]))
}

/// The reference, called with judge values.
pub fn reference(args_: &[Value]) -> Result<Value, String> {
    let (n, expert, card, overhead, min_free) = args(args_)?;
    Ok(match ep_min(n, expert, card, overhead, min_free) {
        Some(ep) => ep.into(),
        None => Value::Unit,
    })
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, n: i64, expert: f64, card: f64, overhead: f64, min_free: f64| Case {
        args: vec![
            n.into(),
            expert.into(),
            card.into(),
            overhead.into(),
            min_free.into(),
        ],
        kind,
    };
    let mut cases = vec![
        // Kimi-K3 and DeepSeek-V4-Pro on H200 with 10 GB free per card.
        case(Kind::Public, 896, 2.45, 141.0, 5.0, 10.0),
        case(Kind::Public, 256, 5.1, 141.0, 3.0, 10.0),
        // K3 asking for 120 GB free: EP 128 leaves 118.85, and 256 does not divide 896.
        case(Kind::Public, 896, 2.45, 141.0, 5.0, 120.0),
        // Exactly min_free_gb left (all the numbers are exact in binary): at EP 8,
        // 140 - 32 × 2.5 - 5 = 55; at EP 64, 100 - 8 × 4 - 4 = 64.
        case(Kind::Hidden, 256, 2.5, 140.0, 5.0, 55.0),
        case(Kind::Hidden, 512, 4.0, 100.0, 4.0, 64.0),
        // Without the overhead, K3's EP 16 row looks feasible (3.8 GB); with it, it is not.
        case(Kind::Hidden, 896, 2.45, 141.0, 5.0, 0.0),
        case(Kind::Hidden, 256, 5.1, 141.0, 3.0, 0.0),
        // K3 on B300: EP 8 leaves 8.6 GB, EP 16 145.8.
        case(Kind::Hidden, 896, 2.45, 288.0, 5.0, 10.0),
        case(Kind::Hidden, 896, 2.45, 288.0, 5.0, 8.0),
        // Heavy experts: only a split over 256 cards would fit, and 896 is not divisible by 256.
        case(Kind::Hidden, 896, 30.0, 141.0, 5.0, 10.0),
        // No size divides 100 experts.
        case(Kind::Hidden, 100, 1.0, 141.0, 5.0, 0.0),
        // Nothing leaves that much.
        case(Kind::Hidden, 256, 5.1, 141.0, 3.0, 500.0),
        // K3 asking for 118 GB: EP 128 (118.85 GB) is the first that leaves enough.
        case(Kind::Hidden, 896, 2.45, 141.0, 5.0, 118.0),
        // One expert per card at EP 256.
        case(Kind::Hidden, 256, 5.1, 141.0, 3.0, 130.0),
    ];
    let seed = 20_261_403;
    let mut rng = SplitMix64::new(seed);
    while cases.len() < 24 {
        let n = rng.pick(&[64, 128, 160, 256, 384, 512, 896, 1_024]);
        let expert = rng.range(1, 1_000) as f64 / 100.0;
        let card = rng.pick(&[80.0, 141.0, 192.0, 288.0]);
        let overhead = rng.range(0, 100) as f64 / 10.0;
        let min_free = rng.range(0, 400) as f64 / 2.0;
        // No size may leave within 1e-6 GB of min_free_gb: the verdict must not
        // hang on the order of the learner's subtractions.
        let close = EP_SIZES.iter().any(|&ep| {
            let free = card - (n / ep) as f64 * expert - overhead;
            (free - min_free).abs() < 1e-6
        });
        if !close {
            cases.push(case(
                Kind::Generated { seed },
                n,
                expert,
                card,
                overhead,
                min_free,
            ));
        }
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use chapters::ch_deploy::plan;

    #[test]
    fn the_worked_examples_are_the_articles_choices() {
        assert_eq!(ep_min(896, 2.45, 141.0, 5.0, 10.0), Some(32));
        assert_eq!(ep_min(256, 5.1, 141.0, 3.0, 10.0), Some(16));
        assert_eq!(ep_min(896, 2.45, 141.0, 5.0, 120.0), None);
        assert_eq!(ep_min(256, 2.5, 140.0, 5.0, 55.0), Some(8));
        assert_eq!(ep_min(512, 4.0, 100.0, 4.0, 64.0), Some(64));
    }

    #[test]
    fn agrees_with_the_chapter_demo() {
        for c in cases() {
            let (n, e, card, o, m) = args(&c.args).unwrap();
            let chapter = plan::ep_min(n as u64, e, card, o, m).map(|ep| ep as i64);
            assert_eq!(ep_min(n, e, card, o, m), chapter, "{:?}", c.args);
        }
    }

    #[test]
    fn the_cases_return_every_size_and_none() {
        let got: Vec<Option<i64>> = cases()
            .iter()
            .map(|c| {
                let (n, e, card, o, m) = args(&c.args).unwrap();
                ep_min(n, e, card, o, m)
            })
            .collect();
        assert!(got.contains(&None));
        for ep in [8, 16, 32, 64, 256] {
            assert!(got.contains(&Some(ep)), "no case returns {ep}: {got:?}");
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let v = |n: i64, e: f64| vec![n.into(), e.into(), 141.0.into(), 5.0.into(), 10.0.into()];
        let e = reference(&v(0, 2.45)).unwrap_err();
        assert_eq!(e, "argument 1 must be between 1 and 2^20, got 0");
        let e = reference(&v(896, f64::NAN)).unwrap_err();
        assert!(
            e.starts_with("argument 2 must be between 0 and 1,000,000"),
            "{e}"
        );
    }
}
