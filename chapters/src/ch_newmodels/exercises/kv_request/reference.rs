//! Reference solution and cases for `ch_newmodels/kv_request`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// KV bytes of one DeepSeek-V4 request of `tokens` tokens: the ledger's bytes per
/// token times `tokens`, plus the fixed bytes (windows and compressor states).
pub fn kv_request(c4: i64, c128: i64, swa_only: i64, idx_bytes: i64, tokens: i64) -> f64 {
    const ENTRY: i64 = 584;
    // Growing part: an entry and an indexer key per 4 tokens (C4), an entry per 128 (C128).
    let per_token = (c4 * (ENTRY + idx_bytes)) as f64 / 4.0 + (c128 * ENTRY) as f64 / 128.0;
    // Fixed part: every layer's 128-token window, then the float32 compressor states.
    let window = (c4 + c128 + swa_only) * 128 * ENTRY;
    let states = c4 * 8 * 2_560 * 4 + c128 * 128 * 1_024 * 4;
    per_token * tokens as f64 + (window + states) as f64
}
// ANCHOR_END: reference

/// The reference, called with judge values.
pub fn reference(args: &[Value]) -> Result<Value, String> {
    let [c4, c128, swa_only, idx_bytes] = super::v4_kv::args(args)?;
    let tokens = Args(args).int(4)?;
    if !(0..=1 << 40).contains(&tokens) {
        return Err(format!(
            "argument 5 must be between 0 and 2^40, got {tokens}"
        ));
    }
    Ok(kv_request(c4, c128, swa_only, idx_bytes, tokens).into())
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, c4: i64, c128: i64, swa: i64, idx: i64, tokens: i64| Case {
        args: vec![
            c4.into(),
            c128.into(),
            swa.into(),
            idx.into(),
            tokens.into(),
        ],
        kind,
    };
    let mut cases = vec![
        case(Kind::Public, 30, 31, 0, 132, 262_144),
        case(Kind::Public, 21, 20, 2, 132, 1_048_576),
        case(Kind::Public, 21, 20, 2, 132, 131_072),
        case(Kind::Hidden, 30, 31, 0, 132, 0),
        case(Kind::Hidden, 0, 0, 61, 0, 100_000),
        case(Kind::Hidden, 30, 31, 0, 132, 1),
        case(Kind::Hidden, 0, 1, 0, 0, 100),
        case(Kind::Hidden, 1, 0, 0, 132, 3),
        case(Kind::Hidden, 2, 0, 5, 64, 1_000),
    ];
    let seed = 20_261_203;
    let mut rng = SplitMix64::new(seed);
    for _ in 0..10 {
        let c4 = rng.range(0, 64);
        let c128 = rng.range(0, 64);
        let swa = rng.range(0, 8);
        let idx = rng.pick(&[0, 64, 128, 132]);
        let tokens = rng.range(0, 1 << 20);
        cases.push(case(Kind::Generated { seed }, c4, c128, swa, idx, tokens));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use chapters::ch_newmodels::ledger;

    #[test]
    fn the_worked_example_is_the_source_exercise() {
        assert_eq!(kv_request(30, 31, 0, 132, 262_144), 1_468_060_672.0);
        let pro = ledger::model("DeepSeek-V4-Pro").unwrap();
        assert_eq!(pro.bytes(262_144), Some(1_468_060_672.0));
    }

    #[test]
    fn agrees_with_the_chapter_ledger_and_v4_kv() {
        for c in cases() {
            let [c4, c128, swa, idx] = super::super::v4_kv::args(&c.args).unwrap();
            let tokens = Args(&c.args).int(4).unwrap();
            let got = kv_request(c4, c128, swa, idx, tokens);
            let (f4, f128, fswa, fidx) = (c4 as f64, c128 as f64, swa as f64, idx as f64);
            let chapter = ledger::v4_per_token(f4, f128, fidx) * tokens as f64
                + ledger::v4_fixed(f4, f128, fswa);
            assert!(
                (got - chapter).abs() <= 1e-9 * chapter.max(1.0),
                "{:?}",
                c.args
            );
            let (per_token, fixed) = super::super::v4_kv::v4_kv(c4, c128, swa, idx);
            assert_eq!(
                got,
                per_token * tokens as f64 + fixed as f64,
                "{:?}",
                c.args
            );
        }
    }

    #[test]
    fn bad_tokens_are_an_error() {
        let args: Vec<Value> = [1, 1, 0, 0, -5].map(Value::from).into();
        assert_eq!(
            reference(&args).unwrap_err(),
            "argument 5 must be between 0 and 2^40, got -5"
        );
    }
}
