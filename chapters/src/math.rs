//! Transcendental functions that give bit-identical results natively and in
//! WebAssembly. `f64::exp` and friends call the platform's math library, whose
//! last bits differ between glibc and the WASM runtime; every figure the book
//! shows and every expected value the judge computes goes through these instead
//! (pure-Rust implementations from the `libm` crate).

/// e^x.
pub fn exp(x: f64) -> f64 {
    libm::exp(x)
}

/// Natural logarithm.
pub fn ln(x: f64) -> f64 {
    libm::log(x)
}

/// Cosine.
pub fn cos(x: f64) -> f64 {
    libm::cos(x)
}

/// x^y.
pub fn powf(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

/// Hyperbolic tangent.
pub fn tanh(x: f64) -> f64 {
    libm::tanh(x)
}

#[cfg(test)]
mod tests {
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
}
