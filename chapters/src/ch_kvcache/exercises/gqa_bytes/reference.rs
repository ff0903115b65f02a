//! Reference solution and cases for `ch_kvcache/gqa_bytes`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// KV-cache bytes of MHA, MQA or GQA: a key and a value vector (the 2) of
/// `head_dim` values for every layer, KV head, token and request.
pub fn gqa_bytes(
    layers: i64,
    kv_heads: i64,
    head_dim: i64,
    tokens: i64,
    batch: i64,
    dtype_bytes: i64,
) -> i64 {
    let values_per_token = 2 * layers * kv_heads * head_dim; // K and V
    values_per_token * tokens * batch * dtype_bytes
}
// ANCHOR_END: reference

/// The largest count an argument may be: 2^40.
pub const MAX_COUNT: i64 = 1 << 40;

/// Six counts, each between 0 and 2^40 (shared by the chapter's byte-count
/// exercises).
pub fn counts(args: &[Value]) -> Result<[i64; 6], String> {
    let a = Args(args);
    let v = [
        a.int(0)?,
        a.int(1)?,
        a.int(2)?,
        a.int(3)?,
        a.int(4)?,
        a.int(5)?,
    ];
    if let Some(i) = v.iter().position(|x| !(0..=MAX_COUNT).contains(x)) {
        return Err(format!(
            "argument {} must be between 0 and 2^40, got {}",
            i + 1,
            v[i]
        ));
    }
    Ok(v)
}

/// An error unless the product of `factors` (each at most 2^40) fits in an int.
pub fn fits(factors: &[i64]) -> Result<(), String> {
    let mut p: i128 = 1;
    for &f in factors {
        p = (p * f as i128).min(i128::from(i64::MAX) + 1);
    }
    if p > i128::from(i64::MAX) {
        return Err("the bytes do not fit in an int (more than 2^63 - 1)".to_owned());
    }
    Ok(())
}

/// The reference, called with judge values.
pub fn reference(args: &[Value]) -> Result<Value, String> {
    let [layers, kv_heads, head_dim, tokens, batch, dtype_bytes] = counts(args)?;
    fits(&[2, layers, kv_heads, head_dim, tokens, batch, dtype_bytes])?;
    Ok(gqa_bytes(layers, kv_heads, head_dim, tokens, batch, dtype_bytes).into())
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, v: [i64; 6]| Case {
        args: v.iter().map(|&x| x.into()).collect(),
        kind,
    };
    let mut cases = vec![
        // The source's Qwen3-72B at 10^6 tokens, BF16.
        case(Kind::Public, [80, 8, 128, 1_000_000, 1, 2]),
        // MHA: as many KV heads as query heads; a batch of 8.
        case(Kind::Public, [32, 32, 128, 4_096, 8, 2]),
        // MQA: one KV head; FP8.
        case(Kind::Public, [32, 1, 128, 8_192, 16, 1]),
        case(Kind::Hidden, [80, 8, 128, 0, 1, 2]),
        case(Kind::Hidden, [1, 1, 1, 1, 1, 1]),
        case(Kind::Hidden, [80, 8, 128, 1_048_576, 1, 2]),
        case(Kind::Hidden, [61, 128, 128, 2_048, 3, 2]),
        case(Kind::Hidden, [48, 4, 64, 100_000, 64, 4]),
        case(Kind::Hidden, [0, 8, 128, 1_000, 2, 2]),
    ];
    let seed = 20_261_301;
    let mut rng = SplitMix64::new(seed);
    for _ in 0..10 {
        let v = [
            rng.range(1, 128),
            rng.pick(&[1, 2, 4, 8, 16, 32, 64]),
            rng.pick(&[64, 96, 128, 192, 256]),
            rng.range(0, 1 << 21),
            rng.range(1, 64),
            rng.pick(&[1, 2, 4]),
        ];
        cases.push(case(Kind::Generated { seed }, v));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use chapters::ch_kvcache::formulas;

    #[test]
    fn the_worked_example_is_the_sources_305_gib() {
        let b = gqa_bytes(80, 8, 128, 1_000_000, 1, 2);
        assert_eq!(b, 327_680_000_000);
        assert_eq!(format!("{:.0}", b as f64 / (1u64 << 30) as f64), "305");
    }

    #[test]
    fn agrees_with_the_chapter_demo() {
        for c in cases() {
            let [l, h, d, t, b, s] = counts(&c.args).unwrap();
            let chapter =
                formulas::gqa_bytes(l as u64, h as u64, d as u64, t as u64, b as u64, s as u64);
            assert_eq!(gqa_bytes(l, h, d, t, b, s), chapter as i64, "{:?}", c.args);
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let args = |v: [i64; 6]| v.map(Value::from).to_vec();
        assert_eq!(
            reference(&args([80, -8, 128, 1, 1, 2])).unwrap_err(),
            "argument 2 must be between 0 and 2^40, got -8"
        );
        let e = reference(&args([1 << 40, 1 << 40, 1, 1, 1, 1])).unwrap_err();
        assert!(e.contains("do not fit in an int"), "{e}");
        assert!(reference(&[1.into(), 2.5.into()]).is_err());
    }
}
