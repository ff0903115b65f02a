//! Reference solution and cases for `ch_newmodels/read_bytes`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// Bytes of KV cache one decode step reads for one request whose context holds
/// `n` tokens (the one being decoded included), in a model with `c4` indexed
/// layers, `c128` layers that read all their compressed entries and `swa_only`
/// window-only layers.
#[allow(clippy::too_many_arguments)]
pub fn read_bytes(
    n: i64,
    c4: i64,
    c128: i64,
    swa_only: i64,
    c4_ratio: i64,
    c128_ratio: i64,
    topk: i64,
    window: i64,
    entry_bytes: i64,
    key_bytes: i64,
) -> i64 {
    // Raw tokens in the window: fewer than `window` while the context is short.
    let win = window.min(n);
    // Compressed entries exist only for complete blocks.
    let c4_entries = n / c4_ratio;
    let c128_entries = n / c128_ratio;
    // The indexer scores every key of its layer, then attention reads the top-k.
    let keys = c4 * c4_entries * key_bytes;
    let chosen = c4 * c4_entries.min(topk);
    // A C128 layer reads every entry; every layer reads its window.
    let entries = chosen + c128 * c128_entries + (c4 + c128 + swa_only) * win;
    keys + entries * entry_bytes
}
// ANCHOR_END: reference

/// The arguments, checked: `n` in 1..=2^24, layer counts in 0..=1,000, ratios in
/// 2..=1,024, `topk` in 1..=2^20, `window` in 0..=2^20, byte sizes in 0..=10^4.
pub fn args(args: &[Value]) -> Result<[i64; 10], String> {
    let a = Args(args);
    let mut v = [0; 10];
    for (i, x) in v.iter_mut().enumerate() {
        *x = a.int(i)?;
    }
    let ranges: [(i64, i64, &str); 10] = [
        (1, 1 << 24, "1 and 2^24"),
        (0, 1_000, "0 and 1,000"),
        (0, 1_000, "0 and 1,000"),
        (0, 1_000, "0 and 1,000"),
        (2, 1_024, "2 and 1,024"),
        (2, 1_024, "2 and 1,024"),
        (1, 1 << 20, "1 and 2^20"),
        (0, 1 << 20, "0 and 2^20"),
        (0, 10_000, "0 and 10,000"),
        (0, 10_000, "0 and 10,000"),
    ];
    for (i, (x, (lo, hi, says))) in v.iter().zip(ranges).enumerate() {
        if !(lo..=hi).contains(x) {
            return Err(format!("argument {} must be between {says}, got {x}", i + 1));
        }
    }
    Ok(v)
}

/// The reference, called with judge values.
pub fn reference(args_: &[Value]) -> Result<Value, String> {
    let [n, c4, c128, swa, r4, r128, topk, window, entry, key] = args(args_)?;
    Ok(read_bytes(n, c4, c128, swa, r4, r128, topk, window, entry, key).into())
}

