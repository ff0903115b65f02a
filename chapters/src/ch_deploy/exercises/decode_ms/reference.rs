//! Reference solution and cases for `ch_deploy/decode_ms`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// Milliseconds per decode step at batch 1: the step reads `active_gb` GB of
/// weights and `kv_gb` GB of KV cache at `bw_tb_s` TB/s.
pub fn decode_ms(active_gb: f64, kv_gb: f64, bw_tb_s: f64) -> f64 {
    // GB / (TB/s) = 10^9 B / (10^12 B/s) = 10^-3 s: the quotient is in ms.
    (active_gb + kv_gb) / bw_tb_s
}
// ANCHOR_END: reference

/// The arguments, checked: GB in 0..=10^9, bandwidth in 0.001..=10^6 TB/s.
pub fn args(args: &[Value]) -> Result<[f64; 3], String> {
    let a = Args(args);
    let v = [a.float(0)?, a.float(1)?, a.float(2)?];
    for (i, x) in v[..2].iter().enumerate() {
        if !(x.is_finite() && (0.0..=1e9).contains(x)) {
            return Err(format!(
                "argument {} must be between 0 and 1,000,000,000 (GB), got {x}",
                i + 1
            ));
        }
    }
    if !(v[2].is_finite() && (1e-3..=1e6).contains(&v[2])) {
        return Err(format!(
            "argument 3 must be between 0.001 and 1,000,000 (TB/s), got {}",
            v[2]
        ));
    }
    Ok(v)
}

/// The reference, called with judge values.
pub fn reference(args_: &[Value]) -> Result<Value, String> {
    let [active, kv, bw] = args(args_)?;
    Ok(decode_ms(active, kv, bw).into())
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, v: [f64; 3]| Case {
        args: v.iter().map(|&x| x.into()).collect(),
        kind,
    };
    let mut cases = vec![
        // Kimi-K3 and DeepSeek-V4-Pro at 500K tokens on H200, K3 on B300.
        case(Kind::Public, [104.0, 30.7, 4.8]),
        case(Kind::Public, [49.0, 6.1, 4.8]),
        case(Kind::Public, [104.0, 30.7, 8.0]),
        case(Kind::Hidden, [49.0, 6.1, 8.0]),
        // At 1M tokens: 61.6 GB (K3) and 12.2 GB (V4) of KV.
        case(Kind::Hidden, [104.0, 61.6, 4.8]),
        case(Kind::Hidden, [49.0, 12.2, 4.8]),
        // An empty context: the weights alone. No weights: the KV alone.
        case(Kind::Hidden, [104.0, 0.0, 4.8]),
        case(Kind::Hidden, [0.0, 30.7, 4.8]),
        // An H100 (3.35 TB/s) and a dense 70B model in BF16.
        case(Kind::Hidden, [140.0, 40.0, 3.35]),
        case(Kind::Hidden, [0.0, 0.0, 1.0]),
    ];
    let seed = 20_261_406;
    let mut rng = SplitMix64::new(seed);
    for _ in 0..10 {
        let v = [
            rng.range(1, 4_000) as f64 / 10.0,
            rng.range(0, 2_000) as f64 / 10.0,
            rng.pick(&[2.0, 3.35, 4.8, 8.0, 16.0]),
        ];
        cases.push(case(Kind::Generated { seed }, v));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use chapters::ch_deploy::plan;

    #[test]
    fn the_worked_examples_are_the_articles_28_and_11_5_ms() {
        assert_eq!(format!("{:.2}", decode_ms(104.0, 30.7, 4.8)), "28.06");
        assert_eq!(format!("{:.1}", decode_ms(49.0, 6.1, 4.8)), "11.5");
        assert_eq!(format!("{:.1}", decode_ms(104.0, 30.7, 8.0)), "16.8");
    }

    #[test]
    fn agrees_with_the_chapter_demo() {
        for c in cases() {
            let [a, k, b] = args(&c.args).unwrap();
            assert_eq!(decode_ms(a, k, b), plan::decode_ms(a, k, b), "{:?}", c.args);
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let e = reference(&[104.0.into(), 30.7.into(), 0.0.into()]).unwrap_err();
        assert_eq!(
            e,
            "argument 3 must be between 0.001 and 1,000,000 (TB/s), got 0"
        );
        let e = reference(&[(-1.0).into(), 30.7.into(), 4.8.into()]).unwrap_err();
        assert!(e.starts_with("argument 1 must be between 0"), "{e}");
    }
}
