//! Reference solution and cases for `ch_kvcache/mla_bytes`.

use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

use super::gqa_bytes::{counts, fits};

// ANCHOR: reference
/// KV-cache bytes of MLA: per layer and token, one latent of `kv_lora_rank`
/// values and one RoPE key of `rope_dim` values shared by all heads. No factor
/// 2: the keys and the values are both rebuilt from the latent.
pub fn mla_bytes(
    layers: i64,
    kv_lora_rank: i64,
    rope_dim: i64,
    tokens: i64,
    batch: i64,
    dtype_bytes: i64,
) -> i64 {
    let values_per_token = layers * (kv_lora_rank + rope_dim);
    values_per_token * tokens * batch * dtype_bytes
}
// ANCHOR_END: reference

/// The reference, called with judge values.
pub fn reference(args: &[Value]) -> Result<Value, String> {
    let [layers, rank, rope, tokens, batch, dtype_bytes] = counts(args)?;
    fits(&[layers, rank + rope, tokens, batch, dtype_bytes])?;
    Ok(mla_bytes(layers, rank, rope, tokens, batch, dtype_bytes).into())
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, v: [i64; 6]| Case {
        args: v.iter().map(|&x| x.into()).collect(),
        kind,
    };
    let mut cases = vec![
        // DeepSeek-V3 at 10^6 tokens, BF16.
        case(Kind::Public, [61, 512, 64, 1_000_000, 1, 2]),
        // DeepSeek-V2-Lite's shape, a batch of 4.
        case(Kind::Public, [27, 512, 64, 32_768, 4, 2]),
        // FP8, a batch of 8.
        case(Kind::Public, [61, 512, 64, 131_072, 8, 1]),
        case(Kind::Hidden, [61, 512, 64, 0, 1, 2]),
        case(Kind::Hidden, [1, 1, 0, 1, 1, 1]),
        case(Kind::Hidden, [1, 0, 1, 1, 1, 1]),
        case(Kind::Hidden, [61, 512, 64, 1_048_576, 1, 2]),
        case(Kind::Hidden, [60, 256, 32, 7, 5, 4]),
    ];
    let seed = 20_261_302;
    let mut rng = SplitMix64::new(seed);
    for _ in 0..10 {
        let v = [
            rng.range(1, 128),
            rng.pick(&[128, 256, 512, 1_024]),
            rng.pick(&[0, 32, 64, 128]),
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
    fn the_worked_example_is_the_sources_65_gib() {
        let b = mla_bytes(61, 512, 64, 1_000_000, 1, 2);
        assert_eq!(b, 70_272_000_000);
        assert_eq!(format!("{:.0}", b as f64 / (1u64 << 30) as f64), "65");
    }

    #[test]
    fn agrees_with_the_chapter_demo() {
        for c in cases() {
            let [l, r, p, t, b, s] = counts(&c.args).unwrap();
            let chapter =
                formulas::mla_bytes(l as u64, r as u64, p as u64, t as u64, b as u64, s as u64);
            assert_eq!(mla_bytes(l, r, p, t, b, s), chapter as i64, "{:?}", c.args);
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let args = |v: [i64; 6]| v.map(Value::from).to_vec();
        assert_eq!(
            reference(&args([61, 512, -1, 1, 1, 2])).unwrap_err(),
            "argument 3 must be between 0 and 2^40, got -1"
        );
        assert!(reference(&args([1 << 40, 1 << 40, 0, 1, 1, 1])).is_err());
    }
}
