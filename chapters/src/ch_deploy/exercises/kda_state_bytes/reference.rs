//! Reference solution and cases for `ch_deploy/kda_state_bytes`.

use judge::harness::Args;
use judge::{Case, Kind, Value};

use chapters::rng::SplitMix64;

// ANCHOR: reference
/// Bytes of the recurrent state of `layers` KDA layers: each of the `heads`
/// heads keeps one `d_head × d_head` matrix, however long the context.
pub fn kda_state_bytes(layers: i64, heads: i64, d_head: i64, dtype_bytes: i64) -> i64 {
    let values_per_head = d_head * d_head; // a matrix, not a vector
    layers * heads * values_per_head * dtype_bytes
}
// ANCHOR_END: reference

/// The arguments, checked: `layers` and `heads` in 0..=100,000, `d_head` in
/// 0..=2^20, `dtype_bytes` in 0..=64, and a product that fits in an int.
pub fn args(args: &[Value]) -> Result<[i64; 4], String> {
    let a = Args(args);
    let v = [a.int(0)?, a.int(1)?, a.int(2)?, a.int(3)?];
    let limits = [
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
    let product = v.iter().fold(v[2] as i128, |p, &x| p * x as i128);
    if product > i128::from(i64::MAX) {
        return Err("the bytes do not fit in an int (more than 2^63 - 1)".to_owned());
    }
    Ok(v)
}

/// The reference, called with judge values.
pub fn reference(args_: &[Value]) -> Result<Value, String> {
    let [layers, heads, d_head, dtype_bytes] = args(args_)?;
    Ok(kda_state_bytes(layers, heads, d_head, dtype_bytes).into())
}

/// Public, hidden and generated cases.
pub fn cases() -> Vec<Case> {
    let case = |kind, v: [i64; 4]| Case {
        args: v.iter().map(|&x| x.into()).collect(),
        kind,
    };
    let mut cases = vec![
        // Kimi-K3: 69 KDA layers of 96 heads, d_head 128, BF16.
        case(Kind::Public, [69, 96, 128, 2]),
        // One of those layers: 3 MiB.
        case(Kind::Public, [1, 96, 128, 2]),
        // The same state kept in float32.
        case(Kind::Public, [69, 96, 128, 4]),
        case(Kind::Hidden, [0, 96, 128, 2]),
        case(Kind::Hidden, [1, 1, 1, 1]),
        case(Kind::Hidden, [3, 5, 7, 2]),
        case(Kind::Hidden, [48, 32, 64, 2]),
        case(Kind::Hidden, [30, 16, 256, 4]),
        case(Kind::Hidden, [2, 3, 1_000, 1]),
    ];
    let seed = 20_261_401;
    let mut rng = SplitMix64::new(seed);
    for _ in 0..10 {
        let v = [
            rng.range(1, 128),
            rng.range(1, 128),
            rng.pick(&[32, 64, 96, 128, 192, 256]),
            rng.pick(&[1, 2, 4]),
        ];
        cases.push(case(Kind::Generated { seed }, v));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use chapters::ch_deploy::plan;

    #[test]
    fn the_worked_example_is_the_articles_207_mib() {
        assert_eq!(kda_state_bytes(1, 96, 128, 2), 3_145_728);
        let b = kda_state_bytes(69, 96, 128, 2);
        assert_eq!(b, 217_055_232);
        assert_eq!(b / (1 << 20), 207);
    }

    #[test]
    fn agrees_with_the_chapter_demo() {
        for c in cases() {
            let [l, h, d, s] = args(&c.args).unwrap();
            let chapter = plan::kda_state_bytes(l as u64, h as u64, d as u64, s as u64);
            assert_eq!(kda_state_bytes(l, h, d, s), chapter as i64, "{:?}", c.args);
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let args = |v: [i64; 4]| v.map(Value::from).to_vec();
        assert_eq!(
            reference(&args([69, -96, 128, 2])).unwrap_err(),
            "argument 2 must be between 0 and 100,000, got -96"
        );
        let e = reference(&args([100_000, 100_000, 1 << 20, 64])).unwrap_err();
        assert!(e.contains("do not fit in an int"), "{e}");
        assert!(reference(&[1.into(), 2.5.into(), 1.into(), 1.into()]).is_err());
    }
}
