//! `POW`, `DP3`/`DP4` and `NRM`/`NRM4`, composed from the other operations exactly as the spec's formulas read.
//!
//! - `POW(x, y) = EX2(y * LG2(x))`: with LG2 within 2 ULP relative and one rounding of the
//!   product, the exponent `t = y * log2 x` carries a relative error under 2^-22.6, so while
//!   `|t| <= 64` its absolute error is under 2^-16.6 and `2^t` is off by under 2^-17.1 relative,
//!   plus EX2's 2 ULP: within the 2^-16 bound. Special values follow the formula (`POW(0, 0)` is
//!   NaN: `0 * -inf`).
//! - `NRM`: `d = (x*x + y*y) + z*z` (one rounding per operation), `s = RSQ(d)`, components `x*s`,
//!   `y*s`, `z*s`; within 4 ULP of the exactly normalised vector while `d` is a finite normal
//!   number (the dot product's roundings give 1.5 ULP relative, halved by the square root).

use crate::arith::fadd::fadd;
use crate::arith::fmul::fmul;
use crate::arith::transcendental::{fex2, flg2, frsq};

/// `POW`: `EX2(y * LG2(x))`.
pub fn fpow(x: u32, y: u32) -> u32 {
    fex2(fmul(y, flg2(x)))
}

/// `DP3`: `(x0*x1 + y0*y1) + z0*z1`, one rounding per operation.
pub fn fdp3(a: [u32; 3], b: [u32; 3]) -> u32 {
    fadd(fadd(fmul(a[0], b[0]), fmul(a[1], b[1])), fmul(a[2], b[2]))
}

/// `NRM` (xyz part): `v * RSQ(DP3(v, v))` component-wise.
pub fn fnrm3(v: [u32; 3]) -> [u32; 3] {
    let s = frsq(fdp3(v, v));
    v.map(|c| fmul(c, s))
}

/// `DP4`: `((x0*x1 + y0*y1) + z0*z1) + w0*w1`, one rounding per operation.
pub fn fdp4(a: [u32; 4], b: [u32; 4]) -> u32 {
    fadd(
        fdp3([a[0], a[1], a[2]], [b[0], b[1], b[2]]),
        fmul(a[3], b[3]),
    )
}

/// `NRM4`: `v * RSQ(DP4(v, v))` component-wise.
pub fn fnrm4(v: [u32; 4]) -> [u32; 4] {
    let s = frsq(fdp4(v, v));
    v.map(|c| fmul(c, s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalise() {
        // (3, 4, 0) -> (0.6, 0.8, 0) and (0, 0, 3, 4) -> (0, 0, 0.6, 0.8), within 4 ULP.
        let close = |got: u32, want: f32| (got as i64 - want.to_bits() as i64).abs() <= 4;
        let n3 = fnrm3([0x4040_0000, 0x4080_0000, 0]);
        assert!(
            close(n3[0], 0.6) && close(n3[1], 0.8) && n3[2] == 0,
            "{n3:08x?}"
        );
        let n4 = fnrm4([0, 0x8000_0000, 0x4040_0000, 0x4080_0000]);
        assert_eq!(&n4[..2], &[0, 0x8000_0000]);
        assert!(close(n4[2], 0.6) && close(n4[3], 0.8), "{n4:08x?}");
        // A zero vector: RSQ(0) = inf, 0 * inf = NaN.
        assert_eq!(fnrm3([0, 0, 0]), [0x7FC0_0000; 3]);
    }
}
