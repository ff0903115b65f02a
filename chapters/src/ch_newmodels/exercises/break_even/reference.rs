//! Reference solution and cases for `ch_newmodels/break_even`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// The smallest whole context length n ≥ 1 at which a request's growing KV,
/// `per_token` × n, is at least what it holds whatever its length: `state`
/// plus `window_bytes` for each of the min(n, `window`) tokens its windows
/// hold. `None` when no length gets there.
pub fn break_even(per_token: f64, state: i64, window_bytes: i64, window: i64) -> Option<i64> {
    let (state, wb, w) = (state as f64, window_bytes as f64, window as f64);
    // While the windows fill, both sides grow: per_token·n ≥ state + wb·n.
    if per_token > wb {
        let n = (state / (per_token - wb)).ceil().max(1.0);
        if n <= w {
            return Some(n as i64);
        }
    } else if per_token == wb && state == 0.0 && w >= 1.0 {
        return Some(1); // 0 ≥ 0 from the first token
    }
    // Once they are full, the fixed side stops growing.
    let fixed = state + wb * w;
    if per_token > 0.0 {
        Some((fixed / per_token).ceil().max(w + 1.0).max(1.0) as i64)
    } else if fixed == 0.0 {
        Some(1)
    } else {
        None
    }
}
// ANCHOR_END: reference

/// The arguments, checked: `per_token` and `window_bytes` in 0..=10^9 (bytes),
/// `state` in 0..=10^13, `window` in 0..=2^24.
pub fn args(args: &[Value]) -> Result<(f64, i64, i64, i64), String> {
    let a = Args(args);
    let per_token = a.float(0)?;
    if !(per_token.is_finite() && (0.0..=1e9).contains(&per_token)) {
        return Err(format!("argument 1 must be between 0 and 10^9, got {per_token}"));
    }
    let (state, wb, window) = (a.int(1)?, a.int(2)?, a.int(3)?);
    for (i, x, hi, says) in [
        (2, state, 10_000_000_000_000, "10^13"),
        (3, wb, 1_000_000_000, "10^9"),
        (4, window, 1 << 24, "2^24"),
    ] {
        if !(0..=hi).contains(&x) {
            return Err(format!("argument {i} must be between 0 and {says}, got {x}"));
        }
    }
    Ok((per_token, state, wb, window))
}

/// The reference, called with judge values.
pub fn reference(args_: &[Value]) -> Result<Value, String> {
    let (per_token, state, wb, window) = args(args_)?;
    Ok(match break_even(per_token, state, wb, window) {
        Some(n) => n.into(),
        None => Value::Unit,
    })
}

