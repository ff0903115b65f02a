//! Reference solution and cases for `ch_kvcache/max_batch`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// The largest number of requests `b` with
/// `weight_bytes + b × (fixed_bytes + per_token_bytes × tokens) ≤ gpu_bytes`,
/// 0 when not even one fits. A request holds at least one byte.
pub fn max_batch(
    per_token_bytes: f64,
    fixed_bytes: i64,
    weight_bytes: i64,
    gpu_bytes: i64,
    tokens: i64,
) -> i64 {
    let free = gpu_bytes - weight_bytes; // left for the KV cache
    if free <= 0 {
        return 0;
    }
    let per_request = fixed_bytes as f64 + per_token_bytes * tokens as f64;
    // Whole requests only: round down.
    (free as f64 / per_request).floor() as i64
}
// ANCHOR_END: reference

/// The largest byte count an argument may be: 2^50.
const MAX_BYTES: i64 = 1 << 50;

/// The arguments, checked: `per_token_bytes` finite in 0..=2^40, byte counts in
/// 0..=2^50, `tokens` in 0..=2^40, and a request of at least one byte.
pub fn args(args: &[Value]) -> Result<(f64, i64, i64, i64, i64), String> {
    let a = Args(args);
    let per_token = a.float(0)?;
    if !(per_token.is_finite() && (0.0..=(1u64 << 40) as f64).contains(&per_token)) {
        return Err(format!(
            "argument 1 must be between 0 and 2^40, got {per_token}"
        ));
    }
    let (fixed, weight, gpu, tokens) = (a.int(1)?, a.int(2)?, a.int(3)?, a.int(4)?);
    for (i, x) in [(2, fixed), (3, weight), (4, gpu)] {
        if !(0..=MAX_BYTES).contains(&x) {
            return Err(format!("argument {i} must be between 0 and 2^50, got {x}"));
        }
    }
    if !(0..=1 << 40).contains(&tokens) {
        return Err(format!(
            "argument 5 must be between 0 and 2^40, got {tokens}"
        ));
    }
    if fixed as f64 + per_token * (tokens as f64) < 1.0 {
        return Err(
            "a request must hold at least one byte (fixed_bytes + per_token_bytes × tokens)"
                .to_owned(),
        );
    }
    Ok((per_token, fixed, weight, gpu, tokens))
}

