//! Reference solution and cases for `ch_newmodels/dispatch_bytes`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// Bytes one token sends per MoE layer in expert-parallel dispatch: a copy of
/// its activation for each of its `topk` experts. With latent MoE (`latent > 0`)
/// the activation is the hidden state projected down to `latent` dimensions.
pub fn dispatch_bytes(hidden: i64, topk: i64, bytes_per_elem: i64, latent: i64) -> i64 {
    let dims = if latent > 0 { latent } else { hidden };
    dims * topk * bytes_per_elem
}
// ANCHOR_END: reference

/// The reference, called with judge values.
pub fn reference(args: &[Value]) -> Result<Value, String> {
    let a = Args(args);
    let v = [a.int(0)?, a.int(1)?, a.int(2)?, a.int(3)?];
    let limits = [1 << 24, 1 << 12, 64, 1 << 24];
    for (i, (x, max)) in v.iter().zip(limits).enumerate() {
        if !(0..=max).contains(x) {
            return Err(format!(
                "argument {} must be between 0 and {max}, got {x}",
                i + 1
            ));
        }
    }
    Ok(dispatch_bytes(v[0], v[1], v[2], v[3]).into())
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, hidden: i64, topk: i64, bytes: i64, latent: i64| Case {
        args: vec![hidden.into(), topk.into(), bytes.into(), latent.into()],
        kind,
    };
    let mut cases = vec![
        case(Kind::Public, 7_168, 8, 1, 0),
        case(Kind::Public, 7_168, 6, 1, 0),
        case(Kind::Public, 7_168, 16, 1, 3_584),
        case(Kind::Public, 7_168, 16, 1, 0),
        case(Kind::Hidden, 4_096, 8, 2, 1_024),
        case(Kind::Hidden, 7_168, 16, 2, 3_584),
        case(Kind::Hidden, 2_048, 0, 1, 0),
        case(Kind::Hidden, 5_120, 4, 2, 0),
        case(Kind::Hidden, 6_144, 10, 1, 2_560),
        // The smallest latent: 1 is a width, only 0 means "none".
        case(Kind::Hidden, 7_168, 8, 1, 1),
    ];
    let seed = 20_261_207;
    let mut rng = SplitMix64::new(seed);
    for _ in 0..10 {
        let hidden = 128 * rng.range(8, 64);
        let topk = rng.range(1, 16);
        let bytes = rng.pick(&[1, 2, 4]);
        let latent = if rng.range(0, 1) == 0 {
            0
        } else {
            128 * rng.range(2, hidden / 128 - 1)
        };
        cases.push(case(Kind::Generated { seed }, hidden, topk, bytes, latent));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use chapters::ch_newmodels::routing;

    #[test]
    fn the_worked_example_and_the_chapter_table() {
        assert_eq!(dispatch_bytes(7_168, 8, 1, 0), 57_344);
        let kib: Vec<i64> = [(8, 0), (6, 0), (16, 3_584), (16, 0)]
            .iter()
            .map(|&(k, latent)| dispatch_bytes(7_168, k, 1, latent) / 1024)
            .collect();
        assert_eq!(kib, [56, 42, 56, 112]);
    }

    #[test]
    fn agrees_with_the_chapter_function() {
        for (_, dims, topk) in routing::MODELS {
            let latent = if *dims < 7_168 { *dims as i64 } else { 0 };
            assert_eq!(
                dispatch_bytes(7_168, *topk as i64, 1, latent) as u64,
                routing::dispatch_bytes(*dims, *topk, 1)
            );
        }
        for c in cases() {
            let a = Args(&c.args);
            let (h, k, b, l) = (
                a.int(0).unwrap(),
                a.int(1).unwrap(),
                a.int(2).unwrap(),
                a.int(3).unwrap(),
            );
            let dims = if l > 0 { l } else { h };
            assert_eq!(
                dispatch_bytes(h, k, b, l) as u64,
                routing::dispatch_bytes(dims as u64, k as u64, b as u64)
            );
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let e = reference(&[7168.into(), 8.into(), 1.into(), (-1).into()]).unwrap_err();
        assert_eq!(e, "argument 4 must be between 0 and 16777216, got -1");
    }
}
