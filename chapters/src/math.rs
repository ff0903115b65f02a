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
#[path = "math_tests.rs"]
mod tests;
