//! Reference solution and cases for `ch_newmodels/prefix_reuse`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// What a cached prefix of `prefix_len` tokens gives a layer that compresses every
/// `ratio` tokens (disjoint blocks, `ratio >= 1`) into one entry:
/// `[reused_entries, tokens_covered, tail_tokens]`.
pub fn prefix_reuse(prefix_len: i64, ratio: i64) -> Vec<i64> {
    let reused = prefix_len / ratio; // complete blocks only
    let covered = reused * ratio;
    let tail = prefix_len - covered; // still in the partial state
    vec![reused, covered, tail]
}
// ANCHOR_END: reference

/// The reference, called with judge values.
pub fn reference(args: &[Value]) -> Result<Value, String> {
    let a = Args(args);
    let (prefix_len, ratio) = (a.int(0)?, a.int(1)?);
    if ratio < 1 || prefix_len < 0 {
        return Err(format!(
            "prefix_reuse needs prefix_len >= 0 and ratio >= 1, got {prefix_len} and {ratio}"
        ));
    }
    Ok(prefix_reuse(prefix_len, ratio).into())
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, prefix_len: i64, ratio: i64| Case {
        args: vec![prefix_len.into(), ratio.into()],
        kind,
    };
    let mut cases = vec![
        case(Kind::Public, 1_000, 128),
        case(Kind::Public, 4_096, 128),
        case(Kind::Public, 22, 4),
        case(Kind::Public, 100, 128),
        case(Kind::Hidden, 0, 128),
        case(Kind::Hidden, 127, 128),
        case(Kind::Hidden, 129, 128),
        case(Kind::Hidden, 1_048_575, 4),
        case(Kind::Hidden, 37, 1),
        case(Kind::Hidden, 10, 3),
    ];
    let seed = 20_261_201;
    let mut rng = SplitMix64::new(seed);
    for _ in 0..10 {
        let ratio = rng.pick(&[1, 3, 4, 64, 128]);
        let prefix_len = rng.range(0, 1 << 20);
        cases.push(case(Kind::Generated { seed }, prefix_len, ratio));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worked_example() {
        assert_eq!(prefix_reuse(1_000, 128), [7, 896, 104]);
    }

    #[test]
    fn agrees_with_the_chapter_function() {
        for c in cases() {
            let a = Args(&c.args);
            let (p, r) = (a.int(0).unwrap(), a.int(1).unwrap());
            let (e, cov, t) = chapters::ch_newmodels::compressor::prefix_reuse(p as u64, r as u64);
            assert_eq!(
                prefix_reuse(p, r),
                [e as i64, cov as i64, t as i64],
                "{:?}",
                c.args
            );
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        assert!(reference(&[10.into(), 0.into()]).is_err());
        assert!(reference(&[(-1).into(), 4.into()]).is_err());
    }
}
