//! Reference solution and cases for `ch_newmodels/v4_kv`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// Bytes of one KV entry, raw or compressed.
const ENTRY: i64 = 584;
/// Tokens in every layer's sliding window.
const WINDOW: i64 = 128;
/// Bytes of a float32 value in the compressors' partial state.
const F32: i64 = 4;

/// DeepSeek-V4's KV ledger: `(bytes per token, fixed bytes per request)`.
pub fn v4_kv(c4: i64, c128: i64, swa_only: i64, idx_bytes: i64) -> (f64, i64) {
    // A C4 layer adds an entry and an indexer key every 4 tokens,
    // a C128 layer an entry every 128 tokens.
    let per_token = (c4 * (ENTRY + idx_bytes)) as f64 / 4.0 + (c128 * ENTRY) as f64 / 128.0;
    // Every layer keeps its window's raw KV.
    let window = (c4 + c128 + swa_only) * WINDOW * ENTRY;
    // C4: 8 tokens of KV + gate for the entry (2 x 512 each) and the indexer key (2 x 128 each).
    let c4_state = 8 * (2 * 2 * 512 + 2 * 2 * 128) * F32;
    // C128: 128 tokens of KV + gate (512 each).
    let c128_state = 128 * (2 * 512) * F32;
    let fixed = window + c4 * c4_state + c128 * c128_state;
    (per_token, fixed)
}
// ANCHOR_END: reference

/// Checks the layer counts and key size: each between 0 and 100,000.
pub fn args(args: &[Value]) -> Result<[i64; 4], String> {
    let a = Args(args);
    let v = [a.int(0)?, a.int(1)?, a.int(2)?, a.int(3)?];
    if let Some(i) = v.iter().position(|x| !(0..=100_000).contains(x)) {
        return Err(format!(
            "argument {} must be between 0 and 100,000, got {}",
            i + 1,
            v[i]
        ));
    }
    Ok(v)
}

/// The reference, called with judge values.
pub fn reference(args_: &[Value]) -> Result<Value, String> {
    let [c4, c128, swa_only, idx_bytes] = args(args_)?;
    let (per_token, fixed) = v4_kv(c4, c128, swa_only, idx_bytes);
    Ok(Value::Array(vec![per_token.into(), fixed.into()]))
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, c4: i64, c128: i64, swa: i64, idx: i64| Case {
        args: vec![c4.into(), c128.into(), swa.into(), idx.into()],
        kind,
    };
    let mut cases = vec![
        case(Kind::Public, 21, 20, 2, 132),
        case(Kind::Public, 30, 31, 0, 132),
        case(Kind::Public, 0, 0, 1, 132),
        case(Kind::Hidden, 1, 0, 0, 0),
        case(Kind::Hidden, 0, 1, 0, 132),
        case(Kind::Hidden, 0, 0, 0, 132),
        case(Kind::Hidden, 3, 5, 7, 64),
        case(Kind::Hidden, 1, 1, 0, 1),
    ];
    let seed = 20_261_202;
    let mut rng = SplitMix64::new(seed);
    for _ in 0..10 {
        let c4 = rng.range(0, 64);
        let c128 = rng.range(0, 64);
        let swa = rng.range(0, 8);
        let idx = rng.pick(&[0, 1, 64, 128, 132, 256]);
        cases.push(case(Kind::Generated { seed }, c4, c128, swa, idx));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use chapters::ch_newmodels::ledger;

    #[test]
    fn the_worked_example_and_the_pro_row() {
        assert_eq!(v4_kv(21, 20, 2, 132), (3_850.25, 15_420_416));
        assert_eq!(v4_kv(30, 31, 0, 132), (5_511.437_5, 23_270_400));
    }

    #[test]
    fn agrees_with_the_chapter_ledger() {
        for c in cases() {
            let [c4, c128, swa, idx] = args(&c.args).unwrap();
            let (per_token, fixed) = v4_kv(c4, c128, swa, idx);
            let (f4, f128, fswa, fidx) = (c4 as f64, c128 as f64, swa as f64, idx as f64);
            assert_eq!(
                per_token,
                ledger::v4_per_token(f4, f128, fidx),
                "{:?}",
                c.args
            );
            assert_eq!(
                fixed as f64,
                ledger::v4_fixed(f4, f128, fswa),
                "{:?}",
                c.args
            );
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let e = reference(&[1.into(), (-1).into(), 0.into(), 0.into()]).unwrap_err();
        assert_eq!(e, "argument 2 must be between 0 and 100,000, got -1");
    }
}
