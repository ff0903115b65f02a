//! The tests of `rng.rs`, apart from it so that a notebook can include that
//! file as it is.

use super::*;

#[test]
fn the_u32_path_is_the_128_bit_products_high_half() {
    let mut r = SplitMix64::new(4);
    let a_edges = [0, 1, 0xFFFF_FFFF, 1 << 32, u64::MAX - 1, u64::MAX];
    let b_edges = [0, 1, 2, 6, 256, 129_280, 0xFFFF_FFFE, 0xFFFF_FFFF];
    let pairs = a_edges
        .iter()
        .flat_map(|&a| b_edges.iter().map(move |&b| (a, b)))
        .chain((0..20_000).map(|i| (r.next_u64(), r.next_u64() >> (32 + i % 32))));
    for (a, b) in pairs {
        assert_eq!(
            mul_high_by_u32(a, b),
            ((a as u128 * b as u128) >> 64) as u64,
            "{a} × {b}"
        );
    }
}

#[test]
fn known_first_output() {
    // Reference value of SplitMix64 seeded with 0.
    assert_eq!(SplitMix64::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
}

#[test]
fn floats_and_normals_have_the_right_moments() {
    let mut r = SplitMix64::new(7);
    let n = 100_000;
    let xs: Vec<f64> = (0..n).map(|_| r.normal()).collect();
    let mean = xs.iter().sum::<f64>() / n as f64;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
    assert!(
        mean.abs() < 0.02 && (var - 1.0).abs() < 0.02,
        "{mean} {var}"
    );
    assert!((0..1000).all(|_| (0.0..1.0).contains(&r.next_f64())));
    assert!((0..1000).all(|_| r.below(6) < 6));
}
