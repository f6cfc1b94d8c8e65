//! `frexp` and `ldexp` on the bits of binary32 values, exactly: the exponent field read and
//! written with integer opcodes.

use super::Value;
use crate::code::Src;
use crate::lower::Lower;
use microcode::tgsi::Opcode;

impl Lower<'_> {
    /// `frexp(x)`: `(fract, exp)` with `x = fract * 2^exp`, `|fract|` in [0.5, 1); zero (and a
    /// subnormal, zero to the models) gives `(x, 0)`.
    pub(in crate::lower) fn frexp(&mut self, x: Src, n: usize) -> Value {
        let k23 = self.iimm(&[23]);
        let field = self.ialu(Opcode::Shr, n, vec![x, k23]);
        let ff = self.iimm(&[0xFF]);
        let field = self.ialu(Opcode::And, n, vec![field, ff]);
        let bias = self.iimm(&[(-126i32) as u32]);
        let exp = self.ialu(Opcode::Uadd, n, vec![field, bias]);
        let keep = self.iimm(&[0x807F_FFFF]);
        let m = self.ialu(Opcode::And, n, vec![x, keep]);
        let half = self.iimm(&[0x3F00_0000]);
        let fract = self.ialu(Opcode::Or, n, vec![m, half]);
        // A zero exponent field: x itself and 0.
        let fract = self.ialu(Opcode::Ucmp, n, vec![field, fract, x]);
        let zero = self.iimm(&[0]);
        let exp = self.ialu(Opcode::Ucmp, n, vec![field, exp, zero]);
        Value::Agg(vec![
            Value::V {
                src: fract,
                size: n,
            },
            Value::V { src: exp, size: n },
        ])
    }

    /// `ldexp(x, e)`: x times 2^e as two exact multiplications by powers of two built from their
    /// bits (`(k + 127) << 23`), e clamped to [-254, 254] (beyond, the result has already over-
    /// or underflowed).
    pub(in crate::lower) fn ldexp(&mut self, x: Src, e: Src, n: usize) -> Value {
        let lo = self.iimm(&[(-254i32) as u32]);
        let hi = self.iimm(&[254]);
        let e = self.iminmax(n, e, lo, true, true);
        let e = self.iminmax(n, e, hi, true, false);
        let one = self.iimm(&[1]);
        let e1 = self.ialu(Opcode::Shr, n, vec![e, one]);
        let e2 = self.isub(n, e, e1);
        let bias = self.iimm(&[127]);
        let k23 = self.iimm(&[23]);
        let mut r = x;
        for k in [e1, e2] {
            let b = self.ialu(Opcode::Uadd, n, vec![k, bias]);
            let p = self.ialu(Opcode::Shl, n, vec![b, k23]);
            r = self.fop(Opcode::Mul, n, vec![r, p]);
        }
        Value::V { src: r, size: n }
    }
}
