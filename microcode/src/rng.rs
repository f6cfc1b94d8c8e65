//! The workspace's one seeded random generator, for everything that wants reproducible
//! randomness: test stimuli and fuzzing in every crate's tests, the accuracy report's samples
//! ([`crate::arith::accuracy`]) and the serial fault injector (`firmware_loader::port`).
//!
//! It is xorshift64* (Marsaglia's xorshift with a multiplicative output step): 64 bits of
//! state, no dependency, the same stream for the same seed on every machine, so that a failing
//! test replays from the seed it prints. Not for anything that must be unpredictable.
//!
//! The draws are the ones the tests need, named after what they give (`below`, `chance`,
//! `pick`, `bytes`, `float` ...) so that a test reads as its distribution, not as bit tricks.

/// A seeded xorshift64* generator; see the [module documentation](self).
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator from `seed`. xorshift's state must not be zero: seed 0 is replaced by a
    /// fixed odd constant, so that every seed gives a working stream.
    pub fn new(seed: u64) -> Self {
        XorShift(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// The next 32 random bits (the high half of [`XorShift::next_u64`], the better one).
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A random byte.
    pub fn byte(&mut self) -> u8 {
        (self.next_u64() >> 56) as u8
    }

    /// `n` random bytes.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.byte()).collect()
    }

    /// A number in `0..n`, about uniform (the high bits of a 64 x 64-bit product: no division,
    /// and a bias of at most `n / 2^64`); 0 when `n` is 0, so that an empty range needs no
    /// special case at the caller.
    pub fn below(&mut self, n: usize) -> usize {
        let wide = u128::from(self.next_u64()) * n as u128;
        (wide >> 64) as usize
    }

    /// A number in `0..n` as a `u32`, as [`XorShift::below`]: for draws that are bit fields,
    /// shifts and exponents of binary32 stimuli rather than counts.
    pub fn below_u32(&mut self, n: u32) -> u32 {
        ((u64::from(self.next_u32()) * u64::from(n)) >> 32) as u32
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }

    /// One element of `xs`, each equally likely.
    ///
    /// # Panics
    /// When `xs` is empty (a test's own mistake: there is nothing to pick).
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        assert!(!xs.is_empty(), "XorShift::pick from an empty slice");
        xs[self.below(xs.len())]
    }

    /// A uniform value in `[0, 1)` (53 random bits).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A uniform value in `[lo, hi)`.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next_f64()
    }

    /// binary32 bits biased toward where float arithmetic goes wrong: 3 in 8 any bits at all;
    /// otherwise a random sign and significand with an exponent near 1 (2 in 8), at the
    /// bottom of the normal range (1 in 8) or near overflow (1 in 8), or a value with few
    /// significant bits (1 in 8: exact results and rounding ties).
    pub fn float(&mut self) -> u32 {
        let r = self.next_u32();
        let sign = self.next_u32() & 0x8000_0000;
        let frac = self.next_u32() & 0x7F_FFFF;
        let exp = match r % 8 {
            0..=2 => return self.next_u32(),
            3..=4 => 120 + r / 8 % 16,
            5 => r / 8 % 6,
            6 => 249 + r / 8 % 7,
            _ => return sign | ((110 + r / 8 % 30) << 23) | (frac & 0x7F_C000),
        };
        sign | (exp << 23) | frac
    }
}

#[cfg(test)]
mod tests {
    use super::XorShift;

    #[test]
    fn a_seed_replays_its_stream_and_zero_is_a_working_seed() {
        let a: Vec<u64> = {
            let mut r = XorShift::new(42);
            (0..4).map(|_| r.next_u64()).collect()
        };
        let mut r = XorShift::new(42);
        assert_eq!(a, (0..4).map(|_| r.next_u64()).collect::<Vec<_>>());
        let mut z = XorShift::new(0);
        assert_ne!(z.next_u64(), z.next_u64());
    }

    #[test]
    fn draws_stay_in_their_ranges() {
        let mut r = XorShift::new(7);
        let mut seen = [false; 10];
        for _ in 0..2000 {
            let k = r.below(10);
            assert!(k < 10);
            seen[k] = true;
            let x = r.next_f64();
            assert!((0.0..1.0).contains(&x));
            let u = r.uniform(-2.0, 3.0);
            assert!((-2.0..3.0).contains(&u));
            assert!(!r.chance(0));
            assert!(r.chance(100));
        }
        assert!(seen.iter().all(|&s| s), "below(10) reached every value");
        assert_eq!(r.below(0), 0);
        assert!((0..1000).all(|_| r.below_u32(23) < 23));
        assert_eq!(r.bytes(5).len(), 5);
        assert_eq!(r.pick(&[9u8]), 9);
    }

    #[test]
    fn float_draws_every_exponent_region() {
        let mut r = XorShift::new(3);
        let exps: Vec<u32> = (0..4000).map(|_| r.float() >> 23 & 0xFF).collect();
        assert!(exps.iter().any(|&e| e < 6), "bottom of the normal range");
        assert!(
            exps.iter().any(|&e| (249..=255).contains(&e)),
            "near overflow"
        );
        assert!(exps.iter().any(|&e| (120..136).contains(&e)), "near 1");
    }
}