/// V4-Flash's layers, ratios, top-k, window and sizes after the context length.
const FLASH: [i64; 9] = [21, 20, 2, 4, 128, 512, 128, 584, 132];
/// V4-Pro's: more layers, no window-only ones, a top-k of 1,024.
const PRO: [i64; 9] = [30, 31, 0, 4, 128, 1_024, 128, 584, 132];

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, n: i64, m: [i64; 9]| Case {
        args: std::iter::once(n).chain(m).map(Value::from).collect(),
        kind,
    };
    let with = |m: [i64; 9], i: usize, x: i64| {
        let mut m = m;
        m[i] = x;
        m
    };
    let mut cases = vec![
        // The chapter's figures: Flash and Pro at 2^20 tokens, Flash at 4K.
        case(Kind::Public, 1 << 20, FLASH),
        case(Kind::Public, 1 << 20, PRO),
        case(Kind::Public, 4_096, FLASH),
        // Shorter than the window, nothing compressed yet.
        case(Kind::Public, 3, FLASH),
        // The first C4 entry is complete at the 4th token; 4,095 tokens leave a block open.
        case(Kind::Hidden, 4, FLASH),
        case(Kind::Hidden, 4_095, FLASH),
        // One token short of the first C128 entry, then exactly one.
        case(Kind::Hidden, 127, FLASH),
        case(Kind::Hidden, 128, FLASH),
        // Exactly top-k entries, then one more than top-k.
        case(Kind::Hidden, 2_048, FLASH),
        case(Kind::Hidden, 2_052, FLASH),
        // A window longer than the context, and one as long as it.
        case(Kind::Hidden, 1_000, with(FLASH, 6, 4_096)),
        case(Kind::Hidden, 4_096, with(FLASH, 6, 4_096)),
        // No indexed layers: no keys to score.
        case(Kind::Hidden, 1 << 20, [0, 20, 2, 4, 128, 512, 128, 584, 132]),
        // Window-only layers alone.
        case(Kind::Hidden, 1 << 20, [0, 0, 61, 4, 128, 512, 128, 584, 132]),
        // No window at all.
        case(Kind::Hidden, 100_000, with(PRO, 6, 0)),
        // Keys as large as entries, and free keys.
        case(Kind::Hidden, 65_536, with(FLASH, 8, 584)),
        case(Kind::Hidden, 65_536, with(FLASH, 8, 0)),
        // Other ratios: indexed layers over 8 tokens, the others over 64.
        case(Kind::Hidden, 10_001, [10, 10, 1, 8, 64, 256, 512, 1_024, 256]),
    ];
    let seed = 20_261_211;
    let mut rng = SplitMix64::new(seed);
    for _ in 0..10 {
        let n = rng.range(1, 1 << 22);
        let m = [
            rng.range(0, 64),
            rng.range(0, 64),
            rng.range(0, 8),
            rng.pick(&[2, 4, 8]),
            rng.pick(&[32, 64, 128, 256]),
            rng.pick(&[256, 512, 1_024, 2_048]),
            rng.pick(&[64, 128, 1_024, 4_096]),
            rng.pick(&[584, 656, 1_024, 1_152]),
            rng.pick(&[0, 66, 132, 264]),
        ];
        cases.push(case(Kind::Generated { seed }, n, m));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use chapters::ch_newmodels::attended;

    fn call(n: i64, m: [i64; 9]) -> i64 {
        let [c4, c128, swa, r4, r128, topk, window, entry, key] = m;
        read_bytes(n, c4, c128, swa, r4, r128, topk, window, entry, key)
    }

    #[test]
    fn the_worked_example_is_the_chapters_split() {
        // 726,663,168 B of keys, 95,682,560 B of C128 entries, 9,493,504 B of
        // top-k entries and windows.
        assert_eq!(call(1 << 20, FLASH), 831_839_232);
        assert_eq!(call(3, FLASH), 43 * 3 * 584);
    }

    #[test]
    fn agrees_with_the_attended_cell_for_flash_and_pro() {
        let lens = [1, 3, 4, 100, 127, 128, 129, 2_048, 2_052, 4_095, 4_096, 131_072, 1 << 20, 1 << 24];
        for (m, layers) in [(FLASH, attended::FLASH_LAYERS), (PRO, (30, 31, 0))] {
            for n in lens {
                let [keys, c128, chosen] = attended::step_bytes(n as u64, layers, m[5] as u64, 128);
                assert_eq!(call(n, m) as f64, keys + c128 + chosen, "n = {n}, {m:?}");
            }
        }
        // The cell's figures for Flash at 2^20 tokens.
        let [keys, _, _] = attended::step_bytes(1 << 20, attended::FLASH_LAYERS, 512, 128);
        let all = call(1 << 20, FLASH) as f64;
        assert_eq!(format!("{:.2} GB", all / 1e9), "0.83 GB");
        assert_eq!(format!("{:.0}%", 100.0 * keys / all), "87%");
        assert_eq!(attended::INDEXER_KEY, 132.0);
    }

    #[test]
    fn bad_arguments_are_errors() {
        let mut v: Vec<Value> = std::iter::once(0).chain(FLASH).map(Value::from).collect();
        assert_eq!(
            reference(&v).unwrap_err(),
            "argument 1 must be between 1 and 2^24, got 0"
        );
        v[0] = 5.into();
        v[4] = 1.into();
        assert_eq!(
            reference(&v).unwrap_err(),
            "argument 5 must be between 2 and 1,024, got 1"
        );
    }
}