/// The reference, called with judge values.
pub fn reference(args_: &[Value]) -> Result<Value, String> {
    let (per_token, fixed, weight, gpu, tokens) = args(args_)?;
    Ok(max_batch(per_token, fixed, weight, gpu, tokens).into())
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, per_token: f64, fixed: i64, weight: i64, gpu: i64, tokens: i64| Case {
        args: vec![
            per_token.into(),
            fixed.into(),
            weight.into(),
            gpu.into(),
            tokens.into(),
        ],
        kind,
    };
    const GB: i64 = 1_000_000_000;
    // V4-Flash's ledger row (ch_newmodels): 3,850.25 bytes a token, 15,420,416 fixed.
    let flash_request = 15_420_416 + 3_850 * 4_096 + 4_096 / 4;
    let mut cases = vec![
        // The source's Qwen3-72B on eight 141 GB GPUs: 22.9 requests fit.
        case(Kind::Public, 327_680.0, 0, 144 * GB, 8 * 141 * GB, 131_072),
        // V4-Pro's ledger row (ch_newmodels) at 65,536 tokens, 80 GB of weights, one GPU.
        case(
            Kind::Public,
            5_511.437_5,
            23_270_400,
            80 * GB,
            141 * GB,
            65_536,
        ),
        // The weights alone do not fit.
        case(Kind::Public, 327_680.0, 0, 144 * GB, 141 * GB, 131_072),
        // Exactly 3 requests fit.
        case(Kind::Hidden, 1_000.0, 24, 0, 3_072, 1),
        // The weights exactly fill the GPU.
        case(Kind::Hidden, 327_680.0, 0, 141 * GB, 141 * GB, 1),
        // The source's DeepSeek-V4 row at 10^6 tokens.
        case(
            Kind::Hidden,
            7_928.0,
            7_995_392,
            80 * GB,
            141 * GB,
            1_000_000,
        ),
        // No context yet: the fixed bytes alone.
        case(Kind::Hidden, 7_928.0, 7_995_392, 80 * GB, 141 * GB, 0),
        case(Kind::Hidden, 7_928.0, 7_995_392, 0, 141 * GB, 4_096),
        // Exactly one request fits, then one byte short of it.
        case(
            Kind::Hidden,
            3_850.25,
            15_420_416,
            100 * GB,
            100 * GB + flash_request,
            4_096,
        ),
        case(
            Kind::Hidden,
            3_850.25,
            15_420_416,
            100 * GB,
            100 * GB + flash_request - 1,
            4_096,
        ),
        // V4-Pro's row at 256K tokens: 61.99 requests fit.
        case(
            Kind::Hidden,
            5_511.437_5,
            23_270_400,
            50 * GB,
            141 * GB,
            262_144,
        ),
        // Weights 8 GB over: one request would be a fifth of the gap.
        case(Kind::Hidden, 327_680.0, 0, 200 * GB, 192 * GB, 131_072),
        case(Kind::Hidden, 0.0, 1, 0, 5, 1_000),
        // One free byte holds one one-byte request.
        case(Kind::Hidden, 0.0, 1, 0, 1, 1_000),
    ];
    let seed = 20_261_307;
    let mut rng = SplitMix64::new(seed);
    for _ in 0..10 {
        let per_token = rng.pick(&[
            327_680.0,
            70_272.0,
            30_720.0,
            7_928.0,
            3_850.25,
            5_511.437_5,
        ]);
        let fixed = rng.pick(&[0, 7_995_392, 15_420_416, 23_270_400]);
        let weight = rng.range(0, 400) * GB / 2;
        let gpu = rng.pick(&[80, 141, 192, 288, 8 * 141, 8 * 192]) * GB;
        let tokens = rng.range(1, 1 << 20);
        cases.push(case(
            Kind::Generated { seed },
            per_token,
            fixed,
            weight,
            gpu,
            tokens,
        ));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use chapters::ch_kvcache::formulas;

    #[test]
    fn the_worked_examples() {
        const GB: i64 = 1_000_000_000;
        assert_eq!(max_batch(327_680.0, 0, 144 * GB, 8 * 141 * GB, 131_072), 22);
        assert_eq!(max_batch(327_680.0, 0, 144 * GB, 141 * GB, 131_072), 0);
        assert_eq!(max_batch(1_000.0, 24, 0, 3_072, 1), 3);
    }

    /// The floor is exact: b requests fit and b + 1 do not, counted in exact
    /// integer arithmetic (every per-token figure is a multiple of 1/16).
    #[test]
    fn the_batch_fits_and_one_more_does_not() {
        for c in cases() {
            let (per_token, fixed, weight, gpu, tokens) = args(&c.args).unwrap();
            let b = max_batch(per_token, fixed, weight, gpu, tokens) as i128;
            let sixteenths = (per_token * 16.0) as i128;
            assert_eq!(sixteenths as f64, per_token * 16.0);
            let request = 16 * fixed as i128 + sixteenths * tokens as i128;
            let room = 16 * (gpu as i128 - weight as i128);
            assert!(b * request <= room.max(0), "{:?}", c.args);
            assert!((b + 1) * request > room, "{:?}", c.args);
        }
    }

    #[test]
    fn agrees_with_the_chapter_demo() {
        for c in cases() {
            let (p, f, w, g, t) = args(&c.args).unwrap();
            let chapter = formulas::max_batch(p, f as u64, w as u64, g as u64, t as u64);
            assert_eq!(max_batch(p, f, w, g, t), chapter as i64, "{:?}", c.args);
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let e = reference(&[0.0.into(), 0.into(), 0.into(), 10.into(), 5.into()]).unwrap_err();
        assert!(e.contains("at least one byte"), "{e}");
        let e = reference(&[(-1.0).into(), 0.into(), 0.into(), 10.into(), 5.into()]).unwrap_err();
        assert_eq!(e, "argument 1 must be between 0 and 2^40, got -1");
        let e = reference(&[1.0.into(), 0.into(), (-1).into(), 10.into(), 5.into()]).unwrap_err();
        assert_eq!(e, "argument 3 must be between 0 and 2^50, got -1");
    }
}
