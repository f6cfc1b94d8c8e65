//! Double opcode kernels: binary64 in component pairs (xy, zw; x and z hold the low words),
//! correctly rounded, subnormals kept, every NaN result 0x7FF8000000000000 (`decisions.md` 2).

use super::float::{ONE, ZERO};
use super::state::{Vec4, Written};
use microcode::tgsi::Opcode;

/// The only NaN a double operation produces.
pub const CANONICAL_NAN64: u64 = 0x7FF8_0000_0000_0000;

/// Pair `p` (0 = xy, 1 = zw) as binary64.
pub fn get_pair(v: &Vec4, p: usize) -> f64 {
    f64::from_bits(u64::from(v[2 * p]) | u64::from(v[2 * p + 1]) << 32)
}

/// Stores a computed binary64 into pair `p` (NaN canonical).
pub fn put_pair(v: &mut Vec4, p: usize, x: f64) {
    let bits = if x.is_nan() {
        CANONICAL_NAN64
    } else {
        x.to_bits()
    };
    put_bits(v, p, bits);
}

fn put_bits(v: &mut Vec4, p: usize, bits: u64) {
    v[2 * p] = bits as u32;
    v[2 * p + 1] = (bits >> 32) as u32;
}

/// `frexp`: (exponent, significand in [0.5, 1)) with x = significand * 2^exponent. Zero, infinity
/// and NaN give exponent 0 and themselves as significand.
pub fn frexp(x: f64) -> (f64, f64) {
    if x == 0.0 || !x.is_finite() {
        return (0.0, x);
    }
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7FF) as i64;
    if biased == 0 {
        // Subnormal: scale into the normal range first (exact).
        let (e, m) = frexp(x * f64::powi(2.0, 64));
        return (e - 64.0, m);
    }
    let e = biased - 1022;
    let m = f64::from_bits((bits & !(0x7FF << 52)) | (1022 << 52));
    (e as f64, m)
}

/// `x * 2^n` with one rounding.
pub fn ldexp(x: f64, n: f64) -> f64 {
    if x.is_nan() || n.is_nan() {
        return f64::NAN;
    }
    if n.is_infinite() {
        // x * 2^inf = x * inf; x * 2^-inf = x * 0 (IEEE products, NaN for 0*inf, inf*0).
        return if n > 0.0 { x * f64::INFINITY } else { x * 0.0 };
    }
    if x == 0.0 || x.is_infinite() {
        return x;
    }
    let n = n.trunc().clamp(-5000.0, 5000.0) as i64;
    let (e, m) = frexp(x);
    let t = e as i64 + n;
    if t > 1024 {
        return m.signum() * f64::INFINITY;
    }
    if t < -1074 {
        // |m * 2^t| < 2^-1075: below half the smallest subnormal.
        return m.signum() * 0.0;
    }
    // m * 2^t: 2^t is representable (normal or subnormal power of two); one rounding.
    if t > 1023 {
        return (m * 2.0) * f64::powi(2.0, (t - 1) as i32);
    }
    m * pow2(t)
}

/// 2^t for -1074 <= t <= 1023, exactly.
fn pow2(t: i64) -> f64 {
    if t >= -1022 {
        f64::from_bits(((t + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (t + 1074))
    }
}

/// Evaluates a double opcode (both destinations); `None` when the opcode is not one of these.
pub fn eval(op: Opcode, s: &[Vec4]) -> Option<[Written; 2]> {
    use Opcode as O;
    let a = s.first().copied().unwrap_or([0; 4]);
    let b = s.get(1).copied().unwrap_or([0; 4]);
    let c3 = s.get(2).copied().unwrap_or([0; 4]);
    let mut d0 = [0u32; 4];
    let mut d1 = [0u32; 4];
    for p in 0..2 {
        let (x, y, z) = (get_pair(&a, p), get_pair(&b, p), get_pair(&c3, p));
        match op {
            O::Dadd => put_pair(&mut d0, p, x + y),
            O::Ddiv => put_pair(&mut d0, p, x / y),
            O::Dmul => put_pair(&mut d0, p, x * y),
            O::Dmad => put_pair(&mut d0, p, (x * y) + z),
            O::Drcp => put_pair(&mut d0, p, 1.0 / x),
            O::Dsqrt => put_pair(&mut d0, p, x.sqrt()),
            O::Dfrac => put_pair(&mut d0, p, x - x.floor()),
            O::Dldexp => put_pair(&mut d0, p, ldexp(x, y)),
            // Selects keep the chosen operand's bits.
            O::Dmin => put_bits(&mut d0, p, if x < y { x } else { y }.to_bits()),
            O::Dmax => put_bits(&mut d0, p, if x > y { x } else { y }.to_bits()),
            O::Dseq | O::Dslt => {
                let t = if op == O::Dseq { x == y } else { x < y };
                let w = if t { ONE } else { ZERO };
                d0[2 * p] = w;
                d0[2 * p + 1] = w;
            }
            O::DfracExp => {
                let (e, m) = frexp(x);
                put_pair(&mut d0, p, e);
                put_pair(&mut d1, p, m);
            }
            _ => return None,
        }
    }
    let second = if op == O::DfracExp {
        d1.map(Some)
    } else {
        [None; 4]
    };
    Some([d0.map(Some), second])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frexp_and_ldexp() {
        assert_eq!(frexp(8.0), (4.0, 0.5));
        assert_eq!(frexp(-3.0), (2.0, -0.75));
        assert_eq!(frexp(f64::from_bits(1)), (-1073.0, 0.5));
        assert_eq!(ldexp(0.5, -1073.0).to_bits(), 1);
        assert_eq!(ldexp(0.75, -1075.0).to_bits(), 0); // 0.375 * 2^-1074 rounds to 0
        assert_eq!(ldexp(0.75, -1074.0).to_bits(), 1); // 0.75 * 2^-1074 rounds up
        assert_eq!(ldexp(1.5, -1074.0).to_bits(), 2); // 1.5 ulp ties to even
        assert_eq!(ldexp(1.0, 1024.0), f64::INFINITY);
        assert_eq!(ldexp(0.75, 1024.0), 0.75 * 2.0 * f64::powi(2.0, 1023));
        assert_eq!(ldexp(3.0, 2.9), 12.0);
    }
}
