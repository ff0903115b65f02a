//! Reference solution and cases for `ch_kvcache/csa_entries`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// Entries an overlapping compressor has finished after `tokens` tokens. Entry
/// `n` (from 1) covers tokens `(n - 1) * stride + 1 ..= (n - 1) * stride + width`,
/// so it is finished once `width + (n - 1) * stride` tokens have arrived.
pub fn csa_entries(tokens: i64, stride: i64, width: i64) -> i64 {
    if tokens < width {
        return 0; // not even the first entry is complete
    }
    (tokens - width) / stride + 1
}
// ANCHOR_END: reference

/// The reference, called with judge values.
pub fn reference(args: &[Value]) -> Result<Value, String> {
    let a = Args(args);
    let (tokens, stride, width) = (a.int(0)?, a.int(1)?, a.int(2)?);
    if !(0..=1 << 40).contains(&tokens) {
        return Err(format!(
            "argument 1 must be between 0 and 2^40, got {tokens}"
        ));
    }
    for (i, x) in [(2, stride), (3, width)] {
        if !(1..=1 << 40).contains(&x) {
            return Err(format!("argument {i} must be between 1 and 2^40, got {x}"));
        }
    }
    Ok(csa_entries(tokens, stride, width).into())
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, tokens: i64, stride: i64, width: i64| Case {
        args: vec![tokens.into(), stride.into(), width.into()],
        kind,
    };
    let mut cases = vec![
        case(Kind::Public, 16, 4, 8),
        case(Kind::Public, 1_000_000, 4, 8),
        case(Kind::Public, 7, 4, 8),
        case(Kind::Public, 1_000, 128, 128),
        case(Kind::Hidden, 8, 4, 8),
        case(Kind::Hidden, 0, 4, 8),
        case(Kind::Hidden, 11, 4, 8),
        case(Kind::Hidden, 12, 4, 8),
        case(Kind::Hidden, 3, 1, 8),
        case(Kind::Hidden, 127, 128, 128),
        case(Kind::Hidden, 128, 128, 128),
        case(Kind::Hidden, 1_048_576, 4, 8),
        case(Kind::Hidden, 5, 1, 1),
    ];
    let seed = 20_261_303;
    let mut rng = SplitMix64::new(seed);
    for i in 0..12 {
        let stride = rng.pick(&[1, 2, 4, 8, 128]);
        let width = stride * rng.pick(&[1, 2, 3]);
        // Half of them short, around the first entries.
        let tokens = if i % 2 == 0 {
            rng.range(0, 4 * width)
        } else {
            rng.range(0, 1 << 21)
        };
        cases.push(case(Kind::Generated { seed }, tokens, stride, width));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use chapters::ch_kvcache::formulas;

    #[test]
    fn the_worked_examples() {
        assert_eq!(csa_entries(16, 4, 8), 3);
        assert_eq!(csa_entries(1_000_000, 4, 8), 249_999);
        assert_eq!(csa_entries(7, 4, 8), 0);
        // Disjoint blocks: the plain quotient.
        assert_eq!(csa_entries(1_000, 128, 128), 1_000 / 128);
    }

    #[test]
    fn agrees_with_the_chapter_demo() {
        for c in cases() {
            let a = Args(&c.args);
            let (t, s, w) = (a.int(0).unwrap(), a.int(1).unwrap(), a.int(2).unwrap());
            let chapter = formulas::csa_entries(t as u64, s as u64, w as u64);
            assert_eq!(csa_entries(t, s, w), chapter as i64, "{:?}", c.args);
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let e = reference(&[16.into(), 0.into(), 8.into()]).unwrap_err();
        assert_eq!(e, "argument 2 must be between 1 and 2^40, got 0");
        assert!(reference(&[(-1).into(), 4.into(), 8.into()]).is_err());
    }
}
