//! Integer comparisons, `min` and `max`: through I2F with small constants, else the sign of
//! the overflow-corrected difference.

use super::{Less, EXACT};
use crate::code::Src;
use crate::lower::Lower;
use microcode::tgsi::Opcode;

impl Lower<'_> {
    /// The constants of an operand as exact floats, when all are below 2^24 in magnitude.
    pub(super) fn small_const(&self, s: &Src, n: usize, signed: bool) -> Option<Vec<f32>> {
        let v = self.iconst(s, n)?;
        v.iter()
            .map(|&k| {
                if signed && (k as i32).unsigned_abs() < EXACT {
                    Some(k as i32 as f32)
                } else if !signed && k < EXACT {
                    Some(k as f32)
                } else {
                    None
                }
            })
            .collect()
    }

    /// I2F of an operand for a comparison with a small constant: for `u32`, values from 2^31 up
    /// (negative to I2F) become 2^32 (above every such constant).
    pub(super) fn compare_float(&mut self, n: usize, x: Src, signed: bool) -> Src {
        let f = self.i2f(n, x);
        if signed {
            return f;
        }
        let big = self.imm_s(4_294_967_296.0);
        self.falu(Opcode::Cmp, n, vec![f, big, f])
    }

    /// `a == b` (or `!=`) as 1.0 / 0.0.
    pub(super) fn iequal(&mut self, n: usize, a: Src, b: Src, signed: bool, not: bool) -> Src {
        let op = if not { Opcode::Sne } else { Opcode::Seq };
        let (a, b) = if self.iconst(&a, n).is_some() {
            (b, a)
        } else {
            (a, b)
        };
        // I2F is exact below 2^24 and never maps a larger value onto such a constant.
        if let Some(k) = self.small_const(&b, n, signed) {
            let f = self.i2f(n, a);
            let bits: Vec<u32> = k.iter().map(|x| x.to_bits()).collect();
            let k = self.code.imm(&bits);
            return self.falu(op, n, vec![f, k]);
        }
        let t = self.ialu(Opcode::Xor, n, vec![a, b]);
        let f = self.i2f(n, t);
        let z = self.imm_s(0.0);
        self.falu(op, n, vec![f, z])
    }

    /// A word whose sign bit is set exactly where `x < y` (two's complement or unsigned), and
    /// `x ^ y`.
    pub(super) fn less_word(&mut self, n: usize, x: Src, y: Src, signed: bool) -> (Src, Src) {
        let d = self.isub(n, x, y);
        let g = self.ialu(Opcode::Xor, n, vec![x, y]);
        let e = self.ialu(Opcode::Xor, n, vec![d, x]);
        let e = if signed {
            e
        } else {
            self.ialu(Opcode::Not, n, vec![e])
        };
        let h = self.ialu(Opcode::And, n, vec![g, e]);
        (self.ialu(Opcode::Xor, n, vec![d, h]), g)
    }

    /// `x < y` (or its negation) as 1.0 / 0.0.
    pub(super) fn icompare(&mut self, n: usize, c: Less, signed: bool) -> Src {
        let (lt, ge) = (Opcode::Slt, Opcode::Sge);
        let op = if c.negate { ge } else { lt };
        if let Some(k) = self.small_const(&c.y, n, signed) {
            let f = self.compare_float(n, c.x, signed);
            let bits: Vec<u32> = k.iter().map(|x| x.to_bits()).collect();
            let k = self.code.imm(&bits);
            return self.falu(op, n, vec![f, k]);
        }
        if let Some(k) = self.small_const(&c.x, n, signed) {
            let f = self.compare_float(n, c.y, signed);
            let bits: Vec<u32> = k.iter().map(|x| x.to_bits()).collect();
            let k = self.code.imm(&bits);
            return self.falu(op, n, vec![k, f]);
        }
        let (s, _) = self.less_word(n, c.x, c.y, signed);
        // I2F keeps the sign of every int32.
        let f = self.i2f(n, s);
        let z = self.imm_s(0.0);
        self.falu(op, n, vec![f, z])
    }

    /// min (or max) of two integer operands.
    pub(super) fn iminmax(&mut self, n: usize, a: Src, b: Src, signed: bool, max: bool) -> Src {
        let (a, b) = if self.iconst(&a, n).is_some() {
            (b, a)
        } else {
            (a, b)
        };
        if let Some(k) = self.small_const(&b, n, signed) {
            // A float comparison with the constant, then UCMP on its 1.0 / 0.0.
            let f = self.compare_float(n, a, signed);
            let bits: Vec<u32> = k.iter().map(|x| x.to_bits()).collect();
            let k = self.code.imm(&bits);
            let keep_a = if max {
                self.falu(Opcode::Slt, n, vec![k, f])
            } else {
                self.falu(Opcode::Slt, n, vec![f, k])
            };
            return self.ialu(Opcode::Ucmp, n, vec![keep_a, a, b]);
        }
        let (s, g) = self.less_word(n, a, b, signed);
        let k31 = self.iimm(&[31]);
        let m = self.ialu(Opcode::Shr, n, vec![s, k31]);
        let t = self.ialu(Opcode::And, n, vec![g, m]);
        // a < b: m is all ones and `b ^ (a ^ b)` is a.
        let base = if max { a } else { b };
        self.ialu(Opcode::Xor, n, vec![base, t])
    }
}
