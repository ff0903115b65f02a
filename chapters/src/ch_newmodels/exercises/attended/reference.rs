//! Reference solution and cases for `ch_newmodels/attended`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// Entries a query at 0-based position `pos` attends to: the sliding window's raw
/// tokens plus the finished compressed entries, capped at `topk` (0 = no cap).
pub fn attended(pos: i64, ratio: i64, topk: i64, window: i64) -> i64 {
    let swa = window.min(pos + 1);
    if ratio <= 1 {
        return swa;
    }
    let done = (pos + 1) / ratio;
    swa + if topk > 0 { done.min(topk) } else { done }
}
// ANCHOR_END: reference

/// The reference, called with judge values.
pub fn reference(args: &[Value]) -> Result<Value, String> {
    let a = Args(args);
    Ok(attended(a.int(0)?, a.int(1)?, a.int(2)?, a.int(3)?).into())
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, pos: i64, ratio: i64, topk: i64, window: i64| Case {
        args: vec![pos.into(), ratio.into(), topk.into(), window.into()],
        kind,
    };
    let mut cases = vec![
        case(Kind::Public, 1_048_575, 4, 512, 128),
        case(Kind::Public, 4_095, 128, 0, 128),
        case(Kind::Public, 131_071, 1, 0, 128),
        case(Kind::Public, 0, 4, 512, 128),
        case(Kind::Hidden, 1_048_575, 128, 0, 128),
        case(Kind::Hidden, 3, 4, 512, 128),
        case(Kind::Hidden, 2, 4, 512, 128),
        case(Kind::Hidden, 126, 0, 0, 128),
        case(Kind::Hidden, 5_000, 4, 0, 128),
        case(Kind::Hidden, 100, 128, 512, 1_000),
        // Edges: a window as long as the position (not yet full), a ratio of 2
        // (compressed), a cap of one entry.
        case(Kind::Hidden, 128, 4, 512, 128),
        case(Kind::Hidden, 9, 2, 0, 128),
        case(Kind::Hidden, 99, 4, 1, 128),
    ];
    let seed = 20_261_129;
    let mut rng = SplitMix64::new(seed);
    for _ in 0..10 {
        let pos = rng.range(0, 1 << 21);
        let ratio = rng.pick(&[1, 4, 128]);
        let topk = rng.pick(&[0, 512, 1024]);
        let window = rng.pick(&[64, 128, 4096]);
        cases.push(case(Kind::Generated { seed }, pos, ratio, topk, window));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_chapter_demo() {
        for c in cases() {
            let a = Args(&c.args);
            let (p, r, k, w) = (
                a.int(0).unwrap(),
                a.int(1).unwrap(),
                a.int(2).unwrap(),
                a.int(3).unwrap(),
            );
            let demo =
                chapters::ch_newmodels::attended::attended(p as u64, r as u64, k as u64, w as u64);
            assert_eq!(attended(p, r, k, w), demo as i64, "{:?}", c.args);
        }
    }
}
