//! Lookup tables and constants of the transcendental sequences, built at compile time.
//!
//! Every table is a `const` computed by a `const fn` from its mathematical definition, using only
//! integer arithmetic or IEEE binary64 `+ - * /` (which every Rust target evaluates identically),
//! so the hardware's block-RAM images and the models read the same bits on every host. The tests
//! check each entry against the host's `exp2`/`log2`/`sqrt` and that no entry lies near a rounding
//! tie (so the construction's own ~2^-50 error cannot have changed a stored bit).
//!
//! Block RAM use (SB_RAM40_4K is 256 x 16 bits):
//! | table | entries x bits | block RAMs | used by |
//! |---|---|---|---|
//! | [`RSQ_SEED`] | 256 x 12 | 1 | `frsq` |
//! | [`EX2_TABLE`] and [`LG2_INV`] in one 32-bit word | 256 x (23 fraction bits + 9) | 2 | `fex2`, `flg2` |
//! | [`LG2_LOG`] | 256 x 32 | 2 | `flg2` |

/// Rounds a non-negative binary64 to the nearest integer (ties cannot occur in these tables; the
/// tests check the margin).
const fn round_u64(v: f64) -> u64 {
    (v + 0.5) as u64
}

/// `e^x` for `|x| < 1` by its Taylor series (30 terms; error a few binary64 ULPs).
const fn exp_f64(x: f64) -> f64 {
    let mut sum = 1.0;
    let mut term = 1.0;
    let mut n = 1;
    while n < 30 {
        term = term * x / n as f64;
        sum += term;
        n += 1;
    }
    sum
}

/// `ln(y)` for `y` in `[1, 2]` as `2 atanh((y - 1) / (y + 1))` (30 odd terms of the series).
const fn ln_f64(y: f64) -> f64 {
    let z = (y - 1.0) / (y + 1.0);
    let z2 = z * z;
    let mut sum = 0.0;
    let mut pow = z;
    let mut n = 0;
    while n < 30 {
        sum += pow / (2 * n + 1) as f64;
        pow *= z2;
        n += 1;
    }
    2.0 * sum
}

/// `RSQ` seed: entry `p << 7 | i` covers `x'` in `[1 + i/128, 1 + (i+1)/128)` for `p = 0` and
/// `[2 + i/64, 2 + (i+1)/64)` for `p = 1`; it holds `Y = round(4096 / sqrt(midpoint))`, a 12-bit
/// integer (`y0 = Y * 2^-12` in `(0.5, 1)`, so `y0^2` is exact in binary32). The midpoint value
/// minimises the largest `|1 - x' y0^2|` over the interval (that residual is linear in `x'`).
pub const RSQ_SEED: [u16; 256] = build_rsq_seed();

const fn build_rsq_seed() -> [u16; 256] {
    let mut t = [0u16; 256];
    let mut idx = 0;
    while idx < 256 {
        // Midpoint sum a + b = n / d, and Y^2 ~ 2^25 / (a + b) = 2^25 d / n.
        let n = 257 + 2 * (idx as u64 & 127);
        let d: u64 = if idx < 128 { 128 } else { 64 };
        // Nearest integer to sqrt(2^25 d / n): the largest Y with (2Y - 1)^2 n <= 2^27 d.
        let (mut lo, mut hi) = (1u64, 8192u64);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if (2 * mid - 1) * (2 * mid - 1) * n <= (1u64 << 27) * d {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        t[idx] = lo as u16;
        idx += 1;
    }
    t
}

/// `EX2` table: entry `j` is `2^(j/256)` rounded to binary32 (a value in `[1, 2)`; the hardware
/// stores its 23 fraction bits, the exponent is implied).
pub const EX2_TABLE: [u32; 256] = build_ex2_table();

const fn build_ex2_table() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut j = 0;
    while j < 256 {
        let v = exp_f64(j as f64 / 256.0 * core::f64::consts::LN_2);
        let sig = round_u64(v * 8_388_608.0) as u32; // 24-bit significand, hidden bit set
        t[j] = if sig == 0x100_0000 {
            0x4000_0000
        } else {
            0x3F80_0000 | (sig & 0x7F_FFFF)
        };
        j += 1;
    }
    t
}

/// First `LG2` index whose interval is not near 1 (entries below use `INV = 1`, `A = 0`).
pub const LG2_NEAR_ONE_LOW: usize = 8;
/// First `LG2` index of the top intervals, which the reduction moves to `[1 - 2^-5, 1)` (entries
/// from here on use `INV = 1`, `A = 0`).
pub const LG2_NEAR_ONE_HIGH: usize = 240;

