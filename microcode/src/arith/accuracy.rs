//! Measured accuracy of the approximated operations against host binary64 references.
//!
//! [`accuracy_report`] samples each operation on a fixed-seed set of inputs (uniform over the
//! bit patterns of its domain plus dense sets in the hard regions) and returns the worst error,
//! where it happened and the bound of decisions.md section 2. The `tgsi-core accuracy` command
//! prints it and fails when a bound is exceeded.
//!
//! Metrics:
//! - ULP: the distance in steps between the result and the exact value rounded to binary32 and
//!   flushed, counted on the flushed grid (no subnormals: +-0 and +-2^-126 are neighbours), so a
//!   result that flushes where the reference rounds up to 2^-126 counts as 1 ULP.
//! - absolute: `|result - exact|` (SIN, COS).
//! - relative: `|result - exact| / |exact|` (POW).

use super::bits::{is_nan, SIGN_BIT};
use super::transcendental::{fcos, fex2, flg2, fnrm3, fpow, frsq, fsin};

/// How an error is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorUnit {
    /// Steps of the flushed binary32 grid between the result and the correctly rounded value.
    Ulp,
    /// Absolute difference from the exact value.
    Absolute,
    /// Absolute difference divided by the magnitude of the exact value.
    Relative,
}

/// One line of the accuracy report.
#[derive(Clone, Debug, PartialEq)]
pub struct AccuracyRow {
    /// Operation name (`RSQ`, `EX2`, `LG2`, `SIN`, `COS`, `POW`, `NRM`).
    pub op: &'static str,
    /// How `worst` and `bound` are measured.
    pub unit: ErrorUnit,
    /// The largest error found.
    pub worst: f64,
    /// The input bits (one per operand) of the worst case.
    pub at: Vec<u32>,
    /// The required bound (inclusive).
    pub bound: f64,
    /// Number of inputs evaluated.
    pub samples: usize,
}

impl AccuracyRow {
    /// True when the worst error found is within the bound.
    pub fn passes(&self) -> bool {
        self.worst <= self.bound
    }
}

/// The report's generator: the workspace's one ([`crate::rng`]), re-exported here where the
/// tests found it first.
pub use crate::rng::XorShift;

/// The exact value rounded to binary32 (nearest even, subnormal grid) and then flushed.
pub fn reference_bits(exact: f64) -> u32 {
    if exact.is_nan() {
        return super::bits::CANONICAL_NAN;
    }
    super::bits::flush((exact as f32).to_bits())
}

/// Position on the flushed grid: 0 for zeros, 1 for 2^-126, counting up to infinity; negative
/// for negative values.
fn grid_key(bits: u32) -> i64 {
    let mag = bits & !SIGN_BIT;
    let k = if mag < 0x0080_0000 {
        0
    } else {
        (mag - 0x007F_FFFF) as i64
    };
    if bits & SIGN_BIT != 0 {
        -k
    } else {
        k
    }
}

/// ULP distance between two results on the flushed grid (NaN vs NaN is 0, NaN vs a number is
/// infinite).
pub fn ulp_distance(a: u32, b: u32) -> f64 {
    match (is_nan(a), is_nan(b)) {
        (true, true) => 0.0,
        (false, false) => (grid_key(a) - grid_key(b)).abs() as f64,
        _ => f64::INFINITY,
    }
}

/// Tracks the worst case of one operation.
struct Worst {
    row: AccuracyRow,
}

impl Worst {
    fn new(op: &'static str, unit: ErrorUnit, bound: f64) -> Self {
        Worst {
            row: AccuracyRow {
                op,
                unit,
                worst: 0.0,
                at: Vec::new(),
                bound,
                samples: 0,
            },
        }
    }

    fn record(&mut self, err: f64, at: &[u32]) {
        self.row.samples += 1;
        // NaN errors (a NaN result where a number was expected) must count as failures.
        let err = if err.is_nan() { f64::INFINITY } else { err };
        if err > self.row.worst || self.row.at.is_empty() {
            self.row.worst = err;
            self.row.at = at.to_vec();
        }
    }
}

fn f(bits: u32) -> f64 {
    f32::from_bits(bits) as f64
}

/// A random positive normal binary32 with a biased exponent in `[lo, hi]`.
fn positive_normal(rng: &mut XorShift, lo: u32, hi: u32) -> u32 {
    let e = lo + rng.next_u32() % (hi - lo + 1);
    (e << 23) | (rng.next_u32() & 0x7F_FFFF)
}

/// Worst ULP error of `RSQ` over `samples` inputs (uniform normal bit patterns and the reduced
/// range `[1, 4)`).
pub fn measure_rsq(samples: usize, seed: u64) -> AccuracyRow {
    let mut rng = XorShift::new(seed);
    let mut w = Worst::new("RSQ", ErrorUnit::Ulp, 1.0);
    for i in 0..samples {
        let x = if i % 2 == 0 {
            positive_normal(&mut rng, 1, 254)
        } else {
            positive_normal(&mut rng, 127, 128)
        };
        let exact = 1.0 / f(x).sqrt();
        w.record(ulp_distance(frsq(x), reference_bits(exact)), &[x]);
    }
    w.row
}

/// Worst ULP error of `EX2` (uniform on `[-127, 128)`, small arguments, near-integers).
pub fn measure_ex2(samples: usize, seed: u64) -> AccuracyRow {
    let mut rng = XorShift::new(seed);
    let mut w = Worst::new("EX2", ErrorUnit::Ulp, 2.0);
    for i in 0..samples {
        let x = match i % 3 {
            0 => (rng.uniform(-127.0, 128.0) as f32).to_bits(),
            1 => positive_normal(&mut rng, 90, 126) | (rng.next_u32() & SIGN_BIT),
            _ => {
                let n = rng.uniform(-126.0, 127.0).round();
                ((n + rng.uniform(-1e-3, 1e-3)) as f32).to_bits()
            }
        };
        let exact = f(x).exp2();
        w.record(ulp_distance(fex2(x), reference_bits(exact)), &[x]);
    }
    w.row
}

