//! Reference solution and cases for `ch_kvcache/hybrid_bytes`.

use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

use super::gqa_bytes::{counts, fits};

// ANCHOR: reference
/// KV-cache bytes of a hybrid of linear and full attention: the linear layers
/// keep a fixed state and no KV cache, so only the `full_layers` layers count,
/// each storing a key and a value vector per KV head and token.
pub fn hybrid_bytes(
    full_layers: i64,
    kv_heads: i64,
    head_dim: i64,
    tokens: i64,
    batch: i64,
    dtype_bytes: i64,
) -> i64 {
    let bytes_per_token = 2 * full_layers * kv_heads * head_dim * dtype_bytes;
    bytes_per_token * tokens * batch
}
// ANCHOR_END: reference

/// The reference, called with judge values.
pub fn reference(args: &[Value]) -> Result<Value, String> {
    let [full_layers, kv_heads, head_dim, tokens, batch, dtype_bytes] = counts(args)?;
    fits(&[
        2,
        full_layers,
        kv_heads,
        head_dim,
        tokens,
        batch,
        dtype_bytes,
    ])?;
    Ok(hybrid_bytes(full_layers, kv_heads, head_dim, tokens, batch, dtype_bytes).into())
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, v: [i64; 6]| Case {
        args: v.iter().map(|&x| x.into()).collect(),
        kind,
    };
    let mut cases = vec![
        // Qwen3.5-397B at 10^6 tokens, BF16.
        case(Kind::Public, [15, 2, 256, 1_000_000, 1, 2]),
        // Qwen3-Next-80B's shape (12 of 48 layers), a batch of 4.
        case(Kind::Public, [12, 2, 256, 262_144, 4, 2]),
        // One full layer in eight, FP8.
        case(Kind::Public, [9, 8, 128, 131_072, 2, 1]),
        case(Kind::Hidden, [0, 2, 256, 1_000_000, 8, 2]),
        case(Kind::Hidden, [15, 2, 256, 0, 1, 2]),
        case(Kind::Hidden, [1, 1, 1, 1, 1, 1]),
        case(Kind::Hidden, [15, 2, 256, 1_048_576, 3, 2]),
        case(Kind::Hidden, [7, 4, 128, 50_000, 64, 4]),
    ];
    let seed = 20_261_306;
    let mut rng = SplitMix64::new(seed);
    for _ in 0..10 {
        let v = [
            rng.range(0, 32),
            rng.pick(&[1, 2, 4, 8, 16]),
            rng.pick(&[64, 128, 256]),
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
    fn the_worked_example_is_the_sources_28_6_gib() {
        let b = hybrid_bytes(15, 2, 256, 1_000_000, 1, 2);
        assert_eq!(b, 30_720_000_000);
        assert_eq!(format!("{:.1}", b as f64 / (1u64 << 30) as f64), "28.6");
        // A quarter of the same attention in all 60 layers.
        assert_eq!(4 * b, hybrid_bytes(60, 2, 256, 1_000_000, 1, 2));
    }

    #[test]
    fn agrees_with_the_chapter_demo() {
        for c in cases() {
            let [l, h, d, t, b, s] = counts(&c.args).unwrap();
            let chapter =
                formulas::hybrid_bytes(l as u64, h as u64, d as u64, t as u64, b as u64, s as u64);
            assert_eq!(
                hybrid_bytes(l, h, d, t, b, s),
                chapter as i64,
                "{:?}",
                c.args
            );
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let args = |v: [i64; 6]| v.map(Value::from).to_vec();
        assert_eq!(
            reference(&args([15, 2, 256, 1, -1, 2])).unwrap_err(),
            "argument 5 must be between 0 and 2^40, got -1"
        );
    }
}