/// `LG2` reciprocal: entry `j` covers significands `m` in `[1 + j/256, 1 + (j+1)/256)`; it holds
/// `k = round(256 / (1 + (j + 1/2)/256))` (128..=256) so that `INV = k/256` has at most 8
/// significant bits and `r = m * INV - 1` is exact in binary32. Near 1 (see
/// [`LG2_NEAR_ONE_LOW`], [`LG2_NEAR_ONE_HIGH`]) `k = 256`.
pub const LG2_INV: [u16; 256] = build_lg2_inv();

const fn build_lg2_inv() -> [u16; 256] {
    let mut t = [256u16; 256];
    let mut j = LG2_NEAR_ONE_LOW;
    while j < LG2_NEAR_ONE_HIGH {
        let den = 513 + 2 * j as u64; // 512 * (1 + (j + 1/2)/256)
        t[j] = ((2 * 131_072 + den) / (2 * den)) as u16;
        j += 1;
    }
    t
}

/// `LG2` logarithm: entry `j` is `A = log2(256 / k_j)` (in `[0, 1)`) as a 32-bit fixed-point
/// fraction, `round(A * 2^32)`. The sequence uses its high half (`A_hi`, 16 bits, exact when added
/// to the exponent) and its low half (`A_lo`) separately.
pub const LG2_LOG: [u32; 256] = build_lg2_log();

const fn build_lg2_log() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut j = 0;
    while j < 256 {
        let k = LG2_INV[j] as f64;
        let a = ln_f64(256.0 / k) / core::f64::consts::LN_2;
        t[j] = round_u64(a * 4_294_967_296.0) as u32;
        j += 1;
    }
    t
}

/// A binary64 constant rounded to binary32 bits.
const fn f32_bits(v: f64) -> u32 {
    (v as f32).to_bits()
}

/// `EX2` polynomial `2^r - 1 ~ r (C1 + r C2)`: `C1 = ln 2`.
pub const EX2_C1: u32 = f32_bits(core::f64::consts::LN_2);
/// `EX2` polynomial: `C2 = (ln 2)^2 / 2`.
pub const EX2_C2: u32 = f32_bits(core::f64::consts::LN_2 * core::f64::consts::LN_2 / 2.0);

/// `LG2` polynomial `log2(1 + r) = r + r Q(r)`, `Q(r) = sum q_i r^i`: `q_0 = 1/ln 2 - 1`,
/// `q_i = (-1)^i / ((i + 1) ln 2)` for `i = 1..5`.
pub const LG2_Q: [u32; 6] = build_lg2_q();

const fn build_lg2_q() -> [u32; 6] {
    let inv_ln2 = 1.0 / core::f64::consts::LN_2;
    let mut q = [0u32; 6];
    q[0] = f32_bits(inv_ln2 - 1.0);
    let mut i = 1;
    while i < 6 {
        let c = inv_ln2 / (i + 1) as f64;
        q[i] = f32_bits(if i % 2 == 1 { -c } else { c });
        i += 1;
    }
    q
}

/// `RSQ` correction polynomial `(1 - e)^(-1/2) - 1 = e (1/2 + e (3/8 + e (5/16 + e 35/128)))`
/// (exact binary32 values, highest degree first).
pub const RSQ_P: [u32; 4] = [
    f32_bits(35.0 / 128.0),
    f32_bits(5.0 / 16.0),
    f32_bits(3.0 / 8.0),
    f32_bits(0.5),
];

/// `SIN` Taylor coefficients `(-1)^i / (2i+1)!` for `i = 1..=4` (degree 9), highest first.
pub const SIN_P: [u32; 4] = [
    f32_bits(1.0 / 362_880.0),
    f32_bits(-1.0 / 5_040.0),
    f32_bits(1.0 / 120.0),
    f32_bits(-1.0 / 6.0),
];

/// `COS` Taylor coefficients `(-1)^i / (2i)!` for `i = 1..=4` (degree 8), highest first.
pub const COS_P: [u32; 4] = [
    f32_bits(1.0 / 40_320.0),
    f32_bits(-1.0 / 720.0),
    f32_bits(1.0 / 24.0),
    f32_bits(-0.5),
];

/// `2/pi` rounded to binary32 (quadrant estimate).
pub const TWO_OVER_PI: u32 = f32_bits(core::f64::consts::FRAC_2_PI);

