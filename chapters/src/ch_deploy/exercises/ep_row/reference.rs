//! Reference solution and cases for `ch_deploy/ep_row`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// One row of the EP table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EpRow {
    /// Experts each card holds.
    pub experts_per_card: i64,
    /// Their weights, GB.
    pub weight_gb: f64,
    /// What is left for the KV cache, GB (negative when the card is over-full).
    pub free_gb: f64,
}

/// `n_routed` experts of `expert_gb` GB spread over `ep` cards of `card_gb`
/// GB, each card also holding `overhead_gb` GB of attention and embedding.
pub fn ep_row(n_routed: i64, ep: i64, expert_gb: f64, card_gb: f64, overhead_gb: f64) -> EpRow {
    let experts_per_card = n_routed / ep; // exact: ep divides n_routed
    let weight_gb = experts_per_card as f64 * expert_gb;
    EpRow {
        experts_per_card,
        weight_gb,
        // Not clamped: a negative value says the card is over-full.
        free_gb: card_gb - weight_gb - overhead_gb,
    }
}
// ANCHOR_END: reference

/// The largest GB an argument may be.
const MAX_GB: f64 = 1e6;

/// A number of GB, finite and in 0..=10^6, as argument `i`.
pub fn gb(a: &Args, i: usize) -> Result<f64, String> {
    let x = a.float(i)?;
    if !(x.is_finite() && (0.0..=MAX_GB).contains(&x)) {
        return Err(format!(
            "argument {} must be between 0 and 1,000,000 (GB), got {x}",
            i + 1
        ));
    }
    Ok(x)
}

/// A count in `1..=2^20` (experts, cards), as argument `i`.
pub fn count(a: &Args, i: usize) -> Result<i64, String> {
    let x = a.int(i)?;
    if !(1..=1 << 20).contains(&x) {
        return Err(format!(
            "argument {} must be between 1 and 2^20, got {x}",
            i + 1
        ));
    }
    Ok(x)
}

/// The arguments, checked: counts in 1..=2^20 with `ep` dividing `n_routed`,
/// GB in 0..=10^6.
pub fn args(args: &[Value]) -> Result<(i64, i64, f64, f64, f64), String> {
    let a = Args(args);
    let (n_routed, ep) = (count(&a, 0)?, count(&a, 1)?);
    if n_routed % ep != 0 {
        return Err(format!(
            "ep ({ep}) must divide n_routed ({n_routed}): every card holds as many experts"
        ));
    }
    Ok((n_routed, ep, gb(&a, 2)?, gb(&a, 3)?, gb(&a, 4)?))
}