/// V4's compressor state: float32 buffers of 8 × 2,560 values per C4 layer and
/// 128 × 1,024 per C128 layer.
const fn v4_state(c4: i64, c128: i64) -> i64 {
    c4 * 8 * 2_560 * 4 + c128 * 128 * 1_024 * 4
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, per_token: f64, state: i64, wb: i64, window: i64| Case {
        args: vec![per_token.into(), state.into(), wb.into(), window.into()],
        kind,
    };
    let mut cases = vec![
        // V4-Flash and V4-Pro: 584-byte entries in a 128-token window in every layer.
        case(Kind::Public, 3_850.25, v4_state(21, 20), 43 * 584, 128),
        case(Kind::Public, 5_511.437_5, v4_state(30, 31), 61 * 584, 128),
        // Kimi-K3: 69 KDA states, no window.
        case(Kind::Public, 27_648.0, 69 * 96 * 128 * 128 * 4, 0, 0),
        // Gemma 4 12B: 40 window layers of 1,024 tokens; equal exactly at 40,960.
        case(Kind::Hidden, 8_192.0, 0, 40 * 8 * 256 * 2 * 2, 1_024),
        // Qwen3.5-0.8B: equal exactly at 1,590 tokens.
        case(Kind::Hidden, 12_288.0, 18 * 16 * 128 * 128 * 4 + 18 * 6_144 * 3 * 2, 0, 0),
        // DeepSeek-V3.2: nothing fixed, so the first token already pays more.
        case(Kind::Hidden, 48_068.0, 0, 0, 0),
        // Crossing while the window is still filling: 100·n ≥ 1,000 + 50·n at n = 20.
        case(Kind::Hidden, 100.0, 1_000, 50, 1_024),
        // Crossing exactly as the window fills (n = 128), and just after it (n = 129).
        case(Kind::Hidden, 300.0, 25_600, 100, 128),
        case(Kind::Hidden, 300.0, 25_700, 100, 128),
        // Nothing grows: never.
        case(Kind::Hidden, 0.0, 1_000, 0, 0),
        // Nothing grows and only windows are held: never either.
        case(Kind::Hidden, 0.0, 0, 584, 128),
        // No memory of either kind: equal from the first token.
        case(Kind::Hidden, 0.0, 0, 0, 0),
        // Window bytes but no window tokens.
        case(Kind::Hidden, 100.0, 1_000, 5_000, 0),
        // Growing as fast as the window, nothing else: equal from the first token.
        case(Kind::Hidden, 584.0, 0, 584, 128),
        // A quarter byte per token.
        case(Kind::Hidden, 0.25, 1_000_001, 0, 0),
        // A crossing where the quotient rounds down but the answer rounds up:
        // 4·n ≥ 7 + n first at n = 3 (7 / 3 ≈ 2.33).
        case(Kind::Hidden, 4.0, 7, 1, 100),
        // Nothing but a window, growing slower than the request: from the first token.
        case(Kind::Hidden, 2.0, 0, 1, 10),
        // A one-token window as fast as the request and nothing else: from the first token.
        case(Kind::Hidden, 5.0, 0, 5, 1),
    ];
    let seed = 20_261_212;
    let mut rng = SplitMix64::new(seed);
    for _ in 0..10 {
        // 100 B to 50 KB per token in quarters of a byte, so every product is exact.
        let per_token = rng.range(400, 200_000) as f64 / 4.0;
        let state = rng.range(0, 1 << 30);
        let wb = rng.pick(&[0, 584, 25_112, 35_624, 327_680]);
        let window = rng.pick(&[0, 128, 1_024, 4_096]);
        cases.push(case(Kind::Generated { seed }, per_token, state, wb, window));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use chapters::ch_newmodels::{figures, ledger};

    /// The definition in exact 128ths of a byte (V4's per-token bytes are
    /// multiples of 1/128): does a request of `n` tokens grow at least as much as
    /// it holds?
    fn reaches(per_token: f64, state: i64, wb: i64, window: i64, n: i64) -> bool {
        let q = (per_token * 128.0) as i128;
        q * n as i128 >= 128 * (state as i128 + wb as i128 * n.min(window) as i128)
    }

    #[test]
    fn agrees_with_the_definition() {
        // Once reached, a length stays reached (past the window only the growing
        // side grows; inside it, the growing side can only lead when it grows faster),
        // so n is the answer when n reaches and n - 1 does not.
        for c in cases() {
            let (p, s, wb, w) = args(&c.args).unwrap();
            assert_eq!(p * 128.0, (p * 128.0).round(), "whole 128ths: {:?}", c.args);
            match break_even(p, s, wb, w) {
                Some(n) => {
                    assert!(reaches(p, s, wb, w, n), "{:?}", c.args);
                    assert!(n == 1 || !reaches(p, s, wb, w, n - 1), "{:?}", c.args);
                }
                None => assert!(!reaches(p, s, wb, w, 1 << 50), "{:?}", c.args),
            }
            // Small answers, checked one length at a time as well.
            let first = (1..=100_000).find(|&n| reaches(p, s, wb, w, n));
            if let Some(n) = first {
                assert_eq!(break_even(p, s, wb, w), Some(n), "{:?}", c.args);
            }
        }
    }

    #[test]
    fn agrees_with_the_ledger_cell_and_its_figures() {
        // The ledger counts the windows full, which is right past the window; all
        // three cross long after 128 tokens.
        let v4 = |c4, c128, swa| (v4_state(c4, c128), (c4 + c128 + swa) * 584);
        let rows = [
            ("DeepSeek-V4-Flash", v4(21, 20, 2), 128, "ledger.flash_cross_k", "4.0K"),
            ("DeepSeek-V4-Pro", v4(30, 31, 0), 128, "ledger.pro_cross_k", "4.2K"),
            ("Kimi-K3", (434_110_464, 0), 0, "ledger.k3_cross_k", "15.7K"),
        ];
        let figs = figures::figures();
        for (name, (state, wb), window, key, shown) in rows {
            let m = ledger::model(name).unwrap();
            assert_eq!((state + wb * window) as f64, m.fixed, "{name}");
            let n = break_even(m.per_token, state, wb, window).unwrap();
            assert_eq!(n as f64, m.crossover().unwrap().ceil(), "{name}");
            assert_eq!(format!("{:.1}K", n as f64 / 1000.0), shown, "{name}");
            let fig = figs.iter().find(|f| f.0 == key).unwrap();
            assert_eq!(fig.1, shown, "{key}");
        }
        assert_eq!(break_even(3_850.25, v4_state(21, 20), 43 * 584, 128), Some(4_006));
        assert_eq!(break_even(5_511.437_5, v4_state(30, 31), 61 * 584, 128), Some(4_223));
        assert_eq!(break_even(27_648.0, 434_110_464, 0, 0), Some(15_702));
    }

    #[test]
    fn the_cases_cover_both_regimes_and_never() {
        let got: Vec<Option<i64>> = cases()
            .iter()
            .map(|c| {
                let (p, s, wb, w) = args(&c.args).unwrap();
                break_even(p, s, wb, w)
            })
            .collect();
        assert!(got.contains(&None));
        for n in [1, 20, 128, 129, 1_590, 40_960] {
            assert!(got.contains(&Some(n)), "no case returns {n}: {got:?}");
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let v = |p: f64, s: i64| vec![p.into(), s.into(), 0.into(), 0.into()];
        let e = reference(&v(-1.0, 0)).unwrap_err();
        assert_eq!(e, "argument 1 must be between 0 and 10^9, got -1");
        let e = reference(&v(1.0, -5)).unwrap_err();
        assert_eq!(e, "argument 2 must be between 0 and 10^13, got -5");
    }
}
