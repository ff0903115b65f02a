//! Reference solution and cases for `ch_kvcache/csa_hca_bytes`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// Tokens of raw KV in every layer's sliding window.
const WINDOW: i64 = 128;

/// The two parts of a CSA + HCA cache.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CsaHca {
    /// Bytes of compressed entries, counted as averages (grows with the context).
    pub compressed: f64,
    /// Bytes of the raw 128-token windows of all layers (fixed).
    pub window: i64,
}

/// DeepSeek-V4's KV cache for one request of `tokens` tokens.
pub fn csa_hca_bytes(
    tokens: i64,
    n_csa: i64,
    n_hca: i64,
    n_layers: i64,
    kv_dim: i64,
    dtype_bytes: i64,
) -> CsaHca {
    let entry_bytes = kv_dim * dtype_bytes;
    // Entries per token on average: a quarter per CSA layer, 1/128 per HCA layer.
    let entries_per_token = n_csa as f64 / 4.0 + n_hca as f64 / 128.0;
    CsaHca {
        compressed: tokens as f64 * entries_per_token * entry_bytes as f64,
        // Every layer, compressed or not, keeps its window of raw entries.
        window: n_layers * WINDOW * entry_bytes,
    }
}
// ANCHOR_END: reference

/// Checks the arguments: `tokens` up to 2^40, layer counts up to 100,000, `kv_dim`
/// up to 2^20 and `dtype_bytes` up to 64 (so the window fits in an int).
pub fn args(args: &[Value]) -> Result<[i64; 6], String> {
    let a = Args(args);
    let v = [
        a.int(0)?,
        a.int(1)?,
        a.int(2)?,
        a.int(3)?,
        a.int(4)?,
        a.int(5)?,
    ];
    let limits = [
        (1 << 40, "2^40"),
        (100_000, "100,000"),
        (100_000, "100,000"),
        (100_000, "100,000"),
        (1 << 20, "2^20"),
        (64, "64"),
    ];
    for (i, (x, (max, shown))) in v.iter().zip(limits).enumerate() {
        if !(0..=max).contains(x) {
            return Err(format!(
                "argument {} must be between 0 and {shown}, got {x}",
                i + 1
            ));
        }
    }
    Ok(v)
}

/// The reference, called with judge values.
pub fn reference(args_: &[Value]) -> Result<Value, String> {
    let [tokens, n_csa, n_hca, n_layers, kv_dim, dtype_bytes] = args(args_)?;
    let c = csa_hca_bytes(tokens, n_csa, n_hca, n_layers, kv_dim, dtype_bytes);
    Ok(Value::Map(
        [
            ("compressed".to_owned(), c.compressed.into()),
            ("window".to_owned(), c.window.into()),
        ]
        .into(),
    ))
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, v: [i64; 6]| Case {
        args: v.iter().map(|&x| x.into()).collect(),
        kind,
    };
    let mut cases = vec![
        // The source's DeepSeek-V4 at 10^6 tokens, BF16.
        case(Kind::Public, [1_000_000, 30, 31, 61, 512, 2]),
        // A V4-Flash-like stack: 21 CSA, 20 HCA and 2 window-only layers.
        case(Kind::Public, [131_072, 21, 20, 43, 512, 2]),
        case(Kind::Public, [0, 30, 31, 61, 512, 2]),
        case(Kind::Hidden, [1, 30, 31, 61, 512, 2]),
        case(Kind::Hidden, [1_048_576, 30, 31, 61, 512, 1]),
        case(Kind::Hidden, [1_000, 1, 0, 1, 576, 1]),
        case(Kind::Hidden, [999, 3, 5, 10, 100, 2]),
        case(Kind::Hidden, [262_144, 0, 61, 61, 512, 2]),
        case(Kind::Hidden, [5, 0, 0, 4, 512, 2]),
        case(Kind::Hidden, [7, 61, 0, 61, 448, 4]),
    ];
    let seed = 20_261_304;
    let mut rng = SplitMix64::new(seed);
    for _ in 0..10 {
        let n_csa = rng.range(0, 64);
        let n_hca = rng.range(0, 64);
        let v = [
            rng.range(0, 1 << 21),
            n_csa,
            n_hca,
            n_csa + n_hca + rng.range(0, 8),
            rng.pick(&[64, 100, 448, 512, 576, 1_024]),
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
    fn the_worked_example_is_the_sources_7_4_gib_and_7_6_mib() {
        let c = csa_hca_bytes(1_000_000, 30, 31, 61, 512, 2);
        assert_eq!(
            c,
            CsaHca {
                compressed: 7_928_000_000.0,
                window: 7_995_392
            }
        );
        assert_eq!(format!("{:.1}", c.compressed / (1u64 << 30) as f64), "7.4");
        assert_eq!(
            format!("{:.1}", c.window as f64 / (1u64 << 20) as f64),
            "7.6"
        );
    }

    #[test]
    fn agrees_with_the_chapter_demo() {
        for c in cases() {
            let [t, c4, c128, l, d, s] = args(&c.args).unwrap();
            let got = csa_hca_bytes(t, c4, c128, l, d, s);
            let chapter = formulas::csa_hca_bytes(
                t as u64,
                c4 as u64,
                c128 as u64,
                l as u64,
                d as u64,
                s as u64,
            );
            assert_eq!(got.compressed, chapter.compressed, "{:?}", c.args);
            assert_eq!(got.window, chapter.window as i64, "{:?}", c.args);
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let e = reference(&[
            1.into(),
            30.into(),
            31.into(),
            61.into(),
            512.into(),
            65.into(),
        ])
        .unwrap_err();
        assert_eq!(e, "argument 6 must be between 0 and 64, got 65");
    }
}
