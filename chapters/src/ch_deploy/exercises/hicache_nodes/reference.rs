//! Reference solution and cases for `ch_deploy/hicache_nodes`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// Decode nodes when only a share `rho` of the KV cache is on the GPUs, and
/// the total with one prefill node per `pd_ratio` decode nodes:
/// `(d_nodes, total_nodes)`. Every count is bought whole: rounded to nearest
/// (`conservative` = 0, the article) or up (1).
pub fn hicache_nodes(d_nodes: i64, rho: f64, pd_ratio: f64, conservative: i64) -> (i64, i64) {
    let buy = |x: f64| {
        (if conservative == 1 {
            x.ceil()
        } else {
            x.round()
        }) as i64
    };
    let d = buy(d_nodes as f64 * rho);
    // The prefill nodes follow the decode nodes actually bought.
    (d, d + buy(d as f64 / pd_ratio))
}
// ANCHOR_END: reference

/// The arguments, checked: `d_nodes` in 0..=10^9, `rho` in 0..=1, `pd_ratio`
/// in 0.1..=1,000, `conservative` 0 or 1.
pub fn args(args: &[Value]) -> Result<(i64, f64, f64, i64), String> {
    let a = Args(args);
    let d = a.int(0)?;
    if !(0..=1_000_000_000).contains(&d) {
        return Err(format!(
            "argument 1 must be between 0 and 1,000,000,000, got {d}"
        ));
    }
    let rho = a.float(1)?;
    if !(rho.is_finite() && (0.0..=1.0).contains(&rho)) {
        return Err(format!("argument 2 must be between 0 and 1, got {rho}"));
    }
    let pd = a.float(2)?;
    if !(pd.is_finite() && (0.1..=1e3).contains(&pd)) {
        return Err(format!(
            "argument 3 must be between 0.1 and 1,000, got {pd}"
        ));
    }
    let m = a.int(3)?;
    if !(0..=1).contains(&m) {
        return Err(format!(
            "argument 4 must be between 0 (the article's rounding) and 1 (conservative), got {m}"
        ));
    }
    Ok((d, rho, pd, m))
}

/// The reference, called with judge values.
pub fn reference(args_: &[Value]) -> Result<Value, String> {
    let (d, rho, pd, m) = args(args_)?;
    let (d, total) = hicache_nodes(d, rho, pd, m);
    Ok(Value::Map(
        [
            ("d_nodes".to_owned(), d.into()),
            ("total_nodes".to_owned(), total.into()),
        ]
        .into(),
    ))
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, d: i64, rho: f64, pd: f64, m: i64| Case {
        args: vec![d.into(), rho.into(), pd.into(), m.into()],
        kind,
    };
    let mut cases = vec![
        // The article's table: K3 on H200 (580 decode nodes), DSV4 on B300 (38).
        case(Kind::Public, 580, 0.25, 2.5, 0),
        case(Kind::Public, 38, 0.25, 2.5, 0),
        case(Kind::Public, 38, 0.5, 2.5, 0),
        // The rest of it: K3 on H200 at 50%, DSV4 on H200 (136), K3 on B300 (180).
        case(Kind::Hidden, 580, 0.5, 2.5, 0),
        case(Kind::Hidden, 136, 0.25, 2.5, 0),
        case(Kind::Hidden, 136, 0.5, 2.5, 0),
        case(Kind::Hidden, 180, 0.25, 2.5, 0),
        case(Kind::Hidden, 180, 0.5, 2.5, 0),
        // Conservatively: the same for K3, more for DSV4's 138 decode nodes.
        case(Kind::Hidden, 580, 0.25, 2.5, 1),
        case(Kind::Hidden, 138, 0.25, 2.5, 1),
        case(Kind::Hidden, 138, 0.5, 2.5, 1),
        // A duty cycle of 11%: 15.18 decode nodes, 15 or 16.
        case(Kind::Hidden, 138, 0.11, 2.5, 0),
        case(Kind::Hidden, 138, 0.11, 2.5, 1),
        // Everything on the GPUs; nothing.
        case(Kind::Hidden, 580, 1.0, 2.5, 1),
        case(Kind::Hidden, 580, 0.0, 2.5, 0),
        // One decode node at P:D = 1:1.
        case(Kind::Hidden, 4, 0.25, 1.0, 1),
        // A half that rounds to an odd count: 9 × 0.5 = 4.5 decode nodes is 5
        // (halves up, as the article rounds; Python's round() would give 4).
        case(Kind::Hidden, 9, 0.5, 2.5, 0),
    ];
    let seed = 20_261_405;
    let mut rng = SplitMix64::new(seed);
    while cases.len() < 26 {
        let d = rng.range(0, 2_000);
        let rho = rng.range(1, 100) as f64 / 100.0;
        let pd = rng.pick(&[1.0, 1.5, 2.0, 2.5, 3.0, 4.0]);
        // Skip products a hair off a whole number (0.11 × 100 = 11.000000000000002):
        // a correct solution must not fail on how 0.11 is stored.
        let x = d as f64 * rho;
        let hair = x != x.round() && (x - x.round()).abs() < 1e-9;
        if !hair {
            cases.push(case(Kind::Generated { seed }, d, rho, pd, rng.range(0, 1)));
        }
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use chapters::ch_deploy::plan;

    #[test]
    fn the_worked_examples_are_the_articles_table() {
        assert_eq!(hicache_nodes(580, 0.25, 2.5, 0), (145, 203));
        assert_eq!(hicache_nodes(580, 0.5, 2.5, 0), (290, 406));
        assert_eq!(hicache_nodes(136, 0.25, 2.5, 0), (34, 48));
        assert_eq!(hicache_nodes(136, 0.5, 2.5, 0), (68, 95));
        assert_eq!(hicache_nodes(180, 0.25, 2.5, 0), (45, 63));
        assert_eq!(hicache_nodes(180, 0.5, 2.5, 0), (90, 126));
        assert_eq!(hicache_nodes(38, 0.25, 2.5, 0), (10, 14));
        assert_eq!(hicache_nodes(38, 0.5, 2.5, 0), (19, 27));
        assert_eq!(hicache_nodes(138, 0.11, 2.5, 0), (15, 21));
        assert_eq!(hicache_nodes(138, 0.11, 2.5, 1), (16, 23));
    }

    #[test]
    fn agrees_with_the_chapter_demo() {
        for c in cases() {
            let (d, rho, pd, m) = args(&c.args).unwrap();
            let mode = if m == 1 {
                plan::Mode::Conservative
            } else {
                plan::Mode::Article
            };
            let (cd, ct) = plan::hicache_nodes(d as u64, rho, pd, mode);
            assert_eq!(
                hicache_nodes(d, rho, pd, m),
                (cd as i64, ct as i64),
                "{:?}",
                c.args
            );
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let v = |rho: f64, m: i64| vec![580.into(), rho.into(), 2.5.into(), m.into()];
        let e = reference(&v(1.5, 0)).unwrap_err();
        assert_eq!(e, "argument 2 must be between 0 and 1, got 1.5");
        let e = reference(&v(0.25, -1)).unwrap_err();
        assert!(e.starts_with("argument 4 must be between 0"), "{e}");
    }
}