/// `pi/2` split in three (Cody-Waite): `PIO2_1` and `PIO2_2` have 16 significant bits, so `k *
/// PIO2_1` and `k * PIO2_2` are exact for `|k| < 256` (`|x| <= 100 pi` gives `|k| <= 200`).
pub const PIO2_1: u32 = f32_bits(core::f64::consts::FRAC_PI_2) & 0xFFFF_FF00;
/// Second part of `pi/2` (16 significant bits).
pub const PIO2_2: u32 =
    f32_bits(core::f64::consts::FRAC_PI_2 - f32::from_bits(PIO2_1) as f64) & 0xFFFF_FF00;
/// Third part of `pi/2` (24 significant bits).
pub const PIO2_3: u32 = f32_bits(
    core::f64::consts::FRAC_PI_2 - f32::from_bits(PIO2_1) as f64 - f32::from_bits(PIO2_2) as f64,
);

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance of `v` from the nearest rounding tie `n + 1/2`.
    fn tie_margin(v: f64) -> f64 {
        ((v - v.floor()) - 0.5).abs()
    }

    #[test]
    fn rsq_seed_matches_host_sqrt() {
        for (idx, &y) in RSQ_SEED.iter().enumerate() {
            let (lo, w) = if idx < 128 {
                (1.0, 1.0 / 128.0)
            } else {
                (2.0, 1.0 / 64.0)
            };
            let mid = lo + w * ((idx & 127) as f64 + 0.5);
            let v = 4096.0 / mid.sqrt();
            assert!(tie_margin(v) > 1e-6, "entry {idx} is near a tie");
            assert_eq!(y as f64, v.round(), "entry {idx}");
            assert!((2048..4096).contains(&y));
        }
    }

    #[test]
    fn ex2_table_matches_host_exp2() {
        for (j, &bits) in EX2_TABLE.iter().enumerate() {
            let v = (j as f64 / 256.0).exp2();
            assert!(
                tie_margin(v * 8_388_608.0) > 1e-6,
                "entry {j} is near a tie"
            );
            assert_eq!(bits, (v as f32).to_bits(), "entry {j}");
        }
    }

    #[test]
    fn lg2_tables_match_host_log2() {
        for j in 0..256 {
            let k = LG2_INV[j];
            if !(LG2_NEAR_ONE_LOW..LG2_NEAR_ONE_HIGH).contains(&j) {
                assert_eq!((k, LG2_LOG[j]), (256, 0), "entry {j}");
                continue;
            }
            let mid = 1.0 + (j as f64 + 0.5) / 256.0;
            assert_eq!(k as f64, (256.0 / mid).round(), "entry {j}");
            let a = (256.0 / k as f64).log2() * 4_294_967_296.0;
            assert!(tie_margin(a) > 1e-4, "entry {j} is near a tie");
            assert_eq!(LG2_LOG[j] as f64, a.round(), "entry {j}");
        }
    }

    #[test]
    fn seed_and_reduction_bounds() {
        // RSQ: |1 - x' y0^2| <= 2^-7.5 at both ends of every interval.
        for (idx, &y) in RSQ_SEED.iter().enumerate() {
            let (lo, w) = if idx < 128 {
                (1.0, 1.0 / 128.0)
            } else {
                (2.0, 1.0 / 64.0)
            };
            let a = lo + w * (idx & 127) as f64;
            let y0 = y as f64 / 4096.0;
            for x in [a, a + w] {
                assert!((1.0 - x * y0 * y0).abs() <= 2f64.powf(-7.5), "entry {idx}");
            }
        }
        // LG2: |r| < 2^-7 in the table intervals (r exact), A >= 2^-4.5 where A != 0.
        for j in LG2_NEAR_ONE_LOW..LG2_NEAR_ONE_HIGH {
            let inv = LG2_INV[j] as f64 / 256.0;
            for m in [1.0 + j as f64 / 256.0, 1.0 + (j + 1) as f64 / 256.0] {
                assert!((m * inv - 1.0).abs() < 2f64.powi(-7), "entry {j}");
            }
            assert!(LG2_LOG[j] as f64 >= 2f64.powf(32.0 - 4.5), "entry {j}");
        }
    }

    #[test]
    fn constants() {
        let f = f32::from_bits;
        assert_eq!(f(EX2_C1), std::f32::consts::LN_2);
        assert_eq!(f(TWO_OVER_PI), std::f32::consts::FRAC_2_PI);
        let sum = f(PIO2_1) as f64 + f(PIO2_2) as f64 + f(PIO2_3) as f64;
        assert!((sum - std::f64::consts::FRAC_PI_2).abs() < 1e-15);
        assert_eq!(PIO2_1 & 0xFF, 0);
        assert_eq!(PIO2_2 & 0xFF, 0);
        assert_eq!(f(LG2_Q[1]), (-0.5 / std::f64::consts::LN_2) as f32);
    }
}
