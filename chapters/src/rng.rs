//! The seeded PRNG every demo and generated test case uses: the same numbers
//! natively and in WASM, never seeded from the OS or the clock.

/// SplitMix64 (Steele, Lea and Flood, 2014): tiny, fast, and good enough to pick
/// test inputs.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi` (slightly biased for huge ranges; fine for tests).
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = (hi - lo) as u64 + 1;
        lo + (self.next_u64() % span) as i64
    }

    /// A float uniform in `[0, 1)` (53 random bits).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A standard normal sample (Box-Muller; one of the pair is discarded).
    pub fn normal(&mut self) -> f64 {
        let u1 = 1.0 - self.next_f64(); // in (0, 1], so ln is finite
        let u2 = self.next_f64();
        (-2.0 * crate::math::ln(u1)).sqrt() * crate::math::cos(std::f64::consts::TAU * u2)
    }

    /// A number in `0..n`, `n > 0`, by multiply-and-shift (Lemire's method
    /// without its rejection step: no modulo, and a bias below `n / 2^64`).
    pub fn below(&mut self, n: u64) -> u64 {
        let x = self.next_u64();
        if n >> 32 == 0 {
            mul_high_by_u32(x, n)
        } else {
            ((x as u128 * n as u128) >> 64) as u64
        }
    }

    /// One element of `items`.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[(self.next_u64() % items.len() as u64) as usize]
    }
}

/// The high 64 bits of `a × b` for `b < 2^32`, in two 32-bit products:
/// `a·b = a_hi·b·2^32 + a_lo·b`, so the high half is
/// `(a_hi·b + ⌊a_lo·b / 2^32⌋) / 2^32`, and that sum is below `2^64`.
/// WebAssembly has no 64 × 64 → 128 multiply: the `u128` form is a call to
/// compiler-rt's `__multi3`, through memory, and so is the four-product form of
/// a full 64-bit `b` (LLVM recognises it as a 128-bit multiply; seen in the
/// release module's code). Every `below` in the book takes this path (its
/// sizes are below 2^32): routing, which draws about 1.1 M of them, went from
/// about 41 to 35 ms a run in headless Chromium once warm.
pub fn mul_high_by_u32(a: u64, b: u64) -> u64 {
    debug_assert!(b >> 32 == 0);
    ((a >> 32) * b + (((a & 0xFFFF_FFFF) * b) >> 32)) >> 32
}

#[cfg(test)]
#[path = "rng_tests.rs"]
mod tests;
