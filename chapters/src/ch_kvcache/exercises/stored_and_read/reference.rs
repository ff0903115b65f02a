//! Reference solution and cases for `ch_kvcache/stored_and_read`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// One layer with learned sparse selection after `tokens` tokens:
/// `[stored, read]`, the bytes it holds for the request and the bytes one
/// decode step reads. Entries start every `stride` tokens and fold `width`
/// tokens each; every entry has an indexer key of `key_bytes` (0: no indexer);
/// attention reads the best `topk` entries (`topk` = 0: all of them) and the
/// raw KV of the last `window` tokens.
pub fn stored_and_read(
    tokens: i64,
    stride: i64,
    width: i64,
    entry_bytes: i64,
    key_bytes: i64,
    topk: i64,
    window: i64,
) -> Vec<i64> {
    // Finished entries: the first needs `width` tokens, then one per `stride`.
    let entries = if tokens < width {
        0
    } else {
        (tokens - width) / stride + 1
    };
    // The window holds only the tokens that have arrived.
    let held = tokens.min(window) * entry_bytes;
    // Selection keeps every entry and its key in memory...
    let stored = entries * (entry_bytes + key_bytes) + held;
    // ...and reads every key (the indexer scores them all), the chosen entries
    // and the window.
    let chosen = if topk == 0 {
        entries
    } else {
        entries.min(topk)
    };
    let read = entries * key_bytes + chosen * entry_bytes + held;
    vec![stored, read]
}
// ANCHOR_END: reference

/// The arguments, checked: `tokens`, `topk` and `window` in 0..=2^40, `stride`
/// and `width` in 1..=2^20, the byte sizes in 0..=2^20 (so both results fit in
/// an int), and no indexer keys on a layer that does not select.
pub fn args(args: &[Value]) -> Result<[i64; 7], String> {
    let a = Args(args);
    let v = [
        a.int(0)?,
        a.int(1)?,
        a.int(2)?,
        a.int(3)?,
        a.int(4)?,
        a.int(5)?,
        a.int(6)?,
    ];
    let limits = [
        (0, 1 << 40, "0 and 2^40"),
        (1, 1 << 20, "1 and 2^20"),
        (1, 1 << 20, "1 and 2^20"),
        (0, 1 << 20, "0 and 2^20"),
        (0, 1 << 20, "0 and 2^20"),
        (0, 1 << 40, "0 and 2^40"),
        (0, 1 << 40, "0 and 2^40"),
    ];
    for (i, (x, (lo, hi, shown))) in v.iter().zip(limits).enumerate() {
        if !(lo..=hi).contains(x) {
            return Err(format!(
                "argument {} must be between {shown}, got {x}",
                i + 1
            ));
        }
    }
    if v[5] == 0 && v[4] != 0 {
        return Err(
            "a layer that does not select (topk = 0) has no indexer keys: key_bytes must be 0"
                .to_owned(),
        );
    }
    Ok(v)
}