/// Worst relative ULP error of `LG2` (uniform normal bit patterns, `[0.5, 2)`, and within 2^-20
/// relative of 1).
pub fn measure_lg2(samples: usize, seed: u64) -> AccuracyRow {
    let mut rng = XorShift::new(seed);
    let mut w = Worst::new("LG2", ErrorUnit::Ulp, 2.0);
    for i in 0..samples {
        let x = match i % 3 {
            0 => positive_normal(&mut rng, 1, 254),
            1 => positive_normal(&mut rng, 126, 127),
            _ => {
                let k = rng.next_u32() % (1 << 20);
                if rng.next_u32() & 1 == 0 {
                    0x3F80_0000 + k
                } else {
                    0x3F80_0000 - 1 - k
                }
            }
        };
        let exact = f(x).log2();
        w.record(ulp_distance(flg2(x), reference_bits(exact)), &[x]);
    }
    w.row
}

/// Worst absolute error of `SIN` or `COS` on `[-100 pi, 100 pi]` (uniform, and small arguments).
pub fn measure_sincos(samples: usize, seed: u64, cosine: bool) -> AccuracyRow {
    let mut rng = XorShift::new(seed);
    let limit = 100.0 * std::f64::consts::PI;
    let (name, op): (&'static str, fn(u32) -> u32) =
        if cosine { ("COS", fcos) } else { ("SIN", fsin) };
    let mut w = Worst::new(name, ErrorUnit::Absolute, 2f64.powi(-20));
    for i in 0..samples {
        let x = if i % 4 == 3 {
            positive_normal(&mut rng, 100, 127) | (rng.next_u32() & SIGN_BIT)
        } else {
            let v = rng.uniform(-limit, limit) as f32;
            // Keep the sample inside the range after rounding to binary32.
            (if (v as f64).abs() > limit {
                v * 0.999_999
            } else {
                v
            })
            .to_bits()
        };
        let exact = if cosine { f(x).cos() } else { f(x).sin() };
        w.record((f(op(x)) - exact).abs(), &[x]);
    }
    w.row
}

/// Worst relative error of `POW` while `|y log2 x| <= 64`.
pub fn measure_pow(samples: usize, seed: u64) -> AccuracyRow {
    let mut rng = XorShift::new(seed);
    let mut w = Worst::new("POW", ErrorUnit::Relative, 2f64.powi(-16));
    let mut done = 0;
    while done < samples {
        let x = if done % 2 == 0 {
            positive_normal(&mut rng, 1, 254)
        } else {
            positive_normal(&mut rng, 120, 134)
        };
        let l = f(x).log2();
        if l == 0.0 {
            continue;
        }
        let y = ((rng.uniform(-64.0, 64.0) / l) as f32).to_bits();
        let t = f(y) * l;
        if t.abs() > 64.0 || f(y) == 0.0 {
            continue;
        }
        let exact = t.exp2();
        w.record((f(fpow(x, y)) - exact).abs() / exact, &[x, y]);
        done += 1;
    }
    w.row
}

/// Worst per-component ULP error of `NRM` against the exactly normalised vector (components of
/// random signs with magnitudes spread over 2^-40..2^40, so the dot product is a normal number).
pub fn measure_nrm(samples: usize, seed: u64) -> AccuracyRow {
    let mut rng = XorShift::new(seed);
    let mut w = Worst::new("NRM", ErrorUnit::Ulp, 4.0);
    for i in 0..samples {
        // Half the vectors have components of similar size, half spread widely.
        let (lo, hi) = if i % 2 == 0 { (120, 134) } else { (87, 167) };
        let v = [0; 3].map(|_| positive_normal(&mut rng, lo, hi) | (rng.next_u32() & SIGN_BIT));
        let norm = (f(v[0]).powi(2) + f(v[1]).powi(2) + f(v[2]).powi(2)).sqrt();
        let got = fnrm3(v);
        let err = (0..3)
            .map(|c| ulp_distance(got[c], reference_bits(f(v[c]) / norm)))
            .fold(0.0, f64::max);
        w.record(err, &v);
    }
    w.row
}

/// The accuracy report: RSQ, EX2, LG2, SIN, COS, POW and NRM, each measured on `samples` inputs
/// with a fixed seed (the same report on every run).
pub fn accuracy_report(samples: usize) -> Vec<AccuracyRow> {
    vec![
        measure_rsq(samples, 1),
        measure_ex2(samples, 2),
        measure_lg2(samples, 3),
        measure_sincos(samples, 4, false),
        measure_sincos(samples, 5, true),
        measure_pow(samples, 6),
        measure_nrm(samples, 7),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_distance() {
        assert_eq!(ulp_distance(0, 0x0080_0000), 1.0);
        assert_eq!(ulp_distance(0x8000_0000, 0x0080_0000), 1.0);
        assert_eq!(ulp_distance(0x8080_0000, 0x0080_0000), 2.0);
        assert_eq!(ulp_distance(0x7F7F_FFFF, 0x7F80_0000), 1.0);
        assert_eq!(ulp_distance(0x3F80_0000, 0x3F80_0002), 2.0);
        assert_eq!(ulp_distance(0x7FC0_0000, 0x3F80_0000), f64::INFINITY);
        assert_eq!(reference_bits(1e-39), 0);
        assert_eq!(reference_bits(-1e39), 0xFF80_0000);
    }
}
