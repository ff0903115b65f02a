//! The tests of `math.rs`, apart from it so that a notebook can include that
//! file as it is.

#[test]
fn agree_with_std_to_the_last_few_bits() {
    for x in [-3.5, -1.0, 0.0, 0.3, 1.0, 2.5, 700.0] {
        assert!((super::exp(x) - x.exp()).abs() <= 4.0 * f64::EPSILON * x.exp().abs());
        assert!((super::tanh(x) - x.tanh()).abs() <= 4.0 * f64::EPSILON);
        assert!((super::cos(x) - x.cos()).abs() <= 4.0 * f64::EPSILON);
    }
    assert!((super::ln(10.0) - 10f64.ln()).abs() <= 4.0 * f64::EPSILON * 3.0);
    assert!((super::powf(2.0, -1.1) - 2f64.powf(-1.1)).abs() <= 4.0 * f64::EPSILON);
}