/// The reference, called with judge values.
pub fn reference(args_: &[Value]) -> Result<Value, String> {
    let [tokens, stride, width, entry, key, topk, window] = args(args_)?;
    Ok(stored_and_read(tokens, stride, width, entry, key, topk, window).into())
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, v: [i64; 7]| Case {
        args: v.iter().map(|&x| x.into()).collect(),
        kind,
    };
    const MI: i64 = 1 << 20;
    let mut cases = vec![
        // A V4-Pro CSA layer at 2^20 tokens as the chapter's figures count it
        // (ch_newmodels' 584-B entries and 132-B keys, top-1,024, no window).
        case(Kind::Public, [MI, 4, 8, 584, 132, 1_024, 0]),
        // The same layer with its 128-token window.
        case(Kind::Public, [MI, 4, 8, 584, 132, 1_024, 128]),
        // A DSA-style layer: one entry per token with V3.2's ledger sizes
        // (656-B latent, 132-B key), 2,048 tokens chosen.
        case(Kind::Public, [131_072, 1, 1, 656, 132, 2_048, 0]),
        // An HCA layer: 128:1 blocks, no selection, the window.
        case(Kind::Public, [MI, 128, 128, 584, 0, 0, 128]),
        // Before the first entry is finished; the window holds 7 tokens.
        case(Kind::Hidden, [7, 4, 8, 584, 132, 1_024, 128]),
        case(Kind::Hidden, [8, 4, 8, 584, 132, 1_024, 128]),
        case(Kind::Hidden, [11, 4, 8, 584, 132, 1_024, 128]),
        case(Kind::Hidden, [12, 4, 8, 584, 132, 1_024, 128]),
        case(Kind::Hidden, [0, 4, 8, 584, 132, 1_024, 128]),
        // Fewer entries than top-k (1,023), exactly top-k, one more.
        case(Kind::Hidden, [4_096, 4, 8, 584, 132, 1_024, 128]),
        case(Kind::Hidden, [4_100, 4, 8, 584, 132, 1_024, 128]),
        case(Kind::Hidden, [4_104, 4, 8, 584, 132, 1_024, 128]),
        // The window around its edge.
        case(Kind::Hidden, [100, 4, 8, 584, 132, 1_024, 128]),
        case(Kind::Hidden, [128, 4, 8, 584, 132, 1_024, 128]),
        case(Kind::Hidden, [129, 4, 8, 584, 132, 1_024, 128]),
        // V4-Flash's top-512 at 10^6 tokens.
        case(Kind::Hidden, [1_000_000, 4, 8, 584, 132, 512, 128]),
        // DSA at 2^20 tokens.
        case(Kind::Hidden, [MI, 1, 1, 656, 132, 2_048, 0]),
        // HCA early on: 7 finished blocks, all read.
        case(Kind::Hidden, [1_000, 128, 128, 584, 0, 0, 128]),
        // Dense attention: every token kept and read.
        case(Kind::Hidden, [1_000, 1, 1, 584, 0, 0, 0]),
        // Odd shapes: stride 3 over 5 tokens; a key half an entry.
        case(Kind::Hidden, [1_000, 3, 5, 10, 2, 7, 9]),
        case(Kind::Hidden, [10, 1, 1, 100, 50, 3, 4]),
    ];
    let seed = 20_261_308;
    let mut rng = SplitMix64::new(seed);
    for i in 0..12 {
        let stride = rng.pick(&[1, 4, 64, 128]);
        let width = stride * rng.pick(&[1, 2]);
        let entry = rng.pick(&[584, 656, 1_024, 1_152]);
        let (key, topk) = if stride == 128 {
            (0, 0)
        } else {
            (
                rng.pick(&[64, 128, 132]),
                rng.pick(&[256, 512, 1_024, 2_048]),
            )
        };
        let window = rng.pick(&[0, 128, 512]);
        // Half of them short, around the window, the first entries and top-k.
        let tokens = if i % 2 == 0 {
            rng.range(0, 4 * window.max(topk * stride).max(width))
        } else {
            rng.range(0, 1 << 21)
        };
        cases.push(case(
            Kind::Generated { seed },
            [tokens, stride, width, entry, key, topk, window],
        ));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use chapters::ch_kvcache::csa_window;
    use chapters::ch_kvcache::formulas;

    /// Without a window, a V4-Pro CSA layer is what the `csa_window` cell
    /// counts: stored = entries and keys, read = keys and the chosen entries.
    #[test]
    fn agrees_with_the_csa_window_cell() {
        for tokens in [0, 7, 8, 4_096, 4_104, 1_000_000, 1 << 20] {
            let (stored, keys, chosen) = csa_window::csa_layer_bytes(tokens as u64, 1_024);
            let got = stored_and_read(tokens, 4, 8, 584, 132, 1_024, 0);
            assert_eq!(got, vec![stored as i64, (keys + chosen) as i64], "{tokens}");
        }
        // The chapter's figures at 2^20 tokens: 179.0 MiB held, 5.3× less read.
        let r = stored_and_read(1 << 20, 4, 8, 584, 132, 1_024, 0);
        let mib = r[0] as f64 / (1u64 << 20) as f64;
        assert_eq!(format!("{mib:.1}"), "179.0");
        assert_eq!(format!("{:.1}", r[0] as f64 / r[1] as f64), "5.3");
        // Far from the 256× of the entries.
        let entries = formulas::csa_entries(1 << 20, 4, 8);
        assert_eq!(entries / 1_024, 255);
    }

    /// Whatever the layer, a step never reads more than the layer holds, and a
    /// layer that does not select reads all it holds.
    #[test]
    fn a_step_reads_at_most_what_is_stored() {
        for c in cases() {
            let [t, s, w, e, k, top, win] = args(&c.args).unwrap();
            let r = stored_and_read(t, s, w, e, k, top, win);
            assert!(r[1] <= r[0], "{:?}", c.args);
            if top == 0 {
                assert_eq!(r[1], r[0], "{:?}", c.args);
            }
        }
    }

    #[test]
    fn entries_agree_with_the_chapter() {
        for c in cases() {
            let [t, s, w, e, _, _, _] = args(&c.args).unwrap();
            let entries = formulas::csa_entries(t as u64, s as u64, w as u64) as i64;
            // A layer with no key, no selection and no window stores its entries.
            assert_eq!(stored_and_read(t, s, w, e, 0, 0, 0)[0], entries * e);
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let args = |v: [i64; 7]| v.map(Value::from).to_vec();
        assert_eq!(
            reference(&args([1, 0, 8, 584, 132, 1_024, 0])).unwrap_err(),
            "argument 2 must be between 1 and 2^20, got 0"
        );
        assert!(
            reference(&args([1, 4, 8, 584, 132, 0, 0]))
                .unwrap_err()
                .contains("key_bytes must be 0")
        );
    }
}