/// The reference, called with judge values.
pub fn reference(args_: &[Value]) -> Result<Value, String> {
    let (n, ep, expert, card, overhead) = args(args_)?;
    let r = ep_row(n, ep, expert, card, overhead);
    Ok(Value::Map(
        [
            ("experts_per_card".to_owned(), r.experts_per_card.into()),
            ("weight_gb".to_owned(), r.weight_gb.into()),
            ("free_gb".to_owned(), r.free_gb.into()),
        ]
        .into(),
    ))
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, n: i64, ep: i64, expert: f64, card: f64, overhead: f64| Case {
        args: vec![
            n.into(),
            ep.into(),
            expert.into(),
            card.into(),
            overhead.into(),
        ],
        kind,
    };
    let mut cases = vec![
        // Kimi-K3 on H200 at the article's EP 32, then EP 16 (over-full by 1.2 GB).
        case(Kind::Public, 896, 32, 2.45, 141.0, 5.0),
        case(Kind::Public, 896, 16, 2.45, 141.0, 5.0),
        // DeepSeek-V4-Pro on H200 at EP 16.
        case(Kind::Public, 256, 16, 5.1, 141.0, 3.0),
        // K3 at EP 8: twice the card in experts alone.
        case(Kind::Hidden, 896, 8, 2.45, 141.0, 5.0),
        // V4 at EP 8: 163.2 GB of experts.
        case(Kind::Hidden, 256, 8, 5.1, 141.0, 3.0),
        // K3 on B300 (288 GB) at EP 32, and at EP 128.
        case(Kind::Hidden, 896, 32, 2.45, 288.0, 5.0),
        case(Kind::Hidden, 896, 128, 2.45, 141.0, 5.0),
        // One expert per card; all experts on one card.
        case(Kind::Hidden, 256, 256, 5.1, 141.0, 3.0),
        case(Kind::Hidden, 64, 1, 1.5, 80.0, 2.0),
        // No overhead; experts that weigh nothing.
        case(Kind::Hidden, 384, 64, 3.25, 192.0, 0.0),
        case(Kind::Hidden, 160, 32, 0.0, 141.0, 4.5),
        // Exactly full.
        case(Kind::Hidden, 128, 8, 8.5, 141.0, 5.0),
    ];
    let seed = 20_261_402;
    let mut rng = SplitMix64::new(seed);
    for _ in 0..10 {
        let n: i64 = rng.pick(&[64, 128, 160, 256, 384, 512, 896]);
        let divisors: Vec<i64> = [1, 2, 4, 8, 16, 32, 64, 128, 256]
            .into_iter()
            .filter(|d| n % d == 0)
            .collect();
        let ep = rng.pick(&divisors);
        let expert = rng.range(1, 1_000) as f64 / 100.0;
        let card = rng.pick(&[80.0, 141.0, 192.0, 288.0]);
        let overhead = rng.range(0, 100) as f64 / 10.0;
        cases.push(case(
            Kind::Generated { seed },
            n,
            ep,
            expert,
            card,
            overhead,
        ));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use chapters::ch_deploy::plan;

    #[test]
    fn the_worked_examples_are_the_articles_rows() {
        let r = ep_row(896, 32, 2.45, 141.0, 5.0);
        assert_eq!(r.experts_per_card, 28);
        assert_eq!(format!("{:.1} {:.1}", r.weight_gb, r.free_gb), "68.6 67.4");
        let r = ep_row(896, 16, 2.45, 141.0, 5.0);
        assert_eq!(r.experts_per_card, 56);
        assert_eq!(format!("{:.1} {:.1}", r.weight_gb, r.free_gb), "137.2 -1.2");
        let r = ep_row(256, 16, 5.1, 141.0, 3.0);
        assert_eq!(format!("{:.1} {:.1}", r.weight_gb, r.free_gb), "81.6 56.4");
        assert_eq!(ep_row(128, 8, 8.5, 141.0, 5.0).free_gb, 0.0);
    }

    #[test]
    fn agrees_with_the_chapter_demo() {
        for c in cases() {
            let (n, ep, e, card, o) = args(&c.args).unwrap();
            let got = ep_row(n, ep, e, card, o);
            let chapter = plan::ep_row(n as u64, ep as u64, e, card, o);
            assert_eq!(got.experts_per_card, chapter.experts_per_card as i64);
            assert_eq!(got.weight_gb, chapter.weight_gb, "{:?}", c.args);
            assert_eq!(got.free_gb, chapter.free_gb, "{:?}", c.args);
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let v =
            |n: i64, ep: i64, e: f64| vec![n.into(), ep.into(), e.into(), 141.0.into(), 5.0.into()];
        let e = reference(&v(896, 256, 2.45)).unwrap_err();
        assert_eq!(
            e,
            "ep (256) must divide n_routed (896): every card holds as many experts"
        );
        let e = reference(&v(896, 0, 2.45)).unwrap_err();
        assert_eq!(e, "argument 2 must be between 1 and 2^20, got 0");
        let e = reference(&v(896, 32, -1.0)).unwrap_err();
        assert_eq!(e, "argument 3 must be between 0 and 1,000,000 (GB), got -1");
    }
}
